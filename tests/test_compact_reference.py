"""Differential proof: the real 2026.7.1 Gateway and our offline compaction on identical copies."""

from __future__ import annotations

import json
import re
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import refbin
from helpers.clock import pin_session_reset, shift_store
from helpers.compact import grow
from test_compact_fakellm import FakeLLM

from openclaw_cli.compact.clock import now_ms
from openclaw_cli.compact.offline import run_offline_compact
from openclaw_cli.js import json as jsjson
from openclaw_cli.transcript import load_index
from openclaw_cli.transcript.messages import COMPACTION_SUMMARY_PREFIX

pytestmark = [pytest.mark.reference, pytest.mark.gateway]

FIXTURE = Path(__file__).parent / "data" / "real-2026.7.1" / "state"
MAIN_ID = "eb01388d-e079-474d-961b-1e1df466b667"
A_ID = "a436f897-7aca-4203-8405-66e524820219"
OFFLINE_ID = "5b0e4c1f-9a7d-4e2b-8c3a-0d1e2f3a4b5c"
OFFLINE_KEY = "agent:main:offline"
BAK = re.compile(r"\.bak\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$")


def _sessions(state: Path) -> Path:
    return state / "agents" / "main" / "sessions"


def prepare_state(state: Path, llm_port: int) -> None:
    """The fixture state rewound to before its compactions, pointed at the loopback model."""
    shutil.copytree(FIXTURE, state)
    sessions = _sessions(state)
    next(sessions.glob(f"{A_ID}.jsonl.bak.*")).replace(sessions / f"{A_ID}.jsonl")
    main = sessions / f"{MAIN_ID}.jsonl"
    main_lines = main.read_text().splitlines(keepends=True)[:20]
    main.write_text("".join(main_lines))
    # a third copy of the main conversation, grown so that a summary of its start frees tokens,
    # compacted offline before the Gateway starts
    offline_lines = [line.replace(MAIN_ID, OFFLINE_ID) for line in main_lines]
    (sessions / f"{OFFLINE_ID}.jsonl").write_text("".join(offline_lines))
    grow(sessions / f"{OFFLINE_ID}.jsonl", turns=8)
    config = json.loads(json.dumps(__import__("json5").loads((state / "openclaw.json").read_text())))
    config["models"]["providers"]["fake"]["baseUrl"] = f"http://127.0.0.1:{llm_port}/v1"
    pin_session_reset(config)  # no daily or idle reset may start a fresh session mid-run
    (state / "openclaw.json").write_text(json.dumps(config, indent=2))
    models = json.loads((state / "agents/main/agent/models.json").read_text())
    models["providers"]["fake"]["baseUrl"] = f"http://127.0.0.1:{llm_port}/v1"
    (state / "agents/main/agent/models.json").write_text(json.dumps(models, indent=2))
    store = json.loads((sessions / "sessions.json").read_text())
    now = now_ms()
    shift_store(store)  # recorded times (sessionStartedAt, lastInteractionAt, ...) moved to today
    store[OFFLINE_KEY] = json.loads(json.dumps(dict(store["agent:main:main"], sessionId=OFFLINE_ID)))
    store[OFFLINE_KEY].pop("compactionCheckpoints", None)
    for entry in store.values():  # fresh, or the Gateway's daily reset starts the sessions anew
        entry.update(updatedAt=now, sessionStartedAt=now, lastInteractionAt=now)
        entry["sessionFile"] = str(sessions / f"{entry['sessionId']}.jsonl")
    (sessions / "sessions.json").write_text(json.dumps(store, indent=2, ensure_ascii=False))


@dataclass
class Setup:
    gateway: Any
    llm: FakeLLM
    gw_state: Path
    our_state: Path

    def cli(self, *args: str) -> dict[str, Any]:
        result = refbin.run_reference(["sessions", "compact", *args, "--json"], home=self.gateway.home,
                                      env=self.gateway.client_env(), timeout=180)
        assert result.returncode == 0, result.stderr + result.stdout
        return json.loads(result.stdout)

    def sync_store(self) -> None:
        """Give our copy the store exactly as the Gateway holds it now (paths rewritten)."""
        text = (_sessions(self.gw_state) / "sessions.json").read_text()
        (_sessions(self.our_state) / "sessions.json").write_text(
            text.replace(str(_sessions(self.gw_state)), str(_sessions(self.our_state))))


def _start_gateway(base: Path):
    try:
        from helpers.gateway import start_gateway
    except ImportError:  # pragma: no cover - the shared fixture is optional
        start_gateway = None
    if start_gateway is not None:
        return start_gateway(base)
    return _LocalGateway.start(base)


class _LocalGateway:
    """A minimal stand-in for the shared Gateway fixture: run, wait for the port, stop."""

    def __init__(self, proc, home: Path, port: int, token: str):
        self.proc, self.home, self.port, self.token = proc, home, port, token

    @classmethod
    def start(cls, base: Path) -> _LocalGateway:
        import socket
        import subprocess

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        home = base / "home"
        token = uuid.uuid4().hex
        env = refbin.clean_env(home, {"OPENCLAW_DISABLE_BONJOUR": "1"})
        env["PATH"] = f"{refbin.reference_node_bin_dir()}:{env['PATH']}"
        with open(base / "gateway.log", "wb") as log:  # the Gateway keeps its own copy of the descriptor
            proc = subprocess.Popen([str(refbin.reference_bin()), "gateway", "run", "--allow-unconfigured",
                                     "--port", str(port), "--bind", "loopback", "--auth", "token", "--token", token],
                                    env=env, cwd=home, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        gateway = cls(proc, home, port, token)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError((base / "gateway.log").read_text())
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    time.sleep(2)
                    return gateway
            except OSError:
                time.sleep(0.3)
        gateway.stop()
        raise RuntimeError("the reference Gateway did not start")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def client_env(self) -> dict[str, str]:
        return {"OPENCLAW_GATEWAY_PORT": str(self.port), "OPENCLAW_GATEWAY_TOKEN": self.token}

    def stop(self) -> None:
        import os
        import signal

        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=15)
        except Exception:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory):
    if not refbin.reference_available():
        pytest.fail("reference OpenClaw 2026.7.1 missing: run scripts/install-reference.sh")
    base = tmp_path_factory.mktemp("compact-reference")
    llm = FakeLLM().__enter__()
    gw_state = base / "gw" / "home" / ".openclaw"
    our_state = base / "ours" / ".openclaw"
    prepare_state(gw_state, llm.port)
    prepare_state(our_state, llm.port)
    # our offline compaction of the extra session, in the Gateway's own state, before it starts
    offline = run_offline_compact(state_dir=gw_state, key=OFFLINE_KEY)
    assert offline["compacted"], offline
    try:
        gateway = _start_gateway(base / "gw")
    except RuntimeError as exc:
        llm.__exit__(None, None, None)
        pytest.fail(str(exc))
    try:
        yield Setup(gateway=gateway, llm=llm, gw_state=gw_state, our_state=our_state)
    finally:
        gateway.stop()
        llm.__exit__(None, None, None)


def _listing(folder: Path) -> dict[str, bytes]:
    return {BAK.sub(".bak.<time>", p.name): p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and ".jsonl" in p.name and ".trajectory" not in p.name
            and not p.name.startswith(OFFLINE_ID)}  # compacted offline in the Gateway copy only


def _masked_entry(state: Path, key: str) -> dict[str, Any]:
    entry = json.loads((_sessions(state) / "sessions.json").read_text())[key]
    text = json.dumps(entry).replace(str(_sessions(state)), "<sessions>")
    entry = json.loads(text)
    entry["updatedAt"] = "<now>"
    for checkpoint in entry.get("compactionCheckpoints", []):
        checkpoint.update(checkpointId="<uuid>", createdAt="<time>")
        checkpoint["postCompaction"].update(leafId="<new>", entryId="<new>")
    return entry


def test_max_lines_matches_the_gateway(setup: Setup) -> None:
    setup.sync_store()
    gw_dir, our_dir = _sessions(setup.gw_state), _sessions(setup.our_state)
    assert _listing(gw_dir)[f"{A_ID}.jsonl"] == _listing(our_dir)[f"{A_ID}.jsonl"]
    theirs = setup.cli("agent:main:fixture-a", "--max-lines", "6")
    ours = run_offline_compact(state_dir=setup.our_state, key="agent:main:fixture-a", max_lines=6)
    assert theirs["compacted"] is True and theirs["kept"] == 6
    assert {k: v for k, v in ours.items() if k != "offline"} == dict(
        theirs, archived=theirs["archived"].replace(str(gw_dir), str(our_dir))[:-24] + ours["archived"][-24:])
    assert BAK.search(theirs["archived"]) and BAK.search(ours["archived"])
    assert _listing(gw_dir) == _listing(our_dir)
    assert _masked_entry(setup.gw_state, "agent:main:fixture-a") == _masked_entry(setup.our_state, "agent:main:fixture-a")


def test_max_lines_noop_matches_the_gateway(setup: Setup) -> None:
    theirs = setup.cli("agent:main:fixture-b", "--max-lines", "500")
    ours = run_offline_compact(state_dir=setup.our_state, key="agent:main:fixture-b", max_lines=500)
    assert {k: v for k, v in ours.items() if k != "offline"} == theirs


def test_llm_compaction_matches_the_gateway(setup: Setup) -> None:
    setup.sync_store()
    setup.llm.requests.clear()
    theirs = setup.cli("agent:main:main")
    gateway_requests = setup.llm.summarization_requests()
    setup.llm.requests.clear()
    ours = run_offline_compact(state_dir=setup.our_state, key="agent:main:main", summarizer="openai",
                               base_url=setup.llm.base_url, model="fake/fake-model")
    assert theirs["ok"] and theirs["compacted"], theirs
    assert [r["body"] for r in setup.llm.requests] == [r["body"] for r in gateway_requests]
    assert len(gateway_requests) == 2  # history + split-turn prefix
    for field in ("firstKeptEntryId", "tokensBefore", "tokensAfter", "summary", "details"):
        assert ours["result"].get(field) == theirs["result"].get(field), field
    gw_entry = jsjson.parse((_sessions(setup.gw_state) / f"{MAIN_ID}.jsonl").read_text().splitlines()[-1])
    our_entry = jsjson.parse((_sessions(setup.our_state) / f"{MAIN_ID}.jsonl").read_text().splitlines()[-1])
    assert gw_entry["type"] == "compaction"
    assert list(gw_entry) == list(our_entry)
    for masked in (gw_entry, our_entry):
        masked.update(id="<id>", timestamp="<time>")
    assert gw_entry == our_entry
    assert _masked_entry(setup.gw_state, "agent:main:main") == _masked_entry(setup.our_state, "agent:main:main")


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [] if isinstance(part, dict))


def test_gateway_keeps_working_after_offline_compaction(setup: Setup) -> None:
    from openclaw_cli.gateway import rpc

    connection = rpc.connection_for("chat.history", {}, url=setup.gateway.url, token=setup.gateway.token)
    transcript = _sessions(setup.gw_state) / f"{OFFLINE_ID}.jsonl"
    compaction = load_index(transcript)
    ours_id = compaction.leaf_id
    history = rpc.chat_history({"sessionKey": OFFLINE_KEY}, connection=connection)
    text = json.dumps(history)
    assert "ompaction" in text, text[:2000]
    setup.llm.requests.clear()
    sent = rpc.chat_send({"sessionKey": OFFLINE_KEY, "message": "Are you still there?"},
                         connection=rpc.connection_for("chat.send", {}, url=setup.gateway.url,
                                                       token=setup.gateway.token))
    assert sent.final and sent.final.get("state") == "final", sent.final
    chat_requests = [r for r in setup.llm.requests if r not in setup.llm.summarization_requests()]
    assert chat_requests, "the Gateway did not call the model"
    sent_text = json.dumps(chat_requests[-1]["body"]["messages"], ensure_ascii=False)
    assert COMPACTION_SUMMARY_PREFIX.split("\n")[0] in sent_text
    users = [_text(m.get("content")) for m in chat_requests[-1]["body"]["messages"] if m.get("role") == "user"]

    def sent_as_message(text: str) -> bool:  # the Gateway prefixes a "[Day date time UTC] " stamp
        return any(u == text or u.endswith("] " + text) for u in users)

    assert users[0].startswith(COMPACTION_SUMMARY_PREFIX)
    assert not sent_as_message("Hello! Who are you?")  # summarised: only inside the summary now
    assert not sent_as_message("Please read notes.txt and tell me the color.")
    assert not sent_as_message("Run `echo hi` in the shell please.")
    assert "Hello! Who are you?" in users[0]  # the extractive summary names the first request
    replies = [_text(m.get("content")) for m in chat_requests[-1]["body"]["messages"] if m.get("role") == "assistant"]
    assert any(r.startswith("Answer 7: ") for r in replies)  # the recent tail is kept
    assert sent_as_message("Are you still there?")
    after = load_index(transcript)
    path_ids = [e.id for e in after.branch()]
    assert ours_id in path_ids and path_ids.index(ours_id) < len(path_ids) - 1


BIG_ID = "7c6b5a49-3827-4161-9504-a3b2c1d0e9f8"
BIG_KEY = "agent:main:big"


def prepare_default_state(state: Path, llm_port: int) -> None:
    """Like prepare_state, without compaction settings, plus a session far above 20 000 tokens."""
    from test_transcript_builder import TranscriptBuilder, conversation

    prepare_state(state, llm_port)
    config = json.loads((state / "openclaw.json").read_text())
    config["agents"]["defaults"].pop("compaction", None)
    (state / "openclaw.json").write_text(json.dumps(config, indent=2))
    sessions = _sessions(state)
    big = TranscriptBuilder(session_id=BIG_ID)
    # the bookkeeping a Gateway run writes first; without it the Gateway appends it before compacting
    big.add("model_change", provider="fake", modelId="fake-model")
    big.add("thinking_level_change", thinkingLevel="off")
    big.add("custom", customType="model-snapshot", data={"timestamp": 1796000000000, "provider": "fake",
                                                         "modelApi": "openai-completions", "modelId": "fake-model"})
    conversation(big, 40, chars=3000).write(sessions / f"{BIG_ID}.jsonl")
    store = json.loads((sessions / "sessions.json").read_text())
    store[BIG_KEY] = dict(store["agent:main:fixture-b"], sessionId=BIG_ID,
                          sessionFile=str(sessions / f"{BIG_ID}.jsonl"), compactionCount=0)
    store[BIG_KEY].pop("compactionCheckpoints", None)
    (sessions / "sessions.json").write_text(json.dumps(store, indent=2, ensure_ascii=False))


@pytest.fixture(scope="module")
def default_setup(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("compact-reference-default")
    llm = FakeLLM().__enter__()
    gw_state = base / "gw" / "home" / ".openclaw"
    our_state = base / "ours" / ".openclaw"
    prepare_default_state(gw_state, llm.port)
    prepare_default_state(our_state, llm.port)
    try:
        gateway = _start_gateway(base / "gw")
    except RuntimeError as exc:
        llm.__exit__(None, None, None)
        pytest.fail(str(exc))
    try:
        yield Setup(gateway=gateway, llm=llm, gw_state=gw_state, our_state=our_state)
    finally:
        gateway.stop()
        llm.__exit__(None, None, None)


def test_default_llm_compaction_hardens_like_the_gateway(default_setup: Setup) -> None:
    setup = default_setup
    setup.sync_store()
    setup.llm.requests.clear()
    theirs = setup.cli(BIG_KEY)
    gateway_requests = setup.llm.summarization_requests()
    setup.llm.requests.clear()
    ours = run_offline_compact(state_dir=setup.our_state, key=BIG_KEY, summarizer="openai",
                               base_url=setup.llm.base_url, model="fake-model")
    assert theirs["ok"] and theirs["compacted"], theirs
    assert gateway_requests
    assert [r["body"] for r in setup.llm.requests] == [r["body"] for r in gateway_requests]
    gw_entry = jsjson.parse((_sessions(setup.gw_state) / f"{BIG_ID}.jsonl").read_text().splitlines()[-1])
    our_entry = jsjson.parse((_sessions(setup.our_state) / f"{BIG_ID}.jsonl").read_text().splitlines()[-1])
    # hardened: the compaction keeps no recent tail, firstKeptEntryId is its own id
    assert gw_entry["firstKeptEntryId"] == gw_entry["id"] == theirs["result"]["firstKeptEntryId"]
    assert our_entry["firstKeptEntryId"] == our_entry["id"] == ours["result"]["firstKeptEntryId"]
    assert ours["result"]["tokensBefore"] == theirs["result"]["tokensBefore"]
    assert ours["result"].get("tokensAfter") == theirs["result"].get("tokensAfter")
    for masked in (gw_entry, our_entry):
        masked.update(id="<id>", timestamp="<time>", firstKeptEntryId="<own id>")
    assert gw_entry == our_entry
    assert (_sessions(setup.gw_state) / f"{BIG_ID}.jsonl").read_text().splitlines()[:-1] == \
        (_sessions(setup.our_state) / f"{BIG_ID}.jsonl").read_text().splitlines()[:-1]
    gw_store = _masked_entry(setup.gw_state, BIG_KEY)
    our_store = _masked_entry(setup.our_state, BIG_KEY)
    for entry in (gw_store, our_store):
        for checkpoint in entry.get("compactionCheckpoints", []):
            checkpoint["firstKeptEntryId"] = "<own id>"
    assert gw_store == our_store

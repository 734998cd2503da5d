"""Transcript health against the real 2026.7.1 Gateway: a repaired copy gets the same model request and chat
history as the original; recovered sessions are listed and their history returned."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import refbin
from helpers.cli import run
from helpers.clock import pin_session_reset, shift_store, shift_to_run_start
from helpers.health import DATA, write_lines, write_trajectory
from test_compact_fakellm import FakeLLM

from openclaw_cli.compact.clock import iso_timestamp, now_ms
from openclaw_cli.js.dates import parse_iso_ms

B_ID = "23c43962-55e8-4eb3-a2f8-b79cf1f70924"  # fixture-b: one read toolCall and its toolResult
PAIRING = ("dangling-call", "orphan-result")  # repaired by the Gateway in memory, for each model request
FILE_REPAIR = ("malformed-line", "errored-turn", "blank-user", "roleless-message")  # the Gateway rewrites these
KINDS = PAIRING + FILE_REPAIR
ORPHANS = {"agent:main:main": "eb01388d-e079-474d-961b-1e1df466b667",  # key from a sessions.json backup
           "agent:main:fixture-a": "a436f897-7aca-4203-8405-66e524820219",  # from its trajectory sidecar
           f"agent:main:recovered:{B_ID}": B_ID}  # no evidence: the fallback key
_ISO = re.compile(r'"(20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"')


def _sessions(state: Path) -> Path:
    return state / "agents" / "main" / "sessions"


def _lines(kind: str) -> list[Any]:
    """fixture-b's transcript broken in one way."""
    records = [json.loads(x) for x in (_sessions(DATA) / f"{B_ID}.jsonl").read_text().splitlines()]
    by_role = [(i, r) for i, r in enumerate(records) if r.get("type") == "message"]
    result_at = next(i for i, r in by_role if r["message"]["role"] == "toolResult")
    out: list[Any] = list(records)
    if kind == "dangling-call":
        gone = out.pop(result_at)
        for r in out:
            if r.get("parentId") == gone["id"]:
                r["parentId"] = gone["parentId"]
    elif kind == "orphan-result":
        stray = json.loads(json.dumps(out[result_at]))
        stray["id"], stray["message"]["toolCallId"] = "0rphan01", "call_not_made"
        child = next(r for r in out[result_at + 1:] if r.get("parentId") == out[result_at + 1]["parentId"])
        stray["parentId"], child["parentId"] = child["parentId"], "0rphan01"
        out.insert(out.index(child), stray)
    elif kind == "malformed-line":
        out.insert(result_at + 1, '{"type":"message","id":"torn","parentId":"x","message":{"role":"ass')
    elif kind == "errored-turn":
        last = max(i for i, r in by_role if r["message"]["role"] == "assistant")
        out[last]["message"].update(content=[], stopReason="error", errorMessage="upstream exploded")
    elif kind == "blank-user":
        first = next(i for i, r in by_role if r["message"]["role"] == "user")
        out[first]["message"]["content"] = [{"type": "text", "text": "  "}]
    elif kind == "roleless-message":
        del out[result_at]["message"]["role"]
    return out


def _prepare(state: Path, llm_port: int) -> dict[str, str]:
    """The corpus config pointed at the loopback model; per kind an original and a copy (own key and
    session id), the copy repaired by us; plus three orphans to recover. Returns key -> session id."""
    shutil.copytree(DATA, state)
    config = json.loads(json.dumps(__import__("json5").loads((state / "openclaw.json").read_text())))
    config["models"]["providers"]["fake"]["baseUrl"] = f"http://127.0.0.1:{llm_port}/v1"
    pin_session_reset(config)
    (state / "openclaw.json").write_text(json.dumps(config, indent=2))
    models = json.loads((state / "agents/main/agent/models.json").read_text())
    models["providers"]["fake"]["baseUrl"] = f"http://127.0.0.1:{llm_port}/v1"
    (state / "agents/main/agent/models.json").write_text(json.dumps(models, indent=2))
    folder = _sessions(state)
    recorded = json.loads((folder / "sessions.json").read_text())
    shift_store(recorded)
    template = recorded["agent:main:fixture-b"]
    template.pop("compactionCheckpoints", None)
    store: dict[str, Any] = {}
    ids: dict[str, str] = {}
    now = now_ms()
    for n, kind in enumerate(KINDS):
        for side in ("orig", "fixed"):
            sid = f"{n}{'a' if side == 'orig' else 'b'}c43962-55e8-4eb3-a2f8-b79cf1f70924"
            key = f"agent:main:{side}-{kind}"
            lines = [re.sub(B_ID, sid, x) if isinstance(x, str) else json.loads(json.dumps(x).replace(B_ID, sid))
                     for x in _lines(kind)]
            path = write_lines(folder / f"{sid}.jsonl", lines)
            store[key] = {**json.loads(json.dumps(template).replace(B_ID, sid)), "sessionFile": str(path),
                          "updatedAt": now, "sessionStartedAt": now, "lastInteractionAt": now}
            ids[key] = sid
    delta = shift_to_run_start(json.loads((_sessions(DATA) / "sessions.json").read_text()))
    for sid in ORPHANS.values():  # the corpus transcripts stay beside the store, unreferenced
        path = folder / f"{sid}.jsonl"
        path.write_text(_ISO.sub(lambda m: f'"{iso_timestamp(parse_iso_ms(m.group(1)) + delta)}"', path.read_text()))
    (folder / "sessions.json.bak.1796032800000").write_text(json.dumps({"agent:main:main": recorded["agent:main:main"]}))
    write_trajectory(folder, ORPHANS["agent:main:fixture-a"], "agent:main:fixture-a")
    (folder / "sessions.json").write_text(json.dumps(store, indent=2))
    return ids


@dataclass
class Setup:
    gateway: Any
    llm: FakeLLM
    state: Path
    ids: dict[str, str]
    repairs: dict[str, dict]
    recovered: list[dict]
    histories: dict[str, list[dict]]
    repaired: dict[str, bytes]
    bodies: dict[str, dict]

    def connection(self, method: str):
        from openclaw_cli.gateway import rpc

        return rpc.connection_for(method, {}, url=self.gateway.url, token=self.gateway.token)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory):
    if not refbin.reference_available():
        pytest.fail("reference OpenClaw 2026.7.1 missing: run scripts/install-reference.sh")
    from helpers.gateway import start_gateway

    base = tmp_path_factory.mktemp("health-gateway")
    llm = FakeLLM().__enter__()
    home = base / "home"
    state = home / ".openclaw"
    ids = _prepare(state, llm.port)
    recovered = run(["sessions", "recover", "--json"], home, {"OPENCLAW_GATEWAY_PORT": "1"})
    assert recovered.returncode == 0, recovered.stderr
    repairs = {}
    for kind in KINDS:
        res = run(["sessions", "repair", f"agent:main:fixed-{kind}", "--json"], home, {"OPENCLAW_GATEWAY_PORT": "1"})
        assert res.returncode == 0, res.stderr
        repairs[kind] = json.loads(res.stdout)
        assert repairs[kind]["repaired"], (kind, repairs[kind])
    repaired = {kind: (_sessions(state) / f"{ids[f'agent:main:fixed-{kind}']}.jsonl").read_bytes() for kind in KINDS}
    try:
        gateway = start_gateway(base)
    except RuntimeError as exc:
        llm.__exit__(None, None, None)
        pytest.fail(str(exc))
    try:
        ready = Setup(gateway=gateway, llm=llm, state=state, ids=ids, repairs=repairs,
                      recovered=json.loads(recovered.stdout)["stores"][0]["recovered"], histories={},
                      repaired=repaired, bodies={})
        ready.histories = {key: _history(ready, key) for key in ids}  # before any turn
        yield ready
    finally:
        gateway.stop()
        llm.__exit__(None, None, None)


_STAMP = re.compile(r"^\[[^\]]*\] ")


def _normalized(body: dict, sid: str) -> Any:
    """The request with what differs between two sessions by construction masked: the session id,
    the minute stamps on user text."""
    text = json.dumps(body, ensure_ascii=False, sort_keys=True).replace(sid, "<sid>")
    value = json.loads(text)
    for message in value.get("messages", []):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, str):
            message["content"] = _STAMP.sub("", content)
        elif message.get("role") == "user" and isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    part["text"] = _STAMP.sub("", part["text"])
        if message.get("role") == "system":
            message["content"] = "<system>"
    return value


def _turn(setup: Setup, key: str) -> dict:
    """The model request of one chat turn in the session (sent once per session)."""
    from openclaw_cli.gateway import rpc

    if key in setup.bodies:
        return setup.bodies[key]
    setup.llm.requests.clear()
    sent = rpc.chat_send({"sessionKey": key, "message": "What did the file say?"},
                         connection=setup.connection("chat.send"))
    assert sent.final and sent.final.get("state") == "final", sent.final
    chats = [r for r in setup.llm.requests if r not in setup.llm.summarization_requests()]
    assert chats, "the Gateway did not call the model"
    setup.bodies[key] = chats[-1]["body"]
    return setup.bodies[key]


def _history(setup: Setup, key: str) -> list[dict]:
    """chat.history's messages without the per-record bookkeeping (`__openclaw`: id, seq, record time)."""
    from openclaw_cli.gateway import rpc

    history = rpc.chat_history({"sessionKey": key}, connection=setup.connection("chat.history"))
    return [{k: v for k, v in m.items() if k != "__openclaw"} for m in history["messages"]]


def _masked(messages: list[dict], sid: str) -> list[dict]:
    return json.loads(json.dumps(messages).replace(sid, "<sid>"))


@pytest.mark.parametrize("kind", KINDS)
def test_the_repaired_copy_gets_the_same_model_request_as_the_original(setup, kind):
    orig, fixed = f"agent:main:orig-{kind}", f"agent:main:fixed-{kind}"
    body_orig = _turn(setup, orig)
    body_fixed = _turn(setup, fixed)
    assert _normalized(body_orig, setup.ids[orig]) == _normalized(body_fixed, setup.ids[fixed])
    from openclaw_cli.health.repair import MISSING_TOOL_RESULT_TEXT

    sent = json.dumps(body_orig)
    if kind == "dangling-call":  # the Gateway synthesised in memory what the repair wrote
        assert MISSING_TOOL_RESULT_TEXT in sent
    if kind == "orphan-result":  # and dropped what the repair dropped
        assert "call_not_made" not in sent


@pytest.mark.parametrize("kind", PAIRING)
def test_chat_history_agrees_but_for_the_tool_pairs_the_model_sees_repaired(setup, kind):
    from openclaw_cli.health.repair import MISSING_TOOL_RESULT_TEXT

    orig, fixed = f"agent:main:orig-{kind}", f"agent:main:fixed-{kind}"
    ours = _masked(setup.histories[fixed], setup.ids[fixed])
    theirs = _masked(setup.histories[orig], setup.ids[orig])
    if kind == "dangling-call":
        added = [m for m in ours if m.get("role") == "toolResult"]
        assert [m["content"] for m in added] == [[{"type": "text", "text": MISSING_TOOL_RESULT_TEXT}]]
        assert added[0]["isError"] is True
        ours = [m for m in ours if m is not added[0]]
    else:
        stray = [m for m in theirs if m.get("toolCallId") == "call_not_made"]
        assert len(stray) == 1
        theirs = [m for m in theirs if m is not stray[0]]
    assert ours == theirs


@pytest.mark.parametrize("kind", FILE_REPAIR)
def test_after_one_turn_the_gateway_has_rewritten_the_original_as_our_repair_did(setup, kind):
    orig, fixed = f"agent:main:orig-{kind}", f"agent:main:fixed-{kind}"
    _turn(setup, orig)
    _turn(setup, fixed)
    ours = setup.repaired[kind].decode().replace(setup.ids[fixed], "<sid>").splitlines()
    theirs = (_sessions(setup.state) / f"{setup.ids[orig]}.jsonl").read_text().replace(setup.ids[orig], "<sid>")
    # the header's cwd is the Gateway's run folder (a turn records it); the entries are what we wrote
    assert theirs.splitlines()[1:len(ours)] == ours[1:]
    before = len(setup.histories[fixed])
    assert _masked(_history(setup, orig)[:before], setup.ids[orig]) == \
        _masked(_history(setup, fixed)[:before], setup.ids[fixed]) == _masked(setup.histories[fixed], setup.ids[fixed])


def test_recovered_sessions_are_listed_by_the_gateway_and_their_history_returned(setup):
    from openclaw_cli.gateway import rpc

    assert {r["key"]: r["sessionId"] for r in setup.recovered} == ORPHANS
    listed = rpc.sessions_list({"limit": 100}, connection=setup.connection("sessions.list"))
    keys = {row["key"]: row for row in listed["sessions"]}
    for key, sid in ORPHANS.items():
        assert key in keys, sorted(keys)
        assert keys[key].get("sessionId") == sid
        history = _history(setup, key)
        users = [m for m in history if m.get("role") == "user"]
        assert users, (key, history[:3])
    first_user = _history(setup, "agent:main:main")
    assert any("Hello! Who are you?" in json.dumps(m) for m in first_user)


def test_recover_refuses_while_the_gateway_runs(setup):
    home = setup.state.parent
    store = _sessions(setup.state) / "sessions.json"
    before = store.read_bytes()
    res = run(["sessions", "recover"], home, {"OPENCLAW_GATEWAY_PORT": str(setup.gateway.port)})
    assert res.returncode == 1 and "a Gateway is running" in res.stderr
    assert store.read_bytes() == before

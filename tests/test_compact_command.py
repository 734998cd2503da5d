"""`run_offline_compact` end to end on copies of real state: modes, summarizers, locks, safety."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from helpers.folders import folder_digest
from helpers.state import sessions_dir
from test_compact_fakellm import HISTORY_REPLY, PREFIX_REPLY, FakeLLM
from test_transcript_builder import TranscriptBuilder, conversation

from openclaw_cli.compact.offline import run_offline_compact
from openclaw_cli.errors import CliError, LockBusyError, UsageError
from openclaw_cli.js import json as jsjson
from openclaw_cli.locks.session_lock import acquire_transcript_lock, inspect_lock, lock_path_for
from openclaw_cli.transcript import load_index

FIXTURE = Path(__file__).parent / "data" / "real-2026.7.1"
MAIN_ID = "eb01388d-e079-474d-961b-1e1df466b667"
A_ID = "a436f897-7aca-4203-8405-66e524820219"
B_ID = "23c43962-55e8-4eb3-a2f8-b79cf1f70924"
KEEP_50 = {"agents": {"defaults": {"compaction": {"keepRecentTokens": 50}}}}


@pytest.fixture
def state(tmp_path: Path) -> Path:
    """A writable copy of the fixture state, with transcripts rewound to before compaction."""
    root = tmp_path / "state"
    shutil.copytree(FIXTURE / "state", root)
    sessions = root / "agents" / "main" / "sessions"
    bak = next(sessions.glob(f"{A_ID}.jsonl.bak.*"))
    bak.replace(sessions / f"{A_ID}.jsonl")
    main = sessions / f"{MAIN_ID}.jsonl"
    main.write_text("".join(main.read_text().splitlines(keepends=True)[:20]))
    return root


def store(state: Path) -> dict:
    return json.loads((sessions_dir(state) / "sessions.json").read_text())


def test_max_lines_offline(state: Path) -> None:
    before = store(state)["agent:main:fixture-a"]
    original = (sessions_dir(state) / f"{A_ID}.jsonl").read_bytes()
    started = int(time.time() * 1000)
    result = run_offline_compact(state_dir=state, key="fixture-a", max_lines=6)
    assert result["ok"] and result["compacted"] and result["kept"] == 6 and result["key"] == "agent:main:fixture-a"
    assert Path(result["archived"]).read_bytes() == original
    assert (sessions_dir(state) / f"{A_ID}.jsonl").read_bytes() == \
        (FIXTURE / "state/agents/main/sessions" / f"{A_ID}.jsonl").read_bytes()
    after = store(state)["agent:main:fixture-a"]
    # updatedAt becomes now (like the Gateway's Date.now()), whenever the fixture was recorded
    assert started <= after["updatedAt"] <= time.time() * 1000 and after["updatedAt"] != before["updatedAt"]
    assert after["compactionCount"] == 0
    assert not list(sessions_dir(state).glob("*.lock")) and not list(sessions_dir(state).glob("*.tmp"))
    again = run_offline_compact(state_dir=state, key="agent:main:fixture-a", max_lines=6)
    assert again == {"ok": True, "key": "agent:main:fixture-a", "compacted": False, "kept": 6,
                     "offline": again["offline"]}


def test_max_lines_dry_run_writes_nothing(state: Path) -> None:
    before = folder_digest(sessions_dir(state))
    result = run_offline_compact(state_dir=state, key="fixture-a", max_lines=3, dry_run=True)
    assert result["compacted"] and result["kept"] == 3 and "archived" not in result
    assert folder_digest(sessions_dir(state)) == before


def test_summary_on_a_split_turn_is_appended_in_the_gateways_shape(state: Path) -> None:
    result = run_offline_compact(state_dir=state, key="main", config=KEEP_50, summary_text="Short summary.")
    assert result["ok"] and result["compacted"]
    res = result["result"]
    assert res["firstKeptEntryId"] == "5da74c63" and res["tokensBefore"] == 21492
    assert res["summary"] == "Short summary." and result["offline"]["splitTurn"] is True
    lines = (sessions_dir(state) / f"{MAIN_ID}.jsonl").read_text().splitlines()
    entry = jsjson.parse(lines[-1])
    assert list(entry) == ["type", "id", "parentId", "timestamp", "summary", "firstKeptEntryId",
                           "tokensBefore", "details", "fromHook"]
    assert entry["parentId"] == "152fc82d" and len(entry["id"]) == 8 and entry["timestamp"].endswith("Z")
    assert entry["details"] == {"readFiles": ["notes.txt"], "modifiedFiles": []} and entry["fromHook"] is False
    index = load_index(sessions_dir(state) / f"{MAIN_ID}.jsonl")
    assert index.leaf_id == entry["id"]
    after = store(state)["agent:main:main"]
    assert after["compactionCount"] == 2 and "inputTokens" not in after and "outputTokens" not in after
    checkpoint = after["compactionCheckpoints"][-1]
    assert checkpoint["firstKeptEntryId"] == "5da74c63" and checkpoint["preCompaction"]["leafId"] == "152fc82d"
    assert checkpoint["postCompaction"]["leafId"] == entry["id"]
    assert result["offline"]["hardened"] is False


def test_a_summary_that_would_not_shrink_the_session_is_refused_and_nothing_is_written(state: Path) -> None:
    before = folder_digest(sessions_dir(state))
    result = run_offline_compact(state_dir=state, key="main", config=KEEP_50)  # 140 tokens of messages
    assert (result["ok"], result["compacted"]) == (False, False)
    offline = result["offline"]
    assert offline["estimatedTokensAfter"] >= offline["estimatedTokensBefore"] == 140
    assert result["reason"] == (f"the compaction would not shrink the context (about 140 tokens before, "
                                f"{offline['estimatedTokensAfter']} after); nothing written")
    assert folder_digest(sessions_dir(state)) == before
    everything_kept = run_offline_compact(state_dir=state, key="main", config={})  # default tail: 20000 tokens
    assert everything_kept["ok"] is False and everything_kept["reason"] == (
        "Nothing to compact: every message fits in the recent tail (keepRecentTokens 20000)")
    assert folder_digest(sessions_dir(state)) == before


def test_summary_without_keep_recent_hardens_the_boundary(tmp_path: Path, state: Path) -> None:
    path = sessions_dir(state) / f"{B_ID}.jsonl"
    b = conversation(TranscriptBuilder(session_id=B_ID), 40, chars=3000)
    b.write(path)
    result = run_offline_compact(state_dir=state, key="fixture-b", config={})
    entry = jsjson.parse(path.read_text().splitlines()[-1])
    assert result["offline"]["hardened"] is True
    assert entry["firstKeptEntryId"] == entry["id"] == result["result"]["firstKeptEntryId"]
    assert result["offline"]["summarizedMessages"] > 0
    after = store(state)["agent:main:fixture-b"]
    assert after["totalTokens"] == result["result"]["tokensAfter"] and after["totalTokensFresh"] is True


def test_already_compacted_and_missing_session(state: Path) -> None:
    result = run_offline_compact(state_dir=state, key="fixture-b")
    assert result["ok"] is False and result["reason"] == "Already compacted"
    store = sessions_dir(state) / "sessions.json"
    with pytest.raises(CliError) as info:
        run_offline_compact(state_dir=state, key="nope")
    assert (info.value.message, info.value.exit_code) == (f"unknown session agent:main:nope in {store}", 1)
    (sessions_dir(state) / f"{A_ID}.jsonl").unlink()
    assert run_offline_compact(state_dir=state, key="fixture-a")["reason"] == "no transcript"


def test_summary_openai_against_loopback_server(state: Path, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_KEY", "secret-key")
    recorded = [json.loads(line)["body"] for line in (FIXTURE / "compaction-requests.jsonl").read_text().splitlines()]
    with FakeLLM() as llm:
        result = run_offline_compact(state_dir=state, key="main", summarizer="openai", base_url=llm.base_url,
                                     model="fake-model", api_key_env="FAKE_KEY", model_max_tokens=4096,
                                     config=KEEP_50)
    assert [r["body"] for r in llm.requests] == recorded[1:]
    assert all(r["path"] == "/v1/chat/completions" for r in llm.requests)
    assert llm.headers[0]["Authorization"] == "Bearer secret-key"
    summary = result["result"]["summary"]
    assert summary == (HISTORY_REPLY + "\n\n---\n\n**Turn Context (split turn):**\n\n" + PREFIX_REPLY
                       + "\n\n<read-files>\nnotes.txt\n</read-files>")


def test_openai_errors_leave_everything_untouched(state: Path, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_KEY", "k")
    before = folder_digest(sessions_dir(state))
    with FakeLLM() as llm:
        llm.fail_with = 500
        with pytest.raises(CliError, match="upstream exploded"):
            run_offline_compact(state_dir=state, key="main", summarizer="openai", base_url=llm.base_url,
                                model="fake-model", api_key_env="FAKE_KEY", config=KEEP_50)
    assert folder_digest(sessions_dir(state)) == before
    monkeypatch.delenv("FAKE_KEY")
    with pytest.raises(UsageError, match="FAKE_KEY"):
        run_offline_compact(state_dir=state, key="main", summarizer="openai", base_url="http://x",
                            model="m", api_key_env="FAKE_KEY")


def test_summary_text_and_dry_run(state: Path) -> None:
    before = folder_digest(sessions_dir(state))
    dry = run_offline_compact(state_dir=state, key="main", config=KEEP_50, dry_run=True, summary_text="My summary.\n")
    assert dry["compacted"] is False and dry["result"]["firstKeptEntryId"] == "5da74c63"
    assert dry["offline"]["summarizedMessages"] == 2 and dry["offline"]["turnPrefixMessages"] == 4
    dry_openai = run_offline_compact(state_dir=state, key="main", config=KEEP_50, dry_run=True,
                                     summarizer="openai", base_url="http://127.0.0.1:9", model="m",
                                     api_key_env="UNSET_VARIABLE_FOR_TEST")
    assert dry_openai["offline"]["requests"] == 2
    assert folder_digest(sessions_dir(state)) == before
    result = run_offline_compact(state_dir=state, key="main", config=KEEP_50, summary_text="My summary.\n")
    assert result["result"]["summary"] == "My summary.\n"
    assert jsjson.parse((sessions_dir(state) / f"{MAIN_ID}.jsonl").read_text().splitlines()[-1])["summary"] == "My summary.\n"


def test_usage_errors_are_raised_once_by_the_command_before_the_files_are_read(state: Path) -> None:
    from openclaw_cli.commands.compact import CompactRequest, run_compact_command

    env = {"OPENCLAW_STATE_DIR": str(state), "HOME": str(state.parent)}
    before = folder_digest(state, mtimes=True)
    with pytest.raises(UsageError, match="positive integer"):
        run_compact_command(CompactRequest(key="main", max_lines="0", offline=True), env)
    with pytest.raises(UsageError, match="--summarizer must be one of"):
        run_compact_command(CompactRequest(key="main", summarizer="magic"), env)
    with pytest.raises(UsageError):
        run_offline_compact(state_dir=state, key="main", summarizer="openai")
    assert folder_digest(state, mtimes=True) == before


def test_malformed_lines_and_missing_final_newline(state: Path) -> None:
    path = sessions_dir(state) / f"{MAIN_ID}.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:5] + ["{broken", ""] + lines[5:]))  # no trailing newline
    original = path.read_bytes()
    result = run_offline_compact(state_dir=state, key="main", config=KEEP_50, summary_text="s")
    assert result["compacted"] and result["offline"]["skippedLines"] == 1
    data = path.read_bytes()
    assert data.startswith(original) and data[len(original):len(original) + 1] == b"\n"
    assert data.endswith(b"\n")


def _spawn(argv0_args: list[str]) -> subprocess.Popen:
    return subprocess.Popen(argv0_args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _write_lock(path: Path, pid: int, age_s: float = 0.0) -> None:
    from openclaw_cli.compact.clock import iso_timestamp, now_ms

    payload = {"pid": pid, "createdAt": iso_timestamp(now_ms() - int(age_s * 1000)), "maxHoldMs": 300000}
    lock_path_for(path).write_text(json.dumps(payload, indent=2) + "\n")


def test_live_lock_is_refused_naming_the_pid(state: Path) -> None:
    path = sessions_dir(state) / f"{MAIN_ID}.jsonl"
    holder = _spawn(["bash", "-c", "sleep 30; true", "openclaw"])  # argv looks like OpenClaw
    try:
        time.sleep(0.1)
        _write_lock(path, holder.pid)
        before = path.read_bytes()
        with pytest.raises(LockBusyError, match=f"pid={holder.pid}") as err:
            run_offline_compact(state_dir=state, key="main", config=KEEP_50)
        assert err.value.exit_code == 75 and str(holder.pid) in err.value.message
        with pytest.raises(LockBusyError):
            run_offline_compact(state_dir=state, key="main", max_lines=3)
        assert path.read_bytes() == before and lock_path_for(path).exists()
        _write_lock(path, holder.pid, age_s=400)  # a live OpenClaw holder past maxHoldMs: stale, not removed
        with pytest.raises(LockBusyError, match=r"stale .*hold-exceeded"):
            run_offline_compact(state_dir=state, key="main", config=KEEP_50)
    finally:
        holder.kill()
        holder.wait()


def test_stale_locks_are_cleared(state: Path) -> None:
    path = sessions_dir(state) / f"{MAIN_ID}.jsonl"
    dead = _spawn(["true"])
    dead.wait()
    _write_lock(path, dead.pid)
    assert inspect_lock(lock_path_for(path)).reasons == ["dead-pid"]
    result = run_offline_compact(state_dir=state, key="main", config=KEEP_50, summary_text="s")
    assert result["compacted"] and result["offline"]["staleLockRemoved"] == ["dead-pid"]
    assert not lock_path_for(path).exists()
    other = _spawn(["sleep", "30"])  # alive, but not an OpenClaw process
    try:
        time.sleep(0.1)
        _write_lock(path, other.pid)
        assert "non-openclaw-owner" in inspect_lock(lock_path_for(path)).reasons
        assert run_offline_compact(state_dir=state, key="fixture-a", max_lines=6)["compacted"]
    finally:
        other.kill()
        other.wait()


def test_lock_payload_and_release(tmp_path: Path) -> None:
    transcript = tmp_path / "x.jsonl"
    transcript.write_text("{}\n")
    with acquire_transcript_lock(transcript) as lock:
        payload = json.loads(lock.path.read_text())
        assert payload["pid"] == os.getpid() and payload["maxHoldMs"] == 300000
        assert lock.path.read_text().startswith('{\n  "pid": ')
        seen = inspect_lock(lock.path)
        assert seen.pid == os.getpid() and seen.alive and not seen.stale
    assert not lock.path.exists()


def test_compact_judges_a_live_holder_too_old_by_the_stale_ms_of_the_environment_or_the_config(state: Path) -> None:
    path = sessions_dir(state) / f"{MAIN_ID}.jsonl"
    holder = _spawn(["bash", "-c", "sleep 30; true", "openclaw"])
    try:
        time.sleep(0.1)
        _write_lock(path, holder.pid, age_s=120)  # within maxHoldMs and the default 30 min: busy
        with pytest.raises(LockBusyError, match="session file locked"):
            run_offline_compact(state_dir=state, key="main", max_lines=3, env={})
        with pytest.raises(LockBusyError, match=r"stale \(too-old\)"):
            run_offline_compact(state_dir=state, key="main", max_lines=3,
                                env={"OPENCLAW_SESSION_WRITE_LOCK_STALE_MS": " 60000 "})
        with pytest.raises(LockBusyError, match=r"stale \(too-old\)"):
            run_offline_compact(state_dir=state, key="main", max_lines=3, env={},
                                config={"session": {"writeLock": {"staleMs": 60000}}})
        with pytest.raises(LockBusyError, match="session file locked"):  # the variable wins over the config
            run_offline_compact(state_dir=state, key="main", max_lines=3,
                                env={"OPENCLAW_SESSION_WRITE_LOCK_STALE_MS": "600000"},
                                config={"session": {"writeLock": {"staleMs": 60000}}})
        assert lock_path_for(path).exists()
    finally:
        holder.kill()
        holder.wait()


def test_compact_writes_the_max_hold_ms_the_gateway_would_into_its_lock(state: Path) -> None:
    from openclaw_cli.locks.session_lock import compaction_lock_settings

    assert compaction_lock_settings({}, {}).max_hold_ms == 300_000
    timeout = {"agents": {"defaults": {"compaction": {"timeoutSeconds": 600.9}}}}
    assert compaction_lock_settings(timeout, {}).max_hold_ms == 720_000  # timeout + 2 min
    configured = {**timeout, "session": {"writeLock": {"maxHoldMs": 90_000}}}
    assert compaction_lock_settings(configured, {}).max_hold_ms == 90_000
    env = {"OPENCLAW_SESSION_WRITE_LOCK_MAX_HOLD_MS": "45000"}
    assert compaction_lock_settings(configured, env).max_hold_ms == 45_000
    path = sessions_dir(state) / f"{MAIN_ID}.jsonl"
    with acquire_transcript_lock(path, compaction_lock_settings(configured, env)) as lock:
        assert json.loads(lock.path.read_text())["maxHoldMs"] == 45_000

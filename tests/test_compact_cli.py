"""`openclaw compact` end to end without a Gateway: validation, offline modes, dry runs, locks, models."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.compact import (
    BAK,
    KEEP_50,
    add_session,
    grow,
    llm_config,
    new_key,
    ours,
    reference,
    store_entry,
)
from helpers.folders import folder_digest
from helpers.gateway import closed_port, tcp_listener
from helpers.state import sessions_dir, write_config
from test_compact_fakellm import HISTORY_REPLY, FakeLLM


@pytest.fixture
def state(home: Path) -> Path:
    return home / ".openclaw"


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


# -- help, import cost, argument errors ----------------------------------------------------


def test_help_of_both_commands(home: Path) -> None:
    for args in (["compact", "--help"], ["sessions", "compact", "--help"]):
        result = ours(args, home)
        assert result.returncode == 0, result.stderr
        for flag in ("--agent", "--max-lines", "--json", "--url", "--token", "--password", "--timeout",
                     "--dry-run", "--summarizer", "--base-url", "--model", "--api-key-env",
                     "--summary-file", "--offline", "Examples:", "Exit codes:", "75"):
            assert flag in result.stdout, (args, flag)


def test_importing_the_command_module_is_cheap() -> None:
    code = ("import sys, openclaw_cli.cli.compact; "
            "print(sorted(m for m in sys.modules if m.startswith('openclaw_cli')))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                       check=True).stdout.replace("'", '"'))
    assert loaded == ["openclaw_cli", "openclaw_cli.cli", "openclaw_cli.cli.compact"]


@pytest.mark.reference
def test_argument_errors_say_what_the_reference_says_and_exit_2(home: Path, reference) -> None:
    """The reference's words; its exit code 1 is 2 here (bad usage, a documented difference)."""
    cases = [  # each reference run costs seconds: one per message
        ["sessions", "compact", "k", "--max-lines", "1.5"],
        ["sessions", "compact", "k", "--timeout", "soon"],
        ["sessions", "--all-agents", "--verbose", "compact", "k"],
    ]
    for args in cases:
        theirs, mine = reference_run(args, home), ours(args, home, {"OPENCLAW_GATEWAY_PORT": str(closed_port())})
        assert theirs.returncode == 1, args
        assert (mine.returncode, mine.stdout, mine.stderr) == (2, theirs.stdout, theirs.stderr), args
    for value in ("0", "-3", "x"):
        result = ours(["compact", "k", "--max-lines", value], home)
        assert (result.returncode, result.stderr) == (2, "--max-lines must be a positive integer.\n")
    store = ours(["sessions", "--store", "x.json", "compact", "k"], home)
    assert (store.returncode, store.stderr) == (2, "`sessions compact` does not support the parent `sessions` "
                                                   "option --store; the gateway resolves the target store from "
                                                   "<key> and --agent.\n")


def reference_run(args: list[str], home: Path):
    return reference(args, home, {"OPENCLAW_GATEWAY_PORT": str(closed_port())})


@pytest.mark.parametrize("args, message", [
    (["--max-lines", "5", "--summarizer", "openai"], "--max-lines trims the transcript without a summary"),
    (["--summary-file", "x", "--summarizer", "extractive"], "--summary-file is the summary"),
    (["--base-url", "http://127.0.0.1:1/v1"], "--base-url only apply to --summarizer openai"),
    (["--summarizer", "bogus"], "--summarizer must be one of extractive, openai"),
    (["--dry-run", "--url", "ws://127.0.0.1:1"], "--dry-run works on the local files"),
])
def test_our_option_conflicts_are_usage_errors(home: Path, args: list[str], message: str) -> None:
    result = ours(["compact", "main", *args], home)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


# -- offline: --max-lines ------------------------------------------------------------------


def test_offline_max_lines_text_json_and_alias(state: Path, home: Path) -> None:
    key = new_key()
    transcript = add_session(state, key, source="a")
    original = transcript.read_bytes()
    env = {"OPENCLAW_GATEWAY_PORT": str(closed_port()), "OPENCLAW_GATEWAY_TOKEN": "secret-token-1"}
    result = ours(["compact", key, "--max-lines", "5"], home, env)
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first == f"Compacted session {key} (kept 5 lines)."
    archived = second.removeprefix("Archived transcript: ")
    assert BAK.search(archived) and archived.startswith(str(transcript))
    assert Path(archived).read_bytes() == original and len(_lines(transcript)) == 5
    assert "secret-token-1" not in result.stdout + result.stderr
    entry = store_entry(state, key)
    assert "totalTokens" not in entry and "inputTokens" not in entry
    again = ours(["sessions", "compact", key, "--max-lines", "5", "--json"], home, env)
    assert again.returncode == 0 and json.loads(again.stdout) == {"ok": True, "key": key, "compacted": False,
                                                                   "kept": 5}
    bare = ours(["sessions", "--json", "compact", key.removeprefix("agent:main:"), "--max-lines", "5"], home, env)
    assert json.loads(bare.stdout)["key"] == key  # a bare key is the default agent's, --json inherited


def test_offline_unknown_key_agent_and_empty_key(state: Path, home: Path) -> None:
    add_session(state, new_key())
    env = {"OPENCLAW_GATEWAY_PORT": str(closed_port())}
    store = sessions_dir(state) / "sessions.json"
    before = folder_digest(home)
    for extra in ([], ["--dry-run"], ["--max-lines", "3"], ["--offline", "--summarizer", "extractive"]):
        result = ours(["compact", "nope", *extra], home, env)
        assert (result.returncode, result.stdout, result.stderr) == (
            1, "", f"Compaction failed: unknown session agent:main:nope in {store}\n"), extra
        result = ours(["compact", "agent:main:nope", "--json", *extra], home, env)
        assert result.returncode == 1, extra
        assert json.loads(result.stdout) == {"ok": False, "key": "agent:main:nope",
                                             "error": f"unknown session agent:main:nope in {store}"}
    assert folder_digest(home) == before
    result = ours(["compact", "nope", "--agent", "bogus"], home, env)
    assert (result.returncode, result.stderr) == (1, 'Compaction failed: Unknown agent id "bogus"\n')
    result = ours(["compact", "nope", "--agent", "bogus", "--json"], home, env)
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"ok": False, "key": "nope", "error": 'Unknown agent id "bogus"'}
    result = ours(["compact", ""], home, env)
    assert result.returncode == 2 and result.stderr == (
        "Compaction failed: invalid sessions.compact params: at /key: must not have fewer than 1 characters\n")
    result = ours(["compact", "  ", "--json"], home, env)
    assert (result.returncode, json.loads(result.stdout)) == (2, {"ok": False, "key": "  ", "error": "key required"})
    assert folder_digest(home) == before


def test_an_entry_without_a_session_id_is_an_error(state: Path, home: Path) -> None:
    """The Gateway's "no sessionId" case: nothing to compact, exit 1 (OpenClaw exits 0)."""
    store = sessions_dir(state) / "sessions.json"
    store.parent.mkdir(parents=True)
    store.write_text(json.dumps({"agent:main:bare": {"updatedAt": 1}}))
    before = folder_digest(home)
    result = ours(["compact", "bare"], home, {"OPENCLAW_GATEWAY_PORT": str(closed_port())})
    assert (result.returncode, result.stderr) == (
        1, f"Compaction failed: session agent:main:bare in {store} has no sessionId, so it has no transcript "
           "to compact\n")
    assert folder_digest(home) == before


# -- offline: summaries --------------------------------------------------------------------


def test_offline_extractive_summary_json_and_text(state: Path, home: Path) -> None:
    write_config(state, KEEP_50)
    env = {"OPENCLAW_GATEWAY_PORT": str(closed_port())}
    key, other = new_key(), new_key()
    transcript = grow(add_session(state, key))
    grow(add_session(state, other))
    original = transcript.read_bytes()
    leaf = json.loads(_lines(transcript)[-1])["id"]
    result = ours(["compact", key, "--json"], home, env)
    assert result.returncode == 0, result.stderr
    reply = json.loads(result.stdout)
    assert set(reply) == {"ok", "key", "compacted", "result"} and reply["ok"] and reply["compacted"]
    assert {"summary", "firstKeptEntryId", "tokensBefore", "details"} <= set(reply["result"])
    assert "Hello! Who are you?" in reply["result"]["summary"]  # the first request is summarised
    data = transcript.read_bytes()
    assert data.startswith(original) and data.count(b"\n") == original.count(b"\n") + 1
    entry = json.loads(_lines(transcript)[-1])
    assert list(entry)[:8] == ["type", "id", "parentId", "timestamp", "summary", "firstKeptEntryId",
                               "tokensBefore", "details"]
    assert entry["parentId"] == leaf and entry["firstKeptEntryId"] == reply["result"]["firstKeptEntryId"]
    stored = store_entry(state, key)
    assert stored["compactionCount"] == 2 and stored.get("totalTokens") == reply["result"].get("tokensAfter")
    assert stored["compactionCheckpoints"][-1]["reason"] == "manual"
    text = ours(["sessions", "compact", other], home, env)
    assert text.returncode == 0, text.stderr
    counts = reply["result"]
    detail = f" ({counts['tokensBefore']} → {counts['tokensAfter']} tokens)" if "tokensAfter" in counts else ""
    assert text.stdout == f"Compacted session {other}{detail}.\n"
    again = ours(["compact", other], home, env)
    assert (again.returncode, again.stderr) == (1, f"Compaction failed for session {other}: Already compacted.\n")


def test_summary_file_and_standard_input(state: Path, home: Path, tmp_path: Path) -> None:
    write_config(state, KEEP_50)
    env = {"OPENCLAW_GATEWAY_PORT": str(closed_port())}
    key, other = new_key(), new_key()
    first, second = add_session(state, key), add_session(state, other)
    notes = tmp_path / "notes.md"
    notes.write_text("## Goal\n- Written by hand.\n")
    result = ours(["compact", key, "--summary-file", str(notes), "--json"], home, env)
    assert result.returncode == 0, result.stderr
    assert json.loads(_lines(first)[-1])["summary"].startswith("## Goal\n- Written by hand.\n")
    proc = subprocess.run([sys.executable, "-m", "openclaw_cli", "compact", other, "--summary-file", "-"],
                          input="From stdin.\n", capture_output=True, text=True,
                          env={**_clean(home), **env}, cwd=home)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(_lines(second)[-1])["summary"].startswith("From stdin.")
    empty = ours(["compact", other, "--summary-file", str(tmp_path / "missing.md")], home, env)
    assert empty.returncode == 2 and "cannot read summary file" in empty.stderr


def _clean(home: Path) -> dict[str, str]:
    from helpers import refbin

    return refbin.clean_env(home)


# -- dry runs ------------------------------------------------------------------------------


def test_dry_run_writes_nothing_and_predicts_the_cut(state: Path, home: Path) -> None:
    write_config(state, KEEP_50)
    env = {"OPENCLAW_GATEWAY_PORT": str(closed_port())}
    key, trim_key = new_key(), new_key()
    grow(add_session(state, key))
    add_session(state, trim_key, source="a")
    before = folder_digest(state, mtimes=True)
    text = ours(["compact", key, "--dry-run"], home, env)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("Dry run: nothing was written.\n")
    for label in ("Cut point: first kept entry ", "Would summarise: ", "Would keep: ", "Tokens: "):
        assert label in text.stdout
    report = json.loads(ours(["compact", key, "--dry-run", "--json"], home, env).stdout)
    assert report["dryRun"] is True and report["wouldCompact"] is True
    assert report["plan"]["cutEntryId"] == report["result"]["firstKeptEntryId"]
    openai = ours(["compact", key, "--dry-run", "--json", "--summarizer", "openai", "--base-url",
                   "http://127.0.0.1:9/v1", "--model", "fake/fake-model"], home, env)
    assert openai.returncode == 0, openai.stderr
    assert json.loads(openai.stdout)["plan"]["requests"] >= 1
    trim = ours(["compact", trim_key, "--max-lines", "4", "--dry-run"], home, env)
    assert "Would keep 4 lines (header included)" in trim.stdout
    trim_json = json.loads(ours(["compact", trim_key, "--max-lines", "4", "--dry-run", "--json"], home, env).stdout)
    assert trim_json["wouldCompact"] is True and trim_json["kept"] == 4
    assert folder_digest(state, mtimes=True) == before
    real = json.loads(ours(["compact", key, "--json"], home, env).stdout)
    assert real["result"]["firstKeptEntryId"] == report["result"]["firstKeptEntryId"]
    assert real["result"]["tokensBefore"] == report["result"]["tokensBefore"]


# -- locks ---------------------------------------------------------------------------------


def _write_lock(transcript: Path, pid: int) -> Path:
    from openclaw_cli.compact.clock import iso_timestamp
    from openclaw_cli.locks.session_lock import lock_path_for

    lock = lock_path_for(transcript)
    lock.write_text(json.dumps({"pid": pid, "createdAt": iso_timestamp(), "maxHoldMs": 300000}, indent=2) + "\n")
    return lock


def test_live_lock_exits_75_naming_the_pid(state: Path, home: Path) -> None:
    key = new_key()
    transcript = add_session(state, key)
    holder = subprocess.Popen(["bash", "-c", "sleep 30; true", "openclaw"])  # argv looks like OpenClaw
    try:
        time.sleep(0.1)
        lock = _write_lock(transcript, holder.pid)
        before = folder_digest(state, mtimes=True)
        env = {"OPENCLAW_GATEWAY_PORT": str(closed_port())}
        for extra in ([], ["--max-lines", "3"], ["--dry-run"]):
            result = ours(["compact", key, *extra], home, env)
            assert result.returncode == 75, (extra, result.stderr)
            assert result.stderr.startswith("Compaction failed: session file locked: ")
            assert f"pid={holder.pid}" in result.stderr
        result = ours(["compact", key, "--json"], home, env)
        assert result.returncode == 75 and f"pid={holder.pid}" in json.loads(result.stdout)["error"]
        assert folder_digest(state, mtimes=True) == before and lock.exists()
    finally:
        holder.kill()
        holder.wait()
    result = ours(["compact", key, "--max-lines", "3"], home, {"OPENCLAW_GATEWAY_PORT": str(closed_port())})
    assert result.returncode == 0 and "kept 3 lines" in result.stdout  # the dead holder's lock is stale
    assert not lock.exists()


# -- models --------------------------------------------------------------------------------


def test_openai_summarizer_without_a_model_is_a_clear_error(state: Path, home: Path) -> None:
    key = new_key()
    add_session(state, key)
    entry_free = {"agents": {"defaults": {"compaction": {"keepRecentTokens": 50}}}}
    write_config(state, entry_free)
    before = folder_digest(state, mtimes=True)
    result = ours(["compact", key, "--summarizer", "openai"], home, {"OPENCLAW_GATEWAY_PORT": str(closed_port())})
    assert result.returncode == 2
    assert "--summarizer openai needs a model: pass --base-url URL and --model ID" in result.stderr
    assert folder_digest(state, mtimes=True) == before


def test_openai_summarizer_from_config_and_from_flags(state: Path, home: Path) -> None:
    with FakeLLM() as llm:
        write_config(state, llm_config(llm.base_url))
        key, other = new_key(), new_key()
        add_session(state, key)
        add_session(state, other)
        env = {"OPENCLAW_GATEWAY_PORT": str(closed_port())}
        result = ours(["compact", key, "--offline", "--summarizer", "openai", "--json"], home, env)
        assert result.returncode == 0, result.stderr
        reply = json.loads(result.stdout)
        assert reply["result"]["summary"].startswith(HISTORY_REPLY.strip().split("\n")[0])
        assert llm.headers[-1]["Authorization"] == "Bearer fake-local"  # the provider's configured key
        assert llm.requests[-1]["body"]["model"] == "fake-model"
        assert "fake-local" not in result.stdout + result.stderr
        llm.requests.clear()
        missing = ours(["compact", other, "--summarizer", "openai", "--base-url", llm.base_url, "--model",
                        "fake-model", "--api-key-env", "MY_MODEL_KEY"], home, env)
        assert missing.returncode == 2 and "MY_MODEL_KEY" in missing.stderr and not llm.requests
        flags = ours(["compact", other, "--summarizer", "openai", "--base-url", llm.base_url, "--model",
                      "fake-model", "--api-key-env", "MY_MODEL_KEY"], home, {**env, "MY_MODEL_KEY": "sk-test-42"})
        assert flags.returncode == 0, flags.stderr
        assert flags.stdout.startswith(f"Compacted session {other} (")
        assert llm.headers[-1]["Authorization"] == "Bearer sk-test-42"
        assert "sk-test-42" not in flags.stdout + flags.stderr
        third = new_key()
        transcript = add_session(state, third)
        before = transcript.read_bytes()
        llm.fail_with = 500
        failed = ours(["compact", third, "--summarizer", "openai"], home, env)
        assert failed.returncode == 1 and failed.stderr.startswith("Compaction failed: ")
        assert "upstream exploded" in failed.stderr and "Traceback" not in failed.stderr
        assert transcript.read_bytes() == before and store_entry(state, third)["compactionCount"] == 1


# -- Gateway address problems that are not "nothing listening" -------------------------------


def test_explicit_url_with_nothing_listening_is_an_error(state: Path, home: Path) -> None:
    key = new_key()
    add_session(state, key, source="a")
    before = folder_digest(state, mtimes=True)
    result = ours(["compact", key, "--max-lines", "3", "--url", f"ws://127.0.0.1:{closed_port()}",
                   "--token", "tok-secret-9"], home)
    assert result.returncode == 1 and result.stderr.startswith("Compaction failed: no Gateway is listening")
    assert "--offline" in result.stderr and "tok-secret-9" not in result.stderr
    assert folder_digest(state, mtimes=True) == before


def test_something_listening_without_credentials_is_an_error(state: Path, home: Path) -> None:
    key = new_key()
    add_session(state, key, source="a")
    before = folder_digest(state, mtimes=True)
    with tcp_listener("silent") as port:
        result = ours(["compact", key, "--max-lines", "3"], home, {"OPENCLAW_GATEWAY_PORT": str(port)})
    assert result.returncode == 1 and "no token or password is configured" in result.stderr
    assert "hint: " in result.stderr and folder_digest(state, mtimes=True) == before


def test_timeout_bounds_a_peer_that_never_answers(state: Path, home: Path) -> None:
    key = new_key()
    add_session(state, key, source="a")
    before = folder_digest(state, mtimes=True)
    with tcp_listener("silent") as port:
        started = time.monotonic()
        result = ours(["compact", key, "--max-lines", "3", "--timeout", "300", "--json"], home,
                      {"OPENCLAW_GATEWAY_PORT": str(port), "OPENCLAW_GATEWAY_TOKEN": "tok-77"})
        assert time.monotonic() - started < 8
    reply = json.loads(result.stdout)
    assert result.returncode == 1 and reply["ok"] is False and reply["key"] == key
    assert "300 ms" in reply["error"] and "tok-77" not in result.stdout + result.stderr
    assert folder_digest(state, mtimes=True) == before


def test_colour_only_when_asked(state: Path, home: Path) -> None:
    env = {"OPENCLAW_GATEWAY_PORT": str(closed_port())}
    plain = ours(["compact", "x", "--agent", "bogus"], home, env)
    assert "\x1b[" not in plain.stderr
    coloured = ours(["compact", "x", "--agent", "bogus"], home, {**env, "FORCE_COLOR": "1"})
    assert "\x1b[31m" in coloured.stderr
    assert "\x1b[" not in ours(["--no-color", "compact", "x", "--agent", "bogus"], home,
                               {**env, "FORCE_COLOR": "1"}).stderr
    assert sessions_dir(state).exists() is False

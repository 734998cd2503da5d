"""Odd things on disk and on the command line end in one clear line and a true exit code, never in
`openclaw: unexpected error` (the last-resort handler), and a run that fails changes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cli
from helpers.context import MAIN_ID, copy_state
from helpers.folders import folder_digest
from helpers.gateway import closed_port, tcp_listener
from helpers.refbin import Result

SESSIONS = Path(".openclaw/agents/main/sessions")
LONG = "s" * 251  # a file name that fits (at most 255 bytes), whose `<name>.lock` does not


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A copy of the real 2026.7.1 fixture state (three sessions, one transcript, a workspace)."""
    home = tmp_path / "home"
    copy_state(home / ".openclaw")
    return home


def ours(argv: list[str], home: Path, stdin: bytes | None = None, **env: str) -> Result:
    """Our CLI in-process, with nothing listening at the Gateway port."""
    return cli.run(argv, home, {"OPENCLAW_GATEWAY_PORT": str(closed_port()), **env}, input=stdin)


def fails_cleanly(result: Result, code: int, stderr: str) -> None:
    assert "unexpected error" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert (result.returncode, result.stderr) == (code, stderr), (result.stdout, result.stderr)


def transcript(home: Path) -> Path:
    return home / SESSIONS / f"{MAIN_ID}.jsonl"


# --- locks ----------------------------------------------------------------------------------------

def test_a_folder_in_place_of_the_store_lock_is_an_error_not_a_busy_lock(home: Path) -> None:
    lock = home / SESSIONS / "sessions.json.lock"
    lock.mkdir()
    before = folder_digest(home)
    fails_cleanly(ours(["sessions", "cleanup", "--enforce"], home), 1,
                  f"the store lock {lock} is a folder; move it aside (nothing was changed)\n")
    assert folder_digest(home) == before


def test_a_store_lock_that_cannot_be_created_is_named(home: Path) -> None:
    store = home / SESSIONS / LONG
    store.write_text("{}")
    before = folder_digest(home)
    fails_cleanly(ours(["sessions", "cleanup", "--enforce", "--store", str(store)], home), 1,
                  f"cannot create the store lock {store}.lock: File name too long (nothing was changed)\n")
    assert folder_digest(home) == before


def test_a_file_in_place_of_the_sessions_folder_is_named(home: Path) -> None:
    folder = home / ".openclaw" / "agents" / "work" / "sessions"
    folder.parent.mkdir(parents=True)
    folder.write_text("not a folder")
    (home / ".openclaw" / "openclaw.json").write_text(json.dumps({"agents": {"list": [{"id": "main"},
                                                                                      {"id": "work"}]}}))
    before = folder_digest(home)
    fails_cleanly(ours(["sessions", "cleanup", "--enforce", "--agent", "work"], home), 1,
                  f"cannot create the sessions folder {folder}: a file is in the way (nothing was changed)\n")
    assert folder_digest(home) == before


def test_a_folder_in_place_of_the_transcript_lock_is_an_error_not_a_hang(home: Path) -> None:
    lock = Path(f"{transcript(home)}.lock")
    lock.mkdir()
    before = folder_digest(home)
    for extra in (["--max-lines", "3"], ["--offline"]):
        fails_cleanly(ours(["compact", "main", *extra], home), 1,
                      f"Compaction failed: the transcript lock {lock} is a folder; move it aside (nothing was "
                      "changed)\n")
    assert folder_digest(home) == before


def test_a_transcript_lock_that_is_not_utf8_is_judged_like_any_other(home: Path) -> None:
    """Fresh: honoured (75, owner unknown). Older than the 30 s grace: removed, and the run goes on."""
    lock = Path(f"{transcript(home)}.lock")
    lock.write_bytes(b"\xff\xfe not json")
    before = folder_digest(home)
    fails_cleanly(ours(["compact", "main", "--max-lines", "3"], home), 75,
                  f"Compaction failed: session file locked: owner=unknown {lock}\n")
    assert folder_digest(home) == before
    os.utime(lock, (1, 1))
    result = ours(["compact", "main", "--max-lines", "3"], home)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Compacted session agent:main:main (kept 3 lines).")
    assert "removed a stale transcript lock" in result.stderr and not lock.exists()


def test_a_transcript_lock_that_cannot_be_created_is_named(home: Path) -> None:
    store = home / SESSIONS / "sessions.json"
    data = json.loads(store.read_text())
    long_transcript = home / SESSIONS / f"{LONG[:245]}.jsonl"
    os.rename(transcript(home), long_transcript)
    data["agent:main:main"]["sessionFile"] = str(long_transcript)
    store.write_text(json.dumps(data, indent=2))
    before = folder_digest(home)
    fails_cleanly(ours(["compact", "main", "--max-lines", "3"], home), 1,
                  f"Compaction failed: cannot create the transcript lock {long_transcript}.lock: File name too "
                  "long (nothing was changed)\n")
    assert folder_digest(home) == before


# --- summaries, timeouts, output ------------------------------------------------------------------

def test_a_summary_that_is_not_utf8_is_bad_usage(home: Path) -> None:
    notes = home / "notes.md"
    notes.write_bytes(b"Summary \xff\xfe of the chat")
    before = folder_digest(home)
    fails_cleanly(ours(["compact", "main", "--offline", "--summary-file", str(notes)], home), 2,
                  f"summary file {notes} is not UTF-8 text (invalid byte at offset 8)\n")
    fails_cleanly(ours(["compact", "main", "--offline", "--summary-file", "-"], home, stdin=b"\xc3("), 2,
                  "standard input is not UTF-8 text (invalid byte at offset 0)\n")
    assert folder_digest(home) == before


@pytest.mark.parametrize("argv", [
    ["context", "list", "--timeout", "99999999999999999999999"],
    ["sessions", "cleanup", "--enforce", "--timeout", "99999999999999999999999"],
    ["compact", "main", "--timeout", "9007199254740991"],
], ids=lambda a: a[0])
def test_a_huge_timeout_is_waited_for_not_an_overflow(home: Path, argv: list[str]) -> None:
    """Nothing that answers like a Gateway: the error is the Gateway's, whatever the timeout."""
    with tcp_listener("close") as port:
        before = folder_digest(home)
        result = ours([*argv, "--url", f"ws://127.0.0.1:{port}", "--token", "t"], home)
    assert result.returncode == 1, result.stderr
    assert "unexpected error" not in result.stderr and f"127.0.0.1:{port}" in result.stderr
    assert folder_digest(home) == before


@pytest.mark.parametrize("argv", [["sessions"], ["sessions", "cleanup", "--dry-run", "--json"], ["context", "json"],
                                  ["sessions", "--help"]], ids=" ".join)
def test_output_that_cannot_be_written_is_one_line(home: Path, argv: list[str]) -> None:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "NO_COLOR": "1", "OPENCLAW_GATEWAY_PORT": str(closed_port())}
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "openclaw_cli", *argv], env=env, cwd=home, stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (
        1, "openclaw: cannot write to standard output: No space left on device\n")


def test_a_closed_pipe_ends_quietly(home: Path) -> None:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "NO_COLOR": "1", "OPENCLAW_GATEWAY_PORT": str(closed_port())}
    proc = subprocess.Popen([sys.executable, "-m", "openclaw_cli", "context", "detail"], env=env, cwd=home,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    assert proc.wait(timeout=60) == 1
    assert proc.stderr.read() == b""


# --- config text ----------------------------------------------------------------------------------

def test_a_lone_surrogate_in_a_configured_path_is_opened_as_node_opens_it(home: Path) -> None:
    """`"\\udc00"` in a JSON string is a lone UTF-16 half; Node writes U+FFFD in the file name."""
    (home / ".openclaw" / "openclaw.json").write_text(
        '{"session": {"store": "~/\\udc00/{agentId}.json"}, "agents": {"defaults": {"workspace": "~/w\\ud800"}}}')
    result = ours(["sessions", "cleanup", "--dry-run", "--json"], home)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["storePath"] == f"{home}/\ufffd/main.json"
    result = ours(["sessions", "cleanup", "--enforce"], home)
    assert result.returncode == 0, result.stderr
    assert (home / "\ufffd" / "main.json").read_text() == "{}"
    for argv in (["context", "detail", "--tokenizer", "o200k_base"], ["compact", "main", "--dry-run"],
                 ["sessions", "--json"]):
        result = ours(argv, home)
        assert "unexpected error" not in result.stderr, (argv, result.stderr)
    result = ours(["context", "json"], home)
    assert json.loads(result.stdout)["report"]["workspaceDir"] == f"{home}/w\ufffd"


def test_a_configured_model_endpoint_that_is_no_url_is_one_line(home: Path) -> None:
    (home / ".openclaw" / "openclaw.json").write_text(json.dumps({
        "agents": {"defaults": {"compaction": {"keepRecentTokens": 50}}},  # something to summarise
        "models": {"providers": {"fake": {"baseUrl": "http://[::1", "api": "openai-completions"}}}}))
    before = folder_digest(home)
    fails_cleanly(ours(["compact", "main", "--summarizer", "openai"], home), 1,
                  "Compaction failed: model request failed: http://[::1/chat/completions is not a usable URL "
                  "(Invalid IPv6 URL)\n")
    assert folder_digest(home) == before

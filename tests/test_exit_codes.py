"""Every exit code a command's `--help` documents is real: one or more runs per command and code
end with exactly that code and say why; a run that fails changes nothing on disk.

Bad usage (unknown option, bad value, conflicting options) is 2 for every command, where
OpenClaw 2026.7.1 exits 1 for its own checks (README, "Compatibility and deliberate differences").
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers import cli, refbin
from helpers.context import MAIN_ID, copy_state
from helpers.folders import folder_digest
from helpers.gateway import closed_port

SESSIONS = Path(".openclaw/agents/main/sessions")


@dataclass(frozen=True)
class Run:
    argv: tuple[str, ...]
    says: str  # a part of what it prints (stdout for code 0, else stderr, unless `stream` says)
    setup: str = ""  # a name from SETUPS
    env: dict[str, str] = field(default_factory=dict, hash=False)
    stream: str = ""  # "stdout" for a failure reported in a JSON document (doctor --lint)

    def __str__(self) -> str:
        return " ".join(self.argv) + (f" [{self.setup}]" if self.setup else "")


def run(*argv: str, says: str, setup: str = "", stream: str = "", **env: str) -> Run:
    return Run(tuple(argv), says, setup, env, stream)


# --- what a run needs besides the fixture state ------------------------------------------------

def _corrupt_store(home: Path) -> None:
    (home / SESSIONS / "sessions.json").write_text('{"agent:main:main": {')


def _store_lock(home: Path) -> None:
    """The store lock of a live process that is not the CLI (this test process), just refreshed."""
    lock = home / SESSIONS / "sessions.json.lock"
    lock.write_text(json.dumps({"pid": os.getpid(), "startedAt": int(time.time() * 1000)}))


def _broken_transcript(home: Path) -> None:
    path = home / SESSIONS / f"{MAIN_ID}.jsonl"
    path.write_text(path.read_text() + "not json\n")


def _headless_transcript(home: Path) -> None:
    path = home / SESSIONS / f"{MAIN_ID}.jsonl"
    path.write_text("".join(path.read_text().splitlines(keepends=True)[1:]))


def _state_file(home: Path) -> None:
    (home / "not-a-folder").write_text("x")


SETUPS: dict[str, Callable[[Path], None]] = {
    "corrupt store": _corrupt_store, "store lock": _store_lock, "state file": _state_file,
    "transcript lock": lambda home: None,  # held by the `lock_holder` fixture's process
    "broken transcript": _broken_transcript, "headless transcript": _headless_transcript,
}

# --- the table: command -> documented code -> runs that must end with it ----------------------

STORE_TYPO = "x/typo/sesions.json"
LIST = {
    0: [run(says="Sessions listed: 3"), run("--json", says='"count": 3')],
    1: [run("--store", STORE_TYPO, says="no session store at "),
        run("--store", str(SESSIONS), says="is a folder; did you mean "),
        run(says="is not valid", setup="corrupt store"),
        run("--json", says="is not valid", setup="corrupt store"),
        run("--agent", "nope", says='Unknown agent id "nope"')],
    2: [run("--limit", "abc", says="--limit must be a positive integer"),
        run("--active", "0", says="--active must be a positive number of minutes"),
        run("--agent", "main", "--all-agents", says="--agent and --all-agents cannot be used together"),
        run("--store", "x.json", "--agent", "main", says="--store cannot be combined with --agent"),
        run("--bogus", says="No such option: --bogus")],
}
CLEANUP = {
    0: [run("--dry-run", says="Session store: "), run("--dry-run", "--enforce", "--json", says='"dryRun": true')],
    1: [run("--enforce", "--store", STORE_TYPO, says="no session store at "),
        run("--dry-run", "--store", STORE_TYPO, says="no session store at "),
        run("--enforce", says="is not valid", setup="corrupt store"),
        run("--enforce", "--agent", "nope", says='Unknown agent id "nope"')],
    2: [run("--bogus", says="No such option: --bogus"),
        run("--wait", "soon", says="Invalid value for '--wait'"),
        run("--port", "0", says="Invalid --port"),
        run("--timeout", "0", says="Invalid --timeout"),
        run("--agent", "main", "--all-agents", says="--agent and --all-agents cannot be used together")],
    75: [run("--enforce", "--wait", "0", says="is locked by process", setup="store lock")],
}
COMPACT = {
    0: [run("main", "--max-lines", "1000", says="No compaction needed for session agent:main:main")],
    1: [run("nope", says="Compaction failed: unknown session agent:main:nope in "),
        run("nope", "--dry-run", "--json", says='"error": "unknown session agent:main:nope in ', stream="stdout"),
        run("main", "--agent", "nope", says='Compaction failed: Unknown agent id "nope"')],
    2: [run("main", "--max-lines", "0", says="--max-lines must be a positive integer."),
        run("main", "--timeout", "soon", says="--timeout must be a positive integer (milliseconds)."),
        run("main", "--summarizer", "bogus", says="--summarizer must be one of extractive, openai"),
        run("main", "--summarizer", "openai", "--base-url", "http://[::1", "--model", "m",
            says="--base-url must be an http(s) URL"),
        run("main", "--dry-run", "--url", "ws://127.0.0.1:9", says="--dry-run works on the local files"),
        run("", says="must not have fewer than 1 characters"),
        run(says="Missing argument 'KEY'"),
        run("main", "--bogus", says="No such option: --bogus")],
    75: [run("main", "--max-lines", "3", says="session file locked: ", setup="transcript lock")],
}


VERIFY = {
    0: [run(says="Verified 3 transcripts: "), run("main", "--json", says='"sessions": [')],
    1: [run(says="error not-json: the line is not JSON", setup="broken transcript", stream="stdout"),
        run(says="is not valid", setup="corrupt store"),
        run("nope", says="unknown session agent:main:nope in "),
        run("--agent", "nope", says='Unknown agent id "nope"')],
    2: [run("--agent", "main", "--all-agents", says="--agent and --all-agents cannot be used together"),
        run("main", "--all-agents", says="KEY cannot be combined with --all-agents"),
        run("main", "--orphans", says="it cannot be combined with KEY"),
        run("--bogus", says="No such option: --bogus")],
}
REPAIR = {
    0: [run("main", "--dry-run", says="Nothing to repair"), run("main", says="Nothing to repair"),
        run("main", "--dry-run", says="Would change: 0 added, 0 changed, 0 dropped, 1 rejected",
            setup="broken transcript")],
    1: [run("nope", says="unknown session agent:main:nope in "),
        run("main", says="is not valid", setup="corrupt store"),
        run("main", says="has no valid session header", setup="headless transcript")],
    2: [run(says="Missing argument 'KEY'"), run(" ", says="KEY must not be empty"),
        run("main", "--bogus", says="No such option: --bogus")],
    75: [run("main", says="session file locked: ", setup="transcript lock")],
}
RECOVER = {
    0: [run("--dry-run", says="Would recover: 0 transcripts"), run(says="Recovered: 0 transcripts")],
    1: [run(says="is not valid", setup="corrupt store"), run("--agent", "nope", says='Unknown agent id "nope"')],
    2: [run("--agent", "main", "--all-agents", says="--agent and --all-agents cannot be used together"),
        run("--bogus", says="No such option: --bogus")],
    75: [run("--wait", "0", says="is locked by process", setup="store lock")],
}


def _context(mode: str) -> dict[int, list[Run]]:
    table = {
        0: [run(says="" if mode != "map" else "Context treemap")],
        1: [run("--session", "agent:main:nope", says="unknown session agent:main:nope in "),
            run("--agent", "nope", says='Unknown agent id "nope"')],
        2: [run("--timeout", "soon", says="--timeout must be a number of milliseconds"),
            run("--bogus", says="No such option: --bogus")],
    }
    if mode in ("list", "detail"):
        table[2].append(run("--tokenizer", "bogus", says="--tokenizer must be one of"))
    if mode == "map":
        table[2].append(run("--output", "map.gif", says="--output must end in .png or .svg"))
    return table


DOCTOR = {
    0: [run("--lint", "--severity-min", "error", says='"ok":true')],
    1: [run("--lint", says='"ok":false', stream="stdout")],
    2: [run("--json", says="doctor lint options require --lint"),
        run("--lint", "--severity-min", "bogus", says="Invalid --severity-min value"),
        run("--lint", "--only", "core/doctor/nope", says="Unknown health check id selected by --only",
            stream="stdout"),
        run("--bogus", says="No such option: --bogus")],
}
ROOT = {
    0: [run("--version", says="openclaw_cli ")],
    1: [run("sessions", says="is a file, not a folder; point OPENCLAW_STATE_DIR at a folder", setup="state file",
            OPENCLAW_STATE_DIR="not-a-folder")],
    2: [run("--bogus", says="No such option: --bogus"), run("bogus", says="No such command 'bogus'"),
        run("--log-level", "loud", "sessions", says="--log-level must be one of"),
        run("--profile", "a/b", "sessions", says="Invalid --profile")],
    75: [run("sessions", "cleanup", "--enforce", "--wait", "0", says="is locked by process", setup="store lock")],
}
TABLE: dict[tuple[str, ...], dict[int, list[Run]]] = {
    (): ROOT,
    ("sessions",): LIST,
    ("sessions", "list"): LIST,
    ("sessions", "cleanup"): CLEANUP,
    ("sessions", "verify"): VERIFY,
    ("sessions", "repair"): REPAIR,
    ("sessions", "recover"): RECOVER,
    ("sessions", "compact"): {**COMPACT, 2: [*COMPACT[2], run("k", says="does not support the parent `sessions` "
                                                               "option --store")]},
    ("compact",): COMPACT,
    **{("context", mode): _context(mode) for mode in ("list", "detail", "json", "map")},
    ("doctor",): DOCTOR,
    ("completion",): {0: [run("bash", says="")], 2: [run("tcsh", says="No such command 'tcsh'"),
                                                     run("--bogus", says="No such option: --bogus")]},
}


def _argv(command: tuple[str, ...], item: Run) -> list[str]:
    if command == ("sessions", "compact") and item.argv == ("k",):
        return ["sessions", "--store", "x.json", "compact", "k"]
    return [*command, *item.argv]


# Runs that need a process of their own: the store lock is held by this test's process, which an
# in-process run would take for itself.
IN_A_CHILD_PROCESS = {"store lock"}


def _ours(argv: list[str], home: Path, env: dict[str, str], setup: str = "") -> refbin.Result:
    full = {"OPENCLAW_GATEWAY_PORT": str(closed_port()), **env}
    if setup in IN_A_CHILD_PROCESS:
        return refbin.run_ours(argv, home, full)
    return cli.run(argv, home, full)


def documented_codes(command: tuple[str, ...]) -> set[int]:
    """The codes of the `Exit codes:` table in the command's --help."""
    result = cli.run([*command, "--help"])
    assert result.returncode == 0, result.stderr
    section = result.stdout.split("Exit codes:", 1)
    assert len(section) == 2, f"`openclaw {' '.join(command)} --help` has no Exit codes section"
    codes = []
    for line in section[1].splitlines()[1:]:
        match = re.fullmatch(r"\s+(\d+)\s+\S.*", line)
        if match:
            codes.append(int(match.group(1)))
        elif not (codes and re.fullmatch(r"\s{6,}\S.*", line)):  # a meaning wrapped onto the next line
            break
    return set(codes)


@pytest.mark.parametrize("command", list(TABLE), ids=lambda c: " ".join(c) or "openclaw")
def test_help_documents_exactly_the_codes_the_table_exercises(command: tuple[str, ...]) -> None:
    assert documented_codes(command) == set(TABLE[command])


CASES = [(command, code, item) for command, codes in TABLE.items() for code, items in codes.items()
         for item in items]


@pytest.fixture
def lock_holder() -> Iterator[subprocess.Popen]:
    """A live process whose command line looks like OpenClaw's (to hold a transcript lock)."""
    holder = subprocess.Popen(["bash", "-c", "sleep 60; true", "openclaw"])
    try:
        yield holder
    finally:
        holder.kill()
        holder.wait()


def _hold_transcript_lock(home: Path, pid: int) -> None:
    from openclaw_cli.compact.clock import iso_timestamp
    from openclaw_cli.locks.session_lock import lock_path_for

    lock = lock_path_for(home / SESSIONS / f"{MAIN_ID}.jsonl")
    lock.write_text(json.dumps({"pid": pid, "createdAt": iso_timestamp(), "maxHoldMs": 300000}, indent=2) + "\n")


@pytest.mark.parametrize("command, code, item", CASES,
                         ids=[f"{' '.join(c) or 'openclaw'} -> {code}: {item}" for c, code, item in CASES])
def test_each_documented_exit_code_is_real(command, code: int, item: Run, tmp_path: Path, request) -> None:
    home = tmp_path / "home"
    copy_state(home / ".openclaw")
    if item.setup:
        SETUPS[item.setup](home)
    if item.setup == "transcript lock":
        _hold_transcript_lock(home, request.getfixturevalue("lock_holder").pid)
    before = folder_digest(home)
    result = _ours(_argv(command, item), home, item.env, item.setup)
    shown = result.stdout if code == 0 or item.stream == "stdout" else result.stderr
    assert result.returncode == code, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    assert item.says in shown, shown
    assert "Traceback" not in result.stderr and "unexpected error" not in result.stderr
    if code != 0:
        assert folder_digest(home) == before

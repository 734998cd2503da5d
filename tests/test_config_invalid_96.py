"""An invalid config in the SQLite era reported as OpenClaw 2026.9.6 reports it: the block before a
command (file, problems with their line and value, hints), `openclaw sessions`' own failure lines, the
JSON documents of `--json`; the file era prints 2026.7.1's block."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import refbin
from helpers.broken_json5 import BROKEN
from helpers.refbin import run_ours
from helpers.sqlite_state import copy_real_96


def _edit(change):
    def edit(path: Path) -> None:
        cfg = json.loads(path.read_text())
        change(cfg)
        path.write_text(json.dumps(cfg, indent=2))
    return edit


def _text(change):
    def edit(path: Path) -> None:
        path.write_text(change(path.read_text()))
    return edit


def _include(path: Path) -> None:
    (path.parent / "extra.json5").write_text('{\n  // included\n  maintenance: {mode: "nope"},\n}\n')
    _edit(lambda c: c.update(session={"$include": "./extra.json5", "dmScope": "zz"}))(path)


CASES = {
    "enum and duration": _edit(lambda c: c.update(session={"maintenance": {"mode": "bogus", "pruneAfter": "x"}})),
    "nested unknown keys": _edit(lambda c: c.update(session={"maintenance": {"zzz": True, "yyy": [1]}})),
    "unknown keys at the root": _edit(lambda c: c.update(bogus=1, other={"a": 1})),
    "array index and dotted key": _edit(lambda c: c.update(session={
        "sendPolicy": {"rules": [{"action": "allow"}, {"action": "bogus"}]},
        "resetByChannel": {"a.b": {"mode": "bogus"}}})),
    "missing required key": _edit(lambda c: c.update(session={"sendPolicy": {"rules": [{}]}})),
    "numbers and null": _edit(lambda c: c.update(session={
        "maintenance": {"maxEntries": -3, "resetArchiveRetention": None}, "dmScope": 7})),
    "long string": _edit(lambda c: c.update(session={"maintenance": {"mode": "x" * 300}})),
    "json5 text": _text(lambda t: t[:-2] + ",\n  // c\n  session: {maintenance: {mode: 'bad', pruneAfter: Infinity,}},\n}\n"),
    "included file": _include,
    "duplicate keys and CRLF": _text(lambda t: (t[:-2] + ',\n  "session": {"dmScope": "x"},\n  "session": {"dmScope": "y"}\n}\n')
                                     .replace("\n", "\r\n")),
    "control characters": _edit(lambda c: c.update(session={"maintenance": {"mode": "a\nb\x1b[31m\t"}})),
    "written by a newer release": _edit(lambda c: c.update(meta={"lastTouchedVersion": "2026.12.1"},
                                                           session={"maintenance": {"mode": "bogus"}})),
}


@pytest.fixture(autouse=True)
def _needs_96():
    if not refbin.reference_available(refbin.SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(refbin.SQLITE_ERA_VERSION))


def _state(tmp_path: Path, case: str) -> Path:
    home = tmp_path / "home"
    state = copy_real_96(home)
    CASES[case](state / "openclaw.json")
    return home


def _theirs(args: list[str], home: Path) -> refbin.Result:
    return refbin.run_reference(args, home, version=refbin.SQLITE_ERA_VERSION)


def _same(args: list[str], home: Path) -> refbin.Result:
    theirs, ours = _theirs(args, home), run_ours(args, home)
    assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr), args
    return ours


@pytest.mark.reference
@pytest.mark.parametrize("case", list(CASES))
def test_a_dry_run_prints_the_block_2026_9_6_prints_before_the_command(tmp_path, case):
    home = _state(tmp_path, case)
    ours = _same(["sessions", "cleanup", "--dry-run"], home)
    assert ours.returncode == 1 and ours.stdout == ""
    assert ours.stderr.startswith("OpenClaw config is invalid\nFile: ~/.openclaw/openclaw.json\nProblem:\n")


@pytest.mark.reference
@pytest.mark.parametrize("case", ["enum and duration", "array index and dotted key", "numbers and null"])
def test_with_json_the_block_names_the_fix_and_stdout_holds_the_issues(tmp_path, case):
    home = _state(tmp_path, case)
    for args in (["sessions", "cleanup", "--dry-run", "--json"], ["sessions", "list", "--json"]):
        ours = _same(args, home)
        assert json.loads(ours.stdout)["error"]["message"] == "OpenClaw config is invalid: ~/.openclaw/openclaw.json"
        assert "Fix: openclaw doctor --fix\n" in ours.stderr


@pytest.mark.reference
@pytest.mark.parametrize("case", ["enum and duration", "array index and dotted key", "written by a newer release"])
def test_bare_sessions_fails_as_its_own_read_of_the_config_does_in_2026_9_6(tmp_path, case):
    home = _state(tmp_path, case)
    ours = _same(["sessions"], home)
    notes, failure = ours.stderr.split("Invalid config at ", 1)  # after the notes on the fixture's legacy roster
    assert notes.startswith("Config (") and "[openclaw] The CLI command failed.\n" in failure
    ours = _same(["sessions", "--json"], home)
    assert json.loads(ours.stdout)["error"]["message"].startswith(f"Invalid config at {home}/.openclaw/openclaw.json:\n- ")


@pytest.mark.reference
def test_an_applying_cleanup_and_sessions_compact_print_the_block_with_the_repair_hint(tmp_path):
    home = _state(tmp_path, "enum and duration")
    for args in (["sessions", "cleanup", "--enforce"], ["sessions", "cleanup"], ["sessions", "compact", "agent:main:main"]):
        ours = _same(args, home)
        assert ours.stderr.endswith('Run "openclaw doctor --fix" to repair the config, then retry.\n')


@pytest.mark.reference
@pytest.mark.parametrize("case", list(BROKEN))
def test_a_text_that_does_not_parse_gets_json5s_reason_in_every_form(tmp_path, case):
    """The block of the check before a command (`SyntaxError: JSON5: …`), and bare `openclaw
    sessions`' `Failed to read config at <file>: JSON5: …` with its `Reason:` and `--json` message."""
    home = tmp_path / "home"
    (copy_real_96(home) / "openclaw.json").write_text(BROKEN[case], newline="")
    for args in (["sessions", "cleanup", "--dry-run"], ["sessions", "cleanup", "--dry-run", "--json"]):
        ours = _same(args, home)
        assert "  - <root>: JSON5 parse failed: SyntaxError: JSON5: " in ours.stderr
    ours = _same(["sessions"], home)
    assert ours.stderr.startswith(f"Failed to read config at {home}/.openclaw/openclaw.json: JSON5: ")
    ours = _same(["sessions", "--json"], home)
    assert json.loads(ours.stdout)["error"]["message"].startswith("JSON5: ")


def test_our_own_commands_print_the_block_of_their_sibling_sessions_commands(tmp_path):
    home = _state(tmp_path, "enum and duration")
    block = run_ours(["sessions", "cleanup", "--dry-run"], home)
    for args in (["compact", "agent:main:main"], ["sessions", "disk"], ["sessions", "export", "agent:main:main"],
                 ["sessions", "verify"]):
        ours = run_ours(args, home)
        assert (ours.returncode, ours.stdout, ours.stderr) == (1, "", block.stderr), args


def test_the_profile_is_named_in_the_commands_the_block_suggests(tmp_path):
    home = tmp_path / "home"
    state = copy_real_96(home)
    state.rename(home / ".openclaw-ops")
    CASES["enum and duration"](home / ".openclaw-ops" / "openclaw.json")
    ours = run_ours(["--profile", "ops", "sessions", "cleanup", "--dry-run"], home)
    assert "File: ~/.openclaw-ops/openclaw.json\n" in ours.stderr
    assert "Inspect: openclaw --profile ops config validate\n" in ours.stderr
    assert ours.stderr.endswith('Run "openclaw --profile ops doctor --fix" to repair the config, then retry.\n')


def test_a_file_era_invalid_config_prints_the_block_of_2026_7_1(home):
    config = home / ".openclaw" / "openclaw.json"
    config.write_text(json.dumps({"session": {"maintenance": {"mode": "bogus", "pruneAfter": "x"}}}, indent=2))
    block = ("OpenClaw config is invalid\nFile: ~/.openclaw/openclaw.json\nProblem:\n"
             '  - session.maintenance.mode: Invalid input (allowed: "enforce", "warn")\n\n'
             "Fix: openclaw doctor --fix\nInspect: openclaw config validate\n"
             "Audit, status, health, logs, tasks list/audit, and doctor commands still run with invalid config.\n")
    for args in (["sessions", "cleanup", "--dry-run"], ["sessions"], ["sessions", "--json"], ["compact", "main"]):
        ours = run_ours(args, home)
        assert (ours.returncode, ours.stdout, ours.stderr) == (1, "", block), args


def test_at_a_terminal_the_block_is_coloured_and_its_words_unchanged(tmp_path):
    from helpers.cli import run_in_pty

    home = _state(tmp_path, "enum and duration")
    piped = run_ours(["sessions", "cleanup", "--dry-run"], home).stderr
    shown = run_in_pty(["sessions", "cleanup", "--dry-run"], home, {})
    assert "\x1b[1mOpenClaw config is invalid\x1b[0m\n" in shown and "\x1b" not in piped
    assert re.sub(r"\x1b\[[0-9;]*m", "", shown) == piped

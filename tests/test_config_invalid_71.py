"""An invalid config in the file era reported as OpenClaw 2026.7.1 and 2026.7.35 report it: the block
before a command, byte for byte, with stdout empty and exit 1, `--json` or not; a text that does not
parse with json5's own reason, there and in doctor's closing lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import refbin
from helpers.broken_json5 import BROKEN
from helpers.refbin import run_ours

CASES = {
    "enum and duration": {"session": {"maintenance": {"mode": "bogus", "pruneAfter": "x"}}},
    "duration": {"session": {"maintenance": {"pruneAfter": "x"}}},
    "nested unknown key": {"session": {"maintenance": {"zzz": True}}},
    "root unknown key": {"bogus": 1},
    "array index and dotted key": {"session": {"sendPolicy": {"rules": [{"action": "allow"}, {"action": "bogus"}]},
                                               "resetByChannel": {"a.b": {"mode": "bogus"}}}},
    "several issues": {"session": {"dmScope": "zz", "maintenance": {"mode": "bogus", "maxEntries": -3}}, "bogus": 1},
}
COMMANDS = (["sessions", "cleanup", "--dry-run"], ["sessions", "cleanup", "--dry-run", "--json"], ["sessions"],
            ["sessions", "--json"])


@pytest.mark.reference
@pytest.mark.parametrize("version", refbin.FILE_ERA_VERSIONS)
@pytest.mark.parametrize("case", list(CASES))
def test_every_command_prints_the_block_of_the_file_era_release(home: Path, case: str, version: str):
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    (home / ".openclaw" / "openclaw.json").write_text(json.dumps(CASES[case], indent=2))
    for args in COMMANDS:
        theirs, ours = refbin.run_reference(args, home, version=version), run_ours(args, home)
        assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr), args
        assert ours.returncode == 1 and ours.stderr.startswith("OpenClaw config is invalid\nFile: ~/.openclaw/")


@pytest.mark.reference
@pytest.mark.parametrize("version", refbin.FILE_ERA_VERSIONS)
@pytest.mark.parametrize("case", list(BROKEN))
def test_a_text_that_does_not_parse_gets_json5s_reason_in_the_block(home: Path, case: str, version: str):
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    (home / ".openclaw" / "openclaw.json").write_text(BROKEN[case], newline="")
    for args in COMMANDS:
        theirs, ours = refbin.run_reference(args, home, version=version), run_ours(args, home)
        assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr), args
        assert "  - <root>: JSON5 parse failed: SyntaxError: JSON5: " in ours.stderr


def _closing_invalid_config(stderr: str) -> list[str]:
    """Doctor's closing `Invalid config:` lines (the rest of its report is laid out as our own)."""
    lines = stderr.splitlines()
    start = lines.index("Invalid config:")
    return lines[start:start + 2]


@pytest.mark.reference
@pytest.mark.parametrize("case", ["stray character", "astral before the error", "C1 control"])
def test_doctor_closes_with_json5s_reason(home: Path, case: str):
    (home / ".openclaw" / "openclaw.json").write_text(BROKEN[case], newline="")
    theirs, ours = refbin.run_reference(["doctor"], home), run_ours(["doctor"], home)
    assert ours.returncode == theirs.returncode == 0
    assert _closing_invalid_config(ours.stderr) == _closing_invalid_config(theirs.stderr)
    assert _closing_invalid_config(ours.stderr)[1].startswith("- <root>: JSON5 parse failed: SyntaxError: JSON5: ")

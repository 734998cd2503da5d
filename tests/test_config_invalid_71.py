"""An invalid config in the file era reported as OpenClaw 2026.7.1 and 2026.7.35 report it: the block
before a command, byte for byte, with stdout empty and exit 1, `--json` or not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import refbin
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

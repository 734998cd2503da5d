"""Options typer would hand back unchanged are not run through its validator (which costs an import and a
build per option); every other value still is, with typer's checks and messages."""

import json
import subprocess
import sys

import pytest
from helpers.cli import run
from helpers.refbin import clean_env

PROBE = """
import json, sys
sys.argv = ["openclaw", *json.loads(sys.argv[1])]
from openclaw_cli.cli.app import main
try:
    main()
except SystemExit:
    pass
print(json.dumps("typer._adapters" in sys.modules), file=sys.stderr)
"""


def _home(tmp_path):
    sessions = tmp_path / ".openclaw" / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "sessions.json").write_text(json.dumps({"agent:main:main": {"sessionId": "s1", "updatedAt": 1}}))
    return tmp_path


def _builds_a_validator(home, argv) -> bool:
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv)], capture_output=True, text=True,
                         env=clean_env(home), cwd=home, timeout=60)
    return json.loads(out.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("argv", [["sessions", "cleanup", "--dry-run", "--json"],
                                  ["sessions", "--json", "--active", "5"],
                                  ["sessions", "disk", "--json", "--top", "3"]])
def test_flags_strings_and_untouched_defaults_build_no_validator(tmp_path, argv):
    assert _builds_a_validator(_home(tmp_path), argv) is False


def test_a_number_given_on_the_command_line_is_still_validated(tmp_path):
    home = _home(tmp_path)
    assert _builds_a_validator(home, ["sessions", "cleanup", "--dry-run", "--json", "--wait", "2.5"]) is True
    assert run(["sessions", "cleanup", "--dry-run", "--json", "--wait", "2.5"], home).returncode == 0
    refused = run(["sessions", "cleanup", "--dry-run", "--wait", "-1"], home)
    assert refused.returncode == 2 and "--wait" in refused.stderr and refused.stdout == ""

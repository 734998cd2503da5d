"""A command on a file-era state loads no SQLite library: asking whether an agent has a database is a stat."""

import json
import subprocess
import sys

import pytest
from helpers.refbin import clean_env

PROBE = """
import json, sys
sys.argv = ["openclaw", *json.loads(sys.argv[1])]
from openclaw_cli.cli.app import main
try:
    main()
except SystemExit:
    pass
print(json.dumps("apsw" in sys.modules), file=sys.stderr)
"""


def _file_era_home(tmp_path):
    sessions = tmp_path / ".openclaw" / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "sessions.json").write_text(json.dumps({"agent:main:main": {"sessionId": "s1", "updatedAt": 1}}))
    (sessions / "s1.jsonl").write_text("{}\n")
    return tmp_path


@pytest.mark.parametrize("argv", [["sessions", "--json"], ["sessions", "cleanup", "--dry-run", "--json"],
                                  ["sessions", "disk", "--json"]])
def test_a_file_era_command_never_imports_the_sqlite_reader(tmp_path, argv):
    home = _file_era_home(tmp_path)
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv)], capture_output=True, text=True,
                         env=clean_env(home), cwd=home)
    assert json.loads(out.stderr.strip().splitlines()[-1]) is False, out.stderr

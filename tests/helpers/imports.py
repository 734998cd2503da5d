"""Which modules a run of our CLI loads: one command in a fresh interpreter, asked afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers.refbin import clean_env

_PROBE = """
import json, sys
names = json.loads(sys.argv[2])
sys.argv = ["openclaw", *json.loads(sys.argv[1])]
from openclaw_cli.cli.app import main
try:
    main()
except SystemExit:
    pass
print(json.dumps({name: name in sys.modules for name in names}), file=sys.stderr)
"""


def file_era_home(root: Path) -> Path:
    """`root` as a HOME with a one-entry file-era store (and its transcript) for agent main."""
    sessions = root / ".openclaw" / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "sessions.json").write_text(json.dumps({"agent:main:main": {"sessionId": "s1", "updatedAt": 1}}))
    (sessions / "s1.jsonl").write_text("{}\n")
    return root


def loaded_after(home: Path, argv: list[str], *modules: str) -> dict[str, bool]:
    """Whether each of `modules` was imported by `openclaw <argv>` run in `home`."""
    out = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argv), json.dumps(modules)],
                         capture_output=True, text=True, env=clean_env(home), cwd=home, timeout=60)
    return json.loads(out.stderr.strip().splitlines()[-1])

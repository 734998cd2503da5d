"""SQLite-era states: copies of the real 2026.9.6 fixture in scratch homes, and edits of those copies."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

REAL_96 = Path(__file__).resolve().parents[1] / "data" / "real-2026.9.6"
REAL_96_STATE = REAL_96 / "state"
REAL_96_CLI = REAL_96 / "cli"
RECORDED_HOME = "/home/user"  # the scratch home the fixture's paths were rewritten to


def copy_real_96(home: Path) -> Path:
    """`<home>/.openclaw`, a writable copy of the fixture state (never read the fixture in place:
    even a read-only SQLite open writes `-shm`). Returns the state folder."""
    state = home / ".openclaw"
    shutil.copytree(REAL_96_STATE, state)
    for path in [state, *state.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)
    # The generator's log file is an absolute path; OpenClaw would write it outside the copy.
    config = state / "openclaw.json"
    config.write_text(config.read_text().replace(f"{RECORDED_HOME}/.openclaw/logs", str(state / "logs")))
    return state


def agent_db(state: Path, agent: str = "main") -> Path:
    return state / "agents" / agent / "agent" / "openclaw-agent.sqlite"


def write_db(path: Path, *statements: str) -> None:
    """Run statements on a test's own copy of a database (never on the fixture), writable."""
    import apsw

    conn = apsw.Connection(str(path))
    try:
        for sql in statements:
            conn.execute(sql)
    finally:
        conn.close()

"""SQLite-era states: copies of the real 2026.9.6 fixture in scratch homes, and edits of those copies."""

from __future__ import annotations

import json
import re
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


def real_96_home(root: Path, change) -> Path:
    """`root` as a home holding a copy of the fixture state whose config `change(cfg)` edited in place."""
    state = copy_real_96(root)
    path = state / "openclaw.json"
    cfg = json.loads(path.read_text())
    change(cfg)
    path.write_text(json.dumps(cfg, indent=2))
    return root


def agent_db(state: Path, agent: str = "main") -> Path:
    return state / "agents" / agent / "agent" / "openclaw-agent.sqlite"


def swap_agent_dbs(state: Path, first: str = "main", second: str = "work") -> None:
    """Swap two agents' databases, each with its `-wal` and `-shm`: each agent's folder then holds
    a database that records the other agent as its owner."""
    first_db, second_db = agent_db(state, first), agent_db(state, second)
    for suffix in ("", "-wal", "-shm"):
        a, b = Path(f"{first_db}{suffix}"), Path(f"{second_db}{suffix}")
        if a.exists() or b.exists():
            swap = a.with_name(a.name + ".swap")
            if a.exists():
                a.rename(swap)
            if b.exists():
                b.rename(a)
            if swap.exists():
                swap.rename(b)


def copy_agent_db(state: Path, source: str, target: str) -> None:
    """Replace agent `target`'s database (and its `-wal`/`-shm`) with a copy of agent `source`'s:
    only `target`'s folder then holds a database that records another agent as its owner."""
    source_db, target_db = agent_db(state, source), agent_db(state, target)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target_db}{suffix}").unlink(missing_ok=True)
        if Path(f"{source_db}{suffix}").exists():
            shutil.copy2(f"{source_db}{suffix}", f"{target_db}{suffix}")


def write_db(path: Path, *statements: str) -> None:
    """Run statements on a test's own copy of a database (never on the fixture), writable."""
    import apsw

    conn = apsw.Connection(str(path))
    try:
        for sql in statements:
            conn.execute(sql)
    finally:
        conn.close()


REAL_71_STATE = Path(__file__).resolve().parents[1] / "data" / "real-2026.7.1" / "state"


def migrate_real_71(home: Path) -> Path:
    """`<home>/.openclaw`: a copy of the real 2026.7.1 state imported by the real 2026.9.6
    (`openclaw doctor --session-sqlite import --session-sqlite-all-agents`): the sessions in the
    new agent database, the originals moved into `session-sqlite-import-archive/`. Returns the state."""
    import json

    from helpers.refbin import SQLITE_ERA_VERSION, run_reference

    state = home / ".openclaw"
    shutil.copytree(REAL_71_STATE, state)
    for path in [state, *state.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)
    result = run_reference(["doctor", "--session-sqlite", "import", "--session-sqlite-all-agents", "--json"],
                           home, version=SQLITE_ERA_VERSION)
    if result.returncode != 0 and "no-replace move is unavailable" in result.stdout + result.stderr:
        # The fixture's way past fs-safe's missing no-replace rename: without the workspace state
        # file, no startup migration needs it.
        (state / "workspace" / "openclaw-workspace-state.json").unlink(missing_ok=True)
        result = run_reference(["doctor", "--session-sqlite", "import", "--session-sqlite-all-agents", "--json"],
                               home, version=SQLITE_ERA_VERSION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["totals"]["importedTranscriptEvents"] > 0
    return state


def stored_events(db: Path, session_key: str) -> list[dict]:
    """The transcript events of the key's current session, read straight from the database (apsw,
    read-only; zstd rows decoded), independent of the code under test."""
    import json

    import apsw
    import zstandard

    conn = apsw.Connection(f"file:{db}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        conn.set_busy_timeout(5000)
        (entry,), = conn.execute("SELECT entry_json FROM session_nodes WHERE session_key = ?", (session_key,))
        session_id = json.loads(entry)["sessionId"]
        rows = list(conn.execute("SELECT event_json, event_zstd FROM transcript_events WHERE session_id = ? "
                                 "ORDER BY seq", (session_id,)))
    finally:
        conn.close()
    return [json.loads(text if text is not None else zstandard.ZstdDecompressor().decompress(frame))
            for text, frame in rows]


def last_reply(db: Path, session_key: str) -> str:
    """The text of the last assistant message in the key's transcript (a Gateway's full reply: the
    chat events cut long texts)."""
    for event in reversed(stored_events(db, session_key)):
        message = event.get("message") or {}
        if message.get("role") == "assistant":
            return "".join(block.get("text", "") for block in message.get("content") or [])
    raise AssertionError(f"no assistant reply in {session_key}")


def wait_until_settled(db: Path, session_key: str, quiet_s: float = 1.0, timeout_s: float = 30.0) -> None:
    """Return once the key's entry and its transcript events stayed the same for `quiet_s`: a Gateway
    persists a turn's usage and entry updates after the reply itself."""
    import time

    import apsw

    def snapshot() -> tuple:
        conn = apsw.Connection(f"file:{db}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
        try:
            conn.set_busy_timeout(5000)
            (entry,), = conn.execute("SELECT entry_json FROM session_nodes WHERE session_key = ?", (session_key,))
            (events,), = conn.execute("SELECT count(*) FROM transcript_events")
            return entry, events
        finally:
            conn.close()

    deadline = time.monotonic() + timeout_s
    last = snapshot()
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = snapshot()
        if now == last:
            return
        last = now
    raise AssertionError(f"{session_key} kept changing for {timeout_s:.0f} s")


def listing_text(result) -> str:
    """2026.9.6's `sessions` text: it writes the listing to stderr when stdout is piped, after its
    notes on reading the config (left out: `read_notes`)."""
    lines = [line for line in (result.stdout + result.stderr).splitlines(True) if not line.startswith("Config (")]
    return "".join(lines)


def read_notes(result) -> str:
    """2026.9.6's `Config (<file>): …` lines on stderr, before its `sessions` listing (ours: all of stderr)."""
    return "".join(line for line in result.stderr.splitlines(True) if line.startswith("Config ("))


def ages_dropped(text: str) -> str:
    """A listing's `ageMs` values, which differ between two runs a moment apart, as 0."""
    return re.sub(r'"ageMs": \d+', '"ageMs": 0', text)


def assert_same_as_96(ours, ref, ours_home: Path, ref_home: Path, *, bare_text: bool = False) -> None:
    """Ours and 2026.9.6 ran a command on copies of one state (homes apart) and printed the same:
    exit code, stdout and stderr, ages aside. A successful bare `sessions` in text: 2026.9.6 writes its
    listing to stderr when piped, after its notes; ours to stdout, so the two streams are compared joined."""

    def same(ours_text: str, ref_text: str) -> None:
        assert ages_dropped(ours_text).replace(str(ours_home), "<HOME>") == \
            ages_dropped(ref_text).replace(str(ref_home), "<HOME>")

    assert ours.returncode == ref.returncode, (ours.stderr, ref.stderr)
    if bare_text and not ref.returncode:
        same(ours.stderr + ours.stdout, ref.stdout + ref.stderr)
        heads = ("Session store: ", "Session stores: ")
        assert ours.stdout.startswith(heads) and not any(head in ours.stderr for head in heads)
    else:
        same(ours.stderr, ref.stderr)
        same(ours.stdout, ref.stdout)

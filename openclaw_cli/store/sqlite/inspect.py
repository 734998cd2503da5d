"""A database looked at without a trace: schema markers, `PRAGMA quick_check`, WAL size, on a handle
that writes nothing beside the file (an immutable open, or a private copy when the WAL holds data)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.store.sqlite.connection import (
    BUSY_TIMEOUT_MS,
    SUPPORTED_AGENT_SCHEMA,
    AgentDb,
    ro_uri,
    wal_bytes,
)

SUPPORTED_GLOBAL_SCHEMA = 18  # the newest shared-state schema this tool knows (OpenClaw 2026.9.6)
QUICK_CHECK_ROWS = 20  # how many problems quick_check lists before it stops


@dataclass
class DbProbe:
    """What one look at a database found: `error` when it could not be opened or read at all."""

    path: str
    role: str  # the role it should have: "agent" or "global"
    error: str | None = None
    user_version: int | None = None
    meta_role: str | None = None
    meta_version: int | None = None
    meta_agent: str | None = None
    meta: tuple[object, object] | None = None  # the primary schema_meta row's role and agent id, as stored
    app_version: str | None = None
    quick_check: list[str] = field(default_factory=list)
    wal_bytes: int = 0

    @property
    def supported(self) -> int:
        return SUPPORTED_AGENT_SCHEMA if self.role == "agent" else SUPPORTED_GLOBAL_SCHEMA


def _reason(exc: BaseException) -> str:
    text = str(exc)
    return text.split(": ", 1)[1] if text.startswith(type(exc).__name__ + ": ") else text


@contextmanager
def open_untouched(path: str) -> Iterator[Any]:
    """An apsw connection on the database at `path` that leaves every file of it as it was. With an
    empty or absent `-wal` the main file is the whole database: opened `immutable`, nothing is
    created or rewritten. A WAL with frames is read from a private copy of the file and its WAL
    (SQLite would otherwise create or rewrite `-shm`), removed afterwards."""
    import apsw

    flags = apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI
    copy_dir = None
    try:
        if wal_bytes(path) > 0:
            copy_dir = tempfile.mkdtemp(prefix="openclaw-cli-db-")
            target = os.path.join(copy_dir, "db.sqlite")
            shutil.copyfile(path, target)
            shutil.copyfile(path + "-wal", target + "-wal")
            conn = apsw.Connection(ro_uri(target), flags=flags)
        else:
            conn = apsw.Connection(ro_uri(path), flags=flags)  # immutable: the WAL is empty
        try:
            conn.set_busy_timeout(BUSY_TIMEOUT_MS)
            yield conn
        finally:
            conn.close()
    finally:
        if copy_dir is not None:
            shutil.rmtree(copy_dir, ignore_errors=True)


def has_session_tables_untouched(path: str) -> bool:
    """`store.era.has_session_tables` on an untouched handle: a file that cannot be read counts."""
    import apsw

    if not os.path.isfile(path):
        return False
    try:
        with open_untouched(path) as conn:
            return bool(list(conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_nodes'")))
    except apsw.NotADBError:
        return False
    except (apsw.Error, OSError):
        return True


def _read_markers(probe: DbProbe, conn: Any) -> None:
    probe.user_version = next(iter(conn.execute("PRAGMA user_version")))[0]
    has_meta = list(conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_meta'"))
    if has_meta:
        rows = list(conn.execute("SELECT role, schema_version, agent_id, app_version FROM schema_meta "
                                 "WHERE meta_key = 'primary'"))
        if rows:
            role, version, agent, app = rows[0]
            probe.meta_role = role if isinstance(role, str) else None
            probe.meta_version = version if isinstance(version, int) else None
            probe.meta_agent = agent if isinstance(agent, str) else None
            probe.app_version = app.split("\n", 1)[0] if isinstance(app, str) else None
            probe.meta = (role, agent)


def probe_db(path: str, role: str, quick_check: bool = True) -> DbProbe:
    """Open, read the schema markers and (unless told not to) run `PRAGMA quick_check`: every page,
    the indexes against their tables, the CHECK constraints, with apsw's current SQLite."""
    import apsw

    probe = DbProbe(path, role, wal_bytes=wal_bytes(path))
    try:
        with open_untouched(path) as conn:
            _read_markers(probe, conn)
            if quick_check:
                rows = [str(row[0]) for row in conn.execute(f"PRAGMA quick_check({QUICK_CHECK_ROWS})")]
                probe.quick_check = [line for row in rows for line in row.splitlines()
                                     if line.strip() and not line.startswith("*** in database")]
    except (apsw.Error, OSError) as exc:
        probe.error = _reason(exc)
    return probe


@contextmanager
def open_agent_untouched(path: str, agent_id: str | None, version: int) -> Iterator[AgentDb]:
    """An `AgentDb` (for the entry and transcript readers) on an untouched handle, in one read
    transaction; the caller has checked the schema with `probe_db`."""
    with open_untouched(path) as conn:
        conn.execute("BEGIN")
        try:
            yield AgentDb(path, version, agent_id, conn)
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")


def current_sessions(db: AgentDb) -> dict[str, str | None]:
    """Each session key's current sessionId, as the `session_nodes` index column holds it."""
    return {str(key): (sid if isinstance(sid, str) else None)
            for key, sid in db.rows("SELECT session_key, current_session_id FROM session_nodes")}


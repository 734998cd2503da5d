"""A read-only connection to an agent database: `mode=ro`, 5 s busy timeout, schema checked."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from openclaw_cli.errors import AgentDbRefusedError, StoreError

AGENT_DB_FILENAME = "openclaw-agent.sqlite"
SUPPORTED_AGENT_SCHEMA = 23  # the newest agent schema this reader knows (OpenClaw 2026.9.6)
OLDEST_AGENT_SCHEMA = 4  # sessions and transcripts moved into SQLite
BUSY_TIMEOUT_MS = 5000  # what OpenClaw's own readers wait for a writer


@dataclass(frozen=True)
class AgentDb:
    """An open agent database inside one read transaction."""

    path: str
    schema_version: int
    agent_id: str | None
    conn: Any

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        return list(self.conn.execute(sql, params))

    def has_table(self, name: str) -> bool:
        return bool(self.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)))


def ro_uri(path: str) -> str:
    """The read-only URI of a database. Without WAL content beside it (no `-wal`, or an empty one, as
    a cleanly stopped OpenClaw leaves it) the file alone holds the database, and it is opened
    immutable: reading then creates no `-wal`/`-shm` and leaves the `-shm` a Gateway left as it was.
    With WAL content the WAL is read (never ignored), which SQLite does through the `-shm`."""
    uri = "file:" + quote(os.path.abspath(path), safe="/") + "?mode=ro"
    return uri + "&immutable=1" if wal_bytes(path) == 0 else uri


def wal_bytes(path: str) -> int:
    """The size of the database's `-wal` (0 when there is none)."""
    try:
        return os.stat(path + "-wal").st_size
    except OSError:
        return 0


def _connect(path: str) -> Any:
    import apsw

    flags = apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI
    try:
        conn = apsw.Connection(ro_uri(path), flags=flags)
        conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        return conn
    except apsw.Error as exc:
        raise StoreError(f"cannot open {path}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    text = str(exc)
    return text.split(": ", 1)[1] if text.startswith(type(exc).__name__ + ": ") else text


def check_owner(path: str, meta: tuple[object, object] | None, agent_id: str | None) -> None:
    """Refuse, in 2026.9.6's words, a database without its primary `schema_meta` row (`meta`: its role
    and agent id), or whose row is not an agent's, names no owner, or names another agent (its id
    normalised, as 2026.9.6 compares it with the requested one). Before it opens a database, 2026.9.6
    refuses one at `agents/<id>/agent/openclaw-agent.sqlite` for another agent than `<id>`."""
    from openclaw_cli.config.agents import normalize_agent_id

    in_folder = path_agent(path)
    if agent_id is not None and in_folder is not None and in_folder != agent_id:
        raise AgentDbRefusedError(f"SQLite session store path belongs to agent {in_folder}; requested agent {agent_id}.")
    what = f"OpenClaw agent database {path}"
    if meta is None:
        raise AgentDbRefusedError(f"{what} has no schema ownership metadata.")
    role, owner = meta
    if role != "agent":
        raise AgentDbRefusedError(f"{what} has schema role {role if isinstance(role, str) else 'unknown'}; "
                                  "expected agent.")
    if not isinstance(owner, str) or not owner:
        raise AgentDbRefusedError(f"{what} has no agent owner.")
    if agent_id is not None and normalize_agent_id(owner) != agent_id:
        raise AgentDbRefusedError(f"{what} belongs to agent {owner}; requested agent {agent_id}.")


def path_agent(path: str) -> str | None:
    """resolveAgentIdFromSqliteDatabasePath: `<id>` of `agents/<id>/agent/openclaw-agent.sqlite`."""
    from openclaw_cli.config.agents import normalize_agent_id

    agent_db_dir = os.path.dirname(path)
    agent_dir = os.path.dirname(agent_db_dir)
    if (os.path.basename(path) != AGENT_DB_FILENAME or os.path.basename(agent_db_dir) != "agent"
            or os.path.basename(os.path.dirname(agent_dir)) != "agents"):
        return None
    return normalize_agent_id(os.path.basename(agent_dir))


def _check_schema(path: str, conn: Any, agent_id: str | None) -> tuple[int, str | None]:
    """`PRAGMA user_version` and the `schema_meta` row, as OpenClaw's read-only opener checks them."""
    version = next(iter(conn.execute("PRAGMA user_version")))[0]
    if version > SUPPORTED_AGENT_SCHEMA:
        raise StoreError(f"{path} was written by a newer OpenClaw (schema {version}); "
                         f"this tool reads up to {SUPPORTED_AGENT_SCHEMA}")
    if version < OLDEST_AGENT_SCHEMA:
        raise StoreError(f"{path} has agent schema {version}, older than any that holds sessions "
                         f"(this tool reads {OLDEST_AGENT_SCHEMA} to {SUPPORTED_AGENT_SCHEMA})")
    has_meta = list(conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_meta'"))
    if not has_meta:
        raise StoreError(f"{path} has no schema_meta table, so it is not an OpenClaw agent database")
    meta = list(conn.execute("SELECT role, agent_id FROM schema_meta WHERE meta_key = 'primary'"))
    check_owner(path, meta[0] if meta else None, agent_id)
    owner = meta[0][1]
    assert isinstance(owner, str)  # check_owner refuses any other
    return version, owner


@contextmanager
def open_agent_db(path: str, agent_id: str | None = None) -> Iterator[AgentDb]:
    """The database at `path`, read-only, its schema checked, inside one read transaction (so
    related queries see one snapshot while a Gateway commits). Never writes, never checkpoints:
    SQLite's read-only WAL rules only let it create an absent `-wal`/`-shm` pair."""
    import apsw

    if not os.path.isfile(path):
        raise StoreError(f"no agent database at {path}")
    conn = _connect(path)
    try:
        try:
            conn.execute("BEGIN")
            version, owner = _check_schema(path, conn, agent_id)
            yield AgentDb(path, version, owner, conn)
        except apsw.BusyError:
            raise StoreError(f"{path} is locked by another process (waited {BUSY_TIMEOUT_MS // 1000} s)") from None
        except apsw.Error as exc:
            raise StoreError(f"cannot read {path}: {_reason(exc)}") from None
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")
    finally:
        conn.close()

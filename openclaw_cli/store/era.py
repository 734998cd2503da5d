"""Which store an agent keeps its sessions in: the SQLite database (2026.8+), sessions.json, both, none."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.config.agents import Target, normalize_agent_id
from openclaw_cli.store.sqlite.connection import AGENT_DB_FILENAME, BUSY_TIMEOUT_MS, ro_uri, wal_bytes

SQLITE = "sqlite"
FILES = "files"
BOTH = "both"  # mid-migration: a database with sessions and a sessions.json beside it
NONE = "none"


@dataclass(frozen=True)
class AgentStore:
    """One agent's session store as found on disk."""

    agent_id: str
    era: str
    sessions_json: str
    sqlite_path: str

    @property
    def in_sqlite(self) -> bool:
        """The sessions live in the database (alone, or with a sessions.json left beside it)."""
        return self.era in (SQLITE, BOTH)

    @property
    def display_path(self) -> str:
        """The path OpenClaw names for this store: the database in the SQLite era."""
        return self.sqlite_path if self.in_sqlite else self.sessions_json


def _path_agent_dir(store_path: str) -> str | None:
    """`agents/<id>` when the path is `agents/<id>/sessions/sessions.json`."""
    sessions_dir = os.path.dirname(store_path)
    agent_dir = os.path.dirname(sessions_dir)
    if (os.path.basename(store_path) == "sessions.json" and os.path.basename(sessions_dir) == "sessions"
            and os.path.basename(os.path.dirname(agent_dir)) == "agents"):
        return agent_dir
    return None


def sqlite_path_of(store_path: str) -> str:
    """The database a store path names (below), as 2026.9.6 maps an explicit `--store`."""
    return _from_store_path(store_path)


def _from_store_path(store_path: str) -> str:
    """The database OpenClaw maps a store path to: a `.sqlite` path is the database itself;
    `agents/<id>/sessions/sessions.json` → `agents/<id>/agent/openclaw-agent.sqlite`; any other
    sessions.json → `openclaw-agent.sqlite` beside it; any other file `<name>.<ext>` → `<name>.sqlite`
    beside it (resolveUnsuffixedSqliteTargetFromSessionStorePath)."""
    if store_path.endswith(".sqlite"):
        return store_path
    agent_dir = _path_agent_dir(store_path)
    if agent_dir is not None:
        return os.path.join(agent_dir, "agent", AGENT_DB_FILENAME)
    name = os.path.basename(store_path)
    if name != "sessions.json":
        return os.path.join(os.path.dirname(store_path), f"{os.path.splitext(name)[0] or 'openclaw-agent'}.sqlite")
    return os.path.join(os.path.dirname(store_path), AGENT_DB_FILENAME)


def agent_db_path(cfg: Mapping[str, Any] | None, target: Target, env: Mapping[str, str] | None = None) -> str:
    """Where the agent's database is: where its store path maps (`agents/<id>/agent/openclaw-agent.sqlite`
    for the default store). A configured `agentDir` (`agents.entries.<id>` or `agents.list[]`) does not
    move it: 2026.9.6 reads and writes `<state>/agents/<id>/agent/` whatever `agentDir` says."""
    return _from_store_path(target.store_path)


def has_session_tables(path: str) -> bool:
    """The file is an SQLite database holding `session_nodes` (one that cannot be read counts, so
    that reading it reports why instead of falling back to an empty file-era store).

    Asking changes no file: the main file is probed immutable (the table is there once the Gateway
    has checkpointed its schema, as it has in any database it has run on); only when it is not and the
    `-wal` holds frames is the WAL read, from a private copy (store/sqlite/inspect.py)."""
    if not os.path.isfile(path):
        return False  # asked of every agent by every command: no SQLite library loaded for a file-era one
    import apsw

    uri = ro_uri(path)
    if "immutable=1" not in uri:
        uri += "&immutable=1"
    try:
        conn = apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    except apsw.Error:
        return True
    try:
        conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        if list(conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_nodes'")):
            return True
    except apsw.NotADBError:
        return False
    except apsw.Error:
        return True
    finally:
        conn.close()
    if wal_bytes(path) == 0:
        return False
    from openclaw_cli.store.sqlite.inspect import has_session_tables_untouched

    return has_session_tables_untouched(path)


def detect(cfg: Mapping[str, Any] | None, target: Target, env: Mapping[str, str] | None = None) -> AgentStore:
    """The one answer to "which store does this agent have?". A store path inside
    `agents/<id>/` names agent `<id>` (as OpenClaw maps an explicit `--store`). Asking changes no file."""
    agent_dir = _path_agent_dir(target.store_path)
    if agent_dir is not None:
        target = Target(normalize_agent_id(os.path.basename(agent_dir)), target.store_path)
    db = agent_db_path(cfg, target, env)
    in_db = has_session_tables(db)
    in_files = target.store_path != db and os.path.lexists(target.store_path)
    era = BOTH if in_db and in_files else SQLITE if in_db else FILES if in_files else NONE
    return AgentStore(target.agent_id, era, target.store_path, db)


def refuse_sqlite(cfg: Mapping[str, Any] | None, targets: list[Target], command: str,
                  env: Mapping[str, str] | None = None, *, change: str | None = None,
                  flag: str | None = None) -> None:
    """Stop a command that works on sessions.json only before it sees (or writes) a phantom
    empty store where an agent keeps its sessions in its database.

    `change` names the store change the command would make (`apply session maintenance`): such a
    change is its Gateway's alone (this tool never writes an OpenClaw database, nor a sessions.json
    beside one), so the error says to start it; `flag` is the option that kept the work off a
    running Gateway (`--store`, `--offline`), if any."""
    from openclaw_cli.errors import CliError, StoreError

    found = [store for store in (detect(cfg, t, env) for t in targets) if store.in_sqlite]
    if not found:
        return
    where = ", ".join(store.sqlite_path for store in found)
    if change is not None:
        message = f"cannot {change}: {where} is an OpenClaw 2026.8+ session database, which only its Gateway changes"
        if flag:
            raise StoreError(message, hint=f"run the command again without {flag}, with the Gateway running "
                                           "(openclaw gateway run)")
        raise StoreError(message + ", and no Gateway is running",
                         hint="start the Gateway (openclaw gateway run, or openclaw gateway start for the service), "
                              "then run the command again")
    if len(found) == 1:
        who = f"agent {found[0].agent_id} keeps its sessions"
    else:
        who = "agents " + ", ".join(store.agent_id for store in found) + " keep their sessions"
    them = "it" if len(found) == 1 else "them"
    raise CliError(f"{who} in SQLite (OpenClaw 2026.8+): {where}; {command} does not read {them} yet",
                   hint="openclaw sessions lists them and openclaw sessions export KEY writes a transcript "
                        "as JSONL; a running Gateway of that OpenClaw does the rest")

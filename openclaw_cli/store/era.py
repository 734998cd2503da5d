"""Which store an agent keeps its sessions in: the SQLite database (2026.8+), sessions.json, both, none."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.config.agents import Target
from openclaw_cli.store.db_target import resolve
from openclaw_cli.store.sqlite.connection import BUSY_TIMEOUT_MS, ro_uri, wal_bytes

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
    shared_owner: str | None = None  # the owner of a `.sqlite` store every agent names

    @property
    def db_agent_id(self) -> str:
        """The agent the database must belong to: a shared database's owner, else the agent itself."""
        return self.shared_owner or self.agent_id

    @property
    def in_sqlite(self) -> bool:
        """The sessions live in the database (alone, or with a sessions.json left beside it)."""
        return self.era in (SQLITE, BOTH)

    @property
    def display_path(self) -> str:
        """The path OpenClaw names for this store: the database in the SQLite era."""
        return self.sqlite_path if self.in_sqlite else self.sessions_json


def agent_db_path(cfg: Mapping[str, Any] | None, target: Target, env: Mapping[str, str] | None = None) -> str:
    """Where the agent's database is: where its store path maps for it (store/db_target.py:
    `agents/<id>/agent/openclaw-agent.sqlite` for the default store, a shared folder's own or suffixed
    file). A configured `agentDir` (`agents.entries.<id>` or `agents.list[]`) does not move it:
    2026.9.6 reads and writes `<state>/agents/<id>/agent/` whatever `agentDir` says."""
    return resolve(target.store_path, target.agent_id, env=env).path


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
    """The one answer to "which store does this agent have?". A sessions.json inside `agents/<id>/`
    names agent `<id>` (as OpenClaw maps an explicit `--store`). Asking changes no file."""
    found = resolve(target.store_path, target.agent_id, env=env)
    if found.agent_id is not None and not found.shared and not os.path.abspath(target.store_path).endswith(".sqlite"):
        target = Target(found.agent_id, target.store_path)
    in_db = has_session_tables(found.path)
    in_files = os.path.abspath(target.store_path) != found.path and os.path.lexists(target.store_path)
    era = BOTH if in_db and in_files else SQLITE if in_db else FILES if in_files else NONE
    return AgentStore(target.agent_id, era, target.store_path, found.path, found.agent_id if found.shared else None)


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

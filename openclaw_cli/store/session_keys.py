"""The session keys of an agent's store, read quickly and leaving every file as it was (for shell completion)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def session_keys(cfg: Mapping[str, Any] | None, agent: str | None = None,
                 env: Mapping[str, str] | None = None) -> list[str]:
    """The keys of the agent's sessions (`agent`, default the default agent), as the commands that
    take a KEY name them: the agent database's keys for a SQLite-era agent (internal keys left out;
    the database opened untouched, its `-wal`/`-shm` as they were), else the normalised keys of its
    sessions.json; none when it has no store."""
    from openclaw_cli.config.agents import resolve_session_store_targets
    from openclaw_cli.store import era

    target = resolve_session_store_targets(cfg, agent=agent, env=env)[0]
    found = era.detect(cfg, target, env)
    if found.in_sqlite:
        return _database_keys(found.sqlite_path)
    if found.era == era.NONE:
        return []
    from openclaw_cli.store.sessions_json import load_store

    return [key for key, entry in load_store(target.store_path).store.items() if isinstance(entry, Mapping)]


def _database_keys(path: str) -> list[str]:
    from openclaw_cli.store.sqlite.entries import is_internal_key
    from openclaw_cli.store.sqlite.inspect import open_untouched

    with open_untouched(path) as conn:
        rows = list(conn.execute("SELECT session_key FROM session_nodes ORDER BY session_key"))
    return [key for (key,) in rows if isinstance(key, str) and not is_internal_key(key)]

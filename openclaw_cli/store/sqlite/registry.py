"""Who owns an agent database: the global database's registry (`state/openclaw.sqlite`, table
`agent_databases`) and the database's own `schema_meta` row, both read without changing a file."""

from __future__ import annotations

import os

from openclaw_cli.store.sqlite.connection import SUPPORTED_AGENT_SCHEMA

GLOBAL_DB = os.path.join("state", "openclaw.sqlite")


def registered_databases(state_dir: str) -> list[tuple[str, str]]:
    """listOpenClawRegisteredAgentDatabases: (agent id, absolute path) of each registered database of
    the current agent schema, ordered by agent id and stored path; none without a readable registry."""
    path = os.path.join(state_dir, GLOBAL_DB)
    if not os.path.isfile(path):
        return []  # a file-era state: the SQLite module is not even loaded
    import apsw

    from openclaw_cli.config.agents import normalize_agent_id
    from openclaw_cli.store.sqlite.inspect import open_untouched

    try:
        with open_untouched(path) as conn:
            if not list(conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'agent_databases'")):
                return []
            rows = list(conn.execute("SELECT agent_id, path, schema_version FROM agent_databases "
                                     "ORDER BY agent_id, path"))
    except (apsw.Error, OSError):
        return []
    return [(normalize_agent_id(agent), stored if os.path.isabs(stored) else os.path.join(state_dir, stored))
            for agent, stored, version in rows
            if isinstance(agent, str) and isinstance(stored, str) and version == SUPPORTED_AGENT_SCHEMA]


def database_owner(path: str) -> str | None:
    """inspectOpenClawAgentDatabaseOwner: the normalised agent its `schema_meta` names, when the file
    is an agent database this schema covers; None for any other file (or none)."""
    from openclaw_cli.config.agents import normalize_agent_id
    from openclaw_cli.js.strings import js_trim
    from openclaw_cli.store.sqlite.inspect import probe_db

    if not os.path.lexists(path):
        return None
    probe = probe_db(path, "agent", quick_check=False)
    owner = js_trim(probe.meta_agent) if probe.meta_agent is not None else ""
    if probe.error is not None or (probe.user_version or 0) > SUPPORTED_AGENT_SCHEMA or probe.meta_role != "agent":
        return None
    return normalize_agent_id(owner) if owner else None

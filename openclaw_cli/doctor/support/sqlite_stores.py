"""The databases doctor looks at: each agent's `openclaw-agent.sqlite` (configured agents, their
`agentDir`, and any found under `<state>/agents/*/agent/`) and the global `state/openclaw.sqlite`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openclaw_cli.store.sqlite.registry import GLOBAL_DB

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext


@dataclass(frozen=True)
class AgentDbFile:
    """One agent's database file (it exists) and where its file-era sessions were or are."""

    agent_id: str
    sqlite_path: str
    sessions_json: str

    @property
    def sessions_dir(self) -> str:
        return os.path.dirname(self.sessions_json)

    @property
    def archive_dir(self) -> str:
        """`agents/<id>/session-sqlite-import-archive/`, where OpenClaw's import moves the originals."""
        return os.path.join(os.path.dirname(self.sessions_dir), "session-sqlite-import-archive")


def agent_databases(ctx: DoctorContext) -> list[AgentDbFile]:
    """Every agent database on disk, configured agents first, once each."""
    from openclaw_cli.config.agents import normalize_agent_id
    from openclaw_cli.doctor.checks.session_store import _targets
    from openclaw_cli.store.era import agent_db_path
    from openclaw_cli.store.sqlite.connection import AGENT_DB_FILENAME

    out: list[AgentDbFile] = []
    seen: set[str] = set()

    def add(agent_id: str, db: str, store: str) -> None:
        key = os.path.realpath(db)
        if key not in seen and os.path.isfile(db):
            seen.add(key)
            out.append(AgentDbFile(agent_id, os.path.abspath(db), os.path.abspath(store)))

    for target in _targets(ctx):
        add(target.agent_id, agent_db_path(ctx.cfg, target, ctx.env), target.store_path)
    agents_root = os.path.join(ctx.state_dir, "agents")
    try:
        names = sorted(os.listdir(agents_root))
    except OSError:
        names = []
    for name in names:
        agent_dir = os.path.join(agents_root, name)
        store = os.path.join(agent_dir, "sessions", "sessions.json")
        add(normalize_agent_id(name), os.path.join(agent_dir, "agent", AGENT_DB_FILENAME), store)
    return out


def global_database(ctx: DoctorContext) -> str | None:
    path = os.path.join(ctx.state_dir, GLOBAL_DB)
    return path if os.path.isfile(path) else None

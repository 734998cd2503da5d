"""2026.9.6's agent owners: the agent of the default session store, and its warning on a heartbeat without one.

2026.9.6 reads the roster after its in-memory migration (config/read96.migrate_roster): a legacy
`default: true` marker among several agents is retained as the legacy default and the markers
dropped. Under `agents.ownership: "explicit"` only `agents.defaults.systemAgent.agentId` (when on
the roster) or a sole agent names an owner; with several agents and neither, `openclaw sessions`
and `sessions cleanup` refuse to pick a store (src/agents/agent-scope-config.ts,
src/commands/session-store-targets.ts, src/config/sessions/session-store-owner.ts).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from openclaw_cli.config.agents import DEFAULT_AGENT_ID, agent_entries, normalize_agent_id
from openclaw_cli.errors import ExpectedCliError
from openclaw_cli.js.values import object_at, opt_str, truthy

SELECTION_REQUIRED = ("Multiple agents are configured, but session-store selection has no explicit owner. "
                      "Pass --agent <id> to select one agent, or --all-agents to include every configured agent.")
NO_AGENTS = "No agents configured. Run `openclaw onboard` or `openclaw agents add` first."
HEARTBEAT_OWNER = ("agents.defaults.heartbeat.agentId", "Multi-agent config has no ambient heartbeat owner; "
                   "heartbeats stay disabled until agents.defaults.heartbeat.agentId or "
                   "agents.defaults.systemAgent.agentId is set.")


class _Roster:
    """The migrated roster's facts the owner rules read."""

    def __init__(self, cfg: Any) -> None:
        from openclaw_cli.config.read96 import migrate_roster

        migrated = migrate_roster(cfg)
        self.cfg = migrated.config
        agents = object_at(self.cfg, "agents")
        self.entries = agent_entries(self.cfg)
        self.explicit = agents.get("ownership") == "explicit"
        self.system_agent = opt_str(object_at(object_at(agents, "defaults"), "systemAgent").get("agentId"))
        has_roster = any(agents.get(key) is not None for key in ("entries", "list"))
        ids = [normalize_agent_id(e.get("id") if isinstance(e.get("id"), str) else None) for e in self.entries]
        self.ids = list(dict.fromkeys(ids)) if self.entries or has_roster else [DEFAULT_AGENT_ID]
        self.sole = (DEFAULT_AGENT_ID if not has_roster else None) if not self.entries else (
            ids[0] if len(self.entries) == 1 else None)
        self.legacy_default = migrated.legacy_default

    def raw_default(self) -> str | None:
        """tryResolveRawLegacyDefaultAgentId: the one `default: true` entry outside explicit ownership."""
        marked = [] if self.explicit else [e for e in self.entries if e.get("default") is True]
        return normalize_agent_id(marked[0].get("id")) if len(marked) == 1 else None

    def compatibility(self) -> str | None:
        """tryResolveLegacyCompatibilityAgentId: the system agent under explicit ownership, else the
        retained legacy default, the raw marker or the sole agent."""
        if self.explicit:
            agent_id = normalize_agent_id(self.system_agent) if self.system_agent else None
            return agent_id if agent_id in self.ids else None
        retained = normalize_agent_id(self.legacy_default) if self.legacy_default else None
        return retained if retained in self.ids else self.raw_default() or self.sole

    def default(self) -> str:
        """resolveDefaultAgentId under the session-store selection context."""
        found = self.raw_default() or self.sole
        if found:
            return found
        raise ExpectedCliError(SELECTION_REQUIRED if self.ids else NO_AGENTS)


def default_store_agent(cfg: Any, env: Mapping[str, str] | None = None, store: str | None = None) -> str:
    """The agent of the store `sessions` (or `--store PATH`) works on without `--agent`, as 2026.9.6
    picks it; CliError when it refuses to pick one."""
    roster = _Roster(cfg)
    return _persisted_owner(roster, env, store) or roster.compatibility() or roster.default()


def _persisted_owner(roster: _Roster, env: Mapping[str, str] | None, store: str | None) -> str | None:
    """`agents.defaults.sessionStore.agentId` for a fixed `session.store` (and a `--store` naming that
    file); CliError when that agent left the roster."""
    fixed = object_at(roster.cfg, "session").get("store")
    if not isinstance(fixed, str) or not opt_str(fixed) or "{agentId}" in fixed:
        return None
    recorded = opt_str(object_at(object_at(object_at(roster.cfg, "agents"), "defaults"), "sessionStore").get("agentId"))
    if not recorded or (store is not None and not _same_store(fixed, store, env)):
        return None
    agent_id = normalize_agent_id(recorded)
    if agent_id not in roster.ids:
        raise ExpectedCliError(f"Session store owner is retired: {agent_id}")
    return agent_id


def _same_store(fixed: str, store: str, env: Mapping[str, str] | None) -> bool:
    from openclaw_cli.config.agents import resolve_store_path

    one, other = resolve_store_path(fixed, None, env), resolve_store_path(store, None, env)
    if one == other:
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def heartbeat_warnings(cfg: Any) -> list[tuple[str, str]]:
    """2026.9.6's config warning when several agents leave heartbeats without an ambient owner."""
    roster = _Roster(cfg)
    if len(roster.ids) < 2 or any(truthy(e.get("heartbeat")) for e in roster.entries):
        return []
    if truthy(object_at(object_at(roster.cfg, "agents"), "defaults").get("heartbeat")):
        return []
    ambient = roster.system_agent or roster.compatibility() or roster.sole
    return [] if ambient else [HEARTBEAT_OWNER]

"""2026.9.6's choice of session stores (`--store` / `--agent` / `--all-agents`, and the owner of the
default store), and its warning on a heartbeat without an owner.

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

from openclaw_cli.config.agents import (
    DEFAULT_AGENT_ID,
    Target,
    agent_entries,
    list_configured_session_store_agent_ids,
    normalize_agent_id,
    resolve_store_path,
    session_store_template,
)
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
        return self.data_owner()

    def data_owner(self) -> str | None:
        """tryResolveLegacyDataOwnerAgentId: the retained legacy default, the raw marker or the sole agent."""
        retained = normalize_agent_id(self.legacy_default) if self.legacy_default else None
        return retained if retained in self.ids else self.raw_default() or self.sole

    def store_default(self) -> str:
        """resolveSessionStoreCompatibilityAgentId: the recorded store owner, else the data owner, else main."""
        recorded = opt_str(object_at(object_at(object_at(self.cfg, "agents"), "defaults"), "sessionStore").get("agentId"))
        return normalize_agent_id(recorded) if recorded else self.data_owner() or DEFAULT_AGENT_ID

    def default(self) -> str:
        """resolveDefaultAgentId under the session-store selection context."""
        found = self.raw_default() or self.sole
        if found:
            return found
        raise ExpectedCliError(SELECTION_REQUIRED if self.ids else NO_AGENTS)


def session_store_targets(cfg: Any, *, store: str | None, agent: str | None, all_agents: bool,
                          env: Mapping[str, str] | None, notes: list[str] | None = None) -> list[Target]:
    """resolveSessionStoreTargets: the stores a sessions command works on in the SQLite era, or
    2026.9.6's refusal (ExpectedCliError) in its words. With `--all-agents` its notes on agents that
    share a database folder go to `notes`, else to stderr as 2026.9.6 logs them."""
    requested = _trimmed(agent, "--agent")
    if store is not None:
        _trimmed(store, "--store")
    if requested and all_agents:
        raise ExpectedCliError("--agent and --all-agents cannot be used together")
    if store and all_agents:
        raise ExpectedCliError("--store cannot be combined with --all-agents")
    roster = _Roster(cfg)
    if store:
        return [_explicit_store_target(roster, store, requested, env)]
    template = session_store_template(cfg)
    if all_agents:
        return _all_agents(cfg, template, roster, env, notes)
    owner = _configured(roster, normalize_agent_id(requested)) if requested else _owner(roster, env)
    return [Target(owner, resolve_store_path(template, owner, env))]


def _all_agents(cfg: Any, template: str | None, roster: _Roster, env: Mapping[str, str] | None,
                notes: list[str] | None) -> list[Target]:
    """Every configured agent's store (`template` the configured `session.store`), one per database file
    (config/targets96.py)."""
    from openclaw_cli.config.targets96 import dedupe_by_database, print_notes

    targets = [Target(a, resolve_store_path(template, a, env)) for a in list_configured_session_store_agent_ids(cfg)]
    kept, found = dedupe_by_database(targets, roster.store_default(), env)
    if notes is not None:
        notes += found
    else:
        print_notes(found)
    return kept


def _trimmed(value: str | None, option: str) -> str | None:
    if value is None:
        return None
    from openclaw_cli.js.strings import js_trim

    if not js_trim(value):
        raise ExpectedCliError(f"{option} must not be blank")
    return js_trim(value)


def _configured(roster: _Roster, agent_id: str) -> str:
    """resolveConfiguredAgentId: the id, when it is on the roster."""
    if agent_id not in roster.ids:
        from openclaw_cli.ui.failure import cli_command

        raise ExpectedCliError(f'Unknown agent id "{agent_id}". Run {cli_command("openclaw agents list")} '
                               "to see configured agents.")
    return agent_id


def _explicit_store_target(roster: _Roster, store: str, requested: str | None,
                           env: Mapping[str, str] | None) -> Target:
    """`--store PATH` (with or without `--agent`): the agent a sessions.json under `agents/<id>/sessions/`
    names, else the requested agent, the store's recorded owner or the default store's."""
    owner = _persisted_owner(roster, env, store)
    wanted = normalize_agent_id(requested) if requested else None
    if wanted and owner and owner != wanted:
        raise ExpectedCliError(f'Session store belongs to agent "{owner}", not requested agent "{wanted}".')
    chosen = wanted or _owner(roster, env, store)
    if wanted:
        _configured(roster, chosen)
    path = resolve_store_path(store, chosen, env)
    found = _path_agent(path) or chosen
    if (wanted or owner) and found != chosen:
        raise ExpectedCliError(f'Session store belongs to agent "{found}", not requested agent "{chosen}".')
    _check_database(Target(found, path), store, env)
    return Target(found, path)


def _check_database(target: Target, given: str, env: Mapping[str, str] | None) -> None:
    """The database a `--store` path maps to for its agent must be a regular file
    (resolveExplicitSessionStorePath)."""
    import stat

    from openclaw_cli.js.json import stringify
    from openclaw_cli.store.era import agent_db_path

    path = os.path.abspath(target.store_path)
    database = agent_db_path(None, target, env)
    shown = database if database == path else f"{database} (resolved from --store {stringify(given)})"
    try:
        mode = os.stat(database).st_mode
    except FileNotFoundError:
        raise ExpectedCliError(f"Session store target does not exist: {shown}. "
                               "Pass a selector whose resolved SQLite target exists.") from None
    except OSError as exc:
        raise ExpectedCliError(f"Could not inspect session store target {shown}: {exc}") from None
    if not stat.S_ISREG(mode):
        raise ExpectedCliError(f"Session store target is not a regular file: {shown}. "
                               "Pass a selector whose resolved SQLite target is a regular file.")


def _path_agent(path: str) -> str | None:
    """The agent of `agents/<id>/sessions/sessions.json`."""
    sessions = os.path.dirname(path)
    agents = os.path.dirname(os.path.dirname(sessions))
    if os.path.basename(path) == "sessions.json" and os.path.basename(sessions) == "sessions" \
            and os.path.basename(agents) == "agents":
        return normalize_agent_id(os.path.basename(os.path.dirname(sessions)))
    return None


def default_store_agent(cfg: Any, env: Mapping[str, str] | None = None, store: str | None = None) -> str:
    """The agent of the store `sessions` (or `--store PATH`) works on without `--agent`, as 2026.9.6
    picks it; CliError when it refuses to pick one."""
    return _owner(_Roster(cfg), env, store)


def _owner(roster: _Roster, env: Mapping[str, str] | None, store: str | None = None) -> str:
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

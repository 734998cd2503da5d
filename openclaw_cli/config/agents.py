"""Agent and account ids, the default agent, and which session stores a command targets."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from openclaw_cli.config import paths
from openclaw_cli.errors import CliError, UsageError
from openclaw_cli.js.strings import from_units, js_trim

DEFAULT_AGENT_ID = "main"
STORE_FILENAME = "sessions.json"

_VALID_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}", re.IGNORECASE | re.ASCII)
_INVALID_CHARS = re.compile(r"[^a-z0-9_-]+")
DEFAULT_ACCOUNT_ID = "default"
_BLOCKED_ACCOUNT_IDS = frozenset(("__proto__", "prototype", "constructor"))


@dataclass(frozen=True)
class Target:
    """One session store to work on, and the agent it belongs to."""

    agent_id: str
    store_path: str


def _canonical_id(trimmed: str) -> str:
    """The slug OpenClaw makes of an agent or account id: lower-cased when valid, otherwise other
    characters squashed to '-' (max 64); '' when nothing is left."""
    lowered = trimmed.lower()
    if _VALID_ID.fullmatch(trimmed):
        return lowered
    return _INVALID_CHARS.sub("-", lowered).strip("-")[:64]


def normalize_agent_id(value: str | None) -> str:
    """Lower-case a valid id; otherwise squash other characters to '-' (max 64). Empty → 'main'."""
    return _normalized_agent_id(value) if isinstance(value, str) else DEFAULT_AGENT_ID


@lru_cache(maxsize=4096)
def _normalized_agent_id(value: str) -> str:
    """normalize_agent_id of a string (asked once per row and helper; a store holds a few agents)."""
    trimmed = js_trim(value)
    return (_canonical_id(trimmed) if trimmed else "") or DEFAULT_AGENT_ID


def normalize_optional_account_id(value: Any) -> str | None:
    """normalizeOptionalAccountId: the account id's slug, None when blank or unusable."""
    trimmed = js_trim(value) if isinstance(value, str) else ""
    canonical = _canonical_id(trimmed) if trimmed else ""
    return canonical if canonical and canonical not in _BLOCKED_ACCOUNT_IDS else None


def normalize_account_id(value: Any) -> str:
    """normalizeAccountId: the account id's slug, or `default`."""
    return normalize_optional_account_id(value) or DEFAULT_ACCOUNT_ID


def agent_entries(cfg: Mapping[str, Any] | None) -> list[dict]:
    """listAgentEntries: the object entries of the agent roster. That is `agents.entries` when the
    key is there (2026.9.6's keyed form, each entry with its key as `id`, in key order; 2026.7.x
    rejects the key), else `agents.list`."""
    agents = cfg.get("agents") if isinstance(cfg, Mapping) else None
    if not isinstance(agents, Mapping):
        return []
    if agents.get("entries") is not None:
        from openclaw_cli.js.json import ordered_keys

        keyed = agents["entries"]
        if not isinstance(keyed, dict):
            return []
        return [{**keyed[key], "id": key} for key in ordered_keys(keyed) if isinstance(keyed[key], dict)]
    entries = agents.get("list")
    if not isinstance(entries, list):
        return []
    return [e for e in entries if isinstance(e, dict)]


def agent_entry(cfg: Mapping[str, Any] | None, agent_id: str | None) -> dict | None:
    """resolveAgentEntry: the first roster entry whose normalized id is the agent's."""
    if not agent_id:
        return None
    wanted = normalize_agent_id(agent_id)
    return next((e for e in agent_entries(cfg) if normalize_agent_id(_raw_id(e)) == wanted), None)


def _raw_id(entry: dict) -> str | None:
    value = entry.get("id")
    return value if isinstance(value, str) else None


def list_agent_ids(cfg: Mapping[str, Any] | None) -> list[str]:
    """Unique normalized ids of the roster (agent_entries), in order; `["main"]` when there are none."""
    ids: list[str] = []
    for entry in agent_entries(cfg):
        agent_id = normalize_agent_id(_raw_id(entry))
        if agent_id not in ids:
            ids.append(agent_id)
    return ids or [DEFAULT_AGENT_ID]


def resolve_default_agent_id(cfg: Mapping[str, Any] | None) -> str:
    """The first roster entry with `default` set, else the first entry, else `main`."""
    entries = agent_entries(cfg)
    if not entries:
        return DEFAULT_AGENT_ID
    chosen = next((e for e in entries if e.get("default")), entries[0])
    return normalize_agent_id(js_trim(_raw_id(chosen) or "") or DEFAULT_AGENT_ID)


def list_configured_session_store_agent_ids(cfg: Mapping[str, Any] | None) -> list[str]:
    """`agents.list` ids plus `acp.defaultAgent`, `acp.allowedAgents` (except `*`) and the agents
    of ACP-runtime entries: every agent whose store `--all-agents` visits."""
    ids = list_agent_ids(cfg)

    def add(raw: Any) -> None:
        text = js_trim(raw) if isinstance(raw, str) else ""
        if text and text != "*":
            agent_id = normalize_agent_id(text)
            if agent_id not in ids:
                ids.append(agent_id)

    acp = cfg.get("acp") if isinstance(cfg, Mapping) else None
    if isinstance(acp, Mapping):
        add(acp.get("defaultAgent"))
        allowed = acp.get("allowedAgents")
        for raw in allowed if isinstance(allowed, list) else []:
            add(raw)
    for entry in agent_entries(cfg):
        runtime = entry.get("runtime")
        if isinstance(runtime, Mapping) and runtime.get("type") == "acp":
            acp_cfg = runtime.get("acp")
            agent = acp_cfg.get("agent") if isinstance(acp_cfg, Mapping) else None
            add(agent if agent is not None else entry.get("id"))
    return ids


def resolve_agent_sessions_dir(agent_id: str | None, env: Mapping[str, str] | None = None) -> str:
    """`<stateDir>/agents/<agentId>/sessions`."""
    return paths.join_path(paths.resolve_state_dir(env), "agents", normalize_agent_id(agent_id), "sessions")


def resolve_store_path(store: str | None, agent_id: str | None = None,
                       env: Mapping[str, str] | None = None) -> str:
    """The `sessions.json` for an agent: the default location, or the `session.store` template
    (`{agentId}` replaced, a leading `~` expanded, relative paths resolved against the cwd)."""
    agent = normalize_agent_id(agent_id or DEFAULT_AGENT_ID)
    if not store:
        return paths.join_path(resolve_agent_sessions_dir(agent, env), STORE_FILENAME)
    expanded = store.replace("{agentId}", agent)
    if expanded.startswith("~"):
        expanded = paths.expand_home_prefix(expanded, env, home=paths.resolve_required_home(env))
    return paths.resolve_path(expanded)


def session_store_template(cfg: Mapping[str, Any] | None) -> str | None:
    """`session.store` of the config, as the file name Node opens (a lone surrogate from a JSON
    escape becomes U+FFFD)."""
    session = cfg.get("session") if isinstance(cfg, Mapping) else None
    store = session.get("store") if isinstance(session, Mapping) else None
    return from_units(store) if isinstance(store, str) else None


def dedupe_targets(targets: list[Target]) -> list[Target]:
    """Keep the first target for each store path."""
    seen: dict[str, Target] = {}
    for target in targets:
        seen.setdefault(target.store_path, target)
    return list(seen.values())


def resolve_session_store_targets(cfg: Mapping[str, Any] | None, *, store: str | None = None,
                                  agent: str | None = None, all_agents: bool = False,
                                  env: Mapping[str, str] | None = None, notes: list[str] | None = None) -> list[Target]:
    """The stores a sessions command works on, from its `--store` / `--agent` / `--all-agents`.

    Raises UsageError (exit 2) for conflicting selectors, CliError (exit 1) for an agent id that
    is not configured; in the SQLite era 2026.9.6 chooses, in its words (config/owner96.py), and
    its notes on a shared database folder go to `notes` (else to stderr).
    """
    from openclaw_cli.config.era import SQLITE_ERA, config_era

    if config_era(cfg, env) == SQLITE_ERA:
        from openclaw_cli.config.owner96 import session_store_targets

        return session_store_targets(cfg, store=store, agent=agent, all_agents=all_agents, env=env, notes=notes)
    default_agent = resolve_default_agent_id(cfg)
    has_agent = bool(js_trim(agent or ""))
    if has_agent and all_agents:
        raise UsageError("--agent and --all-agents cannot be used together")
    if store and (has_agent or all_agents):
        raise UsageError("--store cannot be combined with --agent or --all-agents")
    if store:
        return [Target(default_agent, resolve_store_path(store, default_agent, env))]
    template = session_store_template(cfg)
    if all_agents:
        return dedupe_targets([Target(a, resolve_store_path(template, a, env))
                               for a in list_configured_session_store_agent_ids(cfg)])
    if has_agent:
        requested = normalize_agent_id(agent)
        if requested not in list_agent_ids(cfg):
            raise CliError(f'Unknown agent id "{agent}". Use "openclaw agents list" to see configured agents.')
        return [Target(requested, resolve_store_path(template, requested, env))]
    return [Target(default_agent, resolve_store_path(template, default_agent, env))]


def check_explicit_store(path: str) -> None:
    """An explicit `--store` must name an existing sessions.json file: a mistyped path fails
    (exit 1) instead of creating a new empty store there."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise CliError(f"no session store at {path}") from None
    except OSError:
        return  # unreadable: loading the store reports it
    if stat.S_ISDIR(mode):
        if os.path.basename(path) == STORE_FILENAME:
            raise CliError(f"{path} is a folder, not a session store file")
        raise CliError(f"{path} is a folder; did you mean {paths.join_path(path, STORE_FILENAME)}?")
    if not stat.S_ISREG(mode):
        raise CliError(f"{path} is not a regular file, so it cannot be a session store")

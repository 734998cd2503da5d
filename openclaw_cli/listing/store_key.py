"""The canonical store key of a listed row, as OpenClaw looks it up for ACP metadata."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openclaw_cli.config.agents import (
    agent_entries,
    list_agent_ids,
    normalize_agent_id,
    resolve_default_agent_id,
)
from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import is_record, lower_or_empty, opt_str, truthy
from openclaw_cli.listing.runtime_config import MAIN_KEY
from openclaw_cli.store.keys import normalize_store_key, parse_agent_key


def _scope(cfg: Mapping) -> Any:
    session = cfg.get("session")
    return session.get("scope") if is_record(session) else None


def _main_key_for(agent_id: Any) -> str:
    return f"agent:{normalize_agent_id(agent_id if isinstance(agent_id, str) else None)}:{MAIN_KEY}"


def canonicalize_main_alias(cfg: Mapping, agent_id: str, session_key: str) -> str:
    """canonicalizeMainSessionAlias: `main` / `agent:<id>:main` / `agent:main:main` → the agent's main."""
    raw = js_trim(session_key)
    if not raw:
        return raw
    agent_main = _main_key_for(agent_id)
    is_alias = raw in ("main", MAIN_KEY, agent_main, _main_key_for("main"))
    if is_alias:
        return "global" if _scope(cfg) == "global" else agent_main
    return raw


def _canonical_for_agent(agent_id: str, key: str) -> str:
    lowered = lower_or_empty(key)
    if lowered in ("global", "unknown"):
        return lowered
    normalized = normalize_store_key(key)
    return normalized if normalized.startswith("agent:") else f"agent:{normalize_agent_id(agent_id)}:{normalized}"


def _main_session_key(cfg: Mapping) -> str:
    if _scope(cfg) == "global":
        return "global"
    entries = agent_entries(cfg)
    chosen = next((e for e in entries if truthy(e.get("default"))), None)
    agent_id = chosen.get("id") if chosen is not None else None
    if agent_id is None and entries:
        agent_id = entries[0].get("id")
    return _main_key_for(agent_id if agent_id is not None else "main")


def resolve_session_store_key(cfg: Mapping, session_key: str, store_agent_id: str | None) -> str:
    """resolveSessionStoreKey."""
    raw = opt_str(session_key) or ""
    if not raw:
        return raw
    lowered = raw.lower()
    if lowered in ("global", "unknown"):
        return lowered
    parsed = parse_agent_key(raw)
    if parsed:
        agent_id, rest = parsed
        # Only `agent:main:main` of a config without a "main" agent is remapped (the other
        # conditions, which read the config, are asked only then).
        remap = (normalize_agent_id(agent_id) == "main" and lower_or_empty(rest) == MAIN_KEY
                 and "main" not in list_agent_ids(cfg))
        if remap:
            default_agent = normalize_agent_id(resolve_default_agent_id(cfg))
            remap = not (store_agent_id and normalize_agent_id(store_agent_id) != default_agent)
        if remap:
            resolved_agent, resolved_key = default_agent, f"agent:{default_agent}:{lower_or_empty(rest)}"
        else:
            resolved_agent, resolved_key = normalize_agent_id(agent_id), normalize_store_key(raw)
        return canonicalize_main_alias(cfg, resolved_agent, resolved_key)
    if lowered == MAIN_KEY:
        return _main_session_key(cfg)
    return _canonical_for_agent(normalize_agent_id(resolve_default_agent_id(cfg)), raw)


def stored_key_for_agent_store(cfg: Mapping, agent_id: str, session_key: str) -> str:
    """resolveStoredSessionKeyForAgentStore: the key a row has in its agent's store."""
    raw = opt_str(session_key) or ""
    if not raw:
        return raw
    lowered = raw.lower()
    if lowered in ("global", "unknown"):
        return lowered
    key = raw if parse_agent_key(raw) else _canonical_for_agent(agent_id, raw)
    return resolve_session_store_key(cfg, key, agent_id)

"""The `tools.web.search` provider-config migration of OpenClaw 2026.7.1 and its detection rule.

Facts from OpenClaw's src/commands/doctor/shared/legacy-web-search-migrate.ts: which bundled plugin
owns each legacy provider block, which blocks are left in place, the change lines.
"""

from __future__ import annotations

import json
from typing import Any

from openclaw_cli.doctor.support.legacy_shared import BLOCKED_KEYS, ensure, merge_missing, rec

Changes = list[str]

# legacy provider id under tools.web.search -> the plugin whose config.webSearch takes it
OWNERS = {"brave": "brave", "duckduckgo": "duckduckgo", "exa": "exa", "firecrawl": "firecrawl", "gemini": "google",
          "grok": "xai", "kimi": "moonshot", "minimax": "minimax", "ollama": "ollama", "parallel": "parallel",
          "parallel-free": "parallel", "perplexity": "perplexity", "searxng": "searxng", "tavily": "tavily"}
NOT_MIGRATED = frozenset({"parallel", "parallel-free", "tavily"})
PROVIDER_IDS = tuple(sorted(p for p in OWNERS if p not in NOT_MIGRATED))
GLOBAL_PROVIDER = "brave"


def _search(raw: Any) -> dict | None:
    tools = rec(raw.get("tools")) if isinstance(raw, dict) else None
    web = rec(tools.get("web")) if tools else None
    return rec(web.get("search")) if web else None


def legacy_paths(raw: Any) -> list[str]:
    search = _search(raw)
    if search is None:
        return []
    paths = ["tools.web.search.apiKey"] if "apiKey" in search else []
    for provider_id in PROVIDER_IDS:
        scoped = rec(search.get(provider_id))
        paths += [f"tools.web.search.{provider_id}.{key}" for key in scoped or {}]
    return paths


def rule_match(_value: Any, root: dict) -> bool:
    return bool(legacy_paths(root))


def _move(root: dict, plugin_id: str, payload: dict, legacy: str, target: str, changes: Changes) -> None:
    entry = ensure(ensure(ensure(root, "plugins"), "entries"), plugin_id)
    config = ensure(entry, "config")
    had_enabled = "enabled" in entry
    existing = dict(config["webSearch"]) if isinstance(config.get("webSearch"), dict) else None
    if not had_enabled:
        entry["enabled"] = True
    if existing is None:
        config["webSearch"] = dict(payload)
        changes.append(f"Moved {legacy} → {target}.")
        return
    merged = dict(existing)
    merge_missing(merged, payload)
    config["webSearch"] = merged
    if json.dumps(merged) != json.dumps(existing) or not had_enabled:
        changes.append(f"Merged {legacy} → {target} (filled missing fields from legacy; kept explicit plugin config "
                       "values).")
    else:
        changes.append(f"Removed {legacy} ({target} already set).")


def _migrate(root: dict, search: dict, changes: Changes) -> None:
    web = ensure(ensure(root, "tools"), "web")
    web["search"] = {k: v for k, v in search.items() if k != "apiKey" and k not in BLOCKED_KEYS
                     and not (k in PROVIDER_IDS and isinstance(v, dict))}
    brave = rec(search.get(GLOBAL_PROVIDER))
    payload = dict(brave) if brave is not None else {}
    if "apiKey" in search:
        payload["apiKey"] = search["apiKey"]
    if payload:
        plugin = OWNERS[GLOBAL_PROVIDER]
        legacy = "tools.web.search.apiKey" if "apiKey" in search else f"tools.web.search.{GLOBAL_PROVIDER}"
        target = f"plugins.entries.{plugin}.config.webSearch" + (".apiKey" if "apiKey" in search and brave is None
                                                                 else "")
        _move(root, plugin, payload, legacy, target, changes)
    for provider_id in PROVIDER_IDS:
        scoped = rec(search.get(provider_id))
        if provider_id == GLOBAL_PROVIDER or not scoped:
            continue
        plugin = OWNERS[provider_id]
        _move(root, plugin, dict(scoped), f"tools.web.search.{provider_id}",
              f"plugins.entries.{plugin}.config.webSearch", changes)


def search_provider_config(raw: dict, changes: Changes) -> None:
    from openclaw_cli.doctor.support.legacy_shared import clone

    search = _search(raw)
    if search is None or ("apiKey" not in search and not any(isinstance(search.get(p), dict) for p in PROVIDER_IDS)):
        return
    nxt = clone(raw)
    found: Changes = []
    _migrate(nxt, clone(search), found)
    if not found:
        return
    raw.clear()
    raw.update(nxt)
    changes.extend(found)

"""Which providers are CLI backends: configured `cliBackends` plus those of enabled bundled plugins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openclaw_cli.js.values import is_record, opt_str
from openclaw_cli.listing.runtime_config import defaults_of, normalize_provider_id

# CLI backends declared by bundled plugins that are enabled by default: backend -> plugin id.
BUNDLED_CLI_BACKENDS = {"claude-cli": "anthropic", "google-gemini-cli": "google"}


def _id_list(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str) and v] if isinstance(value, list) else []


def bundled_plugin_enabled(cfg: Mapping, plugin_id: str) -> bool:
    """A bundled, enabled-by-default plugin's state under `plugins` (enabled, deny, entries, allow, slots)."""
    plugins = cfg.get("plugins")
    plugins = plugins if is_record(plugins) else {}
    if plugins.get("enabled") is False or plugin_id in _id_list(plugins.get("deny")):
        return False
    entries = plugins.get("entries")
    entry = entries.get(plugin_id) if is_record(entries) else None
    if is_record(entry) and entry.get("enabled") is False:
        return False
    slots = plugins.get("slots")
    slots = slots if is_record(slots) else {}
    if plugin_id in (opt_str(slots.get("memory")), opt_str(slots.get("contextEngine"))):
        return True
    allow = _id_list(plugins.get("allow"))
    return not allow or plugin_id in allow


def is_cli_provider(provider: Any, cfg: Mapping) -> bool:
    """isCliProvider: the provider matches a configured or plugin-provided CLI backend."""
    normalized = normalize_provider_id(provider)
    backends = defaults_of(cfg).get("cliBackends")
    if is_record(backends) and any(normalize_provider_id(key) == normalized for key in backends):
        return True
    plugin_id = BUNDLED_CLI_BACKENDS.get(normalized)
    return plugin_id is not None and bundled_plugin_enabled(cfg, plugin_id)

"""What OpenClaw 2026.9.6 changes in memory as it reads a config, and the notes it prints about it.

Before validating, 2026.9.6 moves legacy context budgets (`models.providers.*.contextTokens` and
`contextWindow`, `agents.*.contextTokens`) onto model entries or drops them, and converts a legacy
`agents.list` roster; the file stays as it is. Its `openclaw sessions` prints a note for each step
on stderr, each as `Config (<file>): <note>`: the unset `${VAR}`s, the budget changes, then their
warnings, then the roster's notes; a `gateway.token` key gets its own unprefixed line.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.config.agents import normalize_agent_id
from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import is_record, lower_or_empty, object_at, opt_str, truthy

REPLACEMENT = "models.providers.<provider>.models[].contextTokens"
_BUDGET_KEYS = ("contextTokens", "contextWindow")
_MOVED_LIST = "Moved agents.list to keyed agents.entries."
_CHANNEL_METADATA_KEYS = ("defaults", "modelByChannel")
GATEWAY_TOKEN_LINE = 'Config uses "gateway.token". This key is ignored; use "gateway.auth.token" instead.'


def has_legacy_budget(cfg: Any) -> bool:
    """True when `cfg` holds a context budget 2026.9.6 moves or drops."""
    if not is_record(cfg):
        return False
    models = cfg.get("models")
    providers = models.get("providers") if is_record(models) else None
    if is_record(providers) and any(is_record(p) and any(k in p for k in _BUDGET_KEYS) for p in providers.values()):
        return True
    agents = cfg.get("agents")
    if not is_record(agents):
        return False
    if is_record(agents.get("defaults")) and "contextTokens" in agents["defaults"]:
        return True
    entries = agents.get("entries")
    if is_record(entries) and any(is_record(e) and "contextTokens" in e for e in entries.values()):
        return True
    listed = agents.get("list")
    return isinstance(listed, list) and any(is_record(e) and "contextTokens" in e for e in listed)


def migrate_context_budget(cfg: Any) -> tuple[Any, list[str]]:
    """(the config as 2026.9.6 validates it, its notes: the changes, then the warnings). The config
    is `cfg` itself when nothing changed, else a changed copy."""
    if not has_legacy_budget(cfg):
        return cfg, []
    out = copy.deepcopy(cfg)
    changes: list[str] = []
    warnings: list[str] = []
    _move_provider_budgets(out, changes, warnings)
    _drop_agent_budgets(out, changes, warnings)
    return (out if changes else cfg), changes + warnings


def _move_provider_budgets(root: dict, changes: list[str], warnings: list[str]) -> None:
    models = root.get("models")
    providers = models.get("providers") if is_record(models) else None
    if not is_record(providers):
        return
    for provider_id, provider in providers.items():
        if not is_record(provider):
            continue
        for key in _BUDGET_KEYS:
            if key not in provider:
                continue
            source = f"models.providers.{provider_id}.{key}"
            entries = provider.get("models")
            if isinstance(entries, list) and entries:
                for index, model in enumerate(entries):
                    if is_record(model) and key not in model:
                        model[key] = provider[key]
                        changes.append(f"{source} → models.providers.{provider_id}.models[{index}].{key}.")
                del provider[key]
                changes.append(f"Removed {source} after baking it into explicit model entries.")
                continue
            del provider[key]
            changes.append(f"Removed {source}.")
            warnings.append(f"{source} had no explicit model entries to receive its value; use {REPLACEMENT} instead.")


def _drop_agent_budgets(root: dict, changes: list[str], warnings: list[str]) -> None:
    agents = root.get("agents")
    if not is_record(agents):
        return

    def drop(record: Any, where: str) -> None:
        if is_record(record) and "contextTokens" in record:
            del record["contextTokens"]
            changes.append(f"Removed {where}.")
            warnings.append(f"{where} cannot be represented per model; use {REPLACEMENT} instead.")

    drop(agents.get("defaults"), "agents.defaults.contextTokens")
    entries = agents.get("entries")
    if is_record(entries):
        for agent_id, entry in entries.items():
            drop(entry, f"agents.entries.{agent_id}.contextTokens")
    listed = agents.get("list")
    if isinstance(listed, list):
        for index, entry in enumerate(listed):
            drop(entry, f"agents.list[{index}].contextTokens")


def _legacy_roster(value: Any) -> dict[str, dict] | None:
    """A legacy `agents.list` as keyed entries, in its order; None unless every entry converts
    (an object whose id is a canonical agent id, trimmed, not repeated)."""
    if not isinstance(value, list):
        return None
    out: dict[str, dict] = {}
    for entry in value:
        if not is_record(entry):
            return None
        agent_id = entry.get("id")
        if not isinstance(agent_id, str) or not agent_id or js_trim(agent_id) != agent_id:
            return None
        if normalize_agent_id(agent_id) != agent_id or agent_id in out:
            return None
        out[agent_id] = {k: v for k, v in entry.items() if k != "id"}
    return out


@dataclass
class RosterMigration:
    """2026.9.6's read of the agent roster: the config it validates, its notes, the legacy default agent."""

    config: Any
    notes: list[str] = field(default_factory=list)
    legacy_default: str | None = None


def migrate_roster(cfg: Any, env: Mapping[str, str] | None = None) -> RosterMigration:
    """A legacy `agents.list` as keyed `agents.entries` (an empty roster as `{main: {}}`), the one
    `default: true` marker among several agents turned into explicit ownership of each surface, and
    the markers removed; `cfg` itself when nothing applies."""
    if not is_record(cfg) or ("agents" in cfg and not is_record(cfg["agents"])):
        return RosterMigration(cfg)
    agents: dict = cfg.get("agents") or {}
    legacy = None
    if "entries" not in agents and "list" in agents:
        legacy = _legacy_roster(agents["list"])
        if legacy is None:
            return RosterMigration(cfg)
        agents = {**{k: v for k, v in agents.items() if k != "list"}, "entries": legacy}
    moved = [_MOVED_LIST] if legacy is not None else []
    entries = agents.get("entries")
    if "entries" not in agents or (is_record(entries) and not entries):
        if agents.get("ownership") == "explicit":
            return RosterMigration({**cfg, "agents": agents} if legacy is not None else cfg, moved)
        return RosterMigration({**cfg, "agents": {**agents, "entries": {"main": {}}}}, moved)
    if not is_record(entries):
        return RosterMigration(cfg)
    ids = [i for i in entries if is_record(entries[i])]
    if not ids or any("default" in entries[i] and not isinstance(entries[i]["default"], bool) for i in ids):
        return RosterMigration(cfg)
    marked = [i for i in ids if entries[i].get("default") is True]
    one_marker = agents.get("ownership") != "explicit" and len(marked) == 1
    default_id = marked[0] if len(ids) > 1 and one_marker else None
    out = RosterMigration({**cfg, "agents": agents}, list(moved), default_id)
    if legacy is not None and default_id is None and _pins_first_workspace(agents, list(legacy.values())):
        first = next(iter(legacy))
        workspace = opt_str(object_at(agents, "defaults").get("workspace")) or _default_workspace(env)
        agents["entries"] = {**legacy, first: {**legacy[first], "workspace": workspace}}
        out.notes.append("Preserved the first legacy agent's existing workspace.")
    if default_id is not None and _materialize(out, default_id):
        out.notes.append("Materialized legacy per-surface agent ownership.")
    if one_marker:
        agents = out.config["agents"]
        out.config["agents"] = {**agents, "entries": {
            k: ({n: v for n, v in e.items() if n != "default"} if is_record(e) else e)
            for k, e in agents["entries"].items()}}
        out.notes.append("Removed retired agents.entries.*.default markers.")
    return out if out.notes or legacy is not None else RosterMigration(cfg, [], default_id)


def roster_notes(cfg: Any) -> list[str]:
    """2026.9.6's notes on the legacy agent roster of `cfg` (after the budget migration)."""
    return migrate_roster(cfg).notes


def _default_workspace(env: Mapping[str, str] | None) -> str:
    import os

    from openclaw_cli.context.workspace import default_workspace_dir

    return default_workspace_dir(os.environ if env is None else env)


def _pins_first_workspace(agents: Mapping, entries: list[dict]) -> bool:
    """Whether 2026.9.6 pins the first legacy agent's workspace: no ownership, several agents, no
    default marker, and a first entry with no workspace of its own."""
    if "ownership" in agents or len(entries) < 2:
        return False
    if any("default" in entry and entry["default"] is not False for entry in entries):
        return False
    workspace = entries[0].get("workspace", None)
    return "workspace" not in entries[0] or (isinstance(workspace, str) and not js_trim(workspace))


def _materialize(out: RosterMigration, default_id: str) -> bool:
    """The legacy default agent made the explicit owner of each surface that names none (talk, the
    system agent, heartbeat, session store, auth inheritance, channels without a channel-wide
    binding), in `out.config`; True when anything was inserted."""
    root = out.config
    agent_id = normalize_agent_id(default_id)
    inserted = False
    channels = _unbound_channels(root)
    if channels:
        bindings = root.get("bindings") if isinstance(root.get("bindings"), list) else []
        root["bindings"] = [*bindings, *({"agentId": agent_id, "match": {"channel": c, "accountId": "*"}}
                                         for c in channels)]
        inserted = True
    agents = root["agents"]
    if "defaults" not in agents or is_record(agents["defaults"]):
        defaults = dict(agents.get("defaults") or {})
        records = [e for e in agents["entries"].values() if is_record(e)]

        def unset(key: str) -> bool:
            value = defaults.get(key)
            return key not in defaults or (is_record(value) and "agentId" not in value)

        session = root.get("session")
        store = session.get("store") if is_record(session) else None
        per_agent = not isinstance(store, str) or not js_trim(store) or "{agentId}" in store
        owned = [key for key, due in (
            ("heartbeat", "heartbeat" not in defaults and not any(truthy(e.get("heartbeat")) for e in records)),
            ("systemAgent", unset("systemAgent")),
            # A legacy default needs two agents or more, so the sole-agent fallback is `main`.
            ("authInheritance", agent_id != "main" and unset("authInheritance")),
            ("sessionStore", not per_agent and unset("sessionStore"))) if due]
        for key in owned:
            defaults[key] = {**(defaults[key] if is_record(defaults.get(key)) else {}), "agentId": agent_id}
        if owned:
            root["agents"] = {**agents, "defaults": defaults}
            inserted = True
    talk = root.get("talk")
    if ("talk" not in root or is_record(talk)) and not (is_record(talk) and "agentId" in talk):
        root["talk"] = {**(talk or {}), "agentId": agent_id}
        inserted = True
    return inserted


def validation_config(cfg: Any, env: Mapping[str, str] | None = None) -> Any:
    """The config 2026.9.6 hands its schema: budgets and roster migrated, and a legacy default among
    several agents standing in for `agents.ownership: "explicit"`."""
    budget, _ = migrate_context_budget(cfg)
    roster = migrate_roster(budget, env)
    out = roster.config
    if roster.legacy_default and is_record(out) and is_record(out.get("agents")):
        agents = out["agents"]
        if is_record(agents.get("entries")) and len(agents["entries"]) > 1 and "ownership" not in agents:
            out = {**out, "agents": {**agents, "ownership": "explicit"}}
    return out


def _unbound_channels(root: Mapping) -> list[str]:
    """Enabled channels with no channel-wide binding (ids lower-cased)."""
    bindings = root.get("bindings")
    if bindings is not None and not isinstance(bindings, list):
        return []
    wide: set[str] = set()
    for binding in bindings or []:
        match = binding.get("match") if is_record(binding) and binding.get("type") != "acp" else None
        if is_record(match) and _channel_wide(match):
            wide.add(lower_or_empty(match["channel"]))
    channels = root.get("channels")
    found = {lower_or_empty(key) for key, value in channels.items()
             if lower_or_empty(key) and js_trim(key) not in _CHANNEL_METADATA_KEYS
             and not (is_record(value) and value.get("enabled") is False)} if is_record(channels) else set()
    return sorted(found - wide)


def _channel_wide(match: dict) -> bool:
    """A binding's match that takes a whole channel: every account, no peer, guild, team or role."""
    account = match.get("accountId")
    if not isinstance(account, str) or js_trim(account) != "*" or "peer" in match:
        return False
    if any(isinstance(match.get(k), str) and js_trim(match[k]) for k in ("guildId", "teamId")):
        return False
    roles = match.get("roles")
    return not (isinstance(roles, list) and roles) and isinstance(match.get("channel"), str)


def read_notes(cfg: Any, budget_notes: list[str], missing: list[tuple[str, tuple]]) -> list[str]:
    """The `Config (<file>): …` notes (without the prefix) of 2026.9.6's read of `cfg`, the config
    after the budget migration: the unset variables (name, path), the budget notes, the roster's."""
    from openclaw_cli.config.invalid import concrete_path

    unset = [f'missing env var "{name}" at {concrete_path(segments)} - feature using this value will be unavailable'
             for name, segments in missing]
    return unset + budget_notes + roster_notes(cfg)


def newer_writer_lines(cfg: Any) -> list[str]:
    """2026.9.6's warning, once a config is valid, that a newer release last wrote it."""
    from openclaw_cli.config.invalid import RUNNING_VERSION, written_by_newer

    touched = object_at(cfg, "meta").get("lastTouchedVersion")
    if not written_by_newer(touched):
        return []
    return [f"Your OpenClaw config was written by version {touched}, but this command is running {RUNNING_VERSION}.",
            "Check: `openclaw --version`, `which openclaw`, and `openclaw gateway status --deep`.",
            "If unexpected, update PATH so `openclaw` points to the version you want, or reinstall the Gateway "
            "service from that same OpenClaw install."]


def warns_gateway_token(cfg: Any) -> bool:
    """Whether 2026.9.6 warns that `gateway.token` is ignored."""
    gateway = cfg.get("gateway") if is_record(cfg) else None
    return is_record(gateway) and "token" in gateway

"""Plugin-owned routing state left in session entries after the configured route moved elsewhere.

Facts from OpenClaw 2026.7.1's src/commands/doctor-session-state-providers.ts: per session, the
configured route (the agent's primary model, its fallbacks, the harness runtime); per owner, the
entry fields that pin a session to the owner's providers or runtimes (an automatic model or auth
profile override, the runtime model, a pinned harness, CLI session bindings) and the ones doctor
leaves to the user (an explicit model override, listed for review). The owners are the doctor
contracts of the bundled plugins (extensions/anthropic and extensions/google, doctor-contract-api.ts);
plugins installed beside OpenClaw are not read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.js.values import lower_or_empty, object_at, opt_str, truthy


@dataclass(frozen=True)
class Owner:
    id: str
    label: str
    provider_ids: frozenset[str]
    runtime_ids: frozenset[str]
    cli_session_keys: tuple[str, ...]
    auth_profile_prefixes: tuple[str, ...]


# The bundled owners, sorted by id as OpenClaw lists them.
OWNERS = (
    Owner("anthropic", "Anthropic", frozenset({"anthropic", "claude-cli"}), frozenset({"claude-cli"}), ("claude-cli",),
          ("anthropic:", "claude-cli:")),
    Owner("google", "Google", frozenset({"google", "google-antigravity", "google-gemini-cli", "google-vertex"}),
          frozenset({"google-gemini-cli"}), ("google-gemini-cli", "gemini-cli"),
          ("google:", "google-antigravity:", "google-gemini-cli:", "google-vertex:", "gemini-cli:")),
)
STRING_FIELDS = ("providerOverride", "modelOverride", "modelOverrideSource", "modelProvider", "model", "agentHarnessId",
                 "agentRuntimeOverride", "authProfileOverride", "authProfileOverrideSource")
PRESENT_FIELDS = ("liveModelSwitchPending", "cliSessionBindings", "cliSessionIds")
CLEARED = {
    "auto model override": ("providerOverride", "modelOverride", "modelOverrideSource", "liveModelSwitchPending"),
    "runtime model state": ("model", "modelProvider", "contextTokens", "systemPromptReport",
                            "fallbackNoticeSelectedModel", "fallbackNoticeActiveModel", "fallbackNoticeReason"),
    "auto auth profile override": ("authProfileOverride", "authProfileOverrideSource",
                                   "authProfileOverrideCompactionCount"),
}


@dataclass(frozen=True)
class Route:
    default_provider: str
    configured_refs: tuple[str, ...]
    runtime: str | None


@dataclass
class Repair:
    key: str
    owner: Owner
    reasons: list[str] = field(default_factory=list)
    pinned_runtime_keys: list[str] = field(default_factory=list)

    def example(self) -> str:
        return f"{self.key} ({', '.join(self.reasons)})"


@dataclass(frozen=True)
class Review:
    key: str
    owner: Owner
    message: str


def may_hold_route_state(entry: dict) -> bool:
    return any(opt_str(entry.get(k)) is not None for k in STRING_FIELDS) or any(k in entry for k in PRESENT_FIELDS)


def parse_model_ref(raw: Any, default_provider: str) -> tuple[str, str] | None:
    """parseModelRef without catalog or plugin normalization of the model id."""
    trimmed = opt_str(raw) or ""
    if not trimmed:
        return None
    if trimmed.lower() == "openrouter:auto":
        return "openrouter", "auto"
    slash = trimmed.find("/")
    if slash == -1:
        return lower_or_empty(default_provider), trimmed
    provider, model = opt_str(trimmed[:slash]), opt_str(trimmed[slash + 1:])
    return (lower_or_empty(provider), model) if provider and model else None


def _ref_key(provider: str, model: str) -> str:
    from openclaw_cli.listing.runtime_config import model_key

    return model_key(provider, model)


def _agent_model(cfg: dict, agent_id: str) -> Any:
    from openclaw_cli.config.agents import normalize_agent_id

    entries = object_at(cfg, "agents").get("list")
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and normalize_agent_id(entry.get("id") if isinstance(entry.get("id"), str)
                                                          else None) == agent_id:
            return entry.get("model")
    return None


def _fallbacks(own: Any, defaults: Any) -> list:
    """The agent's own fallbacks (none when it names only a primary), else the defaults'."""
    from openclaw_cli.listing.runtime_config import primary_model_value

    override: list | None = None
    if isinstance(own, str):
        override = [] if opt_str(own) else None
    elif isinstance(own, dict) and own:
        if "fallbacks" not in own:
            override = [] if "primary" in own and primary_model_value(own) else None
        else:
            override = own["fallbacks"] if isinstance(own["fallbacks"], list) else None
    if override is not None:
        return override
    return defaults["fallbacks"] if isinstance(defaults, dict) and isinstance(defaults.get("fallbacks"), list) else []


def configured_route(cfg: dict, session_key: str, agent_id: str) -> Route:
    """The agent's primary model, its fallbacks (the agent's own, else the defaults') and runtime."""
    from openclaw_cli.listing.runtime import agent_runtime
    from openclaw_cli.listing.runtime_config import DEFAULT_MODEL, DEFAULT_PROVIDER, primary_model_value

    own = _agent_model(cfg, agent_id)
    defaults = object_at(object_at(cfg, "agents"), "defaults").get("model")
    primary = parse_model_ref(primary_model_value(own) or primary_model_value(defaults) or "", DEFAULT_PROVIDER) \
        or (DEFAULT_PROVIDER, DEFAULT_MODEL)
    refs = [_ref_key(*primary)]
    for fallback in _fallbacks(own, defaults):
        parsed = parse_model_ref(fallback, primary[0]) if isinstance(fallback, str) else None
        if parsed and _ref_key(*parsed) not in refs:
            refs.append(_ref_key(*parsed))
    runtime = agent_runtime(cfg, agent_id=agent_id, provider=primary[0], model=primary[1], session_key=session_key,
                            acp_runtime=False, acp_backend=None)["id"]
    return Route(primary[0], tuple(refs), runtime)


def _route_allows(owner: Owner, route: Route) -> bool:
    if opt_str(route.runtime) and lower_or_empty(route.runtime) in owner.runtime_ids:
        return True
    return any(ref.find("/") > 0 and lower_or_empty(ref[:ref.find("/")]) in owner.provider_ids
               for ref in route.configured_refs)


def _owned_cli_session(entry: dict, owner: Owner) -> bool:
    return any(isinstance(entry.get(field_name), dict) and key in entry[field_name]
               for key in owner.cli_session_keys for field_name in ("cliSessionBindings", "cliSessionIds"))


def scan_entry(key: str, entry: dict, owner: Owner, route: Route) -> Repair | Review | None:
    """scanEntryForOwner: a repair, a manual review, or nothing."""
    allows = _route_allows(owner, route)
    allows_runtime = opt_str(route.runtime) is not None and lower_or_empty(route.runtime) in owner.runtime_ids
    repair = Repair(key, owner)
    model = opt_str(entry.get("modelOverride"))
    provider = opt_str(entry.get("providerOverride"))
    direct = parse_model_ref(f"{provider}/{model}" if provider else model, route.default_provider) if model else None
    direct_key = _ref_key(*direct).lower() if direct else None
    owned = direct is not None and lower_or_empty(direct[0]) in owner.provider_ids
    configured = direct_key is not None and any(ref.lower() == direct_key for ref in route.configured_refs)
    source_raw = entry.get("modelOverrideSource")
    source = source_raw if source_raw in ("user", "auto") else ("legacy" if truthy(entry.get("modelOverride")) else None)
    if owned and not configured:
        if source == "auto":
            repair.reasons.append("auto model override")
        elif not allows and direct:
            return Review(key, owner, f"{key} ({direct_key}, {'user' if source == 'user' else 'legacy'})")
    explicit = owned and source is not None and source != "auto"
    if not allows_runtime and not explicit:
        for pin in ("agentHarnessId", "agentRuntimeOverride"):
            value = opt_str(entry.get(pin))
            if value and lower_or_empty(value) in owner.runtime_ids:
                if "pinned runtime" not in repair.reasons:
                    repair.reasons.append("pinned runtime")
                repair.pinned_runtime_keys.append(pin)
    if not allows and not explicit:
        runtime_ref = parse_model_ref(entry.get("model"), opt_str(entry.get("modelProvider")) or "") \
            if opt_str(entry.get("model")) else None
        if runtime_ref and lower_or_empty(runtime_ref[0]) in owner.provider_ids:
            repair.reasons.append("runtime model state")
        if _owned_cli_session(entry, owner):
            repair.reasons.append("CLI session binding")
        profile = (opt_str(entry.get("authProfileOverride")) or "").lower()
        if entry.get("authProfileOverrideSource") == "auto" and profile \
                and any(profile.startswith(p) for p in owner.auth_profile_prefixes):
            repair.reasons.append("auto auth profile override")
    return repair if repair.reasons else None


def scan_store(cfg: dict, store: dict) -> tuple[list[Repair], list[Review]]:
    """Every entry that may hold route state, against each owner, with one route per agent."""
    from openclaw_cli.config.agents import resolve_default_agent_id
    from openclaw_cli.store.keys import parse_agent_key

    repairs: list[Repair] = []
    reviews: list[Review] = []
    routes: dict[str, Route] = {}
    for key, entry in store.items():
        if not isinstance(entry, dict) or not may_hold_route_state(entry):
            continue
        parsed = parse_agent_key(key)
        agent_id = parsed[0] if parsed else resolve_default_agent_id(cfg)
        route = routes.get(agent_id) or routes.setdefault(agent_id, configured_route(cfg, key, agent_id))
        for owner in OWNERS:
            found = scan_entry(key, entry, owner, route)
            if isinstance(found, Repair):
                repairs.append(found)
            elif isinstance(found, Review):
                reviews.append(found)
    return repairs, reviews


def apply_repair(entry: dict, repair: Repair, now_ms: int) -> bool:
    """Clear the owner's stale fields from `entry` (and stamp updatedAt); whether anything changed."""
    keys = [k for reason in repair.reasons for k in CLEARED.get(reason, ())]
    if "pinned runtime" in repair.reasons:
        keys += repair.pinned_runtime_keys
    changed = False
    for name in keys:
        if name in entry:
            del entry[name]
            changed = True
    if "CLI session binding" in repair.reasons:
        for name in ("cliSessionBindings", "cliSessionIds"):
            record = entry.get(name)
            if not isinstance(record, dict):
                continue
            kept = {k: v for k, v in record.items() if k not in repair.owner.cli_session_keys}
            if len(kept) != len(record):
                changed = True
                if kept:
                    entry[name] = kept
                else:
                    del entry[name]
    if changed:
        entry["updatedAt"] = now_ms
    return changed


def clear_stale(store_path: str, repairs: list[Repair], now_ms: int) -> int:
    """Under the store lock: re-read the store, repair the entries still there, save; how many changed."""
    from openclaw_cli.errors import CliError, StoreError
    from openclaw_cli.locks.store_lock import StoreLock
    from openclaw_cli.store.sessions_json import load_store, save_store

    try:
        lock = StoreLock(store_path).acquire()
    except CliError:
        return 0
    try:
        try:
            loaded = load_store(store_path)
        except StoreError:
            return 0
        repaired = sum(1 for r in repairs if isinstance(loaded.store.get(r.key), dict)
                       and apply_repair(loaded.store[r.key], r, now_ms))
        if repaired:
            save_store(store_path, loaded.store, durable=True)
        return repaired
    finally:
        lock.release()

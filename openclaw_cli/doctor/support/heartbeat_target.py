"""An agent's `heartbeat.session` pinned to a session its store has no entry for (warning only).

Facts from OpenClaw 2026.7.1's src/commands/doctor-heartbeat-session-target.ts: the agents with a
heartbeat block (or all of them under `agents.defaults.heartbeat`), their merged heartbeat settings,
an enabled interval, a pinned session that is not `main`, `global` or a subagent, a delivery target
that is not `none`, the store key the runtime resolves it to. OpenClaw asks its channel plugins
whether the target is reachable without the session; here a `last` target, or one without `to`, is
not (the runtime would resolve delivery to channel "none").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openclaw_cli.js.values import js_trim, lower_or_empty, object_at, opt_str, truthy

HINT = ('Point heartbeat.session at a session the agent actually owns, set heartbeat.target="none" to suppress '
        "delivery, or remove the heartbeat.session field to fall back to the agent main session.")
FIX = f"Fix: {HINT[:1].lower()}{HINT[1:]}"
DROPPED = ('Heartbeats will run but resolve delivery to channel="none"/reason="no-target", so replies are dropped '
           "silently.")


@dataclass(frozen=True)
class PinnedSession:
    agent_id: str
    configured: str
    resolved: str
    store_path: str
    config_path: str

    @property
    def text(self) -> str:
        return (f"Agent {self.agent_id} heartbeat.session pins {self.configured} (resolved to {self.resolved}) but "
                f"that session has no entry in {self.store_path}.")

    def lines(self) -> str:
        return "\n".join([f"- {self.text}", f"  {DROPPED}", f"  {FIX}"])


def _entries(cfg: dict) -> list[tuple[int, dict]]:
    raw = object_at(cfg, "agents").get("list")
    return [(i, e) for i, e in enumerate(raw) if isinstance(e, dict)] if isinstance(raw, list) else []


def _doctor_agents(cfg: dict) -> list[str]:
    from openclaw_cli.config.agents import list_agent_ids, normalize_agent_id

    entries = _entries(cfg)
    if any(truthy(e.get("heartbeat")) for _i, e in entries):
        ids = [normalize_agent_id(e.get("id") if isinstance(e.get("id"), str) else None)
               for _i, e in entries if truthy(e.get("heartbeat"))]
        return [i for i in ids if i]
    return list_agent_ids(cfg) if truthy(object_at(object_at(cfg, "agents"), "defaults").get("heartbeat")) else []


def _agent_heartbeat(cfg: dict, agent_id: str) -> tuple[dict | None, str]:
    """The merged heartbeat settings, and the config path that sets `session`."""
    from openclaw_cli.config.agents import normalize_agent_id

    defaults = object_at(object_at(cfg, "agents"), "defaults").get("heartbeat")
    found = next(((i, e) for i, e in _entries(cfg)
                  if normalize_agent_id(e.get("id") if isinstance(e.get("id"), str) else None) == agent_id), None)
    override = found[1].get("heartbeat") if found else None
    if not truthy(defaults) and not truthy(override):
        return None, ""
    merged = {**(defaults if isinstance(defaults, dict) else {}), **(override if isinstance(override, dict) else {})}
    own = found is not None and isinstance(override, dict) and "session" in override
    return merged, (f"agents.list.{found[0]}.heartbeat.session" if own and found else "agents.defaults.heartbeat.session")


def _interval_enabled(cfg: dict, heartbeat: dict) -> bool:
    """resolveHeartbeatIntervalMs: `every` (merged, then the defaults', then 30m) is a positive duration."""
    from openclaw_cli.config.units import parse_duration_ms

    defaults = object_at(object_at(object_at(cfg, "agents"), "defaults"), "heartbeat")
    raw = next((v for v in (heartbeat.get("every"), defaults.get("every")) if v is not None), "30m")
    text = opt_str(raw)
    if not truthy(raw) or not text:
        return False
    try:
        return parse_duration_ms(text, default_unit="m") > 0
    except ValueError:
        return False


def _store_key(agent_id: str, request_key: str, main_key: Any) -> str:
    """toAgentStoreSessionKey."""
    from openclaw_cli.config.agents import normalize_agent_id
    from openclaw_cli.store.keys import normalize_store_key, parse_agent_key

    raw = js_trim(request_key)
    lowered = lower_or_empty(raw)
    if not raw or lowered == "main":
        return f"agent:{normalize_agent_id(agent_id)}:{lower_or_empty(main_key) or 'main'}"
    parsed = parse_agent_key(raw)
    if parsed:
        return f"agent:{parsed[0]}:{parsed[1]}"
    normalized = normalize_store_key(raw)
    return normalized if lowered.startswith("agent:") else f"agent:{normalize_agent_id(agent_id)}:{normalized}"


def _canonical(cfg: dict, agent_id: str, key: str) -> str:
    """canonicalizeMainSessionAlias."""
    from openclaw_cli.config.agents import normalize_agent_id

    session = object_at(cfg, "session")
    raw = js_trim(key)
    if not raw:
        return raw
    agent = normalize_agent_id(agent_id)
    main_key = lower_or_empty(session.get("mainKey")) or "main"
    aliases = {"main", main_key, f"agent:{agent}:{main_key}", f"agent:{agent}:main", f"agent:main:{main_key}",
               "agent:main:main"}
    if raw in aliases:
        return "global" if session.get("scope") == "global" else f"agent:{agent}:{main_key}"
    return raw


def _pinned(cfg: dict, agent_id: str, store_path_of) -> PinnedSession | None:
    from openclaw_cli.config.agents import normalize_agent_id
    from openclaw_cli.doctor.support.sessionfiles import read_store
    from openclaw_cli.store.keys import is_subagent_key, parse_agent_key

    heartbeat, config_path = _agent_heartbeat(cfg, agent_id)
    if heartbeat is None or not _interval_enabled(cfg, heartbeat):
        return None
    configured = opt_str(heartbeat.get("session"))
    session = object_at(cfg, "session")
    if not configured or configured.lower() in ("main", "global") or is_subagent_key(configured) \
            or session.get("scope", "per-sender") == "global":
        return None
    target = opt_str(heartbeat.get("target"))
    if not target or target == "none" or (target != "last" and opt_str(heartbeat.get("to"))):
        return None
    candidate = _store_key(agent_id, configured, session.get("mainKey"))
    if is_subagent_key(candidate):
        return None
    canonical = _canonical(cfg, agent_id, candidate)
    parsed = parse_agent_key(canonical)
    if canonical == "global" or is_subagent_key(canonical) \
            or normalize_agent_id(parsed[0] if parsed else "main") != agent_id:
        return None
    store_path = store_path_of(agent_id)
    if truthy(read_store(store_path).entries.get(canonical)):
        return None
    return PinnedSession(agent_id, configured, canonical, store_path, config_path)


def pinned_sessions(cfg: dict, store_path_of) -> list[PinnedSession]:
    """Every agent whose heartbeat pins a session its store (`store_path_of(agent_id)`) lacks."""
    found = (_pinned(cfg, agent_id, store_path_of) for agent_id in _doctor_agents(cfg) if agent_id)
    return [p for p in found if p is not None]

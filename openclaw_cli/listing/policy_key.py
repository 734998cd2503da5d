"""The `policy:` flag: the per-peer runtime policy key of a direct chat that lives in a main session."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openclaw_cli.config.agents import normalize_account_id, normalize_agent_id
from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import UNDEFINED, coalesce, is_record, lower_or_empty, opt_lower, opt_str
from openclaw_cli.listing.runtime_config import MAIN_KEY
from openclaw_cli.store.keys import parse_agent_key


def normalize_chat_type(raw: Any) -> str | None:
    value = opt_lower(raw)
    if value in ("direct", "dm"):
        return "direct"
    return value if value in ("group", "channel") else None


def _field(value: Any, name: str) -> Any:
    return value.get(name, UNDEFINED) if is_record(value) else UNDEFINED


def _strip_recipient_prefix(value: Any, channel: Any) -> str | None:
    raw = opt_str(value)
    normalized_channel = opt_lower(channel)
    if not raw or not normalized_channel:
        return raw
    prefix = f"{normalized_channel}:"
    if not raw.lower().startswith(prefix):
        return raw
    stripped = raw[len(prefix):]
    topic = stripped.lower().find(":topic:")
    return stripped[:topic] if topic >= 0 else stripped


def _is_main_alias(cfg: Mapping, agent_id: str, session_key: str) -> bool:
    raw = lower_or_empty(session_key)
    if not raw:
        return False
    session = cfg.get("session")
    scope = session.get("scope") if is_record(session) else None
    return (raw in ("main", MAIN_KEY, f"agent:{normalize_agent_id(agent_id)}:{MAIN_KEY}", f"agent:main:{MAIN_KEY}")
            or (scope == "global" and raw == "global"))


def _linked_peer_id(identity_links: Any, channel: str, peer_id: str) -> str | None:
    if not is_record(identity_links):
        return None
    peer = js_trim(peer_id)
    if not peer:
        return None
    candidates = {lower_or_empty(peer)} - {""}
    scoped = lower_or_empty(f"{lower_or_empty(channel)}:{peer}") if lower_or_empty(channel) else ""
    if scoped:
        candidates.add(scoped)
    for canonical, ids in identity_links.items():
        name = js_trim(canonical)
        if not name or not isinstance(ids, list):
            continue
        if any(lower_or_empty(i) and lower_or_empty(i) in candidates for i in ids):
            return name
    return None


def _peer_session_key(cfg: Mapping, agent_id: str, channel: str, account_id: Any, peer_id: str) -> str:
    """buildAgentPeerSessionKey for a direct peer with dmScope per-account-channel-peer."""
    session = cfg.get("session")
    links = session.get("identityLinks") if is_record(session) else None
    peer = js_trim(peer_id)
    peer = _linked_peer_id(links, channel, peer) or peer
    peer = lower_or_empty(peer)
    agent = normalize_agent_id(agent_id)
    if not peer:
        return f"agent:{agent}:{MAIN_KEY}"
    return f"agent:{agent}:{lower_or_empty(channel) or 'unknown'}:{normalize_account_id(account_id)}:direct:{peer}"


def runtime_policy_key(cfg: Mapping, key: str, entry: Mapping) -> str | None:
    """resolveDisplayRuntimePolicySessionKey: shown only when it differs from the row key."""
    origin = entry.get("origin", UNDEFINED)
    chat_type = normalize_chat_type(coalesce(_field(origin, "chatType"), entry.get("chatType", UNDEFINED)))
    if chat_type != "direct":
        return None
    session_key = opt_str(key)
    if not session_key:
        return None
    parsed = parse_agent_key(session_key)
    agent_id = normalize_agent_id(parsed[0] if parsed else "main")
    if not _is_main_alias(cfg, agent_id, session_key):  # only a main session takes a peer's key
        return session_key if session_key != key else None
    delivery = entry.get("deliveryContext", UNDEFINED)
    channel = opt_str(coalesce(_field(origin, "provider"), _field(delivery, "channel"),
                               entry.get("lastChannel", UNDEFINED), entry.get("channel", UNDEFINED),
                               _field(origin, "surface")))
    to = opt_str(coalesce(_field(origin, "to"), _field(delivery, "to"), entry.get("lastTo", UNDEFINED)))
    sender = opt_str(_field(origin, "from"))
    native = opt_str(_field(origin, "nativeDirectUserId"))
    peer_id = coalesce(native, _strip_recipient_prefix(to, channel), _strip_recipient_prefix(sender, channel))
    surface = opt_str(_field(origin, "surface"))
    account = opt_str(coalesce(_field(origin, "accountId"), _field(delivery, "accountId"),
                               entry.get("lastAccountId", UNDEFINED)))
    resolved = session_key
    policy_channel = lower_or_empty(opt_str(coalesce(channel, surface)))
    policy_channel = policy_channel if policy_channel and policy_channel != "webchat" else ""
    peer = opt_str(coalesce(native, peer_id, to, sender, to))
    if policy_channel and peer:
        resolved = _peer_session_key(cfg, agent_id, policy_channel, account, peer)
    return resolved if resolved != key else None

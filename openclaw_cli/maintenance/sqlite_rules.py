"""Which session rows OpenClaw 2026.9.6's maintenance leaves alone, and which it may delete outright."""

from __future__ import annotations

import re
from collections.abc import Mapping

from openclaw_cli.store import keys
from openclaw_cli.store.keys import (
    _DOT,
    _GROUP_OR_CHANNEL,
    _lower_or_empty,
    _opt,
    parse_agent_key,
    thread_id_of,
)

_DIRECT = re.compile(rf"^direct:{_DOT}+\Z")
_TELEGRAM_DM_TOPIC = re.compile(rf"^telegram:(?:direct|dm):{_DOT}+:topic:[^:]+\Z")
_PEER_KINDS = ("channel", "direct", "dm", "group")


def is_synthetic(key: str) -> bool:
    """Runtime-made rows (model-run probes too, in 2026.9.6): deleted, never archived."""
    return keys.is_model_run_key(key) or keys.is_synthetic_key(key)


def _base_key(key: str) -> str:
    """The key before its last `:thread:` (case-insensitive)."""
    raw = _opt(key) or ""
    marker = raw.lower().rfind(":thread:")
    return raw if marker == -1 else raw[:marker]


def is_delivery_route(key: str) -> bool:
    """`parseSessionDeliveryRoute` found a complete external route: `<channel>:<account>:direct|dm:<peer>`
    or `<channel>:channel|direct|dm|group:<peer>` (thread suffix aside)."""
    parsed = parse_agent_key(_base_key(key) or key)
    if parsed is None:
        return False
    parts = parsed[1].split(":")
    if parts[0] == "agent" or len(parts) < 3 or not _opt(parts[0]):
        return False
    if len(parts) >= 4 and parts[2] in ("direct", "dm"):
        return bool(_opt(parts[1]) and _opt(parts[3]) and _opt(":".join(parts[3:])))
    return parts[1] in _PEER_KINDS and bool(_opt(parts[2]) and _opt(":".join(parts[2:])))


def _is_external_key(key: str) -> bool:
    parsed = parse_agent_key(key)
    rest = _lower_or_empty(parsed[1] if parsed else key)
    return (is_delivery_route(key) or bool(_DIRECT.match(rest)) or bool(_GROUP_OR_CHANNEL.match(rest))
            or bool(_TELEGRAM_DM_TOPIC.match(rest)))


def is_primary(key: str) -> bool:
    """`global` and `agent:<id>:main`."""
    if _lower_or_empty(key) == "global":
        return True
    parsed = parse_agent_key(key)
    return parsed is not None and parsed[1] == "main"


def _external_delivery(entry: Mapping) -> Mapping | None:
    delivery = entry.get("delivery")
    return delivery if isinstance(delivery, Mapping) and delivery.get("kind") == "external" else None


def is_protected(key: str, entry: Mapping) -> bool:
    """Durable conversations: the main rows, threads, external routes, groups and channels."""
    if is_synthetic(key):
        return False
    if is_primary(key) or thread_id_of(key):
        return True
    delivery = _external_delivery(entry)
    if delivery is not None or _is_external_key(key):
        return True
    chat_type = entry.get("chatType")
    if chat_type is None and delivery is not None:
        origin = delivery.get("origin")
        chat_type = origin.get("chatType") if isinstance(origin, Mapping) else None
    return _lower_or_empty(chat_type) in ("group", "channel", "thread")


def activity_at(entry: Mapping) -> float:
    """The latest of `lastInteractionAt`, `lastActivityAt`, `sessionStartedAt`, `updatedAt` (0 if none)."""
    values = [entry.get(name) for name in ("lastInteractionAt", "lastActivityAt", "sessionStartedAt", "updatedAt")]
    return max([0, *(v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool))])


def _is_pinnable(key: str, entry: Mapping) -> bool:
    if keys.is_subagent_key(key) or _opt(entry.get("spawnedBy")):
        return False
    parent = _opt(entry.get("parentSessionKey"))
    if not parent:
        return True
    parsed = parse_agent_key(key)
    return parsed is not None and parent == f"agent:{parsed[0]}:main"


def is_recent(key: str, entry: Mapping, preserve_recent_ms: int | None, now_ms: int) -> bool:
    if preserve_recent_ms is None or is_synthetic(key):
        return False
    at = activity_at(entry)
    return at > 0 and now_ms - at <= preserve_recent_ms


def preserve_unarchived(key: str, entry: Mapping, preserve_keys: frozenset[str] | None,
                        preserve_recent_ms: int | None, now_ms: int) -> bool:
    """Pinned, model-locked, running, named by `--active-key`, recently active, or protected."""
    if "pinnedAt" in entry and _is_pinnable(key, entry):
        return True
    return (entry.get("modelSelectionLocked") is True or entry.get("status") == "running"
            or (preserve_keys is not None and key in preserve_keys)
            or is_recent(key, entry, preserve_recent_ms, now_ms) or is_protected(key, entry))


def preserve(key: str, entry: Mapping, preserve_keys: frozenset[str] | None = None,
             preserve_recent_ms: int | None = None, now_ms: int = 0) -> bool:
    """Archived rows, and every row `preserve_unarchived` keeps."""
    return "archivedAt" in entry or preserve_unarchived(key, entry, preserve_keys, preserve_recent_ms, now_ms)

"""The Kind column: global, unknown, cron, spawn-child, group or direct."""

from __future__ import annotations

from collections.abc import Mapping

from openclaw_cli.js.values import UNDEFINED, truthy
from openclaw_cli.store.keys import is_cron_key


def classify_session_kind(key: str, entry: Mapping) -> str:
    """classifySessionKind: sentinel keys, cron keys, spawned children, groups/channels, else direct."""
    if key == "global":
        return "global"
    if key == "unknown":
        return "unknown"
    if is_cron_key(key):
        return "cron"
    if truthy(entry.get("spawnedBy", UNDEFINED)):
        return "spawn-child"
    if entry.get("chatType") in ("group", "channel"):
        return "group"
    if ":group:" in key or ":channel:" in key:
        return "group"
    return "direct"

"""The `compaction` transcript entry in OpenClaw's exact shape, ids and timestamps."""

from __future__ import annotations

import uuid
from collections.abc import Container
from typing import Any

from openclaw_cli.js import json as jsjson


def new_entry_id(taken: Container[str]) -> str:
    """8 hex characters from a random UUID, re-drawn on collision; a full UUID after 100 tries."""
    for _ in range(100):
        candidate = str(uuid.uuid4())[:8]
        if candidate not in taken:
            return candidate
    return str(uuid.uuid4())


def compaction_entry(*, entry_id: str, parent_id: str | None, timestamp: str, summary: str,
                     first_kept_entry_id: str, tokens_before: float,
                     details: dict[str, Any] | None, from_hook: bool) -> dict[str, Any]:
    """`{type, id, parentId, timestamp, summary, firstKeptEntryId, tokensBefore, details?, fromHook}`."""
    entry: dict[str, Any] = {
        "type": "compaction", "id": entry_id, "parentId": parent_id, "timestamp": timestamp,
        "summary": summary, "firstKeptEntryId": first_kept_entry_id, "tokensBefore": tokens_before,
    }
    if details is not None:
        entry["details"] = details
    entry["fromHook"] = from_hook
    return entry


def serialize_line(entry: dict[str, Any]) -> str:
    """`JSON.stringify(entry) + "\\n"`."""
    return jsjson.stringify(entry) + "\n"

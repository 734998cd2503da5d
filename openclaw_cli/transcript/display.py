"""The display reader's view of a transcript (chat history, `/context` "Compactable transcript")."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from openclaw_cli.js import json as jsjson
from openclaw_cli.transcript.reader import iter_raw_lines
from openclaw_cli.transcript.realness import REAL_ROLES, has_meaningful_conversation_content, real_flags
from openclaw_cli.transcript.tree import scan_tree, select_path

MAX_PARSE_LINE_BYTES = 256 * 1024
_TREE_KEYS = ("type", "id", "parentId", "targetId", "appendParentId", "appendMode")


@dataclass(frozen=True, slots=True)
class DisplayMessage:
    """One message the display reader yields: its role and whether its content is meaningful."""

    role: str | None
    meaningful: bool
    entry_id: str | None = None


def _slim(record: dict) -> dict:
    return {k: record[k] for k in _TREE_KEYS if k in record}


def _message_of(record: dict) -> DisplayMessage | None:
    rid = record.get("id") if isinstance(record.get("id"), str) else None
    if "message" in record:
        message = record.get("message")
        if not isinstance(message, dict):
            return None
        role = message.get("role") if isinstance(message.get("role"), str) else None
        meaningful = has_meaningful_conversation_content(message) if role in REAL_ROLES else False
        return DisplayMessage(role, meaningful, rid)
    if record.get("type") == "compaction":
        return DisplayMessage("system", False, rid)
    return None


def read_display_messages(path: str | Path) -> list[DisplayMessage]:
    """`readSessionMessages` (2026.7.1): the active branch when the file has tree links (with the
    nearest earlier compaction prepended), else every record in file order, as light messages."""
    slims: list[dict] = []
    messages: list[DisplayMessage | None] = []
    for raw in iter_raw_lines(path):
        if raw.length > MAX_PARSE_LINE_BYTES:
            record = {"message": {"role": "assistant", "content": [{"type": "text", "text": "[omitted]"}]}}
            try:
                record = {**_slim(jsjson.parse(raw.text)), **record}
            except jsjson.JsonLineError:
                pass
        else:
            try:
                record = jsjson.parse(raw.text)
            except jsjson.JsonLineError:
                continue
        if not isinstance(record, dict) or record.get("type") == "session":
            continue
        slims.append(_slim(record))
        messages.append(_message_of(record))
    tree = scan_tree(slims)
    order: list[int]
    if not tree.has_explicit_leaf_update:
        order = list(range(len(slims)))
    else:
        order = [node.index for node in select_path(tree, tree.leaf_id)]
        if order and order[0] > 0:
            earlier = next((i for i in range(order[0] - 1, -1, -1) if slims[i].get("type") == "compaction"), None)
            if earlier is not None:
                order.insert(0, earlier)
    return [m for m in (messages[i] for i in order) if m is not None]


def compactable_counts(path: str | Path) -> tuple[int, int]:
    """(real conversation messages, transcript messages) for `/context detail`."""
    messages = read_display_messages(path)
    flags = real_flags([m.role for m in messages], [m.meaningful for m in messages])
    return sum(flags), len(messages)

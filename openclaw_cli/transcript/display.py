"""The display reader (`readSessionMessages`, 2026.7.1): the records of a transcript's active
branch as chat history and `/context` read them, in one streamed pass."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from openclaw_cli.js import json as jsjson
from openclaw_cli.transcript.reader import RawLine, iter_raw_lines
from openclaw_cli.transcript.realness import REAL_ROLES, has_meaningful_conversation_content, real_flags
from openclaw_cli.transcript.tree import scan_tree, select_path

MAX_PARSE_LINE_BYTES = 256 * 1024
OVERSIZED_PREFIX_CHARS = 64 * 1024
OVERSIZED_PLACEHOLDER = "[chat.history omitted: message too large]"
TREE_KEYS = ("type", "id", "parentId", "appendMode", "targetId", "appendParentId")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DisplayMessage:
    """One message the display reader yields: its role and whether its content is meaningful."""

    role: str | None
    meaningful: bool
    entry_id: str | None = None


@dataclass(frozen=True, slots=True)
class DisplayScan(Generic[T]):
    """What one pass found: the selected records' views, and the lines it could not parse or
    read as placeholders."""

    messages: list[T]
    skipped_lines: int
    oversized_lines: int


def _field_string(source: str, name: str) -> str | None:
    token = json.dumps(name)
    start = 0
    while True:
        index = source.find(token, start)
        if index < 0:
            return None
        start = index + len(token)
        before = source[:index].rstrip()
        if before and before[-1] not in "{,":
            continue
        match = re.match(r'\s*:\s*"((?:\\.|[^"\\])*)"', source[start:])
        if not match:
            if name == "parentId" and re.match(r"\s*:\s*null", source[start:]):
                return ""
            continue
        try:
            value = json.loads(f'"{match.group(1)}"').strip()
        except ValueError:
            return None
        return value or None


def oversized_record(text: str) -> dict[str, Any]:
    """The placeholder OpenClaw reads for a line over 256 KiB (an assistant message by default)."""
    prefix = text[:OVERSIZED_PREFIX_CHARS]
    record: dict[str, Any] = {}
    kind = _field_string(prefix, "type")
    rid = _field_string(prefix, "id")
    parent = _field_string(prefix, "parentId")
    if kind:
        record["type"] = kind
    if rid:
        record["id"] = rid
    if parent is not None:
        record["parentId"] = None if parent == "" else parent
    role = _field_string(prefix, "role") or "assistant"
    record["message"] = {"role": role, "content": [{"type": "text", "text": OVERSIZED_PLACEHOLDER}]}
    return record


def select_display(light: list[dict[str, Any]]) -> list[int]:
    """`selectBoundedActiveTailRecords`: the active branch when a tree link moved the leaf,
    with the nearest earlier compaction record in front; otherwise every record."""
    tree = scan_tree(light)
    if not tree.has_explicit_leaf_update:
        return list(range(len(light)))
    branch = [node.index for node in select_path(tree, tree.leaf_id)]
    if branch and branch[0] > 0:
        for index in range(branch[0] - 1, -1, -1):
            if light[index].get("type") == "compaction":
                return [index, *branch]
    return branch


def scan_display(path: str | Path, view: Callable[[dict[str, Any]], T | None]) -> DisplayScan[T]:
    """Stream `path` once (one light record per line kept), select the display records and
    return `view(record)` of each (records whose view is None are left out)."""
    return scan_display_lines(iter_raw_lines(path), view)


def scan_display_lines(lines: Iterable[RawLine], view: Callable[[dict[str, Any]], T | None]) -> DisplayScan[T]:
    """`scan_display` over transcript lines from any source (a file, a database's events)."""
    light: list[dict[str, Any]] = []
    views: list[T | None] = []
    skipped = oversized = 0
    for raw in lines:
        if raw.length > MAX_PARSE_LINE_BYTES:
            record = oversized_record(raw.text)
            oversized += 1
        else:
            try:
                record = jsjson.parse(raw.text)
            except jsjson.JsonLineError:
                skipped += 1
                continue
            if not isinstance(record, dict):
                continue
        if record.get("type") == "session":
            continue
        light.append({k: record[k] for k in TREE_KEYS if k in record})
        views.append(view(record))
    messages = [v for i in select_display(light) if (v := views[i]) is not None]
    return DisplayScan(messages, skipped, oversized)


def _message_of(record: Mapping[str, Any]) -> DisplayMessage | None:
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
    """The display messages of the active branch (with the nearest earlier compaction
    prepended), else of every record in file order."""
    return scan_display(path, _message_of).messages


def compactable_counts(path: str | Path) -> tuple[int, int]:
    """(real conversation messages, transcript messages) for `/context detail`."""
    messages = read_display_messages(path)
    flags = real_flags([m.role for m in messages], [m.meaningful for m in messages])
    return sum(flags), len(messages)

"""One streaming pass over a transcript: the header and a light record per line (no content kept)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.health.lines import Line, iter_lines
from openclaw_cli.js.values import UNDEFINED

TOOL_CALL_TYPES = frozenset({"toolCall", "toolUse", "functionCall"})  # `extractToolCallsFromAssistant`
TOOL_RESULT_ID_KEYS = ("toolCallId", "toolUseId", "tool_call_id", "tool_use_id", "callId", "call_id")
_HEAD = re.compile(rb'^\{"type":"([^"\\]*)"')
_LINK = re.compile(rb'"id":"([^"\\]*)","parentId":(null|"[^"\\]*")')
_HEAD_ROLE = re.compile(rb'"message":\{"role":"([^"\\]*)"')
_HEAD_RESULT = re.compile(rb'"message":\{"role":"toolResult","toolCallId":"([^"\\]*)"')


@dataclass(slots=True)
class Record:
    """What the checks and the repair need of one line."""

    line: int
    kind: str  # "entry", "header", "not-json", "not-object"
    utf8: bool = True
    oversized: bool = False
    type: str | None = None
    id: str | None = None
    parent: Any = UNDEFINED  # str | None | UNDEFINED (no parentId)
    role: str | None = None
    tool_calls: tuple[tuple[str, str | None], ...] = ()
    result_id: str | None = None
    stop_reason: str | None = None
    api: str | None = None
    first_kept: str | None = None
    leaf: dict | None = None  # a `leaf` control entry as it is (small)
    side: bool = False
    timestamp: Any = None


@dataclass
class Scan:
    path: str
    header: dict | None = None
    header_line: int | None = None
    first_line: int | None = None  # the first non-blank line
    records: list[Record] = field(default_factory=list)
    lines: int = 0

    @property
    def version(self) -> float:
        raw = self.header.get("version") if self.header else None
        return raw if isinstance(raw, (int, float)) and not isinstance(raw, bool) else 1

    def entries(self) -> list[Record]:
        return [r for r in self.records if r.kind == "entry"]


def tool_calls_of(message: Mapping[str, Any]) -> tuple[tuple[str, str | None], ...]:
    content = message.get("content")
    if message.get("role") != "assistant" or not isinstance(content, list):
        return ()
    calls = []
    for block in content:
        if isinstance(block, Mapping) and isinstance(block.get("id"), str) and block["id"] \
                and block.get("type") in TOOL_CALL_TYPES:
            name = block.get("name")
            calls.append((block["id"], name if isinstance(name, str) else None))
    return tuple(calls)


def tool_result_id(message: Mapping[str, Any]) -> str | None:
    """`extractToolResultId`: the first non-blank id field of a toolResult."""
    for key in TOOL_RESULT_ID_KEYS:
        value = message.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def describe(record: Record, value: dict) -> None:
    """Fill a record from a parsed entry."""
    record.type = value.get("type") if isinstance(value.get("type"), str) else None
    record.id = value.get("id") if isinstance(value.get("id"), str) and value.get("id") else None
    if "parentId" in value:
        record.parent = value["parentId"]
    record.side = value.get("appendMode") == "side"
    record.timestamp = value.get("timestamp")
    if record.type == "leaf":
        record.leaf = value
    elif record.type == "compaction":
        kept = value.get("firstKeptEntryId")
        record.first_kept = kept if isinstance(kept, str) else None
    message = value.get("message")
    if record.type == "message" and isinstance(message, Mapping):
        role = message.get("role")
        record.role = role if isinstance(role, str) else None
        record.tool_calls = tool_calls_of(message)
        if record.role == "toolResult":
            record.result_id = tool_result_id(message)
        stop = message.get("stopReason")
        record.stop_reason = stop if isinstance(stop, str) else None
        api = message.get("api")
        record.api = api if isinstance(api, str) else None


def _describe_head(record: Record, head: bytes, tail: bytes) -> None:
    """An oversized line: its type, id and parentId from its first and last bytes (JSON.stringify
    writes a message's id first, a custom entry's last)."""
    match = _HEAD.match(head)
    if match is None:
        return
    from openclaw_cli.js import json as jsjson

    record.type = match.group(1).decode("utf-8", "replace")
    link = _LINK.match(head, match.end() + 1)
    if link is None:
        links = list(_LINK.finditer(tail))
        link = links[-1] if links else None
    if link is not None:
        record.id = link.group(1).decode("utf-8", "replace") or None
        record.parent = jsjson.parse(link.group(2).decode("utf-8", "replace"))
    role = _HEAD_ROLE.search(head)
    record.role = role.group(1).decode("utf-8", "replace") if role else None
    result = _HEAD_RESULT.search(head)
    if result:
        record.result_id = result.group(1).decode("utf-8", "replace")


def parse_line(line: Line) -> tuple[Record, Any]:
    """The record of one non-blank line and its parsed value (UNDEFINED when it did not parse)."""
    from openclaw_cli.js import json as jsjson

    record = Record(line=line.number, kind="entry", oversized=line.oversized)
    try:
        text = line.data.decode("utf-8")
    except UnicodeDecodeError:
        record.utf8 = False
        text = line.data.decode("utf-8", "replace")
    if line.oversized:
        _describe_head(record, line.data, line.tail)
        return record, UNDEFINED
    try:
        value = jsjson.parse(text)
    except (ValueError, RecursionError):
        record.kind = "not-json"
        return record, UNDEFINED
    if not isinstance(value, dict):
        record.kind = "not-object"
        return record, value
    return record, value


def scan_transcript(path: str, on_entry: Callable[[Record, dict], None] | None = None) -> Scan:
    """Read the file once; the first non-blank line is the header when it is a `session` entry.
    `on_entry` sees each parsed entry (header excluded) with its record."""
    scan = Scan(path)
    for line in iter_lines(path):
        scan.lines = line.number
        if line.blank:
            continue
        record, value = parse_line(line)
        if scan.first_line is None:
            scan.first_line = line.number
            if isinstance(value, dict) and value.get("type") == "session":
                scan.header = value
                scan.header_line = line.number
                record.kind = "header"
                scan.records.append(record)
                continue
        if isinstance(value, dict):
            describe(record, value)
            if on_entry is not None:
                on_entry(record, value)
        scan.records.append(record)
    return scan

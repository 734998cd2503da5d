"""One streamed pass over a transcript: the display messages of the active branch (as 2026.7.1's
`readSessionMessages` selects them), real-conversation counts, and a breakdown by role."""

from __future__ import annotations

import heapq
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.errors import CliError
from openclaw_cli.js import json as jsjson
from openclaw_cli.transcript.reader import iter_raw_lines
from openclaw_cli.transcript.realness import REAL_ROLES, has_meaningful_conversation_content, real_flags
from openclaw_cli.transcript.tokens import estimate_tokens
from openclaw_cli.transcript.tree import scan_tree, select_path

MAX_PARSE_LINE_BYTES = 256 * 1024
OVERSIZED_PREFIX_CHARS = 64 * 1024
OVERSIZED_PLACEHOLDER = "[chat.history omitted: message too large]"
TREE_KEYS = ("type", "id", "parentId", "appendMode", "targetId", "appendParentId")
TOP_TOOL_RESULTS = 5


@dataclass(frozen=True, slots=True)
class MessageInfo:
    """What the breakdown keeps about one display message."""

    role: str
    meaningful: bool
    tokens: int
    tool_name: str | None = None
    entry_id: str | None = None
    exact: int | None = None


@dataclass
class TranscriptStats:
    """Display messages of the active branch: counts for OpenClaw line and our breakdown."""

    path: str
    total: int = 0
    real: int = 0
    by_role: dict[str, list[int]] = field(default_factory=dict)  # role -> [count, ~tok, exact tok]
    largest_tool_results: list[MessageInfo] = field(default_factory=list)
    skipped_lines: int = 0
    oversized_lines: int = 0


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


def _tool_name(message: Mapping[str, Any]) -> str | None:
    name = message.get("toolName")
    return name if isinstance(name, str) else None


def scan_transcript(path: str, exact: Callable[[Mapping[str, Any]], int] | None = None) -> TranscriptStats:
    """Stream `path` once (bounded memory: one light record per line) and select the display
    messages of the active branch; `exact(message)` adds a tokenizer count per message.
    Raises CliError when the file cannot be read."""
    try:
        return _scan(path, exact)
    except OSError as exc:
        raise CliError(f"cannot read transcript {path}: {exc.strerror or exc}") from None


def _scan(path: str, exact: Callable[[Mapping[str, Any]], int] | None) -> TranscriptStats:
    light: list[dict[str, Any]] = []
    infos: list[MessageInfo | None] = []
    stats = TranscriptStats(path=path)
    for raw in iter_raw_lines(path):
        if raw.length > MAX_PARSE_LINE_BYTES:
            record = oversized_record(raw.text)
            stats.oversized_lines += 1
        else:
            try:
                record = jsjson.parse(raw.text)
            except jsjson.JsonLineError:
                stats.skipped_lines += 1
                continue
            if not isinstance(record, dict):
                continue
        if record.get("type") == "session":
            continue
        light.append({k: record[k] for k in TREE_KEYS if k in record})
        infos.append(_message_info(record, exact))
    selected = _select(light)
    messages = [m for i in selected if (m := infos[i]) is not None]
    roles = [m.role for m in messages]
    flags = real_flags(roles, [m.meaningful for m in messages])
    stats.total = len(messages)
    stats.real = sum(flags)
    heap: list[tuple[int, int, MessageInfo]] = []
    for seq, message in enumerate(messages):
        bucket = stats.by_role.setdefault(message.role, [0, 0, 0])
        bucket[0] += 1
        bucket[1] += message.tokens
        bucket[2] += message.exact or 0
        if message.role == "toolResult":
            item = (message.tokens, -seq, message)
            if len(heap) < TOP_TOOL_RESULTS:
                heapq.heappush(heap, item)
            else:
                heapq.heappushpop(heap, item)
    stats.largest_tool_results = [m for _, _, m in sorted(heap, key=lambda x: (-x[0], -x[1]))]
    return stats


def _message_info(record: Mapping[str, Any], exact: Callable[[Mapping[str, Any]], int] | None) -> MessageInfo | None:
    message = record.get("message")
    entry_id = record.get("id") if isinstance(record.get("id"), str) else None
    if message:
        if not isinstance(message, Mapping):
            return MessageInfo("(invalid)", False, 0, entry_id=entry_id)
        role = message.get("role")
        role = role if isinstance(role, str) else "(none)"
        meaningful = has_meaningful_conversation_content(message) if role in REAL_ROLES else False
        return MessageInfo(role, meaningful, estimate_tokens(message),
                           _tool_name(message) if role == "toolResult" else None, entry_id,
                           exact(message) if exact else None)
    if record.get("type") == "compaction":
        return MessageInfo("system", False, 0, entry_id=entry_id, exact=0 if exact else None)
    return None


def _select(light: list[dict[str, Any]]) -> list[int]:
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

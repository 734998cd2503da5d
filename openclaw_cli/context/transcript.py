"""One streamed pass over a transcript: the display messages of the active branch (as 2026.7.1's
`readSessionMessages` selects them), real-conversation counts, and a breakdown by role."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.context.target import TranscriptSource
from openclaw_cli.errors import CliError
from openclaw_cli.transcript.display import scan_display_lines
from openclaw_cli.transcript.reader import RawLine, iter_raw_lines
from openclaw_cli.transcript.realness import REAL_ROLES, has_meaningful_conversation_content, real_flags
from openclaw_cli.transcript.tokens import estimate_tokens

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

    path: str  # the file, or the database and session, the transcript was read from
    total: int = 0
    real: int = 0
    by_role: dict[str, list[int]] = field(default_factory=dict)  # role -> [count, ~tok, exact tok]
    largest_tool_results: list[MessageInfo] = field(default_factory=list)
    skipped_lines: int = 0
    oversized_lines: int = 0
    file: str | None = None  # the JSONL file, when the transcript is one


def _tool_name(message: Mapping[str, Any]) -> str | None:
    name = message.get("toolName")
    return name if isinstance(name, str) else None


def scan_transcript(source: TranscriptSource,
                    exact: Callable[[Mapping[str, Any]], int] | None = None) -> TranscriptStats:
    """Stream the transcript once (bounded memory: one light record per line), from its JSONL
    file or its events in the agent database, and select the display messages of the active
    branch; `exact(message)` adds a tokenizer count per message.
    Raises CliError when the file cannot be read."""
    if isinstance(source, str):
        try:
            stats = _scan(source, iter_raw_lines(source), exact)
        except OSError as exc:
            raise CliError(f"cannot read transcript {source}: {exc.strerror or exc}") from None
        stats.file = source
        return stats
    return _scan(source.name, source.lines(), exact)


def _scan(name: str, lines: Iterable[RawLine], exact: Callable[[Mapping[str, Any]], int] | None) -> TranscriptStats:
    stats = TranscriptStats(path=name)
    scan = scan_display_lines(lines, lambda record: _message_info(record, exact))
    stats.skipped_lines, stats.oversized_lines = scan.skipped_lines, scan.oversized_lines
    messages = scan.messages
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

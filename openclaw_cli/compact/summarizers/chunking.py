"""How safeguard compaction splits messages for staged summaries (2026.7.1 `compaction-planning`).

Estimates leave out runtime-context custom messages and tool-result details; splits never
separate a tool call from its results; `repair_tool_pairing` drops orphaned tool results and
adds a synthetic error result for a call whose result is missing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.compact.clock import now_ms
from openclaw_cli.transcript.tokens import estimate_tokens

BASE_CHUNK_RATIO = 0.4
MIN_CHUNK_RATIO = 0.15
SAFETY_MARGIN = 1.2
DEFAULT_PARTS = 2
SUMMARIZATION_OVERHEAD_TOKENS = 4096
RUNTIME_CONTEXT_TYPE = "openclaw.runtime-context"
TOOL_CALL_TYPES = frozenset({"toolCall", "toolUse", "functionCall"})
MISSING_TOOL_RESULT_TEXT = ("[openclaw] missing tool result in session history; inserted synthetic error result "
                            "for transcript repair.")
SYNTHETIC_KEY = "openclawSyntheticMissingToolResult"

Message = Mapping[str, Any]


def tool_calls(message: Message) -> list[tuple[str, str | None]]:
    """(id, name) of an assistant message's tool-call blocks."""
    content = message.get("content")
    if not isinstance(content, list):
        return []
    out = []
    for block in content:
        if not isinstance(block, Mapping) or not isinstance(block.get("id"), str) or not block["id"]:
            continue
        if block.get("type") in TOOL_CALL_TYPES:
            out.append((block["id"], block["name"] if isinstance(block.get("name"), str) else None))
    return out


def tool_result_ids(message: Message) -> list[str]:
    ids: list[str] = []
    for name in ("toolCallId", "toolUseId", "tool_call_id", "tool_use_id", "callId", "call_id"):
        value = message.get(name)
        if isinstance(value, str) and value.strip() and value.strip() not in ids:
            ids.append(value.strip())
    return ids


def tool_result_id(message: Message) -> str | None:
    ids = tool_result_ids(message)
    return ids[0] if ids else None


def is_runtime_context(message: Any) -> bool:
    return isinstance(message, Mapping) and message.get("role") == "custom" \
        and message.get("customType") == RUNTIME_CONTEXT_TYPE


def strip_runtime_context(messages: Sequence[Message]) -> list[Message]:
    return [m for m in messages if not is_runtime_context(m)]


def strip_tool_result_details(messages: Sequence[Message]) -> list[Message]:
    out = []
    for message in messages:
        if isinstance(message, Mapping) and message.get("role") == "toolResult" and "details" in message:
            message = {k: v for k, v in message.items() if k != "details"}
        out.append(message)
    return out


def sanitize(messages: Sequence[Message]) -> list[Message]:
    """`sanitizeCompactionMessages`: no runtime context, no tool-result details."""
    return strip_tool_result_details(strip_runtime_context(messages))


def estimate_all(messages: Sequence[Message]) -> int:
    return sum(estimate_tokens(m) for m in sanitize(messages))


def per_message_tokens(messages: Sequence[Message]) -> list[int]:
    return [0 if is_runtime_context(m) else estimate_tokens(m) for m in messages]


def _parts(parts: float, count: int) -> int:
    if not math.isfinite(parts) or parts <= 1:
        return 1
    return min(max(1, math.floor(parts)), max(1, count))


def split_by_token_share(messages: Sequence[Message], parts: int = DEFAULT_PARTS) -> list[list[Message]]:
    """`splitMessagesByTokenShare`: about equal token shares, tool calls kept with their results."""
    if not messages:
        return []
    n = _parts(parts, len(messages))
    if n <= 1:
        return [list(messages)]
    tokens = per_message_tokens(messages)
    target = sum(tokens) / n
    chunks: list[list[Message]] = []
    current: list[Message] = []
    counts: list[int] = []
    total = 0
    pending: set[str] = set()
    pending_start: int | None = None

    def split_at_pending() -> None:
        nonlocal current, counts, total, pending_start
        if pending_start is None or pending_start <= 0 or len(chunks) >= n - 1:
            return
        chunks.append(current[:pending_start])
        current, counts = current[pending_start:], counts[pending_start:]
        total = sum(counts)
        pending_start = 0

    for message, size in zip(messages, tokens):
        if not pending and len(chunks) < n - 1 and current and total + size > target:
            chunks.append(current)
            current, counts, total, pending_start = [], [], 0, None
        current.append(message)
        counts.append(size)
        total += size
        role = message.get("role")
        if role == "assistant":
            calls = tool_calls(message)
            keeps = message.get("stopReason") not in ("aborted", "error") and bool(calls)
            pending = {call_id for call_id, _ in calls} if keeps else set()
            pending_start = len(current) - 1 if keeps else None
        elif role == "toolResult" and pending:
            result_id = tool_result_id(message)
            if not result_id:
                pending, pending_start = set(), None
            else:
                pending.discard(result_id)
            if not pending and len(chunks) < n - 1 and total > target:
                split_at_pending()
                pending_start = None
    if pending and total > target:
        split_at_pending()
    if current:
        chunks.append(current)
    return chunks


def chunk_by_max_tokens(messages: Sequence[Message], max_tokens: int) -> list[list[Message]]:
    """`chunkMessagesByMaxTokens`: consecutive chunks of at most max/1.2 estimated tokens."""
    if not messages:
        return []
    limit = max(1, math.floor(max_tokens / SAFETY_MARGIN))
    chunks: list[list[Message]] = []
    current: list[Message] = []
    total = 0
    for message, size in zip(messages, per_message_tokens(messages)):
        if current and total + size > limit:
            chunks.append(current)
            current, total = [], 0
        current.append(message)
        total += size
        if size > limit:
            chunks.append(current)
            current, total = [], 0
    if current:
        chunks.append(current)
    return chunks


WORKER_MIN_MESSAGES = 64  # from here on OpenClaw plans in a worker, on sanitized messages


def planning_input(messages: Sequence[Message]) -> list[Message]:
    """The messages OpenClaw's planners see: sanitized only for long lists (its worker path)."""
    return sanitize(messages) if len(messages) >= WORKER_MIN_MESSAGES else list(messages)


def adaptive_chunk_ratio(messages: Sequence[Message], context_window: int) -> float:
    messages = planning_input(messages)
    if not messages:
        return BASE_CHUNK_RATIO
    average = estimate_all(messages) / len(messages) * SAFETY_MARGIN / context_window
    if average > 0.1:
        return max(MIN_CHUNK_RATIO, BASE_CHUNK_RATIO - min(average * 2, BASE_CHUNK_RATIO - MIN_CHUNK_RATIO))
    return BASE_CHUNK_RATIO


def stage_split(messages: Sequence[Message], max_chunk_tokens: int, parts: int = DEFAULT_PARTS,
                min_messages: int = 4) -> list[list[Message]] | None:
    """The chunks of a staged summary, or None for a single pass."""
    messages = planning_input(messages)
    n = _parts(parts, len(messages))
    if n <= 1 or len(messages) < max(2, min_messages) or estimate_all(messages) <= max_chunk_tokens:
        return None
    chunks = [c for c in split_by_token_share(messages, n) if c]
    return chunks if len(chunks) > 1 else None


def oversized_plan(messages: Sequence[Message], context_window: int) -> tuple[list[Message], list[str]]:
    """(messages small enough to summarise, notes for the oversized ones)."""
    messages = planning_input(messages)
    small, notes = [], []
    for message, size in zip(messages, per_message_tokens(messages)):
        if size * 1.2 > context_window * 0.5:
            notes.append(f"[Large {message.get('role') or 'message'} (~{_js_round(size / 1000)}K tokens) "
                         "omitted from summary]")
        else:
            small.append(message)
    return small, notes


def _js_round(value: float) -> int:
    return math.floor(value + 0.5)


@dataclass
class Pruned:
    messages: list[Message]
    dropped: list[Message] = field(default_factory=list)
    dropped_chunks: int = 0


def prune_for_context_share(messages: Sequence[Message], max_context_tokens: int, share: float = 0.5,
                            parts: int = DEFAULT_PARTS) -> Pruned:
    """`pruneHistoryForContextShare`: drop the oldest token-share chunks until the rest fits."""
    budget = max(1, math.floor(max_context_tokens * share))
    kept = list(messages)
    result = Pruned(kept)
    n = _parts(parts, len(kept))
    while kept and estimate_all(kept) > budget:
        chunks = split_by_token_share(kept, n)
        if len(chunks) <= 1:
            break
        dropped, *rest = chunks
        kept = repair_tool_pairing([m for chunk in rest for m in chunk])
        result.dropped_chunks += 1
        result.dropped.extend(dropped)
    result.messages = kept
    return result


def history_prune(to_summarize: Sequence[Message], turn_prefix: Sequence[Message], tokens_before: float,
                  context_window: int, share: float) -> Pruned | None:
    """`buildHistoryPrunePlan`: None unless the content outside the summary exceeds its share."""
    summarizable = estimate_all(to_summarize) + estimate_all(turn_prefix)
    new_content = max(0, math.floor(tokens_before - summarizable))
    if new_content <= math.floor(context_window * share * SAFETY_MARGIN):
        return None
    return prune_for_context_share(to_summarize, context_window, share)


# -- tool call / result pairing ---------------------------------------------------------------


def _is_synthetic(message: Message) -> bool:
    if not message.get("isError"):
        return False
    details = message.get("details")
    if isinstance(details, Mapping) and details.get(SYNTHETIC_KEY) is True:
        return True
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(b, Mapping) and b.get("type") == "text" and b.get("text") == MISSING_TOOL_RESULT_TEXT
        for b in content)


def _missing_result(call_id: str, name: str | None) -> dict[str, Any]:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": name or "unknown",
            "content": [{"type": "text", "text": MISSING_TOOL_RESULT_TEXT}], "details": {SYNTHETIC_KEY: True},
            "isError": True, "timestamp": now_ms()}


def _named(message: Message, fallback: str | None) -> Message:
    raw = message.get("toolName")
    trimmed = raw.strip() if isinstance(raw, str) else None
    if trimmed:
        return message if raw == trimmed else {**message, "toolName": trimmed}
    if fallback and fallback.strip():
        return {**message, "toolName": fallback.strip()}
    if isinstance(raw, str):
        return {**message, "toolName": "unknown"}
    return message


def _legacy_id(message: Message, calls: list[tuple[str, str | None]]) -> Message:
    if tool_result_id(message) or len(calls) != 1:
        return message
    call_id, call_name = calls[0]
    tool_name = message.get("toolName")
    name = tool_name.strip() if isinstance(tool_name, str) else ""
    if name and call_name and call_name.strip() and name != call_name.strip():
        return message
    return {**message, "toolCallId": call_id, "isError": True}


def repair_tool_pairing(messages: Sequence[Message]) -> list[Message]:
    """`repairToolUseResultPairing` (results kept for errored turns): results follow their call,
    orphaned and duplicate results are dropped, a missing one becomes a synthetic error result."""
    out: list[Message] = []
    seen: set[str] = set()
    positions: dict[str, int] = {}

    def push(message: Message) -> None:
        result_id = tool_result_id(message)
        if result_id and result_id in seen:
            at = positions.get(result_id)
            if at is not None and _is_synthetic(out[at]) and not _is_synthetic(message):
                out[at] = message
            return
        if result_id:
            seen.add(result_id)
            positions[result_id] = len(out)
        out.append(message)

    i = 0
    while i < len(messages):
        message = messages[i]
        role = message.get("role") if isinstance(message, Mapping) else None
        calls = tool_calls(message) if role == "assistant" else []
        if role != "assistant" or not calls:
            if role != "toolResult":
                out.append(message)
            i += 1
            continue
        ids = {call_id for call_id, _ in calls}
        names = {call_id: name for call_id, name in calls if name is not None}
        span: dict[str, Message] = {}
        remainder: list[Message] = []
        j = i + 1
        while j < len(messages):
            nxt = messages[j]
            nrole = nxt.get("role") if isinstance(nxt, Mapping) else None
            if nrole == "assistant":
                if tool_calls(nxt):
                    break
                remainder.append(nxt)
            elif nrole == "toolResult":
                result = _legacy_id(nxt, calls)
                result_id = tool_result_id(result)
                if result_id and result_id in seen:
                    push(_named(result, names.get(result_id)))
                elif result_id and result_id in ids:
                    named = _named(result, names.get(result_id))
                    if result_id not in span or (_is_synthetic(span[result_id]) and not _is_synthetic(named)):
                        span[result_id] = named
            else:
                remainder.append(nxt)
            j += 1
        out.append(message)
        if message.get("stopReason") in ("error", "aborted"):
            for call_id, _ in calls:
                if call_id in span:
                    push(span[call_id])
        else:
            later = _later_results(messages, j, calls, names, seen)
            for call_id, name in calls:
                if call_id in span:
                    push(span[call_id])
                elif call_id in later:
                    push(later.pop(call_id))
                else:
                    push(_missing_result(call_id, name))
        out.extend(remainder)
        i = j
    return out


def _later_results(messages: Sequence[Message], start: int, calls: list[tuple[str, str | None]],
                   names: dict[str, str], seen: set[str]) -> dict[str, Message]:
    ids = {call_id for call_id, _ in calls}
    found: dict[str, Message] = {}
    for candidate in messages[start:]:
        if not isinstance(candidate, Mapping) or candidate.get("role") != "toolResult":
            continue
        result = _legacy_id(candidate, calls)
        result_id = tool_result_id(result)
        if result_id and result_id in ids and result_id not in seen and result_id not in found:
            found[result_id] = _named(result, names.get(result_id))
    return found

"""Token estimates as OpenClaw 2026.7.1 computes them for compaction (chars / 4, rounded up)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from openclaw_cli.js.json import stringify
from openclaw_cli.js.strings import utf16_len
from openclaw_cli.js.values import UNDEFINED

IMAGE_BLOCK_CHARS = 4800


def _str_len(value: Any) -> int:
    return utf16_len(value) if isinstance(value, str) else 0


def block_text(block: Any) -> str:
    """Text that compaction both estimates and puts into summary prompts for one block."""
    if not isinstance(block, Mapping):
        return ""
    kind = block.get("type")
    text = block.get("text")
    if kind == "text" and isinstance(text, str) and text:
        return text
    if kind not in ("toolResult", "tool_result"):
        return ""
    if isinstance(text, str) and text:
        return text
    content = block.get("content")
    return content if isinstance(content, str) else ""


def _content_block_chars(content: Iterable[Any]) -> int:
    chars = 0
    for block in content:
        if isinstance(block, Mapping) and block.get("type") == "image":
            chars += IMAGE_BLOCK_CHARS
        else:
            chars += utf16_len(block_text(block))
    return chars


def _content_chars(content: Any) -> int:
    if isinstance(content, str):
        return utf16_len(content)
    if isinstance(content, list):
        return _content_block_chars(content)
    return 0


def _json_len(value: Any) -> int:
    try:
        return utf16_len(stringify(value))
    except (TypeError, RecursionError):
        return len("[unserializable]")


def estimate_tokens(message: Mapping[str, Any]) -> int:
    """`estimateTokens` (2026.7.1): per-role character count, then ceil(chars / 4)."""
    role = message.get("role")
    if role == "user":
        return math.ceil(_content_chars(message.get("content")) / 4)
    if role == "assistant":
        chars = 0
        content = message.get("content")
        blocks = content if isinstance(content, list) else (
            [{"type": "text", "text": content}] if isinstance(content, str) else [])
        for block in blocks:
            if not isinstance(block, Mapping):
                continue
            kind = block.get("type")
            if kind == "text":
                chars += _str_len(block.get("text"))
            elif kind == "thinking":
                chars += _str_len(block.get("thinking"))
            elif kind == "toolCall":
                args = block.get("arguments", UNDEFINED)
                chars += _str_len(block.get("name"))
                chars += 9 if args is UNDEFINED else _json_len(args)
        return math.ceil(chars / 4)
    if role in ("custom", "toolResult"):
        return math.ceil(_content_chars(message.get("content")) / 4)
    if role == "bashExecution":
        return math.ceil((_str_len(message.get("command")) + _str_len(message.get("output"))) / 4)
    if role in ("branchSummary", "compactionSummary"):
        return math.ceil(_str_len(message.get("summary")) / 4)
    return 0


def _num(value: Any) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def calculate_context_tokens(usage: Mapping[str, Any]) -> float:
    """`calculateContextTokens`: contextUsage when available, else totalTokens, else the sum."""
    context_usage = usage.get("contextUsage")
    if isinstance(context_usage, Mapping) and context_usage.get("state") == "available":
        return _num(context_usage.get("totalTokens"))
    total = usage.get("totalTokens")
    if total:
        return total if isinstance(total, (int, float)) else 0
    return (_num(usage.get("input")) + _num(usage.get("output")) + _num(usage.get("cacheRead"))
            + _num(usage.get("cacheWrite")))


def assistant_context_usage(message: Mapping[str, Any]) -> float | None:
    """The usage-based context size this message reports, or None when it must be ignored."""
    if message.get("role") != "assistant" or "usage" not in message:
        return None
    if message.get("stopReason") in ("aborted", "error"):
        return None
    usage = message.get("usage")
    if not usage or not isinstance(usage, Mapping):
        return None
    context_usage = usage.get("contextUsage")
    if isinstance(context_usage, Mapping) and context_usage.get("state") == "unavailable":
        return None
    return calculate_context_tokens(usage)


def estimate_context_tokens_from(usages: Sequence[float | None], estimates: Sequence[int]) -> float:
    """`estimateContextTokens` over per-message (usage, estimate) pairs: last usage + trailing."""
    for i in range(len(usages) - 1, -1, -1):
        usage = usages[i]
        if usage is not None:
            return usage + sum(estimates[i + 1:])
    return sum(estimates)


def estimate_context_tokens(messages: Sequence[Mapping[str, Any]]) -> float:
    return estimate_context_tokens_from([assistant_context_usage(m) for m in messages],
                                        [estimate_tokens(m) for m in messages])

"""Which transcript messages count as real conversation (2026.7.1 `compaction-real-conversation`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from openclaw_cli.js.strings import JS_WHITESPACE, js_trim

TOOL_RESULT_LOOKBACK = 20
NON_CONVERSATION_BLOCK_TYPES = frozenset({"toolCall", "toolUse", "functionCall", "thinking", "reasoning"})
REAL_ROLES = frozenset({"user", "assistant", "custom", "bashExecution", "branchSummary"})
ANCHOR_ROLES = frozenset({"user", "custom", "bashExecution", "branchSummary"})

_WS = "[" + re.escape(JS_WHITESPACE) + "]"
_SILENT_EXACT = re.compile(rf"^{_WS}*NO_REPLY(?:{_WS}+NO_REPLY)*{_WS}*$", re.IGNORECASE)
HEARTBEAT_TOKEN = "HEARTBEAT_OK"
_HEARTBEAT_END = re.compile(r"HEARTBEAT_OK[^A-Za-z0-9_]{0,4}$")
_MARKUP = re.compile(r"<[^>]*>")
_NBSP = re.compile(r"&nbsp;", re.IGNORECASE)
_WS_RUN = re.compile(_WS + "+")


def _strip_edge_punctuation(text: str) -> str:
    start, end = 0, len(text)
    while start < end and unicodedata.category(text[start]).startswith("P"):
        start += 1
    while end > start and unicodedata.category(text[end - 1]).startswith("P"):
        end -= 1
    return text[start:end]


def is_silent_reply_text(text: str) -> bool:
    if not text:
        return False
    return bool(_SILENT_EXACT.match(text) or _SILENT_EXACT.match(_strip_edge_punctuation(js_trim(text))))


def _strip_token_at_edges(raw: str) -> tuple[str, bool]:
    text = js_trim(raw)
    if not text or HEARTBEAT_TOKEN not in text:
        return text, False
    did_strip = False
    changed = True
    while changed:
        changed = False
        nxt = js_trim(text)
        if nxt.startswith(HEARTBEAT_TOKEN):
            text = nxt[len(HEARTBEAT_TOKEN):].lstrip(JS_WHITESPACE)
            did_strip = changed = True
            continue
        if _HEARTBEAT_END.search(nxt):
            idx = nxt.rfind(HEARTBEAT_TOKEN)
            before = nxt[:idx].rstrip(JS_WHITESPACE)
            text = "" if not before else (before + nxt[idx + len(HEARTBEAT_TOKEN):].lstrip(JS_WHITESPACE)).rstrip(JS_WHITESPACE)
            did_strip = changed = True
    return js_trim(_WS_RUN.sub(" ", text)), did_strip


def _strip_heartbeat(raw: str) -> tuple[str, bool]:
    """`stripHeartbeatToken(raw, {mode: "message"})` → (text, didStrip)."""
    trimmed = js_trim(raw)
    if not trimmed:
        return "", False
    if HEARTBEAT_TOKEN not in trimmed:  # markup stripping below cannot create the token
        return trimmed, False
    normalized = re.sub(r"[*`~_]+$", "", re.sub(r"^[*`~_]+", "", _NBSP.sub(" ", _MARKUP.sub(" ", trimmed))))
    if HEARTBEAT_TOKEN not in trimmed and HEARTBEAT_TOKEN not in normalized:
        return trimmed, False
    original = _strip_token_at_edges(trimmed)
    norm = _strip_token_at_edges(normalized)
    picked = original if original[1] and original[0] else norm
    if not picked[1]:
        return trimmed, False
    return js_trim(picked[0]), True


def has_meaningful_text(text: str) -> bool:
    trimmed = js_trim(text)
    if not trimmed or is_silent_reply_text(trimmed):
        return False
    stripped, did_strip = _strip_heartbeat(trimmed)
    if did_strip:
        return bool(js_trim(stripped))
    return True


def has_meaningful_content(content: Any) -> bool:
    if isinstance(content, str):
        return has_meaningful_text(content)
    if not isinstance(content, list):
        return False
    saw_other = False
    for block in content:
        if not isinstance(block, Mapping):
            continue
        kind = block.get("type")
        if kind != "text":
            if isinstance(kind, str) and kind in NON_CONVERSATION_BLOCK_TYPES:
                continue
            saw_other = True
            continue
        text = block.get("text")
        if isinstance(text, str) and has_meaningful_text(text):
            return True
    return saw_other


def has_meaningful_conversation_content(message: Mapping[str, Any]) -> bool:
    role = message.get("role")
    if role == "custom":
        return message.get("display") is not False and has_meaningful_content(message.get("content"))
    if role == "bashExecution":
        if message.get("excludeFromContext") is True:
            return False
        command = message.get("command")
        output = message.get("output")
        return has_meaningful_text(f"{command if isinstance(command, str) else ''}\n"
                                   f"{output if isinstance(output, str) else ''}")
    if role == "branchSummary":
        summary = message.get("summary")
        return isinstance(summary, str) and has_meaningful_text(summary)
    return has_meaningful_content(message.get("content"))


def real_flags(roles: Sequence[Any], meaningful: Sequence[bool]) -> list[bool]:
    """`isRealConversationMessage` for every message of a list, from per-message role/meaning."""
    out: list[bool] = []
    for i, role in enumerate(roles):
        if role in REAL_ROLES:
            out.append(bool(meaningful[i]))
        elif role == "toolResult":
            start = max(0, i - TOOL_RESULT_LOOKBACK)
            out.append(any(roles[j] in ANCHOR_ROLES and meaningful[j] for j in range(i - 1, start - 1, -1)))
        else:
            out.append(False)
    return out


def contains_real_conversation(messages: Sequence[Mapping[str, Any]]) -> bool:
    roles = [m.get("role") for m in messages]
    meaningful = [has_meaningful_conversation_content(m) if r in REAL_ROLES else False
                  for m, r in zip(messages, roles)]
    return any(real_flags(roles, meaningful))

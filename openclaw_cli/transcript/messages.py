"""Entry-to-message projection, LLM conversion and conversation serialization (2026.7.1)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from openclaw_cli.js.json import ordered_keys, stringify
from openclaw_cli.js.strings import utf16_len
from openclaw_cli.js.values import js_string
from openclaw_cli.transcript.tokens import block_text

COMPACTION_SUMMARY_PREFIX = ("The conversation history before this point was compacted into the "
                             "following summary:\n\n<summary>\n")
COMPACTION_SUMMARY_SUFFIX = "\n</summary>"
BRANCH_SUMMARY_PREFIX = ("The following is a summary of a branch that this conversation came "
                         "back from:\n\n<summary>\n")
BRANCH_SUMMARY_SUFFIX = "</summary>"
TOOL_RESULT_MAX_CHARS = 2000


def parse_timestamp_ms(value: Any) -> int | None:
    """Date.parse for the ISO strings transcripts carry (None when unparsable)."""
    from openclaw_cli.js.dates import parse_iso_ms

    return parse_iso_ms(value)


def normalize_loaded_entry(entry: Any, header_version: float = 3) -> Any:
    """What the session manager does on load: string/object content becomes text blocks;
    version-2 `hookMessage` roles read as `custom`."""
    if not isinstance(entry, dict) or entry.get("type") != "message":
        return entry
    message = entry.get("message")
    if not isinstance(message, dict):
        return entry
    role = message.get("role")
    content = message.get("content")
    if role in ("assistant", "toolResult") and isinstance(content, str):
        message["content"] = [{"type": "text", "text": content}]
    elif role == "toolResult" and isinstance(content, dict):
        message["content"] = [content]
    if header_version < 3 and role == "hookMessage":
        message["role"] = "custom"
    return entry


def message_from_entry(entry: Mapping[str, Any], *, for_compaction: bool = False) -> dict | None:
    """The agent message an entry contributes (`getMessageFromEntry`)."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        return message if isinstance(message, dict) else None
    if kind == "custom_message":
        return {"role": "custom", "customType": entry.get("customType"),
                "content": entry.get("content"), "display": entry.get("display"),
                "details": entry.get("details"),
                "timestamp": parse_timestamp_ms(entry.get("timestamp")) or 0}
    if kind == "branch_summary":
        return {"role": "branchSummary", "summary": entry.get("summary"),
                "fromId": entry.get("fromId"),
                "timestamp": parse_timestamp_ms(entry.get("timestamp")) or 0}
    if kind == "compaction" and not for_compaction:
        return {"role": "compactionSummary", "summary": entry.get("summary"),
                "tokensBefore": entry.get("tokensBefore"),
                "timestamp": parse_timestamp_ms(entry.get("timestamp")) or 0}
    return None


def context_message_from_entry(entry: Mapping[str, Any]) -> dict | None:
    """Messages `buildSessionContext` emits: message, custom_message, non-empty branch_summary."""
    kind = entry.get("type")
    if kind == "branch_summary" and not entry.get("summary"):
        return None
    if kind in ("message", "custom_message", "branch_summary"):
        return message_from_entry(entry)
    return None


def bash_execution_to_text(message: Mapping[str, Any]) -> str:
    text = f"Ran `{js_string(message.get('command'))}`\n"
    output = message.get("output")
    text += f"```\n{js_string(output)}\n```" if output else "(no output)"
    exit_code = message.get("exitCode")
    if message.get("cancelled"):
        text += "\n\n(command cancelled)"
    elif exit_code is not None and exit_code != 0:
        text += f"\n\nCommand exited with code {js_string(exit_code)}"
    if message.get("truncated") and message.get("fullOutputPath"):
        text += f"\n\n[Output truncated. Full output: {js_string(message.get('fullOutputPath'))}]"
    return text


def convert_to_llm(messages: Iterable[Mapping[str, Any]]) -> list[dict]:
    """`convertToLlm`: summaries and custom/bash messages become user messages."""
    out: list[dict] = []
    for message in messages:
        role = message.get("role")
        if role == "bashExecution":
            if message.get("excludeFromContext"):
                continue
            out.append({"role": "user", "content": [{"type": "text", "text": bash_execution_to_text(message)}],
                        "timestamp": message.get("timestamp")})
        elif role == "custom":
            content = message.get("content")
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
            out.append({"role": "user", "content": content, "timestamp": message.get("timestamp")})
        elif role == "branchSummary":
            text = BRANCH_SUMMARY_PREFIX + js_string(message.get("summary")) + BRANCH_SUMMARY_SUFFIX
            out.append({"role": "user", "content": [{"type": "text", "text": text}],
                        "timestamp": message.get("timestamp")})
        elif role == "compactionSummary":
            text = COMPACTION_SUMMARY_PREFIX + js_string(message.get("summary")) + COMPACTION_SUMMARY_SUFFIX
            out.append({"role": "user", "content": [{"type": "text", "text": text}],
                        "timestamp": message.get("timestamp")})
        elif role in ("user", "assistant", "toolResult"):
            out.append(dict(message))
    return out


def utf16_prefix(text: str, units: int) -> str:
    """`text.slice(0, units)` in UTF-16 code units (may end in half a surrogate pair)."""
    if text.isascii():
        return text[:units]
    raw = text.encode("utf-16-le", "surrogatepass")[: units * 2]
    return raw.decode("utf-16-le", "surrogatepass")


def truncate_for_summary(text: str, max_chars: int = TOOL_RESULT_MAX_CHARS) -> str:
    length = utf16_len(text)
    if length <= max_chars:
        return text
    return f"{utf16_prefix(text, max_chars)}\n\n[... {length - max_chars} more characters truncated]"


def _safe_json(value: Any) -> str:
    try:
        return stringify(value)
    except (TypeError, RecursionError):
        return "[unserializable]"


def _blocks(content: Any) -> list:
    if isinstance(content, list):
        return content
    return []


def serialize_message(message: Mapping[str, Any]) -> list[str]:
    """The `[User]: …` / `[Assistant …]: …` / `[Tool result]: …` parts for one LLM message."""
    role = message.get("role")
    parts: list[str] = []
    if role == "user":
        content = message.get("content")
        if isinstance(content, str):
            text = content
        else:
            text = "".join(js_string(b.get("text")) if b.get("text") is not None else ""
                           for b in _blocks(content)
                           if isinstance(b, Mapping) and b.get("type") == "text")
        if text:
            parts.append(f"[User]: {text}")
    elif role == "assistant":
        texts: list[str] = []
        thinking: list[str] = []
        calls: list[str] = []
        for block in _blocks(message.get("content")):
            if not isinstance(block, Mapping):
                continue
            kind = block.get("type")
            if kind == "text":
                texts.append(_opt_str(block.get("text")))
            elif kind == "thinking":
                thinking.append(_opt_str(block.get("thinking")))
            elif kind == "toolCall":
                args = block.get("arguments")
                args = args if isinstance(args, dict) else {}
                rendered = ", ".join(f"{k}={_safe_json(args[k])}" for k in ordered_keys(args))
                calls.append(f"{_opt_str(block.get('name'))}({rendered})")
        if thinking:
            parts.append("[Assistant thinking]: " + "\n".join(thinking))
        if texts:
            parts.append("[Assistant]: " + "\n".join(texts))
        if calls:
            parts.append("[Assistant tool calls]: " + "; ".join(calls))
    elif role == "toolResult":
        text = "".join(block_text(b) for b in _blocks(message.get("content")))
        if text:
            parts.append(f"[Tool result]: {truncate_for_summary(text)}")
    return parts


def _opt_str(value: Any) -> str:
    return "" if value is None else js_string(value)


def serialize_conversation(messages: Iterable[Mapping[str, Any]]) -> str:
    """`serializeConversation(convertToLlm(messages))`, parts joined by a blank line."""
    parts: list[str] = []
    for message in convert_to_llm(messages):
        parts.extend(serialize_message(message))
    return "\n\n".join(parts)

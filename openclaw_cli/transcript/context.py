"""Rebuild the model context of a branch (`buildSessionContext`) and size it in tokens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openclaw_cli.transcript.index import EntryInfo, TranscriptIndex
from openclaw_cli.transcript.messages import context_message_from_entry, parse_timestamp_ms
from openclaw_cli.transcript.realness import real_flags
from openclaw_cli.transcript.tokens import estimate_context_tokens_from


@dataclass(frozen=True, slots=True)
class ContextItem:
    """One message of a rebuilt context: its source entry (None for the summary) and sizes."""

    entry: EntryInfo | None
    role: str | None
    tokens: int
    usage: float | None
    meaningful: bool
    summary_of: EntryInfo | None = None  # the compaction a compactionSummary comes from


def latest_compaction_index(path: Sequence[EntryInfo]) -> int:
    for i in range(len(path) - 1, -1, -1):
        if path[i].type == "compaction":
            return i
    return -1


def context_items(index: TranscriptIndex, path: Sequence[EntryInfo]) -> list[ContextItem]:
    """The messages `buildSessionContext(path)` produces, as light items, in order."""
    def item(info: EntryInfo) -> ContextItem | None:
        if not info.in_context:
            return None
        return ContextItem(info, info.role, info.tokens, info.usage, info.meaningful)

    items: list[ContextItem] = []
    comp = latest_compaction_index(path)
    if comp < 0:
        return [x for x in (item(e) for e in path) if x is not None]
    compaction = path[comp]
    items.append(ContextItem(None, "compactionSummary", compaction.tokens, None, False, compaction))
    first_kept = index.first_kept_id(compaction)
    found = False
    for info in path[:comp]:
        if info.id == first_kept:
            found = True
        if found:
            x = item(info)
            if x is not None:
                items.append(x)
    for info in path[comp + 1:]:
        x = item(info)
        if x is not None:
            items.append(x)
    return items


def context_tokens(items: Sequence[ContextItem]) -> float:
    """`estimateContextTokens(...).tokens`: last usable usage plus the estimates after it."""
    return estimate_context_tokens_from([i.usage for i in items], [i.tokens for i in items])


def estimated_total(items: Sequence[ContextItem]) -> int:
    """The plain sum of per-message estimates."""
    return sum(i.tokens for i in items)


def has_real_conversation(items: Sequence[ContextItem]) -> bool:
    return any(real_flags([i.role for i in items], [i.meaningful for i in items]))


def count_real(items: Sequence[ContextItem]) -> int:
    return sum(real_flags([i.role for i in items], [i.meaningful for i in items]))


def build_session_context(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """`buildSessionContext` over full path entries: messages, thinking level and model."""
    thinking: Any = "off"
    model: dict[str, Any] | None = None
    compaction: Mapping[str, Any] | None = None
    for entry in entries:
        kind = entry.get("type")
        if kind == "thinking_level_change":
            thinking = entry.get("thinkingLevel")
        elif kind == "model_change":
            model = {"provider": entry.get("provider"), "modelId": entry.get("modelId")}
        elif kind == "message" and isinstance(entry.get("message"), Mapping) and entry["message"].get("role") == "assistant":
            model = {"provider": entry["message"].get("provider"), "modelId": entry["message"].get("model")}
        elif kind == "compaction":
            compaction = entry
    messages: list[dict] = []

    def add(entry: Mapping[str, Any]) -> None:
        message = context_message_from_entry(entry)
        if message is not None:
            messages.append(message)

    if compaction is not None:
        ts = compaction.get("timestamp")
        messages.append({"role": "compactionSummary", "summary": compaction.get("summary"),
                         "tokensBefore": compaction.get("tokensBefore"),
                         "timestamp": ts if isinstance(ts, (int, float)) else (parse_timestamp_ms(ts) or 0)})
        comp_idx = next(i for i, e in enumerate(entries)
                        if e.get("type") == "compaction" and e.get("id") == compaction.get("id"))
        found = False
        for entry in entries[:comp_idx]:
            if entry.get("id") == compaction.get("firstKeptEntryId"):
                found = True
            if found:
                add(entry)
        for entry in entries[comp_idx + 1:]:
            add(entry)
    else:
        for entry in entries:
            add(entry)
    return {"messages": messages, "thinkingLevel": thinking, "model": model}

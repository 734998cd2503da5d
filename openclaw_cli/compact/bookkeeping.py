"""The entries the Gateway appends to a session before its compaction entry.

Opening the session for a compaction, OpenClaw 2026.7.1 records the thinking level when the
active branch has none (`thinking_level_change`), and records the model it replays the history
for (`custom` `model-snapshot`) when the newest snapshot names another model or there is none.
The compaction entry is then a child of the last of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from openclaw_cli.compact.clock import iso_timestamp
from openclaw_cli.compact.entry import new_entry_id
from openclaw_cli.compact.model import SessionModel
from openclaw_cli.transcript import EntryInfo, TranscriptIndex
from openclaw_cli.transcript.index import MODEL_SNAPSHOT_TYPE

REASONING_LEVELS = ("off", "minimal", "low", "medium", "high")
_ALIASES = {"on": "low", "enable": "low", "enabled": "low", "min": "minimal", "minimal": "minimal",
            "think": "minimal", "low": "low", "thinkhard": "low", "think-hard": "low", "think_hard": "low",
            "mid": "medium", "med": "medium", "medium": "medium", "thinkharder": "medium",
            "think-harder": "medium", "harder": "medium", "high": "high", "ultrathink": "high",
            "thinkhardest": "high", "highest": "high", "off": "off"}


def normalize_think_level(raw: Any) -> str | None:
    """`normalizeThinkLevel` of the session entry's `thinkingLevel`."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    key = raw.strip().lower()
    collapsed = "".join(ch for ch in key if ch not in " \t\n_-")
    special = {"adaptive": "adaptive", "auto": "adaptive", "max": "max", "ultra": "ultra",
               "xhigh": "xhigh", "extrahigh": "xhigh"}
    return special.get(collapsed) or _ALIASES.get(key)


def session_thinking_level(raw: Any, model: SessionModel) -> str:
    """The level a compaction run opens the session with: the entry's level mapped for the
    provider (`adaptive` → `high`, `ultra` → `max`), `off` for a model without reasoning."""
    level = normalize_think_level(raw) or "off"
    level = {"adaptive": "high", "ultra": "max"}.get(level, level)
    if not model.reasoning:
        return "off"
    return level if level in REASONING_LEVELS else "high"


def _snapshot_of(model: SessionModel) -> tuple[str, str, str]:
    return (model.provider or "", model.api or "", model.model_id or "")


def _latest_snapshot(entries: Sequence[EntryInfo]) -> Mapping[str, Any] | None:
    for info in reversed(entries):
        if info.type == "custom" and info.extra and info.extra.get("snapshot") is not None:
            return info.extra["snapshot"]
    return None


def _same(snapshot: Mapping[str, Any], model: SessionModel) -> bool:
    def norm(value: Any) -> Any:
        return "" if value is None else value

    return (norm(snapshot.get("provider")), norm(snapshot.get("modelApi")), norm(snapshot.get("modelId"))) \
        == _snapshot_of(model)


def bookkeeping_entries(index: TranscriptIndex, path: Sequence[EntryInfo], *, has_messages: bool,
                        model: SessionModel, thinking_level: Any, now_ms: int) -> list[dict[str, Any]]:
    """The entries to append before the compaction (parent chain from the append cursor)."""
    out: list[dict[str, Any]] = []
    taken = set(index.by_id)
    parent = index.append_parent_id

    def add(entry: dict[str, Any]) -> None:
        nonlocal parent
        taken.add(entry["id"])
        parent = entry["id"]
        out.append(entry)

    if has_messages and not any(e.type == "thinking_level_change" for e in path):
        add({"type": "thinking_level_change", "id": new_entry_id(taken), "parentId": parent,
             "timestamp": iso_timestamp(now_ms), "thinkingLevel": session_thinking_level(thinking_level, model)})
    if model.model_id and model.api:
        latest = _latest_snapshot(index.entries)
        if latest is None or not _same(latest, model):
            data = {"timestamp": now_ms, "provider": model.provider, "modelApi": model.api, "modelId": model.model_id}
            if data["provider"] is None:
                del data["provider"]
            add({"type": "custom", "customType": MODEL_SNAPSHOT_TYPE, "data": data,
                 "id": new_entry_id(taken), "parentId": parent, "timestamp": iso_timestamp(now_ms)})
    return out

"""The `sessions.json` entry changes a compaction makes, and the read/patch/write of that entry."""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_CHECKPOINTS = 25


@dataclass(frozen=True)
class CompactionOutcome:
    """What `apply_compaction_to_entry` needs to know about a finished compaction."""

    kind: str  # "summary" or "max-lines"
    now_ms: int
    tokens_before: float | None = None
    tokens_after: float | None = None
    summary: str | None = None
    first_kept_entry_id: str | None = None
    session_key: str | None = None
    session_id: str | None = None
    session_file: str | None = None
    pre_leaf_id: str | None = None
    pre_entry_id: str | None = None
    post_leaf_id: str | None = None
    started_ms: int | None = None
    checkpoint_id: str | None = None


def _checkpoint(entry: Mapping[str, Any], result: CompactionOutcome) -> dict[str, Any]:
    created = result.started_ms if result.started_ms is not None else result.now_ms
    checkpoint: dict[str, Any] = {
        "checkpointId": result.checkpoint_id or str(uuid.uuid4()),
        "sessionKey": result.session_key,
        "sessionId": result.session_id,
        "createdAt": created,
        "reason": "manual",
    }
    if isinstance(result.tokens_before, (int, float)):
        checkpoint["tokensBefore"] = result.tokens_before
    if isinstance(result.tokens_after, (int, float)):
        checkpoint["tokensAfter"] = result.tokens_after
    if result.summary and result.summary.strip():
        checkpoint["summary"] = result.summary.strip()
    if result.first_kept_entry_id and result.first_kept_entry_id.strip():
        checkpoint["firstKeptEntryId"] = result.first_kept_entry_id.strip()
    pre: dict[str, Any] = {"sessionId": result.session_id, "leafId": result.pre_leaf_id}
    if result.pre_entry_id:
        pre["entryId"] = result.pre_entry_id
    post: dict[str, Any] = {"sessionId": result.session_id}
    if result.session_file:
        post["sessionFile"] = result.session_file
    if result.post_leaf_id:
        post["leafId"] = result.post_leaf_id
        post["entryId"] = result.post_leaf_id
    checkpoint["preCompaction"] = pre
    checkpoint["postCompaction"] = post
    return checkpoint


def apply_compaction_to_entry(entry: dict[str, Any], result: CompactionOutcome) -> dict[str, Any]:
    """The store entry after a compaction, as the 2026.7.1 Gateway leaves it (a new dict).

    max-lines: token counters and `contextBudgetStatus` dropped, `updatedAt` = now.
    summary: a `compactionCheckpoints` item (newest 25 kept), `compactionCount` + 1,
    input/output counters and `contextBudgetStatus` dropped, `totalTokens` = tokensAfter with
    `totalTokensFresh` when known (else both dropped), `updatedAt` = now.
    """
    updated = dict(entry)
    if result.kind == "max-lines":
        for key in ("contextBudgetStatus", "inputTokens", "outputTokens", "totalTokens", "totalTokensFresh"):
            updated.pop(key, None)
        updated["updatedAt"] = result.now_ms
        return updated
    if result.pre_leaf_id and updated.get("sessionId"):
        checkpoints = list(updated["compactionCheckpoints"]) if isinstance(updated.get("compactionCheckpoints"), list) else []
        checkpoint = _checkpoint(updated, result)
        checkpoints.append(checkpoint)
        previous = updated.get("updatedAt")
        updated["updatedAt"] = max(previous if isinstance(previous, (int, float)) else 0, checkpoint["createdAt"])
        updated["compactionCheckpoints"] = checkpoints[-MAX_CHECKPOINTS:]
    updated["updatedAt"] = result.now_ms
    count = updated.get("compactionCount")
    updated["compactionCount"] = max(0, count if isinstance(count, (int, float)) and not isinstance(count, bool) else 0) + 1
    for key in ("inputTokens", "outputTokens", "contextBudgetStatus"):
        updated.pop(key, None)
    after = result.tokens_after
    if isinstance(after, (int, float)) and math.isfinite(after):
        updated["totalTokens"] = after
        updated["totalTokensFresh"] = True
    else:
        updated.pop("totalTokens", None)
        updated.pop("totalTokensFresh", None)
    return updated


def load_store(path: str | Path) -> dict[str, Any]:
    """`sessions.json` as OpenClaw loads it (normalised, prompt blobs hydrated); a missing
    file is an empty store; a corrupt one raises StoreError."""
    from openclaw_cli.store.sessions_json import load_store as load_session_store

    return load_session_store(path).store


def update_store_entry(path: str | Path, key: str, result: CompactionOutcome) -> dict[str, Any] | None:
    """Re-read the store, apply the compaction to `key`, write it back byte-exact like
    OpenClaw (normalise, project prompt blobs, temp file + rename); the new entry or None."""
    from openclaw_cli.store import sessions_json as store_mod

    loaded = store_mod.load_store(path)
    store = loaded.store
    entry = store.get(key)
    if not isinstance(entry, dict):
        return None
    store[key] = apply_compaction_to_entry(entry, result)
    store_mod.save_store(path, store, unchanged_serialization=loaded.unchanged_serialization,
                         durable=True)
    return store.get(key)

"""The `sessions.json` entry changes a compaction makes, plus a minimal read/patch/write helper."""

from __future__ import annotations

import contextlib
import json
import math
import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openclaw_cli.compact.clock import now_ms
from openclaw_cli.errors import StoreError
from openclaw_cli.transcript import jsjson

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
    """`sessions.json` as an ordered dict; a missing file is an empty store."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise StoreError(f"cannot read session store {path}: {exc.strerror or exc}") from None
    try:
        store = json.loads(text) if text.strip() else {}
    except ValueError as exc:
        raise StoreError(f"session store {path} is not valid JSON: {exc}") from None
    if not isinstance(store, dict):
        raise StoreError(f"session store {path} is not a JSON object")
    return store


def write_store(path: str | Path, store: dict[str, Any]) -> None:
    """Write like the reference: 2-space JSON, no trailing newline, temp file + rename, 0600."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f"{path.name}.{os.getpid()}.{uuid.uuid4()}.tmp"
    data = jsjson.stringify(store, 2).encode("utf-8")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
        with contextlib.suppress(OSError):
            os.chmod(path, 0o600)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def update_store_entry(path: str | Path, key: str, result: CompactionOutcome) -> dict[str, Any] | None:
    """Re-read the store, apply the compaction to `key`, write it back; the new entry or None."""
    store = load_store(path)
    entry = store.get(key)
    if not isinstance(entry, dict):
        return None
    store[key] = apply_compaction_to_entry(entry, result)
    write_store(path, store)
    return store[key]

"""Which key an unreferenced transcript most likely belonged to: a store backup, the trajectory sidecar."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

MAX_BACKUP_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class KeyEvidence:
    key: str
    source: str  # "backup:<file name>", "trajectory", "fallback"


def recovered_key(agent_id: str, session_id: str) -> str:
    return f"agent:{agent_id}:recovered:{session_id}"


def _backup_pattern(store_name: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(store_name)}\.(bak(\..+)?|last-good)$")


class BackupIndex:
    """sessionId -> key from the store's backup copies (`sessions.json.bak.*`, `.last-good`), newest first."""

    def __init__(self, store_path: str):
        self.store_path = store_path
        self._map: dict[str, tuple[str, str]] | None = None

    def _load(self) -> dict[str, tuple[str, str]]:
        from openclaw_cli.js import json as jsjson

        folder, name = os.path.split(self.store_path)
        pattern = _backup_pattern(name)
        try:
            candidates = [d for d in os.scandir(folder) if pattern.match(d.name) and d.is_file(follow_symlinks=False)]
        except OSError:
            return {}
        candidates.sort(key=lambda d: d.stat().st_mtime, reverse=True)
        found: dict[str, tuple[str, str]] = {}
        for dirent in candidates:
            try:
                if dirent.stat().st_size > MAX_BACKUP_BYTES:
                    continue
                with open(dirent.path, encoding="utf-8", errors="replace") as handle:
                    data: Any = jsjson.loads(handle.read())
            except (OSError, ValueError, RecursionError):
                continue
            if not isinstance(data, dict):
                continue
            for key, entry in data.items():
                sid = entry.get("sessionId") if isinstance(entry, dict) else None
                if isinstance(sid, str) and sid and sid not in found:
                    found[sid] = (key, dirent.name)
        return found

    def lookup(self, session_id: str) -> KeyEvidence | None:
        if self._map is None:
            self._map = self._load()
        hit = self._map.get(session_id)
        return KeyEvidence(hit[0], f"backup:{hit[1]}") if hit else None


def trajectory_key(transcript: str) -> str | None:
    """The `sessionKey` of the first record of `<id>.trajectory.jsonl` beside the transcript."""
    from openclaw_cli.js import json as jsjson
    from openclaw_cli.store.session_files import trajectory_runtime_path

    path = trajectory_runtime_path(transcript)
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1024 * 1024)
        record = jsjson.parse(first.decode("utf-8", "replace"))
    except (OSError, ValueError, RecursionError):
        return None
    key = record.get("sessionKey") if isinstance(record, dict) else None
    return key if isinstance(key, str) and key.strip() else None


def likely_key(backups: BackupIndex, agent_id: str, transcript: str, session_id: str) -> KeyEvidence:
    hit = backups.lookup(session_id)
    if hit is not None:
        return hit
    key = trajectory_key(transcript)
    if key is not None:
        return KeyEvidence(key, "trajectory")
    return KeyEvidence(recovered_key(agent_id, session_id), "fallback")

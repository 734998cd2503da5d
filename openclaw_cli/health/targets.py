"""Which transcripts a health command looks at: each store entry's, and the unreferenced ones beside them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SessionFile:
    """A transcript and the keys that reference it (none for an unreferenced one)."""

    path: str
    keys: list[str] = field(default_factory=list)
    session_id: str | None = None

    @property
    def key(self) -> str | None:
        return self.keys[0] if self.keys else None


@dataclass
class StoreSessions:
    agent_id: str
    store_path: str
    entries: dict[str, Any]
    referenced: list[SessionFile]  # store order, one per transcript path
    missing: list[tuple[str, str]]  # (key, path) of entries whose transcript does not exist

    @property
    def sessions_dir(self) -> str:
        return os.path.dirname(self.store_path)


def _comparable(path: str) -> str:
    from openclaw_cli.js.paths import realpath_or_none

    return realpath_or_none(path) or os.path.abspath(path)


def collect(agent_id: str, store_path: str, entries: dict[str, Any]) -> StoreSessions:
    """Every entry's transcript, the first of the places the Gateway loads it from that exists
    (`compact.offline.transcript_candidates`), grouped by file."""
    from pathlib import Path

    from openclaw_cli.compact.offline import transcript_candidates

    folder = os.path.dirname(store_path)
    by_path: dict[str, SessionFile] = {}
    missing = []
    for key, entry in entries.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("sessionId"), str) or not entry["sessionId"]:
            continue
        candidates = [str(c) for c in transcript_candidates(entry, Path(folder), None)]
        path = next((c for c in candidates if os.path.isfile(c)), None)
        if path is None:
            missing.append((key, candidates[0]))
            continue
        found = by_path.setdefault(_comparable(path), SessionFile(path, [], entry["sessionId"]))
        found.keys.append(key)
    return StoreSessions(agent_id, store_path, entries, list(by_path.values()), missing)


def unreferenced(sessions: StoreSessions) -> list[str]:
    """Primary transcripts in the store's folder that no entry references, sorted by name."""
    from openclaw_cli.store.artifacts import is_primary_transcript

    referenced = {_comparable(s.path) for s in sessions.referenced}
    try:
        listing = sorted(os.scandir(sessions.sessions_dir), key=lambda d: d.name)
    except OSError:
        return []
    out = []
    for dirent in listing:
        try:
            if not dirent.is_file(follow_symlinks=False) or not is_primary_transcript(dirent.name):
                continue
        except OSError:
            continue
        if _comparable(dirent.path) not in referenced:
            out.append(dirent.path)
    return out


def find_key(sessions: StoreSessions, key: str) -> SessionFile | None:
    for found in sessions.referenced:
        if key in found.keys:
            return found
    return None

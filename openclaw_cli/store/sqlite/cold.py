"""Transcripts in cold storage (2026.9.6's `session.maintenance.coldStorage`): the events moved out of
`transcript_events` into one zstd JSONL archive, a file in `sessions/cold/` or a blob in the row."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from openclaw_cli.errors import StoreError
from openclaw_cli.js import json as js_json
from openclaw_cli.store.sqlite.connection import AgentDb
from openclaw_cli.store.sqlite.transcript import TranscriptEvent, iter_events

ARCHIVE_NAME = re.compile(r"[a-f0-9]{64}\.jsonl\.zst")
MAX_ARCHIVE_BYTES = 64 * 1024 * 1024  # 2026.9.6 keeps a larger transcript in SQLite
MAX_RAW_BYTES = 1024 * 1024 * 1024  # a bound on one decoded archive


@dataclass(frozen=True)
class ColdArchive:
    """One `session_transcript_cold_archives` row (its blob only when stored in the row)."""

    session_id: str
    archive_name: str
    sha256: str
    archive_bytes: int
    event_count: int
    storage: str  # "file" (sessions/cold/<name>) or "sqlite" (the blob)
    blob: bytes | None


def find_archive(db: AgentDb, session_id: str) -> ColdArchive | None:
    """The session's cold archive row, if it has one."""
    if not db.has_table("session_transcript_cold_archives"):
        return None
    rows = db.rows("SELECT archive_name, archive_sha256, archive_bytes, event_count, storage, archive_blob "
                   "FROM session_transcript_cold_archives WHERE session_id = ?", (session_id,))
    if not rows:
        return None
    name, sha, size, count, storage, blob = rows[0]
    return ColdArchive(session_id, str(name), str(sha), int(size), int(count), str(storage),
                       bytes(blob) if blob is not None else None)


def artifact_dir(db_path: str) -> str:
    """The agent's session artifact folder: `sessions/` beside `agent/` (`resolveSessionArtifactDirectory`)."""
    folder = os.path.dirname(db_path)
    return os.path.join(os.path.dirname(folder), "sessions") if os.path.basename(folder) == "agent" else folder


def archive_path(db_path: str, archive: ColdArchive) -> str:
    """Where a file-stored archive is: `<sessions>/cold/<sha256>.jsonl.zst` (other names are refused)."""
    if not ARCHIVE_NAME.fullmatch(archive.archive_name):
        raise StoreError(f"cold transcript archive name {archive.archive_name!r} of session "
                         f"{archive.session_id} is not one OpenClaw writes")
    return os.path.join(artifact_dir(db_path), "cold", archive.archive_name)


def _archive_bytes(db_path: str, archive: ColdArchive) -> bytes:
    """The archive's bytes, checked against the recorded size and sha256 as 2026.9.6 checks them."""
    if archive.storage == "sqlite":
        data = archive.blob or b""
    else:
        path = archive_path(db_path, archive)
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_ARCHIVE_BYTES + 1)
        except OSError as exc:
            raise StoreError(f"cold transcript archive {path} of session {archive.session_id} is missing or "
                             f"unreadable: {exc.strerror or exc}",
                             hint="restore it from a backup; OpenClaw does not replace it with an empty history") from None
    if len(data) != archive.archive_bytes or hashlib.sha256(data).hexdigest() != archive.sha256:
        raise StoreError(f"cold transcript archive {archive.archive_name} of session {archive.session_id} "
                         "failed verification (size or sha256)", hint="restore it from a verified backup")
    return data


def archive_events(db_path: str, archive: ColdArchive) -> list[TranscriptEvent]:
    """The events an archive holds (its `event` records), in `seq` order."""
    import zstandard

    try:
        chunks: list[bytes] = []
        size = 0
        with zstandard.ZstdDecompressor().stream_reader(_archive_bytes(db_path, archive)) as reader:
            while chunk := reader.read(1 << 20):
                size += len(chunk)
                if size > MAX_RAW_BYTES:
                    raise StoreError(f"cold transcript archive {archive.archive_name} decodes to more than "
                                     f"{MAX_RAW_BYTES} bytes")
                chunks.append(chunk)
        text = b"".join(chunks)
    except zstandard.ZstdError as exc:
        raise StoreError(f"cold transcript archive {archive.archive_name} does not decompress: {exc}") from None
    events: list[tuple[int, bytes]] = []
    for line in text.split(b"\n"):
        if not line.strip():
            continue
        try:
            record = js_json.loads(line)
        except ValueError:
            raise StoreError(f"cold transcript archive {archive.archive_name} holds a line that is not JSON") from None
        row = record.get("row") if isinstance(record, dict) and record.get("kind") == "event" else None
        if isinstance(row, dict) and isinstance(row.get("seq"), int) and isinstance(row.get("event_json"), str):
            events.append((row["seq"], row["event_json"].encode("utf-8", "surrogatepass")))
    if len(events) != archive.event_count:
        raise StoreError(f"cold transcript archive {archive.archive_name} holds {len(events)} events; "
                         f"its row records {archive.event_count}")
    return [TranscriptEvent(seq, data, False) for seq, data in sorted(events)]


def iter_session_events(db: AgentDb, session_id: str) -> Iterator[TranscriptEvent]:
    """The session's events wherever they are: its `transcript_events` rows, else (a session
    2026.9.6 moved to cold storage keeps none) the events of its cold archive, read, never restored."""
    found = False
    for event in iter_events(db, session_id):
        found = True
        yield event
    if not found:
        archive = find_archive(db, session_id)
        if archive is not None:
            yield from archive_events(db.path, archive)

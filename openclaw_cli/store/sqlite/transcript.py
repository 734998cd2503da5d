"""A session's transcript events from `transcript_events`: each row's JSON, zstd frames decoded."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from openclaw_cli.errors import StoreError
from openclaw_cli.js.strings import js_trim
from openclaw_cli.store.sqlite.connection import AgentDb
from openclaw_cli.transcript.reader import RawLine

MAX_EVENT_BYTES = 64 * 1024 * 1024  # a bound on one decoded event, far above OpenClaw's 4 MiB


@dataclass(frozen=True)
class TranscriptEvent:
    """One transcript row: its sequence number and the UTF-8 bytes of its JSON line."""

    seq: int
    data: bytes
    compressed: bool


def _decode(session_id: str, seq: int, frame: bytes) -> bytes:
    """The frame's bytes. `event_utf8_bytes` is not checked against them: it is bookkeeping that a
    rewrite of the row (a path scrubbed from an event) may leave stale, the frame checksum is not."""
    import zstandard

    try:
        return zstandard.ZstdDecompressor().decompress(frame, max_output_size=MAX_EVENT_BYTES)
    except zstandard.ZstdError as exc:
        raise StoreError(f"transcript event {seq} of session {session_id} does not decompress: {exc}") from None


def iter_events(db: AgentDb, session_id: str) -> Iterator[TranscriptEvent]:
    """The session's events in `seq` order (the header first), as stored, one row at a time."""
    for seq, text, frame in db.conn.execute(
            "SELECT seq, event_json, event_zstd FROM transcript_events "
            "WHERE session_id = ? ORDER BY seq", (session_id,)):
        if text is not None:
            data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
            yield TranscriptEvent(seq, data, False)
        elif frame is not None:
            yield TranscriptEvent(seq, _decode(session_id, seq, bytes(frame)), True)
        else:
            raise StoreError(f"transcript event {seq} of session {session_id} has no body")


def read_events(db: AgentDb, session_id: str) -> list[TranscriptEvent]:
    """The session's events in `seq` order (the header first), as stored."""
    return list(iter_events(db, session_id))


def iter_event_lines(db: AgentDb, session_id: str) -> Iterator[RawLine]:
    """The events as the lines of the JSONL file they were in the file era (offsets as if they
    were written one per line), trimmed and decoded as a file reader yields them; a session in
    cold storage is read from its archive."""
    from openclaw_cli.store.sqlite.cold import iter_session_events

    offset = 0
    for event in iter_session_events(db, session_id):
        text = js_trim(event.data.decode("utf-8", "replace"))
        if text:
            yield RawLine(offset, len(event.data), text)
        offset += len(event.data) + 1


def is_cold(db: AgentDb, session_id: str) -> bool:
    """A session moved to cold storage keeps no rows in `transcript_events`."""
    if not db.has_table("session_transcript_cold_archives"):
        return False
    return bool(db.rows("SELECT 1 FROM session_transcript_cold_archives WHERE session_id = ?", (session_id,)))

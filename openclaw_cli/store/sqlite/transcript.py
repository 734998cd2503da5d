"""A session's transcript events from `transcript_events`: each row's JSON, zstd frames decoded."""

from __future__ import annotations

from dataclasses import dataclass

from openclaw_cli.errors import StoreError
from openclaw_cli.store.sqlite.connection import AgentDb

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


def read_events(db: AgentDb, session_id: str) -> list[TranscriptEvent]:
    """The session's events in `seq` order (the header first), as stored."""
    events = []
    for seq, text, frame in db.rows(
            "SELECT seq, event_json, event_zstd FROM transcript_events "
            "WHERE session_id = ? ORDER BY seq", (session_id,)):
        if text is not None:
            data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
            events.append(TranscriptEvent(seq, data, False))
        elif frame is not None:
            events.append(TranscriptEvent(seq, _decode(session_id, seq, bytes(frame)), True))
        else:
            raise StoreError(f"transcript event {seq} of session {session_id} has no body")
    return events


def is_cold(db: AgentDb, session_id: str) -> bool:
    """A session moved to cold storage keeps no rows in `transcript_events`."""
    if not db.has_table("session_transcript_cold_archives"):
        return False
    return bool(db.rows("SELECT 1 FROM session_transcript_cold_archives WHERE session_id = ?", (session_id,)))

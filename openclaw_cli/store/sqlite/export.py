"""A session's transcript written out as a file-era JSONL file: the header, then one event per line."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from openclaw_cli.errors import CliError, StoreError
from openclaw_cli.store.sqlite.cold import archive_events, find_archive, iter_session_events
from openclaw_cli.store.sqlite.connection import AgentDb
from openclaw_cli.store.sqlite.transcript import TranscriptEvent, read_events


@dataclass(frozen=True)
class Export:
    """One session to write: its key, id, events (as stored) and destination."""

    agent_id: str
    key: str
    session_id: str
    events: list[TranscriptEvent]
    path: str
    cold: bool = False  # read from the session's cold-storage archive

    @property
    def compressed(self) -> int:
        return sum(event.compressed for event in self.events)


def _file_name(session_id: str) -> str:
    """`<sessionId>.jsonl`, the file-era transcript name; an id that is not a plain file name is refused."""
    if not session_id or session_id in (".", "..") or "/" in session_id or "\0" in session_id:
        raise StoreError(f"session id {session_id!r} cannot name a transcript file")
    return f"{session_id}.jsonl"


def collect(db: AgentDb, agent_id: str, sessions: Sequence[tuple[str, dict]], out_dir: str) -> list[Export]:
    """Every session's events, read in the one transaction `db` holds."""
    exports = []
    for key, entry in sessions:
        session_id = entry.get("sessionId")
        if not isinstance(session_id, str):
            raise StoreError(f"session {key} has no sessionId in {db.path}")
        events = read_events(db, session_id)
        archive = None if events else find_archive(db, session_id)
        if archive is not None:
            events = archive_events(db.path, archive)
        if not events:
            raise StoreError(f"session {key} has no transcript events in {db.path}")
        exports.append(Export(agent_id, key, session_id, events, os.path.join(out_dir, _file_name(session_id)),
                              cold=archive is not None))
    return exports


def _jsonl(events: Sequence[TranscriptEvent]) -> bytes:
    return b"".join(event.data + b"\n" for event in events)


def write_all(exports: Sequence[Export], *, overwrite: bool) -> None:
    """Write each file whole (a temporary file, then linked or renamed into place): an existing
    file is kept unless `overwrite`, and then every destination is checked before any is written."""
    if not overwrite:
        existing = [e.path for e in exports if os.path.lexists(e.path)]
        if existing:
            raise CliError(f"{existing[0]} exists; nothing was written",
                           hint="pass --force to replace it, or --output DIR for another folder")
    for export in exports:
        folder = os.path.dirname(export.path) or "."
        tmp = os.path.join(folder, f".{os.path.basename(export.path)}.{os.getpid()}.tmp")
        try:
            with open(tmp, "xb") as handle:
                handle.write(_jsonl(export.events))
                handle.flush()
                os.fsync(handle.fileno())
            if overwrite:
                os.replace(tmp, export.path)
            else:
                os.link(tmp, export.path)
                os.unlink(tmp)
        except FileExistsError:
            _discard(tmp)
            raise CliError(f"{export.path} appeared while exporting; it was left as it is") from None
        except OSError as exc:
            _discard(tmp)
            raise CliError(f"cannot write {export.path}: {exc.strerror or exc}") from None


def _discard(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


@contextmanager
def temporary_jsonl(db: AgentDb, session_id: str) -> Iterator[str]:
    """The session's events (from its cold archive when it is in cold storage) written one per line
    to a private temporary file, for a reader of file-era transcripts; the file is removed afterwards."""
    import tempfile

    fd, path = tempfile.mkstemp(prefix="openclaw-transcript-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "wb") as handle:
            for event in iter_session_events(db, session_id):
                handle.write(event.data + b"\n")
        yield path
    finally:
        _discard(path)

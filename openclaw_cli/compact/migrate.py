"""Bring a version-1 or version-2 transcript to version 3 as OpenClaw's session manager does.

Version 1 entries get ids and a parent chain in file order (a compaction's
`firstKeptEntryIndex` becomes `firstKeptEntryId`), version 2 `hookMessage` roles become
`custom`, and the header says version 3. Parsed lines are written back with `JSON.stringify`,
as OpenClaw rewrites them; unlike OpenClaw, a line that does not parse (or a message entry
the Gateway's repair would drop) is kept verbatim in its place. Ids are derived from the
session id and the entry's position, so a dry run names the ids the run will write.
"""

from __future__ import annotations

import hashlib
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openclaw_cli.errors import CliError
from openclaw_cli.js import json as jsjson
from openclaw_cli.transcript.index import CANONICAL_TYPES
from openclaw_cli.transcript.messages import normalize_loaded_entry
from openclaw_cli.transcript.reader import iter_raw_lines
from openclaw_cli.transcript.repair import is_structurally_invalid_message

CURRENT_VERSION = 3


@dataclass(frozen=True)
class Migration:
    """The version the file had and its content after the migration (lines without `\\n`)."""

    from_version: int | float  # as the header writes it
    lines: list[str]


def header_version(path: str | Path) -> int | float | None:
    """The header's version (1 when it has none), None without a readable session header."""
    for raw in iter_raw_lines(path):
        try:
            header = jsjson.parse(raw.text)
        except jsjson.JsonLineError:
            continue
        if not (isinstance(header, dict) and header.get("type") == "session" and isinstance(header.get("id"), str)):
            return None
        return _version(header)
    return None


def _version(header: dict) -> int | float:
    """The header's numeric `version` as written (a float stays a float), else 1."""
    version = header.get("version")
    return version if isinstance(version, (int, float)) and not isinstance(version, bool) else 1


def _derived_id(session_id: str, n: int, taken: set[str]) -> str:
    for attempt in range(100):
        candidate = hashlib.sha256(f"{session_id}\0{n}\0{attempt}".encode()).hexdigest()[:8]
        if candidate not in taken:
            return candidate
    return hashlib.sha256(f"{session_id}\0{n}".encode()).hexdigest()[:32]


def migrate_lines(texts: list[str]) -> Migration | None:
    """The migrated file, or None when the first parsed record is no session header or the
    file is already at version 3."""
    parsed: list[Any] = []
    for text in texts:
        try:
            parsed.append(jsjson.parse(text))
        except jsjson.JsonLineError:
            parsed.append(_VERBATIM)
    header_at = next((i for i, r in enumerate(parsed) if r is not _VERBATIM), None)
    header = parsed[header_at] if header_at is not None else None
    if not (isinstance(header, dict) and header.get("type") == "session" and isinstance(header.get("id"), str)):
        return None
    version = _version(header)
    if version >= CURRENT_VERSION:
        return None
    legacy = version < 2
    entries: list[dict] = []  # the session manager's file entries, header excluded
    by_parsed_index: dict[int, dict] = {}
    parsed_index = 0
    for i, record in enumerate(parsed):
        if record is _VERBATIM or is_structurally_invalid_message(record):
            continue  # the Gateway's repair drops these lines before the session manager reads
        parsed_index += 1  # OpenClaw's original indexes count the lines that parse
        if i == header_at or not isinstance(record, dict):
            continue
        indexed = record.get("type") in CANONICAL_TYPES and isinstance(record.get("id"), str) and record["id"]
        if indexed or (legacy and record.get("type") in CANONICAL_TYPES):
            entries.append(record)
            by_parsed_index[parsed_index - 1] = record
    if legacy:
        _assign_ids(header["id"], entries, by_parsed_index)
    header["version"] = CURRENT_VERSION
    for record in entries:
        message = record.get("message") if record.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") == "hookMessage":
            message["role"] = "custom"
    lines = []
    for text, record in zip(texts, parsed):
        if record is _VERBATIM or (record is not header and is_structurally_invalid_message(record)):
            lines.append(text)
        else:
            lines.append(jsjson.stringify(normalize_loaded_entry(record)))
    return Migration(from_version=version, lines=lines)


def _assign_ids(session_id: str, entries: list[dict], by_parsed_index: dict[int, dict]) -> None:
    """`migrateV1ToV2`: ids and parents in order, compaction indexes resolved to ids."""
    taken: set[str] = set()
    previous: str | None = None
    for n, entry in enumerate(entries):
        entry["id"] = _derived_id(session_id, n, taken)
        taken.add(entry["id"])
        entry["parentId"] = previous
        previous = entry["id"]
        index = entry.get("firstKeptEntryIndex") if entry.get("type") == "compaction" else None
        if isinstance(index, (int, float)) and not isinstance(index, bool):
            target = by_parsed_index.get(int(index)) if float(index).is_integer() else None
            if target is None and float(index).is_integer() and 0 <= index - 1 < len(entries):
                target = entries[int(index) - 1]  # entries[index] counts the header in OpenClaw
            if target is not None and target.get("type") != "session":
                entry["firstKeptEntryId"] = target["id"]
            del entry["firstKeptEntryIndex"]


class _Verbatim:
    pass


_VERBATIM = _Verbatim()


def plan_migration(path: str | Path) -> Migration | None:
    """Read the transcript and work out its migration (None when none is needed)."""
    try:
        texts = [raw.text for raw in iter_raw_lines(path)]
    except OSError as exc:
        raise CliError(f"cannot read transcript {path}: {exc.strerror or exc}") from None
    return migrate_lines(texts)


def write_migration(path: str | Path, content: str, *, unchanged: tuple[int, int]) -> None:
    """Replace the transcript by `content` (temp file, fsync, rename), keeping its mode;
    `unchanged` is the (size, mtime_ns) the plan was made from, checked before the rename."""
    from openclaw_cli.store.sessions_json import write_file_atomic

    path = Path(path)
    mode = stat.S_IMODE(path.stat().st_mode)

    def still_unchanged() -> None:
        st = path.stat()
        if (st.st_size, st.st_mtime_ns) != unchanged:
            raise CliError(f"transcript changed while compacting; nothing written: {path}")

    write_file_atomic(path, content, durable=True, mode=mode, temp_prefix=f".{path.name}.migrate",
                      before_rename=still_unchanged)

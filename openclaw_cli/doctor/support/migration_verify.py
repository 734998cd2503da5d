"""The file-to-SQLite migration verifier: every file-era transcript of an agent (in `sessions/`, or
moved into `session-sqlite-import-archive/` by OpenClaw's import) compared, line for event, with
the session's `transcript_events`; each original found safe to retire, missing or different."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from openclaw_cli.doctor.support.sqlite_stores import AgentDbFile

# The codes, in the style of OpenClaw's own migration recovery report (its `issues[].code`).
VERIFIED = "verified_import_original"  # every line is an event, byte for byte: safe to retire
NOT_IMPORTED = "sqlite_transcript_missing"  # no events for this sessionId in the database
COUNT_MISMATCH = "sqlite_transcript_count_mismatch"  # fewer events than the original has lines
CONTENT_MISMATCH = "sqlite_transcript_content_mismatch"  # an event differs from its line
ENTRY_MISSING = "sqlite_entry_missing"  # a sessions.json key without a session row
ENTRY_MISMATCH = "sqlite_entry_mismatch"  # the row names another sessionId
UNREADABLE = "transcript_unreadable"  # the original could not be read

# `<key slug>.<sessionId>.jsonl.imported-<ms>`: a transcript moved by the import (not its trajectory).
_ARCHIVED = re.compile(r"^(?P<slug>.+)\.(?P<sid>[^.]+)\.jsonl\.imported-\d+$")


@dataclass(frozen=True)
class Original:
    """One file-era transcript: where it is, whose it is."""

    path: str
    session_id: str
    session_key: str | None
    archived: bool


@dataclass
class Outcome:
    """What the comparison of one original (or one sessions.json entry) found."""

    code: str
    path: str
    session_key: str | None
    message: str


@dataclass
class AgentVerdict:
    agent: AgentDbFile
    outcomes: list[Outcome] = field(default_factory=list)

    def of(self, code: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.code == code]


def key_slug(key: str) -> str:
    """The key as the import names its archives: characters outside `[A-Za-z0-9_.-]` as `_`."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", key)


def _store_entries(agent: AgentDbFile) -> dict[str, dict]:
    from openclaw_cli.doctor.support.sessionfiles import read_store

    view = read_store(agent.sessions_json)
    return dict(view.items()) if view.exists and not view.corrupt else {}


def find_originals(agent: AgentDbFile, entries: dict[str, dict], keys: dict[str, str | None]) -> list[Original]:
    """The agent's file-era transcripts: `sessions/<sessionId>.jsonl` (named by sessions.json or
    not) and the import's moved originals, each with its key where one is known."""
    from openclaw_cli.store.artifacts import is_primary_transcript

    by_sid: dict[str, str] = {}
    for key, sid in keys.items():
        if sid:
            by_sid.setdefault(sid, key)
    for key, entry in entries.items():
        sid = entry.get("sessionId")
        if isinstance(sid, str) and sid:
            by_sid[sid] = key
    out: list[Original] = []
    for name in _names(agent.sessions_dir):
        if is_primary_transcript(name):
            sid = name[: -len(".jsonl")]
            out.append(Original(os.path.join(agent.sessions_dir, name), sid, by_sid.get(sid), False))
    slugs = {key_slug(key): key for key in [*keys, *entries]}
    for name in _names(agent.archive_dir):
        match = _ARCHIVED.match(name)
        if match is None or match["sid"] == "trajectory":
            continue
        archived_sid: str = match["sid"]
        owner = by_sid.get(archived_sid) or slugs.get(match["slug"])
        out.append(Original(os.path.join(agent.archive_dir, name), archived_sid, owner, True))
    return out


def _names(folder: str) -> list[str]:
    try:
        return sorted(e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False))
    except OSError:
        return []


def read_lines(path: str) -> list[bytes]:
    """The transcript's non-blank lines as bytes (a final `\\r` dropped, as a JSONL reader does)."""
    with open(path, "rb") as handle:
        data = handle.read()
    lines = []
    for raw in data.split(b"\n"):
        line = raw[:-1] if raw.endswith(b"\r") else raw
        if line.strip():
            lines.append(line)
    return lines


def compare(original: Original, lines: list[bytes], events: list[bytes]) -> Outcome:
    """One original against its session's events: the same lines in the same order (the database
    may hold more, written after the import) is safe to retire."""
    who = original.session_key or original.session_id
    if not events:
        return Outcome(NOT_IMPORTED, original.path, original.session_key,
                       f"{who}: the database has no events for session {original.session_id}; "
                       f"the original's {len(lines)} lines exist only in {original.path}.")
    for seq, (line, event) in enumerate(zip(lines, events)):
        if line != event:
            return Outcome(CONTENT_MISMATCH, original.path, original.session_key,
                           f"{who}: event {seq} differs from line {seq + 1} of the original "
                           f"({len(events)} events, {len(lines)} lines).")
    if len(events) < len(lines):
        return Outcome(COUNT_MISMATCH, original.path, original.session_key,
                       f"{who}: SQLite transcript has {len(events)} events; source has {len(lines)}.")
    more = len(events) - len(lines)
    extra = f" ({more} written since)" if more else ""
    return Outcome(VERIFIED, original.path, original.session_key,
                   f"{who}: all {len(lines)} lines are in the database, byte for byte{extra}.")


def _entry_outcomes(agent: AgentDbFile, entries: dict[str, dict], keys: dict[str, str | None]) -> list[Outcome]:
    """sessions.json left beside the database: each key's row and sessionId (OpenClaw's checks)."""
    out = []
    for key, entry in entries.items():
        sid = entry.get("sessionId")
        if key not in keys:
            out.append(Outcome(ENTRY_MISSING, agent.sessions_json, key, f"SQLite entry is missing for {key}."))
        elif isinstance(sid, str) and keys[key] != sid:
            out.append(Outcome(ENTRY_MISMATCH, agent.sessions_json, key,
                               f"{key}: SQLite sessionId {keys[key]} does not match {sid}."))
    return out


def verify_agent(agent: AgentDbFile, version: int) -> AgentVerdict:
    """Compare every original of the agent with its database (read on an untouched handle)."""
    from openclaw_cli.store.sqlite.inspect import current_sessions, open_agent_untouched
    from openclaw_cli.store.sqlite.transcript import read_events

    verdict = AgentVerdict(agent)
    entries = _store_entries(agent)
    with open_agent_untouched(agent.sqlite_path, agent.agent_id, version) as db:
        keys = current_sessions(db)
        verdict.outcomes.extend(_entry_outcomes(agent, entries, keys))
        for original in find_originals(agent, entries, keys):
            try:
                lines = read_lines(original.path)
            except OSError as exc:
                verdict.outcomes.append(Outcome(UNREADABLE, original.path, original.session_key,
                                                f"{original.path} cannot be read: {exc.strerror or exc}."))
                continue
            events = [event.data for event in read_events(db, original.session_id)]
            verdict.outcomes.append(compare(original, lines, events))
    return verdict

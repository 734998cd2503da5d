"""`sessions recover`: unreferenced transcripts with a valid header put back into sessions.json."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

LABEL_MAX_CHARS = 80


@dataclass
class Recovery:
    path: str
    session_id: str
    key: str
    source: str  # where the key comes from: "backup:<file>", "trajectory", "fallback"
    updated_at: int
    label: str | None

    def entry(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sessionId": self.session_id, "updatedAt": self.updated_at,
                               "sessionFile": self.path}
        if self.label:
            out["label"] = self.label
        return out

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "keySource": self.source, "sessionId": self.session_id, "path": self.path,
                "updatedAt": self.updated_at, "label": self.label}


@dataclass
class Skipped:
    path: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "reason": self.reason}


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(b["text"] for b in content
                        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str))
    return ""


def make_label(content: Any) -> str | None:
    """The first user message's visible text, whitespace collapsed, at most 80 characters."""
    from openclaw_cli.doctor.support.runtime_context import strip_internal_context

    text = " ".join(strip_internal_context(_text(content)).split())
    if not text:
        return None
    return text if len(text) <= LABEL_MAX_CHARS else text[:LABEL_MAX_CHARS - 1].rstrip() + "…"


def read_transcript(path: str) -> tuple[str | None, str | None, int | None, str | None]:
    """(header id or None, why not usable, last entry timestamp in ms, label) in one streaming pass."""
    from openclaw_cli.health.scan import scan_transcript
    from openclaw_cli.transcript.messages import parse_timestamp_ms

    first_user: list[Any] = []

    def on_entry(_record: Any, value: dict) -> None:
        message = value.get("message")
        if not first_user and value.get("type") == "message" and isinstance(message, dict) \
                and message.get("role") == "user":
            first_user.append(message.get("content"))

    try:
        scan = scan_transcript(path, on_entry)
    except OSError as exc:
        return None, f"cannot read it: {exc.strerror or exc}", None, None
    header = scan.header
    sid = header.get("id") if header else None
    if not isinstance(sid, str) or not sid.strip():
        return None, "no valid session header", None, None
    last: int | None = None
    for rec in reversed(scan.entries()):
        stamp = rec.timestamp
        value = stamp if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) else parse_timestamp_ms(stamp)
        if value is not None:
            last = int(value)
            break
    if last is None:
        last = parse_timestamp_ms(header.get("timestamp")) if header else None
    return sid, None, last, make_label(first_user[0]) if first_user else None


def plan_recover(agent_id: str, store_path: str, entries: dict[str, Any]) -> tuple[list[Recovery], list[Skipped]]:
    from openclaw_cli.health import evidence, targets
    from openclaw_cli.health.verify import file_session_id
    from openclaw_cli.store.session_files import valid_transcript_id

    sessions = targets.collect(agent_id, store_path, entries)
    backups = evidence.BackupIndex(store_path)
    taken = set(entries)
    found: list[Recovery] = []
    skipped: list[Skipped] = []
    for path in targets.unreferenced(sessions):
        sid, why, last, label = read_transcript(path)
        if sid is None:
            skipped.append(Skipped(path, why or "no valid session header"))
            continue
        stem = file_session_id(path)
        if valid_transcript_id(sid) is None or not (stem == sid or stem.startswith(f"{sid}-topic-")):
            skipped.append(Skipped(path, f"its header id {sid} is not its file name"))
            continue
        guess = evidence.likely_key(backups, agent_id, path, sid)
        key, source = guess.key, guess.source
        if key in taken:
            key, source = evidence.recovered_key(agent_id, sid), "fallback"
            if key in taken:
                skipped.append(Skipped(path, f"the key {key} is already in use"))
                continue
        taken.add(key)
        updated = last if last is not None else int(os.stat(path).st_mtime * 1000)
        found.append(Recovery(os.path.abspath(path), sid, key, source, updated, label))
    return found, skipped

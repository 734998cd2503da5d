"""Findings: one problem of one transcript, with a stable code, a severity, a line and an entry id."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ERROR = "error"
WARNING = "warning"
INFO = "info"

# code -> (severity, what it means); the codes are stable (scripts match on them)
CODES: dict[str, tuple[str, str]] = {
    "missing-header": (ERROR, "the first line is not a session header"),
    "invalid-header": (ERROR, "the session header has no usable id"),
    "header-id-mismatch": (ERROR, "the header id is not the file name's or the store entry's sessionId"),
    "not-json": (ERROR, "a line that is not JSON (or not a JSON object)"),
    "not-utf8": (ERROR, "a line that is not valid UTF-8"),
    "duplicate-id": (ERROR, "two entries with the same id"),
    "dangling-parent": (ERROR, "a parentId that names no entry"),
    "multiple-roots": (ERROR, "more than one entry without a parent"),
    "compaction-target-missing": (ERROR, "a compaction whose firstKeptEntryId names no entry"),
    "tool-result-missing": (ERROR, "a toolCall on the active branch without its toolResult"),
    "tool-result-orphan": (ERROR, "a toolResult on the active branch without its toolCall"),
    "tool-call-pending": (INFO, "the latest turn's toolCall without a result while a live process holds the lock"),
    "failed-turn-tool-call": (INFO, "a toolCall of a failed (error/aborted) turn without its toolResult"),
    "line-too-long": (WARNING, "a line over 8 MiB"),
    "shared-transcript": (ERROR, "a transcript referenced by two keys"),
    "transcript-missing": (WARNING, "a store entry whose transcript does not exist"),
    "legacy-version": (INFO, "a version 1 or 2 transcript (entry ids and links are not checked)"),
    "unreferenced": (WARNING, "a transcript no store entry references"),
    "unreadable": (ERROR, "the transcript cannot be read"),
}


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    message: str
    line: int | None = None
    entry_id: str | None = None

    @property
    def severity(self) -> str:
        return CODES[self.code][0]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "severity": self.severity, "line": self.line, "entryId": self.entry_id,
                "message": self.message}


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == ERROR for f in findings)

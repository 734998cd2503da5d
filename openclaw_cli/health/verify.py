"""The checks of `sessions verify` over one scanned transcript."""

from __future__ import annotations

import os

from openclaw_cli.health.branch import active_branch, context_part, pair_tools
from openclaw_cli.health.findings import Finding
from openclaw_cli.health.lines import MAX_LINE_BYTES
from openclaw_cli.health.scan import Scan, scan_transcript


def file_session_id(path: str) -> str:
    name = os.path.basename(path)
    return name[:-len(".jsonl")] if name.endswith(".jsonl") else name


def _name_matches(stem: str, header_id: str) -> bool:
    return stem == header_id or stem.startswith(f"{header_id}-topic-")


def header_findings(scan: Scan, session_id: str | None) -> list[Finding]:
    if scan.header is None:
        where = scan.first_line
        text = "the file is empty: no session header" if where is None else \
            "the first line is not a session header ({\"type\":\"session\",...})"
        return [Finding("missing-header", text, where)]
    header_id = scan.header.get("id")
    if not isinstance(header_id, str) or not header_id.strip():
        return [Finding("invalid-header", "the session header has no id", scan.header_line)]
    found = []
    stem = file_session_id(scan.path)
    if not _name_matches(stem, header_id):
        found.append(Finding("header-id-mismatch", f"the header id {header_id} is not the file name's ({stem})",
                             scan.header_line, header_id))
    if session_id is not None and session_id != header_id:
        found.append(Finding("header-id-mismatch",
                             f"the header id {header_id} is not the store entry's sessionId {session_id}",
                             scan.header_line, header_id))
    return found


def line_findings(scan: Scan) -> list[Finding]:
    found = []
    for rec in scan.records:
        if not rec.utf8:
            found.append(Finding("not-utf8", "the line is not valid UTF-8 (read with U+FFFD replacements)",
                                 rec.line, rec.id))
        if rec.oversized:
            found.append(Finding("line-too-long", f"the line is over {MAX_LINE_BYTES // (1024 * 1024)} MiB "
                                 "(chat history shows a placeholder for it)", rec.line, rec.id))
        if rec.kind == "not-json":
            found.append(Finding("not-json", "the line is not JSON (the Gateway skips it)", rec.line))
        elif rec.kind == "not-object":
            found.append(Finding("not-json", "the line is JSON but not an object (the Gateway skips it)", rec.line))
    return found


def tree_findings(scan: Scan) -> list[Finding]:
    found = []
    entries = [r for r in scan.entries() if r.id is not None]
    ids: dict[str, int] = {}
    for rec in entries:
        rid = rec.id or ""
        if rid in ids:
            found.append(Finding("duplicate-id", f"entry id {rid} is also the id of line {ids[rid]}", rec.line, rid))
        else:
            ids[rid] = rec.line
    roots = [r for r in entries if r.parent is None and r.type != "leaf"]
    for rec in roots[1:]:
        found.append(Finding("multiple-roots", f"a second root (parentId null; the first is line {roots[0].line})",
                             rec.line, rec.id))
    for rec in entries:
        if isinstance(rec.parent, str) and rec.parent not in ids:
            found.append(Finding("dangling-parent", f"parentId {rec.parent} names no entry", rec.line, rec.id))
        if rec.type == "compaction" and (rec.first_kept is None or rec.first_kept not in ids):
            found.append(Finding("compaction-target-missing",
                                 f"firstKeptEntryId {rec.first_kept} names no entry", rec.line, rec.id))
    return found


def pairing_findings(scan: Scan, live: bool = False) -> list[Finding]:
    """The pairing on the active branch; with `live` (a process holds the transcript lock) the latest
    turn's calls may still be running, so their missing results are notes."""
    messages = context_part(active_branch(scan))
    pairing = pair_tools(messages)
    last_turn = next((r for r in reversed(messages) if r.type == "message" and r.role == "assistant"), None)
    found = []
    for rec, call_id, name in pairing.missing:
        if live and rec is last_turn:
            found.append(Finding("tool-call-pending", f"toolCall {call_id} ({name or 'unknown'}) has no toolResult "
                                 "yet; a live process holds the transcript lock (the tool may still run)",
                                 rec.line, rec.id))
            continue
        found.append(Finding("tool-result-missing", f"toolCall {call_id} ({name or 'unknown'}) has no toolResult "
                             "on the active branch", rec.line, rec.id))
    for rec, call_id, name in pairing.failed:
        found.append(Finding("failed-turn-tool-call",
                             f"toolCall {call_id} ({name or 'unknown'}) of a {rec.stop_reason} turn has no toolResult "
                             "(the Gateway leaves the failed turn out of the model's context)", rec.line, rec.id))
    for rec, duplicate in pairing.orphans:
        what = "answers a toolCall answered before" if duplicate else \
            f"names no earlier toolCall ({rec.result_id or 'no toolCallId'})"
        found.append(Finding("tool-result-orphan", f"toolResult {what} on the active branch", rec.line, rec.id))
    return found


def check_scan(scan: Scan, session_id: str | None = None, *, live: bool = False) -> list[Finding]:
    found = header_findings(scan, session_id) + line_findings(scan)
    if scan.header is not None and scan.version < 3:
        found.append(Finding("legacy-version", f"a version {scan.version} transcript: the Gateway migrates it to "
                             "version 3 when it loads it; entry links are not checked", scan.header_line))
        return sorted(found, key=_order)
    found += tree_findings(scan) + pairing_findings(scan, live)
    return sorted(found, key=_order)


def _order(finding: Finding) -> tuple[int, str]:
    return (finding.line or 0, finding.code)


def is_being_written(path: str) -> bool:
    """Whether a live process holds `<transcript>.lock` (the Gateway in a turn, a compaction)."""
    from openclaw_cli.errors import LockBusyError
    from openclaw_cli.locks.session_lock import check_transcript_lock

    try:
        check_transcript_lock(path)
    except LockBusyError:
        return True
    except (OSError, ValueError):
        return False
    return False


def verify_file(path: str, session_id: str | None = None) -> list[Finding]:
    """Every finding of one transcript; a file that cannot be read is one `unreadable` finding."""
    try:
        scan = scan_transcript(path)
    except OSError as exc:
        return [Finding("unreadable", f"cannot read the transcript: {exc.strerror or exc}")]
    return check_scan(scan, session_id, live=is_being_written(path))


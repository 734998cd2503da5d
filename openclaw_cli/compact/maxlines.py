"""`--max-lines N`: trim a transcript exactly as the 2026.7.1 Gateway's `sessions.compact {maxLines}`."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openclaw_cli.compact.clock import archive_stamp, now_ms
from openclaw_cli.errors import CliError
from openclaw_cli.js import json as jsjson
from openclaw_cli.transcript.reader import iter_raw_lines
from openclaw_cli.transcript.tree import scan_tree, select_path


@dataclass(frozen=True)
class TrimResult:
    """What the trim did: `compacted`, `kept` lines, the `.bak` path, or a `reason`."""

    compacted: bool
    kept: int | None = None
    archived: str | None = None
    reason: str | None = None
    lines: list[str] | None = None  # the new file's lines (dry runs too)


def count_lines(path: str | Path, limit: int | None = None) -> int:
    """Non-blank lines as Node readline sees them; stops counting past `limit`."""
    total = 0
    for _ in iter_raw_lines(path, split_cr=True):
        total += 1
        if limit is not None and total > limit:
            break
    return total


def _record(line: str) -> dict | None:
    try:
        value = jsjson.parse(line)
    except jsjson.JsonLineError:
        return None
    return value if isinstance(value, dict) else None


def normalize_kept_lines(header_line: str | None, tail_lines: list[str]) -> list[str] | None:
    """Header + kept records, re-rooted and re-pointed (`normalizeManualCompactTranscriptLines`)."""
    if not header_line:
        return None
    header = _record(header_line)
    if header is None or header.get("type") != "session" or not isinstance(header.get("id"), str):
        return None
    retained: set[str] = set()
    transparent: dict[str, Any] = {}
    normalized: list[dict] = []
    for record in (r for r in map(_record, tail_lines) if r is not None):
        parent = record.get("parentId", jsjson.UNDEFINED)
        seen: set[str] = set()
        while isinstance(parent, str) and parent in transparent and parent not in seen:
            seen.add(parent)
            parent = transparent.get(parent)
        nxt = record
        if isinstance(parent, str) and parent not in retained:
            nxt = {**record, "parentId": None}
        elif parent != record.get("parentId", jsjson.UNDEFINED):
            nxt = {**record, "parentId": parent}
        if nxt.get("type") == "leaf":
            target = nxt.get("targetId", jsjson.UNDEFINED)
            valid_target = target is None or (isinstance(target, str) and bool(jsjson.js_trim(target)))
            if not valid_target and isinstance(nxt.get("id"), str):
                p = nxt.get("parentId", jsjson.UNDEFINED)
                transparent[nxt["id"]] = p if p is None or isinstance(p, str) else None
            append = nxt.get("appendParentId")
            if isinstance(target, str) and jsjson.js_trim(target) and target not in retained:
                nxt = {**nxt, "targetId": None, "appendParentId": None}
            elif valid_target and isinstance(append, str) and append not in retained:
                nxt = {**nxt, "appendParentId": target}
        if nxt.get("type") == "compaction" and isinstance(nxt.get("id"), str):
            first = nxt.get("firstKeptEntryId")
            if isinstance(first, str) and first != nxt["id"]:
                path = select_path(scan_tree([*normalized, nxt]), nxt["id"])
                if not any(node.id == first for node in path):
                    nxt = {**nxt, "firstKeptEntryId": path[0].id if path else nxt["id"]}
        normalized.append(nxt)
        rid = nxt.get("id")
        if isinstance(rid, str) and jsjson.js_trim(rid):
            retained.add(rid)
    return [jsjson.stringify(header), *(jsjson.stringify(r) for r in normalized)]


def plan_trim(path: str | Path, max_lines: int) -> TrimResult:
    """Read the transcript once and work out the trimmed content, writing nothing."""
    max_lines = max(1, int(max_lines))
    header: str | None = None
    tail: deque[str] = deque(maxlen=max_lines - 1)
    total = 0
    try:
        for raw in iter_raw_lines(path, split_cr=True):
            total += 1
            if total == 1:
                header = raw.text
            else:
                tail.append(raw.text)
    except OSError as exc:
        raise CliError(f"cannot read transcript {path}: {exc.strerror or exc}") from None
    if total <= max_lines:
        return TrimResult(compacted=False, kept=total)
    lines = normalize_kept_lines(header, list(tail))
    if lines is None:
        return TrimResult(compacted=False, kept=0)
    return TrimResult(compacted=True, kept=len(lines), lines=lines)


def replace_transcript(path: str | Path, lines: list[str], *, stamp_ms: int | None = None) -> str:
    """Write `lines` to a temp file, archive the original as `.bak.<time>`, move the temp in.

    The original is never modified: it is renamed, and renamed back if the last step fails.
    """
    path = str(path)
    archived = f"{path}.bak.{archive_stamp(stamp_ms if stamp_ms is not None else now_ms())}"
    temp = f"{path}.compact.{uuid.uuid4()}.tmp"
    content = ("\n".join(lines) + "\n") if lines else ""
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(content)
        os.rename(path, archived)
        try:
            os.rename(temp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.rename(archived, path)
            raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return archived


def trim_transcript(path: str | Path, max_lines: int, *, dry_run: bool = False,
                    stamp_ms: int | None = None) -> TrimResult:
    """Preflight, trim and replace; `compacted: false` leaves the file untouched."""
    plan = plan_trim(path, max_lines)
    if not plan.compacted or dry_run:
        return plan
    archived = replace_transcript(path, plan.lines or [], stamp_ms=stamp_ms)
    return TrimResult(compacted=True, kept=plan.kept, archived=archived, lines=plan.lines)

"""`sessions repair`: the Gateway's load-time hygiene, persisted.

Two layers, each what OpenClaw 2026.7.1 does when it loads a transcript:

* the session-file repair it writes itself before a run (`transcript/repair.py`): message entries
  without a role dropped, an errored assistant turn without content given its placeholder text,
  blank user text, corrupted images; malformed lines dropped (here moved to `.rejected.<time>`);
* the toolCall/toolResult pairing it applies in memory to every model request
  (`repairToolUseResultPairing`): a call without a result gets a synthetic error result right after
  its turn's results, a result without a call is dropped; a failed (error/aborted) turn is left as
  it is (the Gateway leaves it out of the request together with its results).

The plan is computed in one streaming pass (light records only); the write is a second pass.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.errors import CliError
from openclaw_cli.health.branch import active_branch, context_part, pair_tools
from openclaw_cli.health.scan import Record, Scan, scan_transcript
from openclaw_cli.js.values import UNDEFINED

MISSING_TOOL_RESULT_TEXT = ("[openclaw] missing tool result in session history; inserted synthetic error "
                            "result for transcript repair.")
RESPONSES_MISSING_TOOL_RESULT_TEXT = "aborted"  # the text the Responses APIs' requests get
RESPONSES_APIS = frozenset({"openai-responses", "openai-chatgpt-responses", "azure-openai-responses"})
SYNTHETIC_DETAIL_KEY = "openclawSyntheticMissingToolResult"


@dataclass
class Change:
    action: str  # "add", "change", "drop", "reject"
    line: int | None
    entry_id: str | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "line": self.line, "entryId": self.entry_id, "reason": self.reason}


@dataclass
class RepairPlan:
    path: str
    changes: list[Change] = field(default_factory=list)
    rejected: list[int] = field(default_factory=list)  # line numbers moved to .rejected
    keep_decoded: set[int] = field(default_factory=set)  # not-UTF-8 lines kept as decoded (also rejected)
    replaced: dict[int, Any] = field(default_factory=dict)  # line -> entry (None: dropped)
    reparent: dict[int, str | None] = field(default_factory=dict)  # line -> new parentId
    inserts: dict[int, list[dict]] = field(default_factory=dict)  # after line -> new entries
    unrepaired: list[Any] = field(default_factory=list)  # findings the Gateway does not repair either
    size: int = 0
    mtime_ns: int = 0

    @property
    def empty(self) -> bool:
        return not self.changes


def _describe_repair(before: dict, after: Any) -> str:
    from openclaw_cli.transcript.repair import is_corrupted_image_block

    if after is None:
        return "message entry without a role (the Gateway drops it)"
    message = before.get("message") or {}
    content = message.get("content")
    if message.get("role") == "assistant" and content == []:
        return "errored assistant turn without content: the Gateway's placeholder text"
    if isinstance(content, list) and any(is_corrupted_image_block(b) for b in content):
        return "image whose data is not an image: the Gateway's placeholder text"
    return "blank user text: the Gateway's `(continue)` (empty text blocks removed)"


def synthetic_id(session_id: str, call_id: str) -> str:
    """`repair-<uuid>` as the Gateway names its repair entries, derived from the session and the call
    (so a dry run names the id the run writes)."""
    return f"repair-{uuid.uuid5(uuid.NAMESPACE_URL, f'openclaw-repair:{session_id}:{call_id}')}"


def _synthetic(session_id: str, call_id: str, name: str | None, parent_id: str | None, api: str | None,
               now_ms: int) -> dict:
    from openclaw_cli.compact.clock import iso_timestamp

    text = RESPONSES_MISSING_TOOL_RESULT_TEXT if api in RESPONSES_APIS else MISSING_TOOL_RESULT_TEXT
    return {"type": "message", "id": synthetic_id(session_id, call_id), "parentId": parent_id,
            "timestamp": iso_timestamp(now_ms),
            "message": {"role": "toolResult", "toolCallId": call_id, "toolName": name or "unknown",
                        "content": [{"type": "text", "text": text}], "details": {SYNTHETIC_DETAIL_KEY: True},
                        "isError": True, "timestamp": now_ms}}


def plan_repair(path: str, now_ms: int) -> RepairPlan:
    """What a repair changes, by line; nothing is written. CliError when the file cannot be repaired."""
    from openclaw_cli.health.verify import check_scan
    from openclaw_cli.transcript.repair import repair_record

    plan = RepairPlan(path)
    try:
        stat = os.stat(path)
        plan.size, plan.mtime_ns = stat.st_size, stat.st_mtime_ns

        def on_entry(record: Record, value: dict) -> None:
            fixed = repair_record(value)
            if fixed is not value:
                plan.replaced[record.line] = fixed
                action = "drop" if fixed is None else "change"
                plan.changes.append(Change(action, record.line, record.id, _describe_repair(value, fixed)))

        scan = scan_transcript(path, on_entry)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    if scan.header is None or not isinstance(scan.header.get("id"), str) or not scan.header["id"].strip():
        raise CliError(f"{path} has no valid session header; the Gateway does not repair it either "
                       "(nothing was changed)")
    if scan.version < 3:
        raise CliError(f"{path} is a version {scan.version} transcript; the Gateway migrates it when it loads it, "
                       "repair needs version 3 (nothing was changed)")
    _plan_lines(plan, scan)
    _plan_pairing(plan, scan, now_ms)
    plan.changes.sort(key=lambda c: (c.line or 0, c.action != "drop"))
    repaired = {"not-json", "not-utf8", "tool-result-missing", "tool-result-orphan"}
    plan.unrepaired = [f for f in check_scan(scan) if f.code not in repaired]
    return plan


def _plan_lines(plan: RepairPlan, scan: Scan) -> None:
    for rec in scan.records:
        if rec.kind in ("not-json", "not-object"):
            plan.rejected.append(rec.line)
            plan.changes.append(Change("reject", rec.line, None, "not a JSON object (the Gateway drops it); "
                                       "moved to the .rejected file"))
        elif not rec.utf8 and not rec.oversized:
            plan.rejected.append(rec.line)
            plan.keep_decoded.add(rec.line)
            if rec.line not in plan.replaced:
                plan.changes.append(Change("change", rec.line, rec.id, "not valid UTF-8: kept as the Gateway reads "
                                           "it (U+FFFD), the original bytes copied to the .rejected file"))


def _plan_pairing(plan: RepairPlan, scan: Scan, now_ms: int) -> None:
    dropped = {line for line, value in plan.replaced.items() if value is None}
    live = Scan(scan.path, scan.header, scan.header_line, scan.first_line,
                [r for r in scan.records if r.line not in dropped], scan.lines)
    path = active_branch(live)
    pairing = pair_tools(context_part(path))
    position = {id(r): i for i, r in enumerate(path)}
    orphan_parent: dict[str, Any] = {}
    for rec, _duplicate in pairing.orphans:
        plan.replaced[rec.line] = None
        plan.changes.append(Change("drop", rec.line, rec.id, f"toolResult {rec.result_id or '(no id)'} without its "
                                   "toolCall (the Gateway drops it from every model request)"))
        if rec.id is not None:
            orphan_parent[rec.id] = rec.parent
    orphan_lines = {r.line for r, _ in pairing.orphans}
    successor: dict[int, str] = {}  # line of the branch entry after an insertion -> its new parent
    by_turn: dict[int, list[tuple[str, str | None]]] = {}
    turns: dict[int, Record] = {}
    for rec, call_id, name in pairing.missing:
        by_turn.setdefault(id(rec), []).append((call_id, name))
        turns[id(rec)] = rec
    for key, calls in by_turn.items():
        turn = turns[key]
        i = position[key]
        while i + 1 < len(path) and path[i + 1].role == "toolResult" and path[i + 1].line not in orphan_lines:
            i += 1
        anchor = path[i]
        parent = anchor.id
        for call_id, name in calls:
            entry = _synthetic(str((scan.header or {}).get("id")), call_id, name, parent, turn.api, now_ms)
            plan.inserts.setdefault(anchor.line, []).append(entry)
            parent = entry["id"]
            plan.changes.append(Change("add", anchor.line, entry["id"], f"synthetic error toolResult for toolCall "
                                       f"{call_id} ({name or 'unknown'}) of entry {turn.id}, after line {anchor.line}"))
        j = i + 1
        while j < len(path) and path[j].line in orphan_lines:
            j += 1
        if j < len(path) and parent is not None:
            successor[path[j].line] = parent
    for rec in live.entries():
        if rec.line in orphan_lines or not isinstance(rec.parent, str):
            continue
        new: Any = rec.parent
        seen: set[str] = set()
        while isinstance(new, str) and new in orphan_parent and new not in seen:
            seen.add(new)
            new = orphan_parent[new]
        if rec.line in successor:
            new = successor[rec.line]
        if new is UNDEFINED:
            new = None
        if new != rec.parent:
            plan.reparent[rec.line] = new
            why = "after the synthetic toolResult" if rec.line in successor else "its parent was dropped"
            plan.changes.append(Change("change", rec.line, rec.id, f"parentId {rec.parent} -> {new} ({why})"))


def stamp_paths(path: str, now_ms: int) -> tuple[str, str]:
    from openclaw_cli.compact.clock import archive_stamp

    stamp = archive_stamp(now_ms)
    return f"{path}.bak.{stamp}", f"{path}.rejected.{stamp}"


def _output(plan: RepairPlan) -> Iterator[bytes]:
    """The repaired file, line by line (unchanged lines byte for byte)."""
    from openclaw_cli.health.lines import MAX_LINE_BYTES, iter_lines
    from openclaw_cli.js import json as jsjson

    rejected = set(plan.rejected) - plan.keep_decoded
    for line in iter_lines(plan.path, max_bytes=MAX_LINE_BYTES):
        if line.blank or line.number in rejected:
            continue
        n = line.number
        if n in plan.replaced and plan.replaced[n] is None:
            pass
        elif n in plan.replaced or n in plan.reparent or n in plan.keep_decoded:
            value = plan.replaced.get(n, UNDEFINED)
            if value is UNDEFINED:
                data = b"".join(_copy_range(plan.path, line.offset, line.length)) if line.oversized else line.data
                value = jsjson.parse(data.decode("utf-8", "replace"))
            if n in plan.reparent:
                value = {**value, "parentId": plan.reparent[n]}
            yield jsjson.stringify(value).encode("utf-8") + b"\n"
        elif line.oversized:
            yield from _copy_range(plan.path, line.offset, line.length)
            yield b"\n"
        else:
            yield line.data + b"\n"
        for entry in plan.inserts.get(n, []):
            yield jsjson.stringify(entry).encode("utf-8") + b"\n"


def _copy_range(path: str, offset: int, length: int) -> Iterator[bytes]:
    with open(path, "rb") as handle:
        handle.seek(offset)
        while length > 0:
            chunk = handle.read(min(length, 1 << 20))
            if not chunk:
                return
            length -= len(chunk)
            yield chunk


def _rejected_lines(plan: RepairPlan) -> Iterator[bytes]:
    """`<line number>\\t<the original bytes>` for each malformed line."""
    from openclaw_cli.health.lines import iter_lines

    wanted = set(plan.rejected)
    for line in iter_lines(plan.path, max_bytes=1 << 62):
        if line.number in wanted:
            yield f"{line.number}\t".encode() + line.data + b"\n"


def _write_new(path: str, chunks: Iterator[bytes], mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(path, mode)


@dataclass
class RepairResult:
    backup: str
    rejected: str | None


def apply_repair(plan: RepairPlan, now_ms: int) -> RepairResult:
    """Write the repaired file by rename, keeping the original as `.bak.<time>` (and the malformed
    lines in `.rejected.<time>`). The caller holds the transcript lock."""
    import contextlib

    stat = os.stat(plan.path)
    if (stat.st_size, stat.st_mtime_ns) != (plan.size, plan.mtime_ns):
        raise CliError(f"{plan.path} changed while the repair was planned; nothing was changed, run it again")
    backup, rejected = stamp_paths(plan.path, now_ms)
    folder = os.path.dirname(plan.path) or "."
    temp = os.path.join(folder, f".{os.path.basename(plan.path)}.repair.{os.getpid()}.{uuid.uuid4()}.tmp")
    mode = stat.st_mode & 0o7777
    made: list[str] = []
    try:
        _write_new(temp, _output(plan), mode)
        made.append(temp)
        if plan.rejected:
            _write_new(rejected, _rejected_lines(plan), mode)
            made.append(rejected)
        _keep_original(plan.path, backup)
        made.append(backup)
        os.rename(temp, plan.path)
        made.remove(temp)
    except BaseException as exc:
        for leftover in made:
            with contextlib.suppress(OSError):
                os.unlink(leftover)
        if isinstance(exc, OSError):
            raise CliError(f"cannot repair {plan.path}: {exc.strerror or exc} "
                           f"({exc.filename or plan.path}; nothing was changed)") from None
        raise
    return RepairResult(backup, rejected if plan.rejected else None)


def _keep_original(path: str, backup: str) -> None:
    """`backup` becomes the original file: a hard link, else a copy; never over an existing file."""
    try:
        os.link(path, backup)
        return
    except FileExistsError:
        raise
    except OSError:
        pass
    with open(path, "rb") as src, open(backup, "xb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
        dst.flush()
        os.fsync(dst.fileno())
    shutil.copystat(path, backup)

"""A streamed, light index of a transcript: header, entry tree and the session manager's leaf."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openclaw_cli.js import json as jsjson
from openclaw_cli.js.values import UNDEFINED
from openclaw_cli.logs import get_logger
from openclaw_cli.transcript.messages import message_from_entry, normalize_loaded_entry
from openclaw_cli.transcript.reader import iter_raw_lines
from openclaw_cli.transcript.realness import REAL_ROLES, has_meaningful_conversation_content
from openclaw_cli.transcript.repair import DROPPED, repair_record
from openclaw_cli.transcript.tokens import assistant_context_usage, estimate_tokens

log = get_logger(__name__)

CANONICAL_TYPES = frozenset({
    "message", "thinking_level_change", "model_change", "compaction", "branch_summary",
    "custom", "custom_message", "label", "session_info",
})
FILE_OP_TOOLS = frozenset({"read", "write", "edit"})
MODEL_SNAPSHOT_TYPE = "model-snapshot"


class TranscriptError(ValueError):
    """A transcript that cannot be used (missing, unreadable, no session header, legacy format)."""


@dataclass(slots=True)
class EntryInfo:
    """What compaction needs to know about one canonical entry, without keeping its content."""

    seq: int
    offset: int
    length: int
    type: str
    id: str
    parent_id: str | None
    has_parent: bool
    side: bool = False
    role: str | None = None
    tokens: int = 0
    usage: float | None = None
    meaningful: bool = False
    in_context: bool = False
    extra: dict[str, Any] | None = None

    @property
    def is_message(self) -> bool:
        return self.type == "message"


@dataclass(slots=True)
class _LeafControl:
    id: str
    parent_id: str | None
    target_id: str | None
    append_parent_id: Any  # str | None, or UNDEFINED
    side: bool


def _parse_leaf_control(record: Mapping[str, Any]) -> _LeafControl | None:
    if record.get("type") != "leaf":
        return None
    rid = record.get("id")
    if not isinstance(rid, str) or not rid:
        return None
    if "parentId" not in record or not (record["parentId"] is None or isinstance(record["parentId"], str)):
        return None
    if "targetId" not in record or not (record["targetId"] is None or isinstance(record["targetId"], str)):
        return None
    append = record.get("appendParentId", UNDEFINED)
    if append is not UNDEFINED and append is not None and not isinstance(append, str):
        return None
    mode = record.get("appendMode", UNDEFINED)
    if mode is not UNDEFINED and mode != "side":
        return None
    return _LeafControl(rid, record["parentId"], record["targetId"], append, mode == "side")


def _opaque_link(record: Mapping[str, Any]) -> tuple[str, str | None] | None:
    if record.get("type") in ("session", "leaf"):
        return None
    rid = record.get("id")
    if not isinstance(rid, str) or not rid or "parentId" not in record:
        return None
    parent = record["parentId"]
    if parent is not None and not isinstance(parent, str):
        return None
    return rid, parent


def _file_ops(message: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    if message.get("role") != "assistant" or not isinstance(message.get("content"), list):
        return ()
    ops = []
    for block in message["content"]:
        if not isinstance(block, Mapping) or block.get("type") != "toolCall":
            continue
        if "arguments" not in block or "name" not in block:
            continue
        args = block.get("arguments")
        if not isinstance(args, Mapping):
            continue
        path = args.get("path")
        name = block.get("name")
        if isinstance(path, str) and path and name in FILE_OP_TOOLS:
            ops.append((name, path))
    return tuple(ops)


def describe_entry(entry: dict, seq: int, offset: int, length: int) -> EntryInfo:
    """The light record for one canonical entry (estimates computed once, content dropped)."""
    info = EntryInfo(seq=seq, offset=offset, length=length, type=entry["type"], id=entry["id"],
                     parent_id=entry.get("parentId") if isinstance(entry.get("parentId"), str) else None,
                     has_parent="parentId" in entry, side=entry.get("appendMode") == "side")
    kind = info.type
    if kind == "compaction":
        summary = entry.get("summary")
        details = entry.get("details")
        info.role = "compactionSummary"
        info.tokens = estimate_tokens({"role": "compactionSummary", "summary": summary})
        info.extra = {"firstKeptEntryId": entry.get("firstKeptEntryId"),
                      "fromHook": entry.get("fromHook"),
                      "details": details if isinstance(details, Mapping) else None}
        return info
    if kind == "custom" and entry.get("customType") == MODEL_SNAPSHOT_TYPE:
        data = entry.get("data")
        info.extra = {"snapshot": data if isinstance(data, Mapping) else None}
        return info
    message = message_from_entry(entry, for_compaction=True)
    if message is None:
        return info
    info.role = message.get("role") if isinstance(message.get("role"), str) else None
    info.tokens = estimate_tokens(message)
    info.usage = assistant_context_usage(message)
    info.in_context = kind != "branch_summary" or bool(entry.get("summary"))
    if info.role in REAL_ROLES:
        info.meaningful = has_meaningful_conversation_content(message)
    extra: dict[str, Any] = {}
    ops = _file_ops(message)
    if ops:
        extra["fileOps"] = ops
    if info.role == "assistant" and isinstance(message.get("content"), list):
        tools = tuple(b.get("name") for b in message["content"]
                      if isinstance(b, Mapping) and b.get("type") == "toolCall" and isinstance(b.get("name"), str))
        if tools:
            extra["tools"] = tools
    if (info.role == "toolResult" and message.get("isError") is True) or (
            info.role == "assistant" and message.get("stopReason") == "error"):
        extra["error"] = True
    if extra:
        info.extra = extra
    return info


@dataclass
class TranscriptIndex:
    """Header, canonical entries (light) and the tree state after reading the whole file."""

    path: Path
    header: dict
    entries: list[EntryInfo] = field(default_factory=list)
    by_id: dict[str, EntryInfo] = field(default_factory=dict)
    opaque_parents: dict[str, str | None] = field(default_factory=dict)
    logical_parents: dict[str, str | None] = field(default_factory=dict)
    invalid_leaf_controls: set[str] = field(default_factory=set)
    leaf_id: str | None = None
    append_parent_id: str | None = None
    last_record_id: str | None = None
    skipped_lines: int = 0
    repaired_lines: int = 0
    has_assistant: bool = False
    ends_with_newline: bool = True
    size: int = 0

    @property
    def version(self) -> float:
        version = self.header.get("version")
        return version if isinstance(version, (int, float)) and not isinstance(version, bool) else 1

    @property
    def session_id(self) -> str:
        return self.header["id"]

    # -- tree resolution (SessionManager semantics) --------------------------------------

    def resolve_canonical_parent(self, parent_id: str | None) -> str | None:
        seen: set[str] = set()
        current = parent_id
        while current and current not in self.by_id:
            if current in seen:
                return None
            seen.add(current)
            current = self.opaque_parents.get(current)
        return current

    def normalized_parent(self, info: EntryInfo) -> str | None:
        if info.id in self.logical_parents:
            return self.logical_parents[info.id]
        return self.resolve_canonical_parent(info.parent_id)

    def first_kept_id(self, info: EntryInfo) -> Any:
        """A compaction's firstKeptEntryId, re-pointed when it names an opaque record."""
        first = (info.extra or {}).get("firstKeptEntryId")
        if not isinstance(first, str) or first in self.by_id or first not in self.opaque_parents:
            return first
        resolved = (self.resolve_canonical_parent(first)
                    or self._first_canonical_descendant_on_branch(first, self.normalized_parent(info))
                    or self._first_canonical_descendant(first)
                    or self.normalized_parent(info))
        return resolved or first

    def _first_canonical_descendant_on_branch(self, opaque_id: str, leaf_id: str | None) -> str | None:
        seen: set[str] = set()
        current = leaf_id
        found: str | None = None
        while current and current not in seen:
            if current == opaque_id:
                return found
            seen.add(current)
            entry = self.by_id.get(current)
            if entry is not None:
                found = entry.id
                current = entry.parent_id
            else:
                current = self.opaque_parents.get(current)
        return None

    def _first_canonical_descendant(self, opaque_id: str) -> str | None:
        for entry in self.entries:
            seen: set[str] = set()
            parent = entry.parent_id
            while parent and parent in self.opaque_parents and parent not in seen:
                if parent == opaque_id:
                    return entry.id
                seen.add(parent)
                parent = self.opaque_parents.get(parent)
        return None

    def branch(self, from_id: str | None = None) -> list[EntryInfo]:
        """`getBranch`: the path from the root to `from_id` (default: the leaf)."""
        path: list[EntryInfo] = []
        seen: set[str] = set()
        current = from_id if from_id is not None else self.leaf_id
        while current and current not in seen:
            seen.add(current)
            entry = self.by_id.get(current)
            if entry is not None:
                path.append(entry)
                current = self.normalized_parent(entry)
            else:
                current = self.opaque_parents.get(current)
        path.reverse()
        return path

    # -- content access -------------------------------------------------------------------

    def load(self, info: EntryInfo) -> dict:
        """The full entry as the Gateway reads it (repaired, content normalized on load)."""
        return next(self.iter_load([info]))

    def iter_load(self, infos: list[EntryInfo]) -> Iterator[dict]:
        """Full entries for `infos`, read one at a time from one open file."""
        with open(self.path, "rb") as handle:
            for info in infos:
                handle.seek(info.offset)
                text = handle.read(info.length).decode("utf-8", "replace")
                yield read_entry(text, self.version)


def read_entry(text: str, version: float = 3) -> Any:
    """One line as the Gateway reads it: parsed, repaired (`repair_record`), normalized on load.
    Raises JsonLineError for a line that does not parse; DROPPED for one the repair removes."""
    record = repair_record(jsjson.parse(text))
    return record if record is DROPPED else normalize_loaded_entry(record, version)


def load_index(path: str | Path) -> TranscriptIndex:
    """Read a transcript once, streaming, and build its index with the session manager's rules.

    Lines are read as the Gateway reads them before a compaction (`read_entry`): malformed
    lines, and message entries without a role, are skipped with a warning. Raises
    TranscriptError when the file is missing or its first record is not a `session` header
    with a string id.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise TranscriptError(f"cannot read transcript {path}: {exc.strerror or exc}") from None
    index: TranscriptIndex | None = None
    skipped = repaired = 0
    seq = 0
    try:
        lines = iter_raw_lines(path)
        for raw in lines:
            try:
                parsed = jsjson.parse(raw.text)
            except jsjson.JsonLineError:
                skipped += 1
                continue
            record = repair_record(parsed)
            if record is DROPPED:
                skipped += 1
                continue
            repaired += record is not parsed
            if index is None:
                if not (isinstance(record, dict) and record.get("type") == "session"
                        and isinstance(record.get("id"), str)):
                    raise TranscriptError(f"transcript has no session header: {path}")
                index = TranscriptIndex(path=path, header=record, size=size)
                if index.version < 2:
                    raise TranscriptError(
                        f"transcript uses the version 1 format (entries without ids); "
                        f"OpenClaw must migrate it first: {path}")
                continue
            if not isinstance(record, dict):
                continue
            rid = record.get("id")
            if isinstance(rid, str) and rid and record.get("type") != "session":
                index.last_record_id = rid
            if record.get("type") in CANONICAL_TYPES and isinstance(rid, str) and rid:
                normalize_loaded_entry(record, index.version)
                info = describe_entry(record, seq, raw.offset, raw.length)
                seq += 1
                _add_canonical(index, info)
                if info.role == "assistant" and info.type == "message":
                    index.has_assistant = True
                continue
            leaf = _parse_leaf_control(record)
            if leaf is not None:
                _add_leaf_control(index, leaf)
                continue
            link = _opaque_link(record)
            if link is not None:
                index.opaque_parents[link[0]] = link[1]
                index.append_parent_id = link[0]
    except OSError as exc:
        raise TranscriptError(f"cannot read transcript {path}: {exc.strerror or exc}") from None
    if index is None:
        raise TranscriptError(f"transcript has no session header: {path}")
    index.skipped_lines = skipped
    index.repaired_lines = repaired
    if skipped:
        log.warning("skipped %d malformed JSONL line(s) in %s", skipped, path)
    if size:
        with open(path, "rb") as handle:
            handle.seek(size - 1)
            index.ends_with_newline = handle.read(1) == b"\n"
    return index


def _add_canonical(index: TranscriptIndex, info: EntryInfo) -> None:
    if not info.has_parent or (not info.side and info.parent_id == index.append_parent_id
                               and index.leaf_id != index.append_parent_id):
        index.logical_parents[info.id] = index.leaf_id
    index.entries.append(info)
    index.by_id[info.id] = info
    index.append_parent_id = info.id
    if not info.side:
        index.leaf_id = info.id


def _add_leaf_control(index: TranscriptIndex, leaf: _LeafControl) -> None:
    def known(ref: str | None) -> bool:
        return ref is None or ref in index.by_id or (
            ref in index.opaque_parents and ref not in index.invalid_leaf_controls)

    def resolve_target(ref: str | None) -> str | None:
        return ref if ref is None or ref in index.by_id else index.resolve_canonical_parent(ref)

    def resolve_append(ref: str | None) -> str | None:
        if ref is None or ref in index.by_id or ref in index.opaque_parents:
            return ref
        return index.resolve_canonical_parent(ref)

    if not known(leaf.target_id) or (leaf.append_parent_id is not UNDEFINED and not known(leaf.append_parent_id)):
        index.invalid_leaf_controls.add(leaf.id)
        index.opaque_parents[leaf.id] = resolve_append(leaf.parent_id)
        return
    leaf_id = resolve_target(leaf.target_id)
    index.opaque_parents[leaf.id] = leaf_id
    index.leaf_id = leaf_id
    index.append_parent_id = leaf_id if leaf.append_parent_id is UNDEFINED else resolve_append(leaf.append_parent_id)

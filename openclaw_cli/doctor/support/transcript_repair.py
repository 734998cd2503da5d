"""Transcript branch repair: active branch, broken-branch detection, rewrite with a `.bak` copy."""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openclaw_cli.transcript.tree import TreeNode

LEGACY_PROVIDER = "openai-codex"
NEW_PROVIDER = "openai"
LEGACY_API = "openai-codex-responses"
NEW_API = "openai-chatgpt-responses"


@dataclass
class ActivePath:
    entries: list[dict]
    to_persist: list[dict]
    terminal_leaf: dict | None
    append_parent_id: str | None


@dataclass
class TranscriptResult:
    path: str
    broken: bool
    repaired: bool = False
    original_entries: int = 0
    active_entries: int = 0
    codex_entries: int = 0
    backup: str | None = None
    reason: str | None = None
    branch_broken: bool = field(default=False, repr=False)


def parse_entries(text: str) -> list[dict]:
    """Each non-blank line as JSON; objects kept, anything else skipped; one bad line → []."""
    from openclaw_cli.js import json as jsjson

    out: list[dict] = []
    for line in re.split(r"\r?\n", text):
        if not line.strip():
            continue
        try:
            value = jsjson.loads(line)
        except (ValueError, RecursionError):
            return []
        if isinstance(value, dict):
            out.append(value)
    return out


def _id(entry: Any) -> str | None:
    value = entry.get("id") if isinstance(entry, dict) else None
    return value if isinstance(value, str) and value.strip() else None


def _parent(entry: dict) -> str | None:
    value = entry.get("parentId")
    return value if isinstance(value, str) and value.strip() else None


def _message(entry: dict) -> dict | None:
    value = entry.get("message")
    return value if isinstance(value, dict) else None


def normalize_codex_metadata(entries: list[dict]) -> int:
    changed = 0
    for entry in entries:
        message = _message(entry)
        if message is None:
            continue
        touched = False
        if message.get("provider") == LEGACY_PROVIDER:
            message["provider"] = NEW_PROVIDER
            touched = True
        if message.get("api") == LEGACY_API:
            message["api"] = NEW_API
            touched = True
        changed += touched
    return changed


def _with_parent(entry: dict, parent_id: str | None) -> dict:
    if "parentId" in entry and entry["parentId"] == parent_id:
        return entry
    out = dict(entry)
    out["parentId"] = parent_id
    return out


def _merge(paths: list[list]) -> list[tuple[Any, str | None]]:
    selected: dict[str, tuple[Any, str | None]] = {}
    for path in paths:
        parent = None
        for node in path:
            selected[node.id] = (node, parent)
            parent = node.id
    return sorted(selected.values(), key=lambda pair: pair[0].index)


def select_active_path(entries: list[dict]) -> ActivePath | None:
    from openclaw_cli.transcript.tree import UNDEFINED, is_leaf_control, scan_tree, select_path

    body = [e for e in entries if e.get("type") != "session"]
    tree = scan_tree(body)
    if not tree.has_explicit_leaf_update:
        by_id = {}
        for entry in body:
            entry_id = _id(entry)
            if entry_id:
                by_id[entry_id] = entry
        active: list[dict] = []
        seen: set[str] = set()
        current = body[-1] if body else None
        while current is not None:
            entry_id = _id(current)
            if not entry_id or entry_id in seen:
                return None
            seen.add(entry_id)
            active.insert(0, current)
            parent = _parent(current)
            current = by_id.get(parent) if parent else None
        if not active:
            return None
        return ActivePath(active, active, None, _id(active[-1]))
    if not tree.has_leaf_update:
        return None
    visible = select_path(tree, tree.leaf_id)
    append = select_path(tree, tree.append_parent_id)
    visible_entries = [_with_parent(node.entry, parent) for node, parent in _merge([visible])]
    nodes = _merge([visible])
    selected_ids = {node.id for node, _ in nodes}
    suffix: list[TreeNode] = []
    for node in reversed(append):
        if node.id in selected_ids or _is_canonical(node.entry):
            break
        suffix.insert(0, node)
    parent = nodes[-1][0].id if nodes else None
    for node in suffix:
        nodes.append((node, parent))
        selected_ids.add(node.id)
        parent = node.id
    if tree.append_parent_id is None:
        append_parent = None
    elif tree.append_parent_id in selected_ids:
        append_parent = tree.append_parent_id
    else:
        append_parent = nodes[-1][0].id if nodes else None
    persist = [_with_parent(node.entry, p) for node, p in nodes]
    last_update = next((n.entry for n in reversed(tree.nodes) if n.leaf_id is not UNDEFINED), None)
    terminal = last_update if is_leaf_control(last_update) else None
    return ActivePath(visible_entries, persist, terminal, append_parent)


def _is_canonical(entry: Any) -> bool:
    from openclaw_cli.transcript.index import CANONICAL_TYPES

    return isinstance(entry, dict) and entry.get("type") in CANONICAL_TYPES


def _text(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    joined = "".join(part["text"] if isinstance(part, dict) and isinstance(part.get("text"), str) else ""
                     for part in content)
    return joined or None


def has_broken_branch(entries: list[dict], active: list[dict]) -> bool:
    from openclaw_cli.doctor.support.runtime_context import has_internal_context, strip_internal_context
    from openclaw_cli.js.strings import js_trim

    active_ids = {i for i in (_id(e) for e in active) if i}
    on_path: set[tuple[str, str]] = set()
    for entry in active:
        message = _message(entry)
        if not _id(entry) or not message or message.get("role") != "user":
            continue
        text = _text(message.get("content"))
        if text is not None:
            on_path.add((_parent(entry) or "", js_trim(text)))
    for entry in entries:
        entry_id = _id(entry)
        if not entry_id or entry_id in active_ids:
            continue
        message = _message(entry)
        if not message or message.get("role") != "user":
            continue
        text = _text(message.get("content"))
        if not text or not has_internal_context(text):
            continue
        visible = js_trim(strip_internal_context(text))
        if visible and (_parent(entry) or "", visible) in on_path:
            return True
    return False


def _stamp() -> str:
    now = datetime.now(timezone.utc)
    iso = now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"
    return re.sub(r"[:.]", "-", iso)


def _write_lines(path: str, entries: list[dict]) -> None:
    from openclaw_cli.js import json as jsjson

    text = "\n".join(jsjson.dumps_compact(e) for e in entries) + "\n"
    with open(path, "w", encoding="utf-8") as handle:  # keeps the file's mode, like writeFile
        handle.write(text)


def may_need_repair(data: bytes) -> bool:
    """False when the file's bytes show that it has neither legacy metadata nor a broken branch.

    A rewrite needs legacy Codex provider or API metadata, or an internal runtime-context block (its
    delimiter, or its notice, which every other form carries). JSON spells those characters as
    themselves or as a \\u escape, and no byte that is not UTF-8 decodes to ASCII: a file with none of
    them and no escape is clean without being parsed."""
    return (b"openai-codex" in data or b"BEGIN_OPENCLAW_INTERNAL_CONTEXT" in data
            or b"runtime-generated, not user-authored" in data or b"\\u" in data)


def repair_file(path: str, *, repair: bool) -> TranscriptResult:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        if not may_need_repair(data):
            return TranscriptResult(path, False)
        text = data.decode("utf-8", errors="replace")
        entries = parse_entries(text.replace("\r\n", "\n").replace("\r", "\n"))  # as text mode reads it
        codex = normalize_codex_metadata(entries)
        active = select_active_path(entries)
        if active is None:
            if codex and repair:
                backup = f"{path}.pre-doctor-openai-codex-repair-{_stamp()}.bak"
                shutil.copy(path, backup)
                _write_lines(path, entries)
                return TranscriptResult(path, True, True, len(entries), 0, codex, backup, "no active branch")
            return TranscriptResult(path, codex > 0, False, len(entries), 0, codex, None, "no active branch")
        broken = has_broken_branch(entries, active.entries)
        if not broken and not codex:
            return TranscriptResult(path, False, False, len(entries), len(active.entries), 0)
        if not repair:
            return TranscriptResult(path, True, False, len(entries), len(active.entries), codex,
                                    branch_broken=broken)
        if broken:
            header = next((e for e in entries if e.get("type") == "session"), None)
            if header is None:
                raise ValueError("missing session header")
            backup = f"{path}.pre-doctor-branch-repair-{_stamp()}.bak"
            shutil.copy(path, backup)
            last_id = _id(active.to_persist[-1]) if active.to_persist else None
            tail = []
            if active.terminal_leaf is not None:
                leaf = dict(active.terminal_leaf)
                leaf["parentId"] = last_id
                leaf["appendParentId"] = active.append_parent_id
                tail = [leaf]
            _write_lines(path, [header, *active.to_persist, *tail])
        else:
            backup = f"{path}.pre-doctor-openai-codex-repair-{_stamp()}.bak"
            shutil.copy(path, backup)
            _write_lines(path, entries)
        return TranscriptResult(path, True, True, len(entries), len(active.entries), codex, backup,
                                branch_broken=broken)
    except (OSError, ValueError) as exc:
        return TranscriptResult(path, False, reason=str(exc))


def list_transcripts(session_dirs: list[str], *, ordered: bool = True) -> list[str]:
    """The `.jsonl` files of the session folders, in OpenClaw's (locale) order; with `ordered=False`
    in folder order, for a caller that orders only the few it keeps (`transcript_order`)."""
    files: list[str] = []
    for folder in session_dirs:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_file(follow_symlinks=False) and entry.name.endswith(".jsonl"):
                    files.append(os.path.join(folder, entry.name))
            except OSError:
                continue
    return transcript_order(files) if ordered else files


def transcript_order(paths: list[str]) -> list[str]:
    """Transcript paths in OpenClaw's order (root-collation `localeCompare`; ties keep their order)."""
    from openclaw_cli.js.strings import locale_sort_key

    return sorted(paths, key=locale_sort_key)

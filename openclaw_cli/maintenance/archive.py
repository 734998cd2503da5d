"""Archiving removed sessions' transcripts, removing their trajectory sidecars, aging archives."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from openclaw_cli.js import paths as jspath
from openclaw_cli.js.strings import js_trim
from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.store import session_files as sessionpaths
from openclaw_cli.store.artifacts import (
    format_archive_timestamp,
    generated_id_from_session_file,
    parse_archive_timestamp,
)


def remember_removed(removed: dict[Any, str | None], entry: dict) -> None:
    """Map sessionId → sessionFile of a removed entry (first seen wins unless a later one is set).

    The key is the entry's sessionId as stored, which an invalid entry may lack (as OpenClaw's
    Map takes `undefined` as a key)."""
    sid = entry.get("sessionId")
    if sid not in removed or entry.get("sessionFile"):
        removed[sid] = entry.get("sessionFile")


def _candidates(paths: EntryPaths, session_id: str, session_file, home: str | None) -> list[str]:
    """Where a removed session's transcript may be, in OpenClaw's order; `home` None leaves out the
    legacy `~/.openclaw/sessions` folder (when it does not exist, nothing can be found there)."""
    out: list[str] = []
    generated = generated_id_from_session_file(session_file)
    state = "custom" if not generated else ("current" if generated == session_id else "stale")
    sessions_dir = paths.sessions_dir

    def push(fn) -> None:
        try:
            out.append(fn())
        except sessionpaths.PathError:
            pass

    def from_file() -> str:
        return sessionpaths.session_file_path(session_id, session_file, sessions_dir, paths.env, paths.rp)

    def canonical() -> str:
        return sessionpaths.transcript_path_in_dir(session_id, sessions_dir, paths.env, paths.rp)

    has_file = isinstance(session_file, str) and session_file != ""
    if has_file and state != "stale":
        push(from_file)
    push(canonical)
    if has_file and state == "stale":
        push(from_file)
    if home is not None:
        legacy = jspath.resolve(home, ".openclaw", "sessions")
        push(lambda: sessionpaths.transcript_path_in_dir(session_id, legacy, paths.env, paths.rp))
    unique: list[str] = []
    for c in out:
        if c not in unique:
            unique.append(c)
    return unique


def _plain_transcript(paths: EntryPaths, sid, session_file) -> str | None:
    """The single transcript candidate of a removed session when both its sessionFile (if set) and
    `<sessionId>.jsonl` name the same plain file directly in the folder; None when the general
    resolution is needed."""
    if not isinstance(sid, str) or not sid:
        return None
    canonical = paths._fast_transcript(sid, None)
    if canonical is None:
        return None
    if isinstance(session_file, str) and session_file != "":
        return canonical if paths._fast_transcript(sid, session_file) == canonical else None
    return canonical


def archive_transcripts(paths: EntryPaths, removed: Mapping[str, str | None], referenced_ids: set[str],
                        reason: str, now_ms: int, home: str) -> set[str]:
    """Rename the transcripts of removed, no-longer-referenced sessions to `<file>.<reason>.<TS>`."""
    view = paths.view
    store_dir = view.canonical(paths.sessions_dir)
    archived_dirs: set[str] = set()
    stamp = format_archive_timestamp(now_ms)
    legacy_home = home if os.path.isdir(jspath.resolve(home, ".openclaw", "sessions")) else None
    effect_reason = f"archive ({reason})"  # one string for every effect (a copy each would cost 70 bytes an archive)
    for sid, session_file in removed.items():
        if sid in referenced_ids:
            continue
        plain = _plain_transcript(paths, sid, session_file) if legacy_home is None else None
        if plain is not None:
            # The only candidate, a plain name in the folder: canonical and inside as it is.
            if view.exists(plain):
                target = f"{plain}.{reason}.{stamp}"
                view.plan_rename(plain, target, effect_reason)
                archived_dirs.add(view.real_dir)
            continue
        for candidate in _candidates(paths, sid, session_file, legacy_home):
            path = view.canonical(candidate)
            if not jspath.is_inside(store_dir, path):
                continue
            if not view.exists(path):
                continue
            target = f"{path}.{reason}.{stamp}"
            view.plan_rename(path, target, effect_reason)
            archived_dirs.add(target.rsplit("/", 1)[0] or "/")
    return archived_dirs


def _read_pointer(paths: EntryPaths, pointer: str, session_id: str) -> str | None:
    view = paths.view
    if not view.is_regular_non_symlink(pointer):
        return None
    raw = view.read_head(pointer, 1 << 20)
    if raw is None:
        return None
    try:
        parsed = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError:
        return None
    if not isinstance(parsed, dict):
        return None
    runtime = parsed.get("runtimeFile")
    # A removed entry without a sessionId matches only a pointer without one (undefined === undefined).
    same_id = "sessionId" not in parsed if session_id is None else parsed.get("sessionId") == session_id
    if (parsed.get("traceSchema") != "openclaw-trajectory-pointer" or not _is_one(parsed.get("schemaVersion"))
            or not same_id or not isinstance(runtime, str) or not js_trim(runtime)):
        return None
    return jspath.resolve(runtime)


def _within(paths: EntryPaths, parent: str, child: str) -> bool:
    view = paths.view
    a = view.canonical(parent)
    b = view.canonical(child)
    return a != b and jspath.is_inside_or_equal(a, b)


def remove_trajectory_artifacts(paths: EntryPaths, removed: Mapping[str, str | None],
                                referenced_ids: set[str]) -> int:
    """Delete runtime trajectory files and pointers of removed sessions, inside the folder only."""
    view = paths.view
    count = 0
    store_dir = jspath.resolve(paths.sessions_dir)
    # The sidecars of a transcript named plainly in the folder are plain names beside it: with no such
    # file in the folder (the usual case), those sessions have none to remove.
    plain_sidecars = view.has_sidecar_named_file()
    for sid, session_file in removed.items():
        if sid in referenced_ids:
            continue
        plain = _plain_transcript(paths, sid, session_file)
        if plain is not None and not plain_sidecars:
            continue
        transcript = plain or sessionpaths.session_file_path_or_none(
            sid, session_file if session_file else None, paths.sessions_dir, paths.env, paths.rp)
        if transcript is None:
            continue
        pointer = sessionpaths.trajectory_pointer_path(transcript)
        runtime_default = sessionpaths.trajectory_runtime_path(transcript)
        runtime_targets = [runtime_default]
        pointed = _read_pointer(paths, pointer, sid)
        if pointed and pointed not in runtime_targets:
            runtime_targets.append(pointed)
        for target in runtime_targets:
            # OpenClaw may also remove a matching runtime file outside the store folder;
            # we deliberately never touch anything outside it. (Existence first: it is the cheap test.)
            if view.is_regular_non_symlink(target) and _within(paths, store_dir, view.canonical(target)):
                view.plan_delete(target, "trajectory sidecar")
                count += 1
        if view.is_regular_non_symlink(pointer) and _within(paths, store_dir, pointer):
            view.plan_delete(pointer, "trajectory pointer")
            count += 1
    return count


def age_archives(paths: EntryPaths, directories: list[str], rules: list[tuple[str, int]],
                 now_ms: int) -> int:
    """Delete `<reason>` archives whose name timestamp is older than the rule's age."""
    view = paths.view
    rules = [(r, age) for r, age in rules if isinstance(age, (int, float)) and age >= 0
             and age != float("inf")]
    if not rules:
        return 0
    removed = 0
    effect_reasons = {reason: f"archive retention ({reason})" for reason, _age in rules}
    seen: list[str] = []
    for d in directories:
        d = jspath.resolve(d)
        if d in seen:
            continue
        seen.append(d)
        for name in view.list_names(d):
            for reason, older in rules:
                if f".{reason}." not in name:
                    continue  # parse_archive_timestamp would say None
                ts = parse_archive_timestamp(name, reason)
                if ts is None:
                    continue
                if now_ms - ts > older:
                    full = f"{d}/{name}"
                    if view.is_file(full):
                        view.plan_delete(full, effect_reasons[reason])
                        removed += 1
                break
    return removed


def _is_one(value) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and value == 1

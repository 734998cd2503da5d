"""The applying cleanup: planned in full against an FsView first, then carried out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from openclaw_cli.js import json as jsjson
from openclaw_cli.js.strings import js_trim
from openclaw_cli.maintenance import archive, budget, lostindex, steps
from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.fsview import Effect, FsView
from openclaw_cli.maintenance.plan import CleanupOptions, Target, build_summary, dm_scope_of, preserve_keys
from openclaw_cli.maintenance.settings import MaintenanceSettings
from openclaw_cli.store import sessions_json as store_mod


@dataclass
class ApplyPlan:
    """Everything one applying run does to one store, in OpenClaw's logical order."""

    target: Target
    projection: store_mod.Projection
    write_store: bool  # False: the file would be byte-identical, no write
    effects: list[Effect]  # renames and deletions, in OpenClaw's order; carried out after the write
    summary: dict
    logs: list[tuple[str, str]] = field(default_factory=list)  # (level, message), as OpenClaw logs
    lost_index_transcripts: int = 0  # transcripts swept although the store had no entries


def plan_apply(*, cfg: Mapping, target: Target, loaded, view: FsView, settings: MaintenanceSettings,
               mode: str, opts: CleanupOptions, env: Mapping[str, str] | None, now_ms: int,
               home: str) -> ApplyPlan:
    """runSessionsCleanup's apply step for one target, with every file effect recorded, not made."""
    paths = EntryPaths(view, env)
    before: dict[str, dict] = loaded.store

    # 1. --fix-missing / --fix-dm-scope decided on a working copy of the freshly loaded store.
    work = before.copy()
    missing_removals: list[tuple[str, dict]] = []
    repair_plans: list[tuple[str, str, str | None, str]] = []  # key, new file, old file, sessionId
    dm_removals: list[tuple[str, dict]] = []
    if opts.fix_missing:
        steps.prune_missing(
            work, paths, on_pruned=lambda k, e: missing_removals.append((k, e)),
            on_repaired=lambda k, e, new, old: repair_plans.append((k, new, old, e.get("sessionId"))))
    if opts.fix_dm_scope:
        steps.retire_dm_scope(work, dm_scope=dm_scope_of(cfg), target_agent_id=target.agent_id,
                              active_key=opts.active_key, on_retired=lambda k, e: dm_removals.append((k, e)))

    # 2. The lifecycle mutation on the store as loaded: guarded removals, then repairs.
    store = before.copy()
    removed_keys: set[str] = set()
    dm_removed_files: dict[str, str | None] = {}
    # The lifecycle looks keys up trimmed: a key with surrounding whitespace is not found
    # (or another entry under the trimmed key is), exactly as in OpenClaw.
    dm_keys = {k for k, _ in dm_removals}
    for key, expected in missing_removals + dm_removals:
        lookup = js_trim(key)
        if not lookup:
            continue
        current = store.get(lookup)
        if current is None or not _same_entry(current, expected):
            continue
        if key in dm_keys and current.get("sessionId"):
            archive.remember_removed(dm_removed_files, current)
        del store[lookup]
        removed_keys.add(lookup)
    for key, new_file, old_file, sid in repair_plans:
        key = js_trim(key)
        if not key:
            continue
        current = store.get(key)
        if (current is None or current.get("sessionId") != sid or current.get("sessionFile") != old_file
                or not paths.exists_with_messages(new_file)):
            continue
        fixed = dict(current)
        fixed["sessionFile"] = new_file
        store[key] = fixed

    # 3. The save normalises again, then runs maintenance (forced: the CLI passes a mode).
    store_mod.normalize_store(store)
    before_count = len(store)
    preserve = preserve_keys(opts.active_key)
    model_runs = pruned = capped = 0
    logs: list[tuple[str, str]] = []
    swept: list[str] = []  # files the budget and the sweep remove
    if mode == "warn":
        if opts.active_key and opts.active_key.strip() and _would_evict_active(
                store, opts.active_key.strip(), settings, now_ms):
            logs.append(("warn", "session maintenance would evict active session; skipping enforcement"))
        disk = budget.enforce_disk_budget(
            store=store, store_path=target.store_path, paths=paths, max_bytes=settings.max_disk_bytes,
            high_water=settings.high_water_bytes, active_key=opts.active_key, preserve=None,
            warn_only=True, dry_run=False, now_ms=now_ms)
        if disk is not None and disk["overBudget"]:
            logs.append(("warn", "session disk budget exceeded (warn-only mode)"))
    else:
        removed_files: dict[str, str | None] = {}
        remember = lambda _k, e: archive.remember_removed(removed_files, e)  # noqa: E731
        if before_count > settings.max_entries:
            model_runs = steps.prune_model_runs(store, settings.model_run_prune_after_ms, now_ms, preserve,
                                                on_pruned=remember)
        if model_runs:
            logs.append(("info", "pruned stale gateway model-run session entries"))
        pruned = steps.prune_stale(store, settings.prune_after_ms, now_ms, preserve, on_pruned=remember)
        if pruned:
            logs.append(("info", "pruned stale session entries"))
        capped = steps.cap_entries(store, settings.max_entries, preserve, on_capped=remember)
        if capped:
            logs.append(("info", "capped session entry count"))
        referenced_ids = {e.get("sessionId") for e in store.values() if e.get("sessionId")}
        archived_dirs = archive.archive_transcripts(paths, removed_files, referenced_ids, "deleted", now_ms, home)
        if removed_files:
            archive.remove_trajectory_artifacts(paths, removed_files, referenced_ids)
        if archived_dirs or settings.reset_archive_retention_ms is not None:
            dirs = sorted(archived_dirs) if archived_dirs else [view.sessions_dir]
            rules = [("deleted", settings.prune_after_ms)]
            if settings.reset_archive_retention_ms is not None:
                rules.append(("reset", settings.reset_archive_retention_ms))
            archive.age_archives(paths, dirs, rules, now_ms)
        disk = budget.enforce_disk_budget(
            store=store, store_path=target.store_path, paths=paths, max_bytes=settings.max_disk_bytes,
            high_water=settings.high_water_bytes, active_key=opts.active_key, preserve=preserve,
            warn_only=False, dry_run=False, now_ms=now_ms, on_removed=swept.append)
        if disk is not None and disk["overBudget"]:
            if disk["totalBytesAfter"] > disk["highWaterBytes"]:
                logs.append(("warn", "session disk budget still above high-water target after cleanup"))
            elif disk["removedFiles"] > 0 or disk["removedEntries"] > 0:
                logs.append(("info", "applied session disk budget cleanup"))

    # 4. The write: prompt blobs first, then the store, skipped when the bytes would not change.
    proj = store_mod.serialize_store(store, target.store_path)
    for blob in proj.prompt_blobs.values():
        if blob.path and not _blob_valid(target.store_path, blob):
            view.note_written(blob.path, jsjson.js_utf8(blob.prompt), now_ms * 1_000_000)
    unchanged = loaded.unchanged_serialization
    write_store = not (unchanged is not None and unchanged.matches(proj.chunks))
    if write_store:
        view.note_written(target.store_path, b"", now_ms * 1_000_000)

    # 5. After the write: archive retired direct-DM transcripts, then sweep orphans (enforce only).
    referenced_ids = {e.get("sessionId") for e in store.values() if e.get("sessionId")}
    if dm_removed_files:
        archive.archive_transcripts(paths, dm_removed_files, referenced_ids, "deleted", now_ms, home)
    if mode == "warn":
        unreferenced = {"scannedFiles": 0, "removedFiles": 0, "freedBytes": 0,
                        "olderThanMs": settings.prune_after_ms}
    else:
        unreferenced = budget.sweep_unreferenced(
            store=store, store_path=target.store_path, paths=paths, older_than_ms=settings.prune_after_ms,
            dry_run=False, now_ms=now_ms, on_removed=swept.append)

    repaired = sum(1 for key, new_file, _o, _s in repair_plans
                   if (store.get(key) or {}).get("sessionFile") == new_file)
    missing = sum(1 for key, _e in missing_removals if key in removed_keys)
    dm_retired = sum(1 for key, _e in dm_removals if key in removed_keys)
    summary = build_summary(
        target, mode=mode, dry_run=False, before_count=before_count, after_count=len(store),
        repaired=repaired, missing=missing, dm_retired=dm_retired, model_runs=model_runs, pruned=pruned,
        capped=capped, unreferenced=unreferenced, disk=disk, applied_count=len(store))
    return ApplyPlan(target, proj, write_store, list(view.effects), summary, logs,
                     lostindex.swept_history(before, swept))


def _would_evict_active(store: dict[str, dict], active: str, settings: MaintenanceSettings,
                        now_ms: int) -> bool:
    """Warn mode: would enforcement prune or cap the active session? (never for protected ones)"""
    from openclaw_cli.store import keys

    entry = store.get(active)
    if entry is None or keys.is_protected_entry(active, entry):
        return False
    updated = entry.get("updatedAt")
    if updated is not None and updated < now_ms - settings.prune_after_ms:
        return True
    names = list(store)
    max_entries = settings.max_entries
    if len(names) <= max_entries:
        return False
    if max_entries <= 0:
        return True
    protected = sum(1 for k in names if k != active and keys.is_protected_entry(k, store[k]))
    room = max(0, max_entries - protected)
    if room <= 0:
        return True
    inf = float("-inf")
    active_at = updated if updated is not None else inf
    ahead = 0
    seen_active = False
    for k in names:
        if k == active:
            seen_active = True
            continue
        if keys.is_protected_entry(k, store[k]):
            continue
        at = store[k].get("updatedAt")
        at = at if at is not None else inf
        if at > active_at or (not seen_active and at == active_at):
            ahead += 1
            if ahead >= room:
                return True
    return False


def _blob_valid(store_path: str, blob) -> bool:
    from openclaw_cli.store.promptblobs import read_valid_blob

    return read_valid_blob(store_path, blob.ref) == blob.prompt


def _same_entry(current: dict, expected: dict) -> bool:
    """OpenClaw compares `JSON.stringify` of the current and the expected entry."""
    if current is expected:
        return True
    return jsjson.dumps_compact(current) == jsjson.dumps_compact(expected)

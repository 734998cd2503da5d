"""The applying cleanup: planned in full against an FsView first, then carried out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.js import json as jsjson
from openclaw_cli.js.strings import js_trim
from openclaw_cli.maintenance import archive, budget, lostindex, steps
from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.explain import Explain
from openclaw_cli.maintenance.fsview import Effect, FsView
from openclaw_cli.maintenance.plan import CleanupOptions, Target, build_summary, dm_scope_of, preserve_keys
from openclaw_cli.maintenance.settings import MaintenanceSettings
from openclaw_cli.store import sessions_json as store_mod


@dataclass
class ApplyPlan:
    """Everything one applying run does to one store, in OpenClaw's logical order."""

    target: Target
    projection: store_mod.Projection  # the prompt blobs and the fingerprint of the store text, not the text
    write_store: bool  # False: the file would be byte-identical, no write
    effects: list[Effect]  # renames and deletions, in OpenClaw's order; carried out after the write
    summary: dict
    logs: list[tuple[str, str]] = field(default_factory=list)  # (level, message), as OpenClaw logs
    lost_index_transcripts: int = 0  # transcripts swept although the store had no entries
    why: Explain | None = None  # with --explain: the rule behind every decision
    actions: dict[str, str] = field(default_factory=dict)  # with --explain: store key -> what the run does to it
    mtimes: dict[str, float] = field(default_factory=dict)  # with --explain: each scanned file's mtime (ms)
    before_store: dict[str, dict] = field(default_factory=dict)  # with --explain: the store as loaded
    now_ms: int = 0
    store: dict[str, dict] = field(default_factory=dict)  # the store to write: its text is made as it is written


@dataclass(frozen=True)
class ApplyRequest:
    """One applying run on one store: the store as loaded, its folder's view, the rules and the run's context."""

    cfg: Mapping
    target: Target
    loaded: store_mod.LoadedStore
    view: FsView
    settings: MaintenanceSettings
    mode: str
    opts: CleanupOptions
    env: Mapping[str, str] | None
    now_ms: int
    home: str
    paths: EntryPaths | None = None  # the caller's resolver on the same view (its path cache is shared)
    effects_only: bool = False  # only the renames and deletions are wanted (sessions disk): no store text


@dataclass
class _Fixes:
    """What --fix-missing and --fix-dm-scope decided on a working copy of the loaded store."""

    missing_removals: list[tuple[str, dict]] = field(default_factory=list)
    repair_plans: list[tuple[str, str, str | None, str | None]] = field(default_factory=list)  # key, new file, old file, sessionId
    dm_removals: list[tuple[str, dict]] = field(default_factory=list)
    removed_keys: set[str] = field(default_factory=set)  # filled by the lifecycle
    dm_removed_files: dict[Any, str | None] = field(default_factory=dict)


@dataclass
class _Maintenance:
    """What the save's maintenance did to the store, and what it logged."""

    before_count: int
    disk: dict | None = None
    model_runs: int = 0
    pruned: int = 0
    capped: int = 0
    logs: list[tuple[str, str]] = field(default_factory=list)
    actions: dict[str, str] = field(default_factory=dict)  # key -> the step that removed it (with --explain)


def plan_apply(req: ApplyRequest) -> ApplyPlan:
    """runSessionsCleanup's apply step for one target, with every file effect recorded, not made."""
    paths = req.paths if req.paths is not None and req.paths.view is req.view else EntryPaths(req.view, req.env)
    before: dict[str, dict] = req.loaded.store
    why = Explain() if req.opts.explain else None
    mtimes = ({f.canonical: f.mtime_ms for f in (*req.view.list_files(), *req.view.list_blob_files())}
              if why is not None else {})
    # 1. --fix-missing / --fix-dm-scope decided on a working copy of the freshly loaded store.
    fixes = _decide_fixes(req, paths, before.copy(), why)
    # 2. The lifecycle mutation on the store as loaded: guarded removals, then repairs.
    store = before.copy()
    _apply_fixes(store, fixes, paths)
    # 3. The save normalises again, then runs maintenance (forced: the CLI passes a mode). The load
    # normalised every entry and normalising is idempotent, so only repaired copies can change.
    if fixes.repair_plans:
        store_mod.normalize_store(store)
    swept: list[str] = []  # files the budget and the sweep remove
    if req.mode == "warn":
        done = _warn_only(req, paths, store)
    else:
        done = _enforce(req, paths, store, swept, why)
    # 4. The write: prompt blobs first, then the store, skipped when the bytes would not change.
    if req.effects_only:
        # The write removes nothing and the sweep never removes a file it makes: the effects are the same.
        proj, write_store = store_mod.Projection(chunks=[], prompt_blobs={}, keys=[], changed=False), False
    else:
        proj, write_store = _note_write(req, store)
    # 5. After the write: archive retired direct-DM transcripts, then sweep orphans (enforce only).
    referenced_ids = _session_ids(store)
    if fixes.dm_removed_files:
        archive.archive_transcripts(paths, fixes.dm_removed_files, referenced_ids, "deleted", req.now_ms,
                                    req.home)
    if req.mode == "warn":
        unreferenced = {"scannedFiles": 0, "removedFiles": 0, "freedBytes": 0,
                        "olderThanMs": req.settings.prune_after_ms}
    else:
        unreferenced = budget.sweep_unreferenced(
            store=store, store_path=req.target.store_path, paths=paths,
            older_than_ms=req.settings.prune_after_ms, dry_run=False, now_ms=req.now_ms,
            on_removed=swept.append, why=why)
    summary = _summary(req, store, fixes, done, unreferenced)
    plan = ApplyPlan(req.target, proj, write_store, list(req.view.effects), summary, done.logs,
                     lostindex.swept_history(before, swept), store=store)
    if why is not None:
        plan.why, plan.actions, plan.mtimes = why, _actions(before, store, fixes, done), mtimes
        plan.before_store, plan.now_ms = before, req.now_ms
        if req.mode == "warn":
            for key in before:
                why.keep(key, "warn-mode", "session.maintenance.mode is warn: nothing is removed (--enforce applies)")
        _explain_effects(why, plan.effects, req)
    return plan


def _actions(before: dict[str, dict], store: dict[str, dict], fixes: _Fixes, done: _Maintenance) -> dict[str, str]:
    """What the run does to each key of the store as loaded, from the steps' own records."""
    missing = {k for k, _e in fixes.missing_removals}
    repaired = {k for k, new_file, _o, _s in fixes.repair_plans if (store.get(k) or {}).get("sessionFile") == new_file}
    out: dict[str, str] = {}
    for key in before:
        if key in fixes.removed_keys:
            out[key] = "prune-missing" if key in missing else "retire-dm-scope"
        elif key in done.actions:
            out[key] = done.actions[key]
        elif key not in store:
            out[key] = "evict-budget"
        else:
            out[key] = "repair-session-file" if key in repaired else "keep"
    return out


def _retention_text(effect: Effect, req: ApplyRequest) -> str | None:
    """`.reset archive older than resetArchiveRetention (10d > 7d)`, from the name's timestamp."""
    from openclaw_cli.maintenance.explain import span
    from openclaw_cli.store.artifacts import parse_archive_timestamp

    rules = {"archive retention (deleted)": ("deleted", "pruneAfter", req.settings.prune_after_ms),
             "archive retention (reset)": ("reset", "resetArchiveRetention", req.settings.reset_archive_retention_ms)}
    if effect.reason not in rules:
        return None
    reason, setting, limit = rules[effect.reason]
    stamp = parse_archive_timestamp(effect.path.rsplit("/", 1)[-1], reason)
    numbers = "" if stamp is None or limit is None else f" ({span(req.now_ms - stamp)} > {span(limit)})"
    return f".{reason} archive older than {setting}{numbers}"


def _explain_effects(why: Explain, effects: list[Effect], req: ApplyRequest) -> None:
    """Renames and deletions the sweep and the budget did not explain: archiving and archive retention."""
    from openclaw_cli.store import artifacts

    store_name = req.target.store_path.rsplit("/", 1)[-1]
    texts = {"archive (deleted)": "transcript of a removed entry, archived as .deleted",
             "trajectory sidecar": "trajectory sidecar of a removed entry",
             "trajectory pointer": "trajectory pointer of a removed entry"}
    for effect in effects:
        name = effect.path.rsplit("/", 1)[-1]
        family = artifacts.family_of(name, effect.kind == "rename", store_name)
        action = "archive" if effect.kind == "rename" else "remove"
        text = _retention_text(effect, req) or texts.get(effect.reason, effect.reason)
        why.file(effect.path, action, family, effect.reason, text)


def _decide_fixes(req: ApplyRequest, paths: EntryPaths, work: dict[str, dict], why: Explain | None) -> _Fixes:
    fixes = _Fixes()
    if req.opts.fix_missing:
        steps.prune_missing(
            work, paths, on_pruned=lambda k, e: fixes.missing_removals.append((k, e)),
            on_repaired=lambda k, e, new, old: fixes.repair_plans.append((k, new, old, e.get("sessionId"))),
            why=why)
    if req.opts.fix_dm_scope:
        steps.retire_dm_scope(work, dm_scope=dm_scope_of(req.cfg), target_agent_id=req.target.agent_id,
                              active_key=req.opts.active_key,
                              on_retired=lambda k, e: fixes.dm_removals.append((k, e)), why=why)
    return fixes


def _apply_fixes(store: dict[str, dict], fixes: _Fixes, paths: EntryPaths) -> None:
    """Guarded removals, then repairs, on the store as loaded.

    The lifecycle looks keys up trimmed: a key with surrounding whitespace is not found
    (or another entry under the trimmed key is), exactly as in OpenClaw."""
    dm_keys = {k for k, _ in fixes.dm_removals}
    for key, expected in fixes.missing_removals + fixes.dm_removals:
        lookup = js_trim(key)
        if not lookup:
            continue
        current = store.get(lookup)
        if current is None or not _same_entry(current, expected):
            continue
        if key in dm_keys and current.get("sessionId"):
            archive.remember_removed(fixes.dm_removed_files, current)
        del store[lookup]
        fixes.removed_keys.add(lookup)
    for key, new_file, old_file, sid in fixes.repair_plans:
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


def _budget_rules(req: ApplyRequest, *, preserve: frozenset[str] | None, warn_only: bool,
                  on_removed: Callable[[str], None] | None = None, why: Explain | None = None) -> budget.BudgetRules:
    return budget.BudgetRules(
        max_bytes=req.settings.max_disk_bytes, high_water=req.settings.high_water_bytes,
        active_key=req.opts.active_key, preserve=preserve, warn_only=warn_only, dry_run=False,
        now_ms=req.now_ms, on_removed=on_removed, why=why)


def _warn_only(req: ApplyRequest, paths: EntryPaths, store: dict[str, dict]) -> _Maintenance:
    """Warn mode: nothing is removed; the budget is only measured."""
    done = _Maintenance(len(store))
    active = req.opts.active_key
    if active and active.strip() and _would_evict_active(store, active.strip(), req.settings, req.now_ms):
        done.logs.append(("warn", "session maintenance would evict active session; skipping enforcement"))
    done.disk = budget.enforce_disk_budget(store=store, store_path=req.target.store_path, paths=paths,
                                           rules=_budget_rules(req, preserve=None, warn_only=True))
    if done.disk is not None and done.disk["overBudget"]:
        done.logs.append(("warn", "session disk budget exceeded (warn-only mode)"))
    return done


def _enforce(req: ApplyRequest, paths: EntryPaths, store: dict[str, dict], swept: list[str],
             why: Explain | None = None) -> _Maintenance:
    """Prune model runs and stale entries, cap, archive their transcripts, age archives, then the budget."""
    settings, now_ms = req.settings, req.now_ms
    done = _Maintenance(len(store))
    preserve = preserve_keys(req.opts.active_key)
    removed_files: dict[Any, str | None] = {}

    def remembering(action: str) -> Callable[[str, dict], None]:
        def remember(key: str, entry: dict) -> None:
            archive.remember_removed(removed_files, entry)
            if why is not None:
                done.actions[key] = action
        return remember

    if done.before_count > settings.max_entries:
        done.model_runs = steps.prune_model_runs(store, settings.model_run_prune_after_ms, now_ms, preserve,
                                                 on_pruned=remembering("prune-model-run"), why=why)
    if done.model_runs:
        done.logs.append(("info", "pruned stale gateway model-run session entries"))
    done.pruned = steps.prune_stale(store, settings.prune_after_ms, now_ms, preserve,
                                    on_pruned=remembering("prune-stale"), why=why)
    if done.pruned:
        done.logs.append(("info", "pruned stale session entries"))
    done.capped = steps.cap_entries(store, settings.max_entries, preserve, on_capped=remembering("cap-overflow"),
                                    why=why)
    if done.capped:
        done.logs.append(("info", "capped session entry count"))
    referenced_ids = _session_ids(store)
    archived_dirs = archive.archive_transcripts(paths, removed_files, referenced_ids, "deleted", now_ms, req.home)
    if removed_files:
        archive.remove_trajectory_artifacts(paths, removed_files, referenced_ids)
    if archived_dirs or settings.reset_archive_retention_ms is not None:
        dirs = sorted(archived_dirs) if archived_dirs else [req.view.sessions_dir]
        rules = [("deleted", settings.prune_after_ms)]
        if settings.reset_archive_retention_ms is not None:
            rules.append(("reset", settings.reset_archive_retention_ms))
        archive.age_archives(paths, dirs, rules, now_ms)
    disk = done.disk = budget.enforce_disk_budget(
        store=store, store_path=req.target.store_path, paths=paths,
        rules=_budget_rules(req, preserve=preserve, warn_only=False, on_removed=swept.append, why=why))
    if disk is not None and disk["overBudget"]:
        if disk["totalBytesAfter"] > disk["highWaterBytes"]:
            done.logs.append(("warn", "session disk budget still above high-water target after cleanup"))
        elif disk["removedFiles"] > 0 or disk["removedEntries"] > 0:
            done.logs.append(("info", "applied session disk budget cleanup"))
    return done


def _note_write(req: ApplyRequest, store: dict[str, dict]) -> tuple[store_mod.Projection, bool]:
    """Record the write (missing prompt blobs, then the store unless its bytes would not change)."""
    proj = store_mod.fingerprint_store(store, req.target.store_path)
    stamp = req.now_ms * 1_000_000
    for blob in proj.prompt_blobs.values():
        if blob.path and not _blob_valid(req.target.store_path, blob):
            req.view.note_written(blob.path, jsjson.js_utf8(blob.prompt), stamp)
    unchanged = req.loaded.unchanged_serialization
    write_store = not (unchanged is not None and unchanged == proj.fingerprint)
    if write_store:
        req.view.note_written(req.target.store_path, b"", stamp)
    return proj, write_store


def _summary(req: ApplyRequest, store: dict[str, dict], fixes: _Fixes, done: _Maintenance,
             unreferenced: dict) -> dict:
    repaired = sum(1 for key, new_file, _o, _s in fixes.repair_plans
                   if (store.get(key) or {}).get("sessionFile") == new_file)
    missing = sum(1 for key, _e in fixes.missing_removals if key in fixes.removed_keys)
    dm_retired = sum(1 for key, _e in fixes.dm_removals if key in fixes.removed_keys)
    return build_summary(
        req.target, mode=req.mode, dry_run=False, before_count=done.before_count, after_count=len(store),
        repaired=repaired, missing=missing, dm_retired=dm_retired, model_runs=done.model_runs,
        pruned=done.pruned, capped=done.capped, unreferenced=unreferenced, disk=done.disk,
        applied_count=len(store))


def _session_ids(store: dict[str, dict]) -> set[str]:
    """The sessionIds the store still references."""
    return {sid for e in store.values() if (sid := e.get("sessionId"))}


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

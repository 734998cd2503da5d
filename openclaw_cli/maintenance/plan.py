"""The cleanup preview: what a run would remove, computed without touching the disk."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from openclaw_cli.maintenance import budget, lostindex, steps
from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.explain import Explain
from openclaw_cli.maintenance.fsview import FsView
from openclaw_cli.maintenance.settings import MaintenanceSettings
from openclaw_cli.store import keys


@dataclass
class CleanupOptions:
    dry_run: bool = False
    enforce: bool = False
    active_key: str | None = None
    fix_missing: bool = False
    fix_dm_scope: bool = False
    allow_empty_store: bool = False  # sweep the transcripts beside a store with no entries
    explain: bool = False  # record the rule behind every decision


@dataclass
class Target:
    agent_id: str
    store_path: str


@dataclass
class Preview:
    """What a dry run would do. The keys each step removes are kept as lists in removal order (a set of
    37,000 keys would take 2 MiB, a list of them 0.3 MiB); `action` looks them up through one map, built
    when first asked."""

    summary: dict
    before_store: dict[str, dict]
    repaired: set[str] = field(default_factory=set)
    missing: list[str] = field(default_factory=list)
    model_run: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    capped: list[str] = field(default_factory=list)
    budget: list[str] = field(default_factory=list)
    dm_scope: list[str] = field(default_factory=list)
    lost_index_transcripts: int = 0  # transcripts swept although the store had no entries
    why: Explain | None = None  # with --explain: the rule behind every decision
    mtimes: dict[str, float] = field(default_factory=dict)  # with --explain: each scanned file's mtime (ms)
    _removals: dict[str, str] | None = None

    def removal(self, key: str) -> str | None:
        """The step that removes `key`, or None when it stays."""
        if self._removals is None:
            self._removals = {}
            for action, group in (("retire-dm-scope", self.dm_scope), ("prune-missing", self.missing),
                                  ("prune-model-run", self.model_run), ("prune-stale", self.stale),
                                  ("cap-overflow", self.capped), ("evict-budget", self.budget)):
                for removed in group:
                    self._removals.setdefault(removed, action)
        return self._removals.get(key)

    def action(self, key: str) -> str:
        removal = self.removal(key)
        if removal is not None:
            return removal
        return "repair-session-file" if key in self.repaired else "keep"


def preserve_keys(active_key: str | None) -> frozenset[str] | None:
    """Keys maintenance must keep: `--active-key`, normalised like store keys."""
    if not active_key:
        return None
    normalized = keys.normalize_store_key(active_key)
    return frozenset((normalized,)) if normalized else None


def dm_scope_of(cfg: Mapping) -> str:
    session = cfg.get("session") if isinstance(cfg, Mapping) else None
    scope = session.get("dmScope") if isinstance(session, Mapping) else None
    return scope if scope is not None else "main"


def preview_store(*, cfg: Mapping, target: Target, before: dict[str, dict], view: FsView,
                  settings: MaintenanceSettings, mode: str, opts: CleanupOptions,
                  env: Mapping[str, str] | None, now_ms: int) -> Preview:
    """previewStoreCleanup: every step on a copy of the store, deletions simulated."""
    paths = EntryPaths(view, env)
    store = dict(before)
    result = Preview(summary={}, before_store=before, why=Explain() if opts.explain else None)
    why = result.why
    if why is not None:
        result.mtimes = {f.canonical: f.mtime_ms for f in (*view.list_files(), *view.list_blob_files())}

    missing = 0
    if opts.fix_missing:
        missing, _ = steps.prune_missing(
            store, paths, on_pruned=lambda k, _e: result.missing.append(k),
            on_repaired=lambda k, *_a: result.repaired.add(k), why=why)
    dm_retired = 0
    if opts.fix_dm_scope:
        dm_retired = steps.retire_dm_scope(store, dm_scope=dm_scope_of(cfg), target_agent_id=target.agent_id,
                                           active_key=opts.active_key,
                                           on_retired=lambda k, _e: result.dm_scope.append(k), why=why)
    preserve = preserve_keys(opts.active_key)
    model_runs = 0
    if len(store) > settings.max_entries:
        model_runs = steps.prune_model_runs(store, settings.model_run_prune_after_ms, now_ms, preserve,
                                            on_pruned=lambda k, _e: result.model_run.append(k), why=why)
    pruned = steps.prune_stale(store, settings.prune_after_ms, now_ms, preserve,
                               on_pruned=lambda k, _e: result.stale.append(k), why=why)
    capped = steps.cap_entries(store, settings.max_entries, preserve,
                               on_capped=lambda k, _e: result.capped.append(k), why=why)

    # The sweep asks only about listed files, so only those are kept (not a new path per entry).
    excluded = paths.listed_artifacts(before[key] for group in (result.model_run, result.stale, result.capped,
                                                                 result.dm_scope) for key in group if key in before)

    before_budget = list(store)
    removed_files: list[str] = []

    def budget_removed(path: str) -> None:
        excluded.add(path)
        removed_files.append(path)

    disk = budget.enforce_disk_budget(
        store=store, store_path=target.store_path, paths=paths,
        rules=budget.BudgetRules(max_bytes=settings.max_disk_bytes, high_water=settings.high_water_bytes,
                                 active_key=opts.active_key, preserve=preserve, warn_only=False,
                                 dry_run=True, now_ms=now_ms, on_removed=budget_removed, why=why))
    unreferenced = budget.sweep_unreferenced(
        store=store, store_path=target.store_path, paths=paths, older_than_ms=settings.prune_after_ms,
        dry_run=True, now_ms=now_ms, exclude=excluded, on_removed=removed_files.append, why=why)
    result.budget = [k for k in before_budget if k not in store]
    result.lost_index_transcripts = lostindex.swept_history(before, removed_files)

    if result.repaired:  # a repaired entry that a later step removed counts as removed only
        result.repaired = {k for k in result.repaired if result.removal(k) is None}
    repaired = len(result.repaired)
    result.summary = build_summary(
        target, mode=mode, dry_run=opts.dry_run, before_count=len(before), after_count=len(store),
        repaired=repaired, missing=missing, dm_retired=dm_retired, model_runs=model_runs, pruned=pruned,
        capped=capped, unreferenced=unreferenced, disk=disk)
    return result


def build_summary(target: Target, *, mode: str, dry_run: bool, before_count: int, after_count: int,
                  repaired: int, missing: int, dm_retired: int, model_runs: int, pruned: int, capped: int,
                  unreferenced: dict, disk: dict | None, applied_count: int | None = None) -> dict:
    """One store's cleanup summary, fields in OpenClaw's order (applied runs add two)."""
    would_mutate = (missing > 0 or repaired > 0 or dm_retired > 0 or model_runs > 0 or pruned > 0 or capped > 0
                    or unreferenced["removedFiles"] > 0
                    or (disk is not None and (disk["removedEntries"] > 0 or disk["removedFiles"] > 0)))
    summary = {
        "agentId": target.agent_id,
        "storePath": target.store_path,
        "mode": mode,
        "dryRun": dry_run,
        "beforeCount": before_count,
        "afterCount": after_count,
        "repaired": repaired,
        "missing": missing,
        "dmScopeRetired": dm_retired,
        "modelRunPruned": model_runs,
        "pruned": pruned,
        "capped": capped,
        "unreferencedArtifacts": unreferenced,
        "diskBudget": disk,
        "wouldMutate": would_mutate,
    }
    if applied_count is not None:
        summary["applied"] = True
        summary["appliedCount"] = applied_count
    return summary

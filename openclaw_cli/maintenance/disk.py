"""Disk usage of a sessions folder, by the families cleanup classifies, with what cleanup would free."""

from __future__ import annotations

import heapq
import os
import stat as stat_mod
from collections.abc import Mapping
from dataclasses import dataclass, field

from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.fsview import FsView
from openclaw_cli.maintenance.plan import CleanupOptions, Target
from openclaw_cli.maintenance.settings import MaintenanceSettings
from openclaw_cli.store import artifacts
from openclaw_cli.store.sessions_json import LoadedStore

FAMILIES = ("liveTranscripts", "unreferencedTranscripts", "archives", "checkpoints", "trajectories",
            "promptBlobs", "tempsAndLocks", "sessionsJson", "other")
ARCHIVE_MARKERS = tuple(f".{reason}." for reason in artifacts.ARCHIVE_REASONS)


@dataclass
class Family:
    files: int = 0
    bytes: int = 0


@dataclass
class SessionUsage:
    """One store entry and the bytes of its transcript, trajectory sidecars and archives."""

    key: str
    session_id: str | None
    label: str | None
    updated_at: float | None
    tokens: int | None
    bytes: int


@dataclass
class DiskUsage:
    agent_id: str
    store_path: str
    total_bytes: int
    families: dict[str, Family]
    would_free_bytes: int
    budget: dict | None
    top: list[SessionUsage] = field(default_factory=list)


@dataclass(frozen=True)
class DiskRequest:
    """One store to measure: the store as loaded and what an enforcing cleanup would see."""

    cfg: Mapping
    target: Target
    loaded: LoadedStore
    settings: MaintenanceSettings
    env: Mapping[str, str] | None
    now_ms: int
    home: str
    top: int


def _walk_other(root: str, seen: set[str], ignore: str) -> list[int]:
    """Sizes of the regular files below `root` the scan has not classified yet (symlinks not followed)."""
    sizes: list[int] = []
    for folder, dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            if path in seen or path == ignore:
                continue
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if stat_mod.S_ISREG(st.st_mode):
                sizes.append(st.st_size)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
    return sizes


def _budget_now(req: DiskRequest, paths: EntryPaths) -> dict | None:
    """The disk budget as it stands: the budget's own measure of the folder, nothing removed."""
    from openclaw_cli.maintenance import budget

    disk = budget.enforce_disk_budget(
        store=dict(req.loaded.store), store_path=req.target.store_path, paths=paths,
        rules=budget.BudgetRules(max_bytes=req.settings.max_disk_bytes, high_water=req.settings.high_water_bytes,
                                 active_key=None, preserve=None, warn_only=True, dry_run=True, now_ms=req.now_ms))
    return None if disk is None else _budget(disk)


def _would_free(req: DiskRequest, view: FsView) -> int:
    """Bytes of the files an applying `sessions cleanup --enforce` would delete."""
    from openclaw_cli.maintenance.apply import ApplyRequest, plan_apply

    plan = plan_apply(ApplyRequest(cfg=req.cfg, target=req.target, loaded=req.loaded, view=view,
                                   settings=req.settings, mode="enforce", opts=CleanupOptions(enforce=True),
                                   env=req.env, now_ms=req.now_ms, home=req.home))
    if plan.lost_index_transcripts:
        return 0  # the applying run refuses a lost index: it frees nothing
    return sum(e.size for e in plan.effects if e.kind == "delete")


def measure(req: DiskRequest) -> DiskUsage:
    """Every regular file of the store's folder in one family, the largest sessions, and the budget.

    One scan of the folder (the view the applying plan then runs on), one classification per file;
    no file is opened here (the applying plan reads what cleanup reads)."""
    from openclaw_cli.locks.store_lock import lock_path_for

    folder = os.path.dirname(req.target.store_path)
    lock = lock_path_for(req.target.store_path)
    view = FsView.open(folder, ignore=frozenset((os.path.basename(lock),)))
    paths = EntryPaths(view, req.env)
    store = req.loaded.store
    referenced = paths.referenced_paths(store)
    store_name = os.path.basename(req.target.store_path)
    files = dict.fromkeys(FAMILIES, 0)
    sizes = dict.fromkeys(FAMILIES, 0)
    by_name: dict[str, int] = {}
    archived: dict[str, int] = {}  # archive bytes by the name of the transcript they were archived from
    family_of = artifacts.family_of
    for f in view.list_files():
        name, size = f.name, f.size
        family = family_of(name, f.canonical in referenced, store_name)
        files[family] += 1
        sizes[family] += size
        by_name[name] = size
        if family == "archives":
            source = _archive_source(name)
            if source:
                archived[source] = archived.get(source, 0) + size
    seen: set[str] = set()
    for f in view.list_blob_files():
        family = family_of(f.name, False, store_name, in_blob_folder=True)
        files[family] += 1
        sizes[family] += f.size
        seen.add(f.path)
    for name in view.list_names(folder):
        path = os.path.join(view.sessions_dir, name)
        if name not in by_name and os.path.isdir(path) and not os.path.islink(path):
            for size in _walk_other(path, seen, lock):
                files["other"] += 1
                sizes["other"] += size
    families = {name: Family(files[name], sizes[name]) for name in FAMILIES}
    top = _largest(store, paths, by_name, archived, req.top)
    budget = _budget_now(req, paths)
    would_free = _would_free(req, view)  # last: the plan records its effects in the view
    total = sum(sizes.values())
    return DiskUsage(req.target.agent_id, req.target.store_path, total, families, would_free, budget, top)


def _budget(disk: dict) -> dict:
    used, max_bytes = disk["totalBytesBefore"], disk["maxBytes"]
    return {"maxDiskBytes": max_bytes, "highWaterBytes": disk["highWaterBytes"], "usedBytes": used,
            "usedPercent": round(used * 100 / max_bytes, 1) if max_bytes > 0 else None,
            "overBudget": disk["overBudget"]}


def _archive_source(name: str) -> str:
    """The transcript name an archive was made from (`<name>.<reason>.<timestamp>`), or ""."""
    cut = max(name.rfind(marker) for marker in ARCHIVE_MARKERS)
    return name[:cut] if cut > 0 else ""


def _largest(store: Mapping[str, dict], paths: EntryPaths, by_name: Mapping[str, int],
             archived: Mapping[str, int], top: int) -> list[SessionUsage]:
    """The `top` entries with the most bytes in their transcript, sidecars and archives (ties by key)."""
    if top <= 0:
        return []
    prefix = paths.view.real_dir + "/"
    cut = len(prefix)
    artifact_paths = paths.artifact_canonical_paths  # resolved (and cached) by referenced_paths

    def size_of(entry: dict) -> int:
        found = artifact_paths(entry)
        if not found:
            return 0
        size = 0
        for path in found:
            if path.startswith(prefix) and "/" not in path[cut:]:
                size += by_name.get(path[cut:], 0)
        return size + archived.get(found[0].rpartition("/")[2], 0)

    best = heapq.nsmallest(top, ((-size_of(entry), key) for key, entry in store.items()))
    rows: list[SessionUsage] = []
    for neg_size, key in best:
        entry = store[key]
        label, sid, tokens = entry.get("label"), entry.get("sessionId"), entry.get("totalTokens")
        updated = entry.get("updatedAt")
        rows.append(SessionUsage(
            key, sid if isinstance(sid, str) else None, label if isinstance(label, str) else None,
            updated if isinstance(updated, (int, float)) and not isinstance(updated, bool) else None,
            tokens if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens >= 0 else None, -neg_size))
    return rows


def usage_json(usage: DiskUsage, now_ms: int) -> dict:
    """One agent's part of `sessions disk --json`."""
    return {
        "agentId": usage.agent_id,
        "storePath": usage.store_path,
        "totalBytes": usage.total_bytes,
        "families": {name: {"files": f.files, "bytes": f.bytes} for name, f in usage.families.items()},
        "wouldFreeBytes": usage.would_free_bytes,
        "budget": usage.budget,
        "top": [{"key": r.key, "sessionId": r.session_id, "bytes": r.bytes, "label": r.label,
                 "updatedAt": r.updated_at,
                 "ageMs": None if r.updated_at is None else max(0, now_ms - r.updated_at),
                 "totalTokens": r.tokens} for r in usage.top],
    }

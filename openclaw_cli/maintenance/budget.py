"""The disk budget and the unreferenced-artifact sweep, planned against an FsView."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from openclaw_cli.maintenance import projection
from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.fsview import FileInfo, FsView
from openclaw_cli.store import artifacts, keys
from openclaw_cli.store.artifacts import STORE_TEMP_STALE_MS

PROMPT_BLOB_GRACE_MS = STORE_TEMP_STALE_MS


@dataclass
class Remover:
    """Removes files for real (recorded in the view) or, in dry-run, only counts their scanned sizes."""

    view: FsView
    dry_run: bool
    sizes: dict[str, int]
    removed: set[str] = field(default_factory=set)
    on_removed: Callable[[str], None] | None = None
    reason: str = ""

    def remove(self, path: str, canonical: str | None = None) -> int:
        canonical = canonical or self.view.canonical(path)
        if self.dry_run:
            if canonical in self.removed:
                return 0
            size = self.sizes.get(canonical, 0)
            if size <= 0:
                return 0
            self.removed.add(canonical)
            if self.on_removed:
                self.on_removed(canonical)
            return size
        info = self.view.stat(path)
        if info is None or info[0] != "file":
            return 0
        self.view.plan_delete(path, self.reason)
        if info[1] > 0 and self.on_removed:
            self.on_removed(canonical)
        return info[1]


def blob_hash_of(entry) -> str | None:
    snap = entry.get("skillsSnapshot") if isinstance(entry, dict) else None
    ref = snap.get("promptRef") if isinstance(snap, dict) else None
    if isinstance(ref, dict) and ref.get("algorithm") == "sha256" and isinstance(ref.get("hash"), str):
        return ref["hash"]
    return None


def _ref_counts(hash_by_key: dict[str, str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for h in hash_by_key.values():
        counts[h] = counts.get(h, 0) + 1
    return counts


def _blob_removable(f: FileInfo, ref_counts: dict[str, int], blob_cutoff: float, temp_cutoff: float) -> bool:
    if artifacts.is_prompt_blob_temp(f.name):
        return f.mtime_ms <= temp_cutoff
    if f.mtime_ms > blob_cutoff:
        return False
    h = artifacts.prompt_blob_hash(f.name)
    return h is not None and h not in ref_counts


def _remove_blob(remover: Remover, f: FileInfo, ref_counts, blob_cutoff, temp_cutoff) -> int:
    if not remover.dry_run:
        info = remover.view.lstat(f.path)
        if info is None or info[0] != "file":
            return 0
        f = FileInfo(f.path, f.canonical, f.name, info[1], info[2])
    if not _blob_removable(f, ref_counts, blob_cutoff, temp_cutoff):
        return 0
    return remover.remove(f.path, f.canonical)


def _budget_removable_file(f: FileInfo, referenced: set[str], temp_cutoff: float, store_base: str) -> bool:
    if artifacts.is_store_temp(f.name, store_base):
        return f.mtime_ms <= temp_cutoff
    if artifacts.is_archive(f.name):
        return True
    return f.canonical not in referenced and artifacts.is_unreferenced_candidate(f.name)


def _result(before: int, after: int, files: int, entries: int, freed: int, max_bytes: int,
            high_water: int, over: bool) -> dict:
    return {
        "totalBytesBefore": before,
        "totalBytesAfter": after,
        "removedFiles": files,
        "removedEntries": entries,
        "freedBytes": freed,
        "maxBytes": max_bytes,
        "highWaterBytes": high_water,
        "overBudget": over,
    }


def enforce_disk_budget(*, store: dict[str, dict], store_path: str, paths: EntryPaths,
                        max_bytes: int | None, high_water: int | None, active_key: str | None,
                        preserve: frozenset[str] | None, warn_only: bool, dry_run: bool, now_ms: int,
                        on_removed: Callable[[str], None] | None = None) -> dict | None:
    """Bring the folder under `maxDiskBytes` down to the high-water mark (entries are removed from `store`)."""
    if max_bytes is None or high_water is None:
        return None
    view = paths.view
    files = view.list_files()
    blobs = view.list_blob_files()
    sizes = {f.canonical: f.size for f in files}
    sizes.update((f.canonical, f.size) for f in blobs)
    store_canonical = view.canonical(store_path)
    store_file_size = next((f.size for f in files if f.canonical == store_canonical), 0)
    measured = projection.measure(store, store_path)
    projected_bytes = measured.size_bytes
    existing_blobs: dict[str, FileInfo] = {}
    for f in blobs:
        h = artifacts.prompt_blob_hash(f.name)
        if h:
            existing_blobs[h] = f
    virtual_blob_bytes = {h: b for h, b in measured.blob_bytes.items() if h not in existing_blobs}
    hash_by_key = measured.blob_hash_by_key
    ref_counts = _ref_counts(hash_by_key)
    total = (sum(f.size for f in files) + sum(f.size for f in blobs) - store_file_size
             + projected_bytes + sum(virtual_blob_bytes.values()))
    before = total
    if total <= max_bytes:
        return _result(before, total, 0, 0, 0, max_bytes, high_water, False)
    if warn_only:
        return _result(before, total, 0, 0, 0, max_bytes, high_water, True)

    remover = Remover(view, dry_run, sizes, on_removed=on_removed, reason="disk budget")
    removed_files = removed_entries = freed = 0
    referenced = paths.referenced_paths(store)
    temp_cutoff = now_ms - STORE_TEMP_STALE_MS
    blob_cutoff = now_ms - PROMPT_BLOB_GRACE_MS
    store_base = store_path.rsplit("/", 1)[-1]

    blob_queue = sorted((f for f in blobs if _blob_removable(f, ref_counts, blob_cutoff, temp_cutoff)),
                        key=lambda f: f.mtime_ms)
    for f in blob_queue:
        if total <= high_water:
            break
        n = _remove_blob(remover, f, ref_counts, blob_cutoff, temp_cutoff)
        if n <= 0:
            continue
        total -= n
        freed += n
        removed_files += 1

    file_queue = sorted((f for f in files if _budget_removable_file(f, referenced, temp_cutoff, store_base)),
                        key=lambda f: f.mtime_ms)
    for f in file_queue:
        if total <= high_water:
            break
        n = remover.remove(f.path, f.canonical)
        if n <= 0:
            continue
        total -= n
        freed += n
        removed_files += 1

    if total > high_water:
        active = keys._lower_or_empty(active_key) if active_key else ""
        sid_counts: dict[str, int] = {}
        for entry in store.values():
            sid = entry.get("sessionId")
            if sid:
                sid_counts[sid] = sid_counts.get(sid, 0) + 1
        chunk_sizes = dict(measured.chunk_sizes)

        def oldest_first(key: str) -> float:
            updated = store[key].get("updatedAt")
            return updated if isinstance(updated, (int, float)) and updated == updated and abs(updated) != float("inf") else 0

        for key in sorted(store.keys(), key=oldest_first):
            if total <= high_water:
                break
            if active and keys._lower_or_empty(key) == active:
                continue
            entry = store.get(key)
            if entry is None:
                continue
            if keys.should_preserve(key, entry, preserve):
                continue
            previous = projected_bytes
            blob_hash = hash_by_key.pop(key, None)
            del store[key]
            chunk = chunk_sizes.pop(key, None)
            if chunk is not None and chunk >= 0:
                projected_bytes = max(2, projected_bytes - (chunk + 2))
            else:
                projected_bytes = projection.measure(store, store_path).size_bytes
            total += projected_bytes - previous
            if blob_hash:
                left = ref_counts.get(blob_hash, 1) - 1
                if left > 0:
                    ref_counts[blob_hash] = left
                else:
                    ref_counts.pop(blob_hash, None)
                    virtual = virtual_blob_bytes.get(blob_hash, 0)
                    if virtual > 0:
                        total -= virtual
                    else:
                        bf = existing_blobs.get(blob_hash)
                        if bf and _blob_removable(bf, ref_counts, blob_cutoff, temp_cutoff):
                            n = _remove_blob(remover, bf, ref_counts, blob_cutoff, temp_cutoff)
                            if n > 0:
                                total -= n
                                freed += n
                                removed_files += 1
            removed_entries += 1
            sid = entry.get("sessionId")
            if not sid:
                continue
            left = sid_counts.get(sid, 1) - 1
            if left > 0:
                sid_counts[sid] = left
                continue
            sid_counts.pop(sid, None)
            for artifact in paths.artifact_paths(entry):
                n = remover.remove(artifact)
                if n <= 0:
                    continue
                total -= n
                freed += n
                removed_files += 1

    return _result(before, total, removed_files, removed_entries, freed, max_bytes, high_water, True)


def sweep_unreferenced(*, store: dict[str, dict], store_path: str, paths: EntryPaths, older_than_ms,
                       dry_run: bool, now_ms: int, exclude: set[str] | None = None,
                       on_removed: Callable[[str], None] | None = None) -> dict:
    """Delete orphan transcripts, sidecars and checkpoints older than pruneAfter, stale temps and blobs.

    `on_removed` hears the canonical path of every removed file that has content."""
    older = older_than_ms if isinstance(older_than_ms, (int, float)) and older_than_ms > 0 and older_than_ms != float("inf") else 0
    view = paths.view
    files = view.list_files()
    blobs = view.list_blob_files()
    sizes = {f.canonical: f.size for f in files}
    sizes.update((f.canonical, f.size) for f in blobs)
    referenced = paths.referenced_paths(store)
    ref_counts = _ref_counts(projection.blob_hashes(store, store_path))
    cutoff = now_ms - older
    temp_cutoff = now_ms - STORE_TEMP_STALE_MS
    blob_cutoff = now_ms - max(older, PROMPT_BLOB_GRACE_MS)
    store_base = store_path.rsplit("/", 1)[-1]
    exclude = exclude or set()

    queue: list[tuple[str, FileInfo]] = []
    for f in files:
        if f.canonical in exclude:
            continue
        if artifacts.is_store_temp(f.name, store_base):
            if f.mtime_ms <= temp_cutoff:
                queue.append(("store", f))
        elif f.mtime_ms <= cutoff and f.canonical not in referenced and artifacts.is_unreferenced_candidate(f.name):
            queue.append(("store", f))
    for f in blobs:
        if f.canonical in exclude:
            continue
        if _blob_removable(f, ref_counts, blob_cutoff, temp_cutoff):
            queue.append(("blob", f))
    queue.sort(key=lambda item: item[1].mtime_ms)

    remover = Remover(view, dry_run, sizes, on_removed=on_removed, reason="unreferenced artifact")
    removed = freed = 0
    for kind, f in queue:
        if kind == "blob":
            n = _remove_blob(remover, f, ref_counts, blob_cutoff, temp_cutoff)
        else:
            n = remover.remove(f.path, f.canonical)
        if n <= 0:
            continue
        removed += 1
        freed += n
    return {"scannedFiles": len(files) + len(blobs), "removedFiles": removed, "freedBytes": freed,
            "olderThanMs": older}

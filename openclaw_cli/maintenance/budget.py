"""The disk budget and the unreferenced-artifact sweep, planned against an FsView."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from openclaw_cli.maintenance import projection
from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.explain import Explain, protected_text, size, span
from openclaw_cli.maintenance.fsview import FileInfo, FsView
from openclaw_cli.store import artifacts, keys
from openclaw_cli.store.artifacts import STORE_TEMP_STALE_MS

PROMPT_BLOB_GRACE_MS = STORE_TEMP_STALE_MS


@dataclass
class Remover:
    """Removes files for real (recorded in the view) or, in dry-run, only counts their scanned sizes."""

    view: FsView
    dry_run: bool
    sizes: Callable[[str], int]  # the scanned size of a listed file (FsView.listed_sizes)
    removed: set[str] = field(default_factory=set)
    on_removed: Callable[[str], None] | None = None
    reason: str = ""
    why: Explain | None = None
    why_text: str = ""  # recorded for every file removed, when set
    store_name: str = "sessions.json"

    def remove(self, path: str, canonical: str | None = None) -> int:
        canonical = canonical or self.view.canonical(path)
        if self.dry_run:
            if canonical in self.removed:
                return 0
            n = self.sizes(canonical)
            if n <= 0:
                return 0
            self.removed.add(canonical)
            if self.on_removed:
                self.on_removed(canonical)
            self._explain(canonical)
            return n
        info = self.view.stat(path)
        if info is None or info[0] != "file":
            return 0
        self.view.plan_delete(path, self.reason)
        if info[1] > 0 and self.on_removed:
            self.on_removed(canonical)
        self._explain(canonical)
        return info[1]

    def _explain(self, canonical: str) -> None:
        if self.why is not None and self.why_text:
            name = canonical.rsplit("/", 1)[-1]
            blob = "/skills-prompts/sha256/" in canonical
            family = artifacts.family_of(name, False, self.store_name, in_blob_folder=blob)
            self.why.file(canonical, "remove", family, "disk-budget", self.why_text)


def _unused_sizes(_canonical: str) -> int:
    raise AssertionError("an applying run stats the file it removes")


def _remover_sizes(view: FsView, blobs: list[FileInfo], dry_run: bool) -> Callable[[str], int]:
    """What a Remover counts: the scanned sizes in a dry run; an applying run never asks."""
    return view.listed_sizes(blobs) if dry_run else _unused_sizes


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
        f = FileInfo(f.path, f.canonical, info[1], info[2])
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


@dataclass(frozen=True)
class BudgetRules:
    """One disk-budget pass: the limits, the entries it spares and how it removes files."""

    max_bytes: int | None
    high_water: int | None
    active_key: str | None
    preserve: frozenset[str] | None
    warn_only: bool
    dry_run: bool
    now_ms: int
    on_removed: Callable[[str], None] | None = None
    why: Explain | None = None


@dataclass
class _Footprint:
    """The folder as the budget counts it: files on disk, with the store as it would be written."""

    files: list[FileInfo]
    blobs: list[FileInfo]
    existing_blobs: dict[str, FileInfo]  # prompt-blob hash -> its file
    virtual_blob_bytes: dict[str, int]  # blobs the write would create
    hash_by_key: dict[str, str]
    ref_counts: dict[str, int]
    measured: projection.Measured  # its chunk_sizes: asked only when entries are evicted
    projected_bytes: int
    total: int


def _measure(store: dict[str, dict], store_path: str, view: FsView) -> _Footprint:
    files = view.list_files()
    blobs = view.list_blob_files()
    store_canonical = view.canonical(store_path)
    store_file_size = next((f.size for f in files if f.canonical == store_canonical), 0)
    measured = projection.measure(store, store_path)
    existing_blobs: dict[str, FileInfo] = {}
    for f in blobs:
        h = artifacts.prompt_blob_hash(f.name)
        if h:
            existing_blobs[h] = f
    virtual_blob_bytes = {h: b for h, b in measured.blob_bytes.items() if h not in existing_blobs}
    hash_by_key = measured.blob_hash_by_key
    total = (sum(f.size for f in files) + sum(f.size for f in blobs) - store_file_size
             + measured.size_bytes + sum(virtual_blob_bytes.values()))
    return _Footprint(files, blobs, existing_blobs, virtual_blob_bytes, hash_by_key,
                      _ref_counts(hash_by_key), measured, measured.size_bytes, total)


def _finite_or_zero(value) -> float:
    return value if isinstance(value, (int, float)) and value == value and abs(value) != float("inf") else 0


@dataclass
class _BudgetPass:
    """The running state of one enforcing pass: what is left to free and what was removed."""

    store: dict[str, dict]
    store_path: str
    paths: EntryPaths
    rules: BudgetRules
    fp: _Footprint
    remover: Remover
    high_water: int
    total: int
    removed_files: int = 0
    removed_entries: int = 0
    freed: int = 0

    @property
    def temp_cutoff(self) -> float:
        return self.rules.now_ms - STORE_TEMP_STALE_MS

    @property
    def blob_cutoff(self) -> float:
        return self.rules.now_ms - PROMPT_BLOB_GRACE_MS

    def _took(self, n: int) -> None:
        if n <= 0:
            return
        self.total -= n
        self.freed += n
        self.removed_files += 1

    def _remove_blob(self, f: FileInfo) -> int:
        return _remove_blob(self.remover, f, self.fp.ref_counts, self.blob_cutoff, self.temp_cutoff)

    def drain_blobs(self) -> None:
        """Unreferenced prompt blobs past their grace, oldest first."""
        queue = sorted((f for f in self.fp.blobs
                        if _blob_removable(f, self.fp.ref_counts, self.blob_cutoff, self.temp_cutoff)),
                       key=lambda f: f.mtime_ms)
        for f in queue:
            if self.total <= self.high_water:
                break
            self._took(self._remove_blob(f))

    def drain_files(self) -> None:
        """Stale temps, archives and unreferenced artifacts, oldest first."""
        referenced = self.paths.referenced_paths(self.store)
        store_base = self.store_path.rsplit("/", 1)[-1]
        queue = sorted((f for f in self.fp.files
                        if _budget_removable_file(f, referenced, self.temp_cutoff, store_base)),
                       key=lambda f: f.mtime_ms)
        for f in queue:
            if self.total <= self.high_water:
                break
            self._took(self.remover.remove(f.path, f.canonical))

    def evict_entries(self) -> None:
        """Oldest entries first (never the active or a preserved one), each with its files once unshared."""
        active = keys._lower_or_empty(self.rules.active_key) if self.rules.active_key else ""
        sid_counts: dict[str, int] = {}
        for counted in self.store.values():
            sid = counted.get("sessionId")
            if sid:
                sid_counts[sid] = sid_counts.get(sid, 0) + 1
        for key in sorted(self.store.keys(), key=lambda k: _finite_or_zero(self.store[k].get("updatedAt"))):
            if self.total <= self.high_water:
                break
            if active and keys._lower_or_empty(key) == active:
                if self.rules.why:
                    self.rules.why.keep(key, "active-key", "the --active-key session (spared by the disk budget)")
                continue
            entry = self.store.get(key)
            if entry is None or keys.should_preserve(key, entry, self.rules.preserve):
                if entry is not None and self.rules.why:
                    self.rules.why.keep(key, *protected_text(key, entry, self.rules.preserve))
                continue
            if self.rules.why:
                self.rules.why.act(key, "evict-budget", f"over highWaterBytes by {size(self.total - self.high_water)}, "
                                   "oldest first")
            self._drop_entry(key)
            sid = entry.get("sessionId")
            if sid:
                self._release_session(entry, sid, sid_counts)

    def _drop_entry(self, key: str) -> None:
        """Remove the entry from the store, re-measure the store and release its prompt blob."""
        fp = self.fp
        previous = fp.projected_bytes
        blob_hash = fp.hash_by_key.pop(key, None)
        del self.store[key]
        chunk = fp.measured.chunk_sizes.pop(key, None)
        if chunk is not None and chunk >= 0:
            fp.projected_bytes = max(2, fp.projected_bytes - (chunk + 2))
        else:
            fp.projected_bytes = projection.measure(self.store, self.store_path).size_bytes
        self.total += fp.projected_bytes - previous
        if blob_hash:
            self._release_blob(blob_hash)
        self.removed_entries += 1

    def _release_blob(self, blob_hash: str) -> None:
        fp = self.fp
        left = fp.ref_counts.get(blob_hash, 1) - 1
        if left > 0:
            fp.ref_counts[blob_hash] = left
            return
        fp.ref_counts.pop(blob_hash, None)
        virtual = fp.virtual_blob_bytes.get(blob_hash, 0)
        if virtual > 0:
            self.total -= virtual
            return
        bf = fp.existing_blobs.get(blob_hash)
        if bf and _blob_removable(bf, fp.ref_counts, self.blob_cutoff, self.temp_cutoff):
            self._took(self._remove_blob(bf))

    def _release_session(self, entry: dict, sid: str, sid_counts: dict[str, int]) -> None:
        """The session's transcript and artifacts go with its last entry."""
        left = sid_counts.get(sid, 1) - 1
        if left > 0:
            sid_counts[sid] = left
            return
        sid_counts.pop(sid, None)
        for artifact in self.paths.artifact_paths(entry):
            self._took(self.remover.remove(artifact))


def enforce_disk_budget(*, store: dict[str, dict], store_path: str, paths: EntryPaths,
                        rules: BudgetRules) -> dict | None:
    """Bring the folder under `maxDiskBytes` down to the high-water mark (entries are removed from `store`)."""
    max_bytes, high_water = rules.max_bytes, rules.high_water
    if max_bytes is None or high_water is None:
        return None
    fp = _measure(store, store_path, paths.view)
    before = fp.total
    if fp.total <= max_bytes:
        return _result(before, fp.total, 0, 0, 0, max_bytes, high_water, False)
    if rules.warn_only:
        return _result(before, fp.total, 0, 0, 0, max_bytes, high_water, True)
    remover = Remover(paths.view, rules.dry_run, _remover_sizes(paths.view, fp.blobs, rules.dry_run),
                      on_removed=rules.on_removed, reason="disk budget",
                      why=rules.why, store_name=store_path.rsplit("/", 1)[-1],
                      why_text=f"disk budget: {size(fp.total)} > maxDiskBytes {size(max_bytes)}, oldest removable "
                      f"files first down to highWaterBytes {size(high_water)}" if rules.why else "")
    run = _BudgetPass(store, store_path, paths, rules, fp, remover, high_water, fp.total)
    run.drain_blobs()
    run.drain_files()
    if run.total > high_water:
        run.evict_entries()
    return _result(before, run.total, run.removed_files, run.removed_entries, run.freed, max_bytes,
                   high_water, True)


def sweep_unreferenced(*, store: dict[str, dict], store_path: str, paths: EntryPaths, older_than_ms,
                       dry_run: bool, now_ms: int, exclude: set[str] | None = None,
                       on_removed: Callable[[str], None] | None = None, why: Explain | None = None) -> dict:
    """Delete orphan transcripts, sidecars and checkpoints older than pruneAfter, stale temps and blobs.

    `on_removed` hears the canonical path of every removed file that has content."""
    older = older_than_ms if isinstance(older_than_ms, (int, float)) and older_than_ms > 0 and older_than_ms != float("inf") else 0
    view = paths.view
    files = view.list_files()
    blobs = view.list_blob_files()
    referenced = paths.referenced_paths(store)
    ref_counts = _ref_counts(projection.blob_hashes(store, store_path))
    cutoff = now_ms - older
    temp_cutoff = now_ms - STORE_TEMP_STALE_MS
    blob_cutoff = now_ms - max(older, PROMPT_BLOB_GRACE_MS)
    store_base = store_path.rsplit("/", 1)[-1]
    exclude = exclude or set()

    note = _SweepNotes(why, store_base, referenced, now_ms, older) if why else None
    queue: list[tuple[str, FileInfo]] = []
    for f in files:
        if f.canonical in exclude:
            if note:
                note.excluded(f)
            continue
        if artifacts.is_store_temp(f.name, store_base):
            if f.mtime_ms <= temp_cutoff:
                queue.append(("store", f))
            elif note:
                note.keep(f, "young-temp", f"store temp younger than {span(STORE_TEMP_STALE_MS)}")
        elif f.mtime_ms <= cutoff and f.canonical not in referenced and artifacts.is_unreferenced_candidate(f.name):
            queue.append(("store", f))
        elif note:
            note.kept_file(f)
    for f in blobs:
        if f.canonical in exclude:
            if note:
                note.excluded(f, blob=True)
            continue
        if _blob_removable(f, ref_counts, blob_cutoff, temp_cutoff):
            queue.append(("blob", f))
        elif note:
            note.kept_blob(f, ref_counts, max(older, PROMPT_BLOB_GRACE_MS))
    queue.sort(key=lambda item: item[1].mtime_ms)

    remover = Remover(view, dry_run, _remover_sizes(view, blobs, dry_run), on_removed=on_removed,
                      reason="unreferenced artifact")
    removed = freed = 0
    for kind, f in queue:
        if kind == "blob":
            n = _remove_blob(remover, f, ref_counts, blob_cutoff, temp_cutoff)
        else:
            n = remover.remove(f.path, f.canonical)
        if note:
            note.swept(f, kind == "blob", counted=n > 0 or not dry_run)
        if n <= 0:
            continue
        removed += 1
        freed += n
    return {"scannedFiles": len(files) + len(blobs), "removedFiles": removed, "freedBytes": freed,
            "olderThanMs": older}


@dataclass
class _SweepNotes:
    """The sweep's decision on every file it looked at, for `--explain`."""

    why: Explain
    store_base: str
    referenced: set[str]
    now_ms: int
    older: float

    def _family(self, f: FileInfo, blob: bool = False) -> str:
        return artifacts.family_of(f.name, f.canonical in self.referenced, self.store_base, in_blob_folder=blob)

    def keep(self, f: FileInfo, code: str, text: str, blob: bool = False) -> None:
        self.why.file(f.canonical, "keep", self._family(f, blob), code, text)

    def excluded(self, f: FileInfo, blob: bool = False) -> None:
        self.keep(f, "removed-entry", "belongs to an entry this plan removes (an applying run archives its "
                  "transcript and deletes its sidecars)", blob)

    def kept_file(self, f: FileInfo) -> None:
        age = span(self.now_ms - f.mtime_ms)
        if f.canonical in self.referenced:
            self.keep(f, "referenced", "referenced by the store")
        elif artifacts.is_unreferenced_candidate(f.name):
            self.keep(f, "young", f"unreferenced, younger than pruneAfter ({age} < {span(self.older)})")
        elif f.name == self.store_base:
            self.keep(f, "store", "the session store")
        elif artifacts.is_archive(f.name):
            self.keep(f, "archive", "archive: only an applying run ages archives (.deleted after pruneAfter, "
                      ".reset after resetArchiveRetention)")
        elif self._family(f) == "tempsAndLocks":
            self.keep(f, "lock", "a lock or a temp cleanup never removes")
        else:
            self.keep(f, "not-an-artifact", "not a session artifact: never removed")

    def kept_blob(self, f: FileInfo, ref_counts: dict[str, int], grace: float) -> None:
        h = artifacts.prompt_blob_hash(f.name)
        if h is not None and h in ref_counts:
            self.keep(f, "referenced", "referenced by an entry's skills snapshot", blob=True)
        else:
            self.keep(f, "young", f"younger than {span(grace)} (blobs and temps have a grace period)", blob=True)

    def swept(self, f: FileInfo, blob: bool, counted: bool) -> None:
        age = span(self.now_ms - f.mtime_ms)
        if not counted:
            self.keep(f, "empty", "empty: the preview does not count it", blob)
        elif artifacts.is_store_temp(f.name, self.store_base) or artifacts.is_prompt_blob_temp(f.name):
            self.why.file(f.canonical, "remove", self._family(f, blob), "stale-temp",
                          f"stale temp, {age} > {span(STORE_TEMP_STALE_MS)}")
        else:
            self.why.file(f.canonical, "remove", self._family(f, blob), "unreferenced",
                          f"unreferenced, {age} > pruneAfter {span(self.older)}")

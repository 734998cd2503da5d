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
    would_free_bytes: int | None  # None in the SQLite era: only its Gateway cleans that store
    budget: dict | None
    top: list[SessionUsage] = field(default_factory=list)
    database: DbUsage | None = None  # the agent database, in the SQLite era

    @property
    def era(self) -> str:
        return "files" if self.database is None else "sqlite"


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


def _would_free(req: DiskRequest, paths: EntryPaths) -> int:
    """Bytes of the files an applying `sessions cleanup --enforce` would delete (planned on the
    measurement's view, with its resolved paths)."""
    from openclaw_cli.maintenance.apply import ApplyRequest, plan_apply

    plan = plan_apply(ApplyRequest(cfg=req.cfg, target=req.target, loaded=req.loaded, view=paths.view,
                                   settings=req.settings, mode="enforce", opts=CleanupOptions(enforce=True),
                                   env=req.env, now_ms=req.now_ms, home=req.home, paths=paths,
                                   effects_only=True))
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
    listing = view.list_files()
    sized = _SessionSizes({f.canonical: f.size for f in listing}) if req.top > 0 else None
    referenced = paths.referenced_paths(store, sized.visit if sized else None)
    store_name = os.path.basename(req.target.store_path)
    files = dict.fromkeys(FAMILIES, 0)
    sizes = dict.fromkeys(FAMILIES, 0)
    archived: dict[str, int] = {}  # archive bytes by the name of the transcript they were archived from
    family_of = artifacts.family_of
    for f in listing:
        name, size = f.name, f.size
        family = family_of(name, f.canonical in referenced, store_name)
        files[family] += 1
        sizes[family] += size
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
    for name in view.scanned_folders():
        for size in _walk_other(os.path.join(view.sessions_dir, name), seen, lock):
            files["other"] += 1
            sizes["other"] += size
    families = {name: Family(files[name], sizes[name]) for name in FAMILIES}
    top = sized.largest(store, archived, req.top) if sized else []
    budget = _budget_now(req, paths)
    would_free = _would_free(req, paths)  # last: the plan records its effects in the view
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


class _SessionSizes:
    """Bytes of each entry's transcript and sidecars in the folder, heard while the references are
    resolved (one resolution per entry), and the largest sessions once archives are counted."""

    def __init__(self, sizes: Mapping[str, int]):
        self._size_of = sizes.get  # canonical path of a listed file -> its bytes
        self._sizes: list[tuple[int, str, str]] = []  # (bytes, key, transcript path)

    def visit(self, key: str, found: tuple[str, ...]) -> None:
        if not found:
            self._sizes.append((0, key, ""))
            return
        size_of = self._size_of
        self._sizes.append((sum(size_of(path, 0) for path in found), key, found[0]))

    def largest(self, store: Mapping[str, dict], archived: Mapping[str, int], top: int) -> list[SessionUsage]:
        """The `top` entries with the most bytes in their transcript, sidecars and archives (ties by key)."""
        def total(size: int, transcript: str) -> int:
            return size + archived.get(transcript.rpartition("/")[2], 0) if transcript else 0

        best = heapq.nsmallest(top, ((-total(size, path), key) for size, key, path in self._sizes))
        return [_usage_row(key, store[key], -neg_size) for neg_size, key in best]


def _usage_row(key: str, entry: dict, size: int) -> SessionUsage:
    label, sid, tokens = entry.get("label"), entry.get("sessionId"), entry.get("totalTokens")
    updated = entry.get("updatedAt")
    return SessionUsage(
        key, sid if isinstance(sid, str) else None, label if isinstance(label, str) else None,
        updated if isinstance(updated, (int, float)) and not isinstance(updated, bool) else None,
        tokens if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens >= 0 else None, size)


def usage_json(usage: DiskUsage, now_ms: int) -> dict:
    """One agent's part of `sessions disk --json`."""
    out = {
        "agentId": usage.agent_id,
        "storePath": usage.store_path,
        "era": usage.era,
        "totalBytes": usage.total_bytes,
        "families": {name: {"files": f.files, "bytes": f.bytes} for name, f in usage.families.items()},
        "wouldFreeBytes": usage.would_free_bytes,
        "budget": usage.budget,
        "top": [{"key": r.key, "sessionId": r.session_id, "bytes": r.bytes, "label": r.label,
                 "updatedAt": r.updated_at,
                 "ageMs": None if r.updated_at is None else max(0, now_ms - r.updated_at),
                 "totalTokens": r.tokens} for r in usage.top],
    }
    if usage.database is not None:
        out["database"] = database_json(usage.database)
    return out


# -- the SQLite era (OpenClaw 2026.8+): the agent database and what is left beside it ----------------

SQLITE_FAMILIES = ("database", "wal", "shm", "lockCompanions", "publishedArchives", "coldFiles", "leftovers",
                   "importArchive", "otherAgentDatabases")
SESSION_TABLE_PREFIXES = ("session_", "transcript_", "trajectory_")
IMPORT_ARCHIVE_DIR = "session-sqlite-import-archive"  # the originals a file-era import moved aside


@dataclass
class TableUsage:
    """One session table with its indexes: rows (None for a virtual table) and bytes of its pages."""

    name: str
    rows: int | None
    bytes: int | None
    pages: int | None


@dataclass
class DbUsage:
    """The database as SQLite accounts for it, read on a handle that writes nothing."""

    path: str
    schema_version: int
    page_size: int
    page_count: int
    free_pages: int
    tables: list[TableUsage]
    archives: dict  # rows of session_transcript_archives and their compressed bytes
    cold: dict  # rows of session_transcript_cold_archives and their bytes
    leftovers: list[tuple[str, str, int]]  # (path, family, bytes) of files left in sessions/
    others: list[OtherDatabase] = field(default_factory=list)  # other agents' databases in a shared folder

    @property
    def free_bytes(self) -> int:
        return self.free_pages * self.page_size


@dataclass
class OtherDatabase:
    """Another agent's database in the agent's sessions folder (a shared `session.store` folder): the
    agent its `schema_meta` names (None: no owner recorded), and its files (the database, `-wal`,
    `-shm`, lock companions)."""

    path: str
    agent_id: str | None
    files: int
    bytes: int


@dataclass(frozen=True)
class SqliteDiskRequest:
    """`store_path` is the agent's store path as configured (or given), which names the folder's family of
    databases the disk budget counts; `db_agent_id` is the agent the database belongs to (a shared
    `.sqlite` store's owner), when not the agent itself."""

    agent_id: str
    db_path: str
    sessions_dir: str
    settings: object  # SqliteEraSettings
    top: int
    store_path: str | None = None
    db_agent_id: str | None = None


def _size(path: str) -> int | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_size if stat_mod.S_ISREG(st.st_mode) else None


def _tree_files(root: str) -> list[tuple[str, int]]:
    """(path, size) of the regular files below `root` (symlinks not followed), in name order."""
    out: list[tuple[str, int]] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d)))
        for name in sorted(files):
            path = os.path.join(folder, name)
            size = _size(path)
            if size is not None:
                out.append((path, size))
    return out


def _session_tables(db) -> list[TableUsage]:
    """Each session table (and its indexes) from `dbstat` when SQLite has it, else row counts only."""
    import apsw

    tables = [str(name) for (name,) in db.rows("SELECT name FROM sqlite_master WHERE type = 'table' "
                                               "AND name NOT LIKE 'sqlite_%' ORDER BY name")
              if str(name).startswith(SESSION_TABLE_PREFIXES)]
    virtual = {str(name) for (name,) in db.rows("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                "AND sql LIKE 'CREATE VIRTUAL TABLE%'")}
    pages: dict[str, tuple[int, int]] = {}
    try:
        for table, size, count in db.rows(
                "SELECT m.tbl_name, SUM(s.pgsize), COUNT(*) FROM dbstat AS s JOIN sqlite_master AS m "
                "ON m.name = s.name GROUP BY m.tbl_name"):
            pages[str(table)] = (int(size), int(count))
        have_dbstat = True
    except apsw.SQLError:  # an SQLite built without the dbstat table
        have_dbstat = False
    out = []
    for name in tables:
        rows = None if name in virtual else int(db.rows(f'SELECT COUNT(*) FROM "{name}"')[0][0])
        size, count = pages.get(name, (0, 0)) if have_dbstat else (None, None)
        out.append(TableUsage(name, rows, size, count))
    out.sort(key=lambda t: (-(t.bytes or 0), t.name))
    return out


def _archive_rows(db, table: str, size_sql: str) -> tuple[dict, set[str]]:
    if not db.has_table(table):
        return {"rows": 0, "bytes": 0}, set()
    names: set[str] = set()
    count = total = 0
    for name, size in db.rows(f"SELECT archive_name, {size_sql} FROM {table}"):
        count += 1
        total += int(size or 0)
        if isinstance(name, str):
            names.add(name)
    return {"rows": count, "bytes": total}, names


def _stored_bytes(db) -> dict[str, int]:
    """Bytes each session's transcript events take as stored (JSON text, or its zstd frame)."""
    return {str(sid): int(size or 0) for sid, size in db.rows(
        "SELECT session_id, SUM(COALESCE(length(CAST(event_json AS BLOB)), 0) + COALESCE(length(event_zstd), 0)) "
        "FROM transcript_events GROUP BY session_id")}


def _sqlite_top(db, top: int) -> list[SessionUsage]:
    from openclaw_cli.store.sqlite.entries import read_entries

    if top <= 0:
        return []
    stored = _stored_bytes(db)
    rows = []
    for key, entry in read_entries(db, listing=True):
        sid = entry.get("sessionId")
        size = stored.get(sid, 0) if isinstance(sid, str) else 0
        label, tokens, updated = entry.get("label"), entry.get("totalTokens"), entry.get("updatedAt")
        rows.append(SessionUsage(
            key, sid if isinstance(sid, str) else None, label if isinstance(label, str) else None,
            updated if isinstance(updated, (int, float)) and not isinstance(updated, bool) else None,
            tokens if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens >= 0 else None, size))
    return heapq.nsmallest(top, rows, key=lambda r: (-r.bytes, r.key))


def measure_sqlite(req: SqliteDiskRequest) -> DiskUsage:
    """The agent database, its `-wal`/`-shm` and lock companions, its free pages and session tables,
    its archives, and the files beside it; read on a handle that leaves every file byte-identical
    (store/sqlite/inspect.py: an immutable open, or a private copy while the WAL holds frames)."""
    from openclaw_cli.errors import StoreError
    from openclaw_cli.maintenance.sqlite_plan import physical_bytes
    from openclaw_cli.store.db_target import family
    from openclaw_cli.store.sqlite.connection import SUPPORTED_AGENT_SCHEMA, check_owner
    from openclaw_cli.store.sqlite.inspect import open_agent_untouched, probe_db

    probe = probe_db(req.db_path, "agent", quick_check=False)
    if probe.error is not None:
        raise StoreError(f"cannot read {req.db_path}: {probe.error}")
    version = probe.user_version or 0
    if version > SUPPORTED_AGENT_SCHEMA:
        raise StoreError(f"{req.db_path} was written by a newer OpenClaw (schema {version}); "
                         f"this tool reads up to {SUPPORTED_AGENT_SCHEMA}")
    check_owner(req.db_path, probe.meta, req.db_agent_id or req.agent_id)
    with open_agent_untouched(req.db_path, probe.meta_agent, version) as db:
        page_size = int(db.rows("PRAGMA page_size")[0][0])
        page_count = int(db.rows("PRAGMA page_count")[0][0])
        free_pages = int(db.rows("PRAGMA freelist_count")[0][0])
        tables = _session_tables(db)
        archives, published = _archive_rows(db, "session_transcript_archives", "length(archive_blob)")
        cold, _cold_names = _archive_rows(db, "session_transcript_cold_archives", "archive_bytes")
        top = _sqlite_top(db, req.top)
    families = {name: Family() for name in SQLITE_FAMILIES}

    def add(name: str, size: int | None) -> None:
        if size is not None:
            families[name].files += 1
            families[name].bytes += size

    db_folder, db_name = os.path.split(req.db_path)
    companions = [os.path.join(db_folder, n) for n in _lock_companions(db_name, sorted(os.listdir(db_folder)))]
    add("database", _size(req.db_path))
    add("wal", _size(req.db_path + "-wal"))
    add("shm", _size(req.db_path + "-shm"))
    for path in companions:  # generation and reindex locks
        add("lockCompanions", _size(path))
    own = {req.db_path, req.db_path + "-wal", req.db_path + "-shm", *companions}  # in a shared folder, counted above
    sessions_dir = os.path.abspath(req.sessions_dir)
    in_folder = _tree_files(sessions_dir)
    databases = family(req.store_path) if req.store_path else [req.db_path]  # what the disk budget counts
    others, other_files = _other_databases(req.db_path, databases, sessions_dir,
                                           {os.path.basename(p): n for p, n in in_folder
                                            if os.path.dirname(p) == sessions_dir and p not in own})
    leftovers: list[tuple[str, str, int]] = []
    cold_dir = os.path.join(sessions_dir, "cold")
    for path, size in in_folder:
        name = os.path.basename(path)
        if path in own:
            continue
        if path in other_files:
            add("otherAgentDatabases", size)
        elif os.path.dirname(path) == cold_dir:
            add("coldFiles", size)
        elif os.path.dirname(path) == sessions_dir and name in published:
            add("publishedArchives", size)
        else:
            add("leftovers", size)
            blob = os.sep + os.path.join("skills-prompts", "sha256") + os.sep in path
            leftovers.append((path, artifacts.family_of(name, False, "sessions.json", in_blob_folder=blob), size))
    for _path, size in _tree_files(os.path.join(os.path.dirname(req.sessions_dir), IMPORT_ARCHIVE_DIR)):
        add("importArchive", size)
    settings = req.settings
    max_bytes, high_water = getattr(settings, "max_disk_bytes", None), getattr(settings, "high_water_bytes", None)
    budget = None
    if max_bytes is not None and high_water is not None:
        # What 2026.9.6's dry run measures (maintenance/sqlite_plan.py): every agent database of the folder
        # and its WAL, none of their -shm, and the folder's files.
        used = physical_bytes(databases, req.sessions_dir)
        budget = _budget({"totalBytesBefore": used, "maxBytes": max_bytes, "highWaterBytes": high_water,
                          "overBudget": used > max_bytes})
    database = DbUsage(req.db_path, version, page_size, page_count, free_pages, tables, archives, cold, leftovers,
                       others)
    total = sum(f.bytes for f in families.values())
    return DiskUsage(req.agent_id, req.db_path, total, families, None, budget, top, database)


def _lock_companions(db_name: str, names: list[str]) -> list[str]:
    """Of a folder's `names`, those of a database's lock companions (`<name>.sqlite.generation-lock.sqlite`, …)."""
    return [n for n in names if n.startswith(db_name + ".") and n.endswith(".sqlite")]


def _other_databases(db_path: str, databases: list[str], folder: str,
                     sizes: dict[str, int]) -> tuple[list[OtherDatabase], set[str]]:
    """The other agents' databases in the agent's sessions folder (`sizes`: its files but the agent's
    own database's, by name) and the paths of their files (each database, its `-wal`, `-shm` and
    `-journal`, its lock companions): the store's family, `databases` (a shared folder's
    `openclaw-agent.sqlite` and `openclaw-agent.<agent>[.<N>].sqlite`, store/db_target.py:family), and
    any other file there that is an agent database (beside a `.sqlite` store). Owners are read untouched
    (their `schema_meta`)."""
    from openclaw_cli.store.db_target import same_path
    from openclaw_cli.store.sqlite.registry import database_owner

    databases_here = [n for n in sizes if n.endswith(".sqlite")]  # lock companions too (name order)
    named = [os.path.basename(p) for p in databases if os.path.dirname(p) == folder]
    candidates = [n for n in dict.fromkeys([*named, *databases_here]) if n in sizes]
    companions = {c for name in candidates for c in _lock_companions(name, databases_here)}
    out: list[OtherDatabase] = []
    files: set[str] = set()
    for name in candidates:
        path = os.path.join(folder, name)
        if name in companions or same_path(path, db_path):
            continue
        owner = database_owner(path)
        if owner is None and name not in named:
            continue  # not an agent database
        mine = [name, *(name + suffix for suffix in ("-wal", "-shm", "-journal") if name + suffix in sizes),
                *_lock_companions(name, databases_here)]
        out.append(OtherDatabase(path, owner, len(mine), sum(sizes[n] for n in mine)))
        files.update(os.path.join(folder, n) for n in mine)
    return out, files


def database_json(db: DbUsage) -> dict:
    return {
        "path": db.path,
        "schemaVersion": db.schema_version,
        "pageSize": db.page_size,
        "pageCount": db.page_count,
        "freePages": db.free_pages,
        "freeBytes": db.free_bytes,
        "sessionTables": [{"name": t.name, "rows": t.rows, "bytes": t.bytes, "pages": t.pages} for t in db.tables],
        "archives": db.archives,
        "coldArchives": db.cold,
        "leftovers": [{"path": path, "family": family, "bytes": size} for path, family, size in db.leftovers],
        "otherAgentDatabases": [{"path": o.path, "agentId": o.agent_id, "files": o.files, "bytes": o.bytes}
                                for o in db.others],
    }

"""The `sessions cleanup --dry-run` plan of a SQLite-era agent (OpenClaw 2026.9.6), computed read-only."""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from openclaw_cli.maintenance import sqlite_rules as rules
from openclaw_cli.maintenance.settings import SqliteEraSettings
from openclaw_cli.store import artifacts
from openclaw_cli.store.db_target import family
from openclaw_cli.store.keys import is_stale_direct_dm_key, normalize_store_key, parse_agent_key

STORE_TEMP_STALE_MS = 300_000
_MIGRATION_ARCHIVE = re.compile(r"\.migrated(?:\.\d+)?\Z")
_PRE_DOCTOR_REPAIR = re.compile(r"\.jsonl\.pre-doctor-(?:branch|openai-codex)-repair-"
                                r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.bak\Z")
_BLOB_NAME = re.compile(r"^[a-f0-9]{64}\.txt\Z")
_BLOB_TEMP = re.compile(r"^[a-f0-9]{64}\.txt\.(?:\d+\.)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp\Z")


@dataclass(frozen=True)
class Options:
    """The flags a dry run plans with."""

    active_key: str | None = None
    fix_missing: bool = False
    fix_dm_scope: bool = False


@dataclass
class SqlitePreview:
    """One agent's plan: OpenClaw's summary, the rows as read, and each row's action."""

    summary: dict
    before: dict[str, dict]
    actions: dict[str, str] = field(default_factory=dict)

    def action(self, key: str) -> str:
        return self.actions.get(key, "keep")


@dataclass(frozen=True)
class FileInfo:
    path: str
    name: str
    size: int
    mtime_ms: float


def sessions_dir(store_path: str) -> str:
    """Where the agent's archives and leftover files are: beside the store path, or `../sessions`
    when the path is inside the agent's `agent/` folder."""
    folder = os.path.dirname(store_path)
    if os.path.basename(folder) == "agent":
        return os.path.join(os.path.dirname(folder), "sessions")
    return folder


def _files(folder: str, keep) -> list[FileInfo]:
    """Regular files of a folder (symlinks followed, as `stat` does), those `keep` accepts."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    out = []
    for name in names:
        path = os.path.join(folder, name)
        try:
            if os.path.islink(path) or not keep(name):
                continue
            st = os.stat(path)
        except OSError:
            continue
        if os.path.isfile(path):
            out.append(FileInfo(path, name, st.st_size, st.st_mtime_ns / 1e6))
    return out


def session_files(folder: str) -> list[FileInfo]:
    """`readSessionsDirFiles`: files of the sessions folder, migration leftovers not counted."""
    return _files(folder, lambda n: not (_MIGRATION_ARCHIVE.search(n) or _PRE_DOCTOR_REPAIR.search(n)))


def prompt_blob_files(folder: str) -> list[FileInfo]:
    root = os.path.join(folder, "skills-prompts", "sha256")
    try:
        prefixes = sorted(os.listdir(root))
    except OSError:
        return []
    out: list[FileInfo] = []
    for prefix in prefixes:
        if re.fullmatch(r"[a-f0-9]{2}", prefix) and os.path.isdir(os.path.join(root, prefix)):
            out += _files(os.path.join(root, prefix), lambda n: bool(_BLOB_NAME.match(n) or _BLOB_TEMP.match(n)))
    return out


def physical_bytes(databases: list[str], folder: str) -> int:
    """What the disk budget counts: the sessions folder's files, its cold archives and prompt blobs,
    the databases (the store's: store/db_target.py:family) and their WALs (never a `-shm` of theirs),
    each file once."""
    unique: dict[str, int] = {}
    for info in [*session_files(folder), *session_files(os.path.join(folder, "cold")), *prompt_blob_files(folder)]:
        unique[os.path.realpath(info.path)] = info.size
    for path in (file for db_path in databases for file in (db_path, db_path + "-wal")):
        if os.path.isfile(path):
            unique[os.path.realpath(path)] = os.stat(path).st_size
    shm = {os.path.realpath(db_path + "-shm") for db_path in databases}
    return sum(size for path, size in unique.items() if path not in shm)


def _entry_artifacts(folder: str, entry: Mapping) -> list[str]:
    """The transcript, trajectory and trajectory pointer paths a row names in its folder."""
    sid = entry.get("sessionId")
    if not isinstance(sid, str) or not sid or "/" in sid or sid in (".", ".."):
        return []
    base = os.path.join(folder, sid)
    return [os.path.realpath(p) for p in (base + ".jsonl", base + ".trajectory-path.json", base + ".trajectory.jsonl")]


def unreferenced_artifacts(store: Mapping[str, Mapping], folder: str, store_path: str, older_than_ms: int,
                           now_ms: int, excluded: set[str]) -> dict:
    """`pruneUnreferencedSessionArtifacts` as a dry run: what would go, nothing removed."""
    files = session_files(folder)
    blobs = prompt_blob_files(folder)
    cutoff = now_ms - older_than_ms
    temp_cutoff = now_ms - STORE_TEMP_STALE_MS
    blob_cutoff = now_ms - max(older_than_ms, STORE_TEMP_STALE_MS)
    referenced = {p for entry in store.values() for p in _entry_artifacts(folder, entry)}
    store_name = os.path.basename(store_path)
    removed: list[FileInfo] = []
    for info in files:
        canonical = os.path.realpath(info.path)
        if canonical in excluded:
            continue
        if artifacts.is_store_temp(info.name, store_name):
            if info.mtime_ms <= temp_cutoff:
                removed.append(info)
        elif (info.mtime_ms <= cutoff and canonical not in referenced
              and artifacts.is_unreferenced_candidate(info.name)):
            removed.append(info)
    refs = set()
    for entry in store.values():
        snapshot = entry.get("skillsSnapshot")
        ref = snapshot.get("promptRef") if isinstance(snapshot, Mapping) else None
        if isinstance(ref, Mapping) and ref.get("algorithm") == "sha256" and isinstance(ref.get("hash"), str):
            refs.add(ref["hash"])
    for info in blobs:
        if os.path.realpath(info.path) in excluded:
            continue
        if _BLOB_TEMP.match(info.name):
            if info.mtime_ms <= temp_cutoff:
                removed.append(info)
        elif info.mtime_ms <= blob_cutoff and info.name[:-4] not in refs:
            removed.append(info)
    return {"scannedFiles": len(files) + len(blobs), "removedFiles": len(removed),
            "freedBytes": sum(info.size for info in removed), "olderThanMs": older_than_ms}


def _is_message(event) -> bool:
    from openclaw_cli.maintenance.entries import _is_message_record

    return _is_message_record(event)


def _without_messages(db, session_id: str) -> bool:
    """`--fix-missing`: the session's transcript holds no message (an unreadable one counts as having some)."""
    from openclaw_cli.js import json as js_json
    from openclaw_cli.store.sqlite.transcript import is_cold, read_events

    try:
        if is_cold(db, session_id):
            return False
        return not any(_is_message(js_json.loads(ev.data.decode("utf-8"))) for ev in read_events(db, session_id))
    except Exception:
        return False


def _prune_missing(db, store: dict[str, dict], removed: set[str]) -> int:
    count = 0
    for key, entry in list(store.items()):
        if (entry.get("modelSelectionLocked") is True or "archivedAt" in entry) and rules.preserve(key, entry):
            continue
        sid = entry.get("sessionId")
        if parse_agent_key(key) and (entry.get("initializationPending") is True or sid == key):
            continue
        if not sid:
            if parse_agent_key(key):
                continue
        elif not _without_messages(db, sid):
            continue
        del store[key]
        removed.add(key)
        count += 1
    return count


def _retire_dm_scope(cfg: Mapping, store: dict[str, dict], agent_id: str, active_key: str | None,
                     removed: set[str]) -> int:
    from openclaw_cli.maintenance.plan import dm_scope_of

    scope = dm_scope_of(cfg)
    count = 0
    for key, entry in list(store.items()):
        if "archivedAt" not in entry and is_stale_direct_dm_key(key, target_agent_id=agent_id,
                                                                active_key=active_key, dm_scope=scope):
            del store[key]
            removed.add(key)
            count += 1
    return count


@dataclass
class _Run:
    """The working image of one plan: the store as it would become, and what happened to each key."""

    store: dict[str, dict]
    settings: SqliteEraSettings
    preserve_keys: frozenset[str] | None
    now_ms: int
    remaining: int
    sets: dict[str, set[str]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("archived", "capArchived", "modelRunPruned", "pruned", "capped"), 0))

    def keeps(self, key: str, entry: Mapping) -> bool:
        return rules.preserve(key, entry, self.preserve_keys, self.settings.preserve_recent_ms, self.now_ms)

    def remove(self, key: str, reason: str) -> None:
        del self.store[key]
        self.remaining -= 1
        self.sets.setdefault(reason, set()).add(key)

    def archive(self, key: str, phase: str, reason: str) -> None:
        entry = self.store[key]
        entry["archivedAt"] = self.now_ms
        entry.pop("archivedBy", None)
        entry["archiveReason"] = reason
        self.remaining -= 1
        self.counts["archived"] += 1
        if phase == "cap":
            self.counts["capArchived"] += 1
        self.sets.setdefault(phase, set()).add(key)


def _stale(entry: Mapping, cutoff: float) -> bool:
    updated = entry.get("updatedAt")
    return isinstance(updated, (int, float)) and not isinstance(updated, bool) and updated < cutoff


def _model_runs(run: _Run) -> None:
    from openclaw_cli.store.keys import is_model_run_key

    limit = run.settings.model_run_prune_after_ms
    cutoff = run.now_ms - limit
    for key, entry in list(run.store.items()):
        if not run.keeps(key, entry) and is_model_run_key(key) and _stale(entry, cutoff):
            run.remove(key, "model-run")
            run.counts["modelRunPruned"] += 1


def _dashboards(run: _Run) -> None:
    after = run.settings.archive_dashboard_after_ms
    if after is None or after <= 0:
        return
    cutoff = run.now_ms - after
    for key, entry in list(run.store.items()):
        parsed = parse_agent_key(key)
        if not parsed or not parsed[1].startswith("dashboard:") or run.keeps(key, entry):
            continue
        at = rules.activity_at(entry)
        if 0 < at < cutoff:
            run.archive(key, "dashboard", "stale-dashboard")


def _age(run: _Run) -> None:
    if run.settings.prune_after_ms <= 0:
        return
    cutoff = run.now_ms - run.settings.prune_after_ms
    for key, entry in list(run.store.items()):
        if run.keeps(key, entry) or not _stale(entry, cutoff):
            continue
        if rules.is_synthetic(key):
            run.remove(key, "stale")
            run.counts["pruned"] += 1
        else:
            run.archive(key, "age", "age-retention")


def _cap(run: _Run) -> None:
    store = run.store
    unarchived = [key for key in store if "archivedAt" not in store[key]]
    overflow = len(unarchived) - max(0, run.settings.max_entries)
    if overflow <= 0:
        return
    eligible = [key for key in unarchived if not run.keeps(key, store[key])]
    # Reversed, then a stable sort by activity: of rows equally active, the later in the store go first.
    newest_first = list(reversed(eligible))
    victims = sorted(newest_first, key=lambda k: rules.activity_at(store[k]))[:min(overflow, len(eligible))]
    for key in victims:
        if rules.is_synthetic(key):
            run.remove(key, "capped")
        else:
            run.archive(key, "cap", "active-session-cap")
        run.counts["capped"] += 1


def _entry_maintenance(run: _Run) -> None:
    """OpenClaw's write-profile order: model-run probes (only above the cap), stale dashboards,
    age retention, then the cap on unarchived rows."""
    if run.remaining > run.settings.max_entries:
        _model_runs(run)
    _dashboards(run)
    _age(run)
    if run.store:
        _cap(run)


def _disk_budget(db, databases: list[str], folder: str, settings: SqliteEraSettings, mode: str,
                 store: Mapping[str, Mapping], now_ms: int) -> tuple[dict | None, bool]:
    """The budget as the dry run reports it (measured, nothing evicted), and whether enforcing
    it would change anything."""
    if settings.max_disk_bytes is None or settings.high_water_bytes is None:
        return None, False
    total = physical_bytes(databases, folder)
    over = total > settings.max_disk_bytes
    budget = {"totalBytesBefore": total, "totalBytesAfter": total, "removedFiles": 0, "removedEntries": 0,
              "freedBytes": 0, "maxBytes": settings.max_disk_bytes, "highWaterBytes": settings.high_water_bytes,
              "overBudget": over}
    if not over or mode != "enforce":
        return budget, False
    if db.has_table("session_transcript_archives") and db.rows("SELECT 1 FROM session_transcript_archives LIMIT 1"):
        return budget, True
    if any(artifacts.is_archive(info.name) for info in session_files(folder)):
        return budget, True
    live = {row[0] for row in db.rows("SELECT current_session_id FROM session_nodes")}
    recent = {entry.get("sessionId") for key, entry in store.items()
              if rules.is_recent(key, entry, settings.preserve_recent_ms, now_ms)}
    historical = [row[0] for row in db.rows("SELECT session_id FROM session_windows")
                  if row[0] not in live and row[0] not in recent]
    evictable = [key for key, entry in store.items()
                 if entry.get("archiveReason") == "active-session-cap" and "archivedAt" in entry
                 and not rules.preserve_unarchived(key, entry, None, settings.preserve_recent_ms, now_ms)]
    return budget, bool(historical or evictable)


def preview_agent(*, cfg: Mapping, agent_id: str, db_path: str, store_path: str, settings: SqliteEraSettings,
                  mode: str, opts: Options, now_ms: int, db_agent_id: str | None = None) -> SqlitePreview:
    """Read the agent's rows (and transcripts for `--fix-missing`) in one read transaction, then
    plan as OpenClaw 2026.9.6's dry run does, on a copy; the database must be `db_agent_id`'s
    (a shared `.sqlite` store's owner), else the agent's."""
    from openclaw_cli.store.sqlite.connection import open_agent_db
    from openclaw_cli.store.sqlite.entries import read_entries

    if not os.path.exists(db_path):
        # An agent with no database yet, beside others that have one: an empty store, no budget.
        return _plan(cfg, None, agent_id, db_path, store_path, {}, settings, mode, opts, now_ms)
    with open_agent_db(db_path, db_agent_id or agent_id) as db:
        return _plan(cfg, db, agent_id, db_path, store_path, dict(read_entries(db)), settings, mode, opts, now_ms)


def _plan(cfg: Mapping, db, agent_id: str, db_path: str, store_path: str, before: dict[str, dict],
          settings: SqliteEraSettings, mode: str, opts: Options, now_ms: int) -> SqlitePreview:
    """The plan on a copy of `before`; `db` (None: no database) answers the transcript and budget questions."""
    folder = sessions_dir(store_path)
    work = copy.deepcopy(before)
    missing_keys: set[str] = set()
    dm_keys: set[str] = set()
    missing = _prune_missing(db, work, missing_keys) if opts.fix_missing else 0
    retired = _retire_dm_scope(cfg, work, agent_id, opts.active_key, dm_keys) if opts.fix_dm_scope else 0
    active = normalize_store_key(opts.active_key or "")
    unarchived = sum(1 for entry in work.values() if "archivedAt" not in entry)
    run = _Run(work, settings, frozenset([active]) if active else None, now_ms, unarchived)
    _entry_maintenance(run)
    budget, budget_mutates = (_disk_budget(db, family(store_path), folder, settings, mode, work, now_ms) if db is not None
                              else (None, False))
    removed_keys = (run.sets.get("model-run", set()) | run.sets.get("stale", set())
                    | run.sets.get("capped", set()) | dm_keys)
    excluded = {p for key in removed_keys for p in _entry_artifacts(folder, before[key])}
    older = settings.prune_after_ms if settings.prune_after_ms > 0 else 0
    sweep = unreferenced_artifacts(work, folder, store_path, older, now_ms, excluded)
    c = run.counts
    archived = c["archived"] - c["capArchived"]
    would_mutate = (missing > 0 or retired > 0 or c["modelRunPruned"] > 0 or archived > 0 or c["capArchived"] > 0
                    or c["pruned"] > 0 or c["capped"] > 0 or sweep["removedFiles"] > 0 or budget_mutates)
    summary = {"agentId": agent_id, "storePath": db_path, "mode": mode, "dryRun": True,
               "beforeCount": len(before), "afterCount": len(work), "missing": missing, "dmScopeRetired": retired,
               "modelRunPruned": c["modelRunPruned"], "archived": archived, "capArchived": c["capArchived"],
               "pruned": c["pruned"], "capped": c["capped"], "unreferencedArtifacts": sweep, "diskBudget": budget,
               "wouldMutate": would_mutate}
    preview = SqlitePreview(summary, before)
    for key in before:
        preview.actions[key] = _action(key, run.sets, missing_keys, dm_keys)
    return preview


def _action(key: str, sets: Mapping[str, set[str]], missing: set[str], retired: set[str]) -> str:
    """`resolveSessionCleanupAction`: the first set that names the key."""
    if key in retired:
        return "retire-dm-scope"
    if key in missing:
        return "prune-missing"
    order = (("model-run", "prune-model-run"), ("dashboard", "archive-dashboard"), ("cap", "archive-cap"),
             ("age", "archive-age"), ("stale", "prune-stale"), ("capped", "cap-overflow"))
    for name, action in order:
        if key in sets.get(name, ()):
            return action
    return "keep"

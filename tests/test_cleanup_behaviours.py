"""`sessions cleanup`: one test per behaviour pinned by OpenClaw 2026.7.1's own tests and per listed edge case."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import refbin
from helpers.folders import folder_digest
from helpers.references import every_file_era_release

from openclaw_cli.commands.cleanup import CleanupRequest, run_cleanup
from openclaw_cli.errors import CliError, LockBusyError, StoreError
from openclaw_cli.maintenance import archive, budget, steps
from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.fsview import FsView
from openclaw_cli.maintenance.plan import CleanupOptions, preserve_keys
from openclaw_cli.maintenance.settings import resolve_maintenance
from openclaw_cli.store import artifacts, keys
from openclaw_cli.store.sessions_json import load_store, save_store

MIN_MS = 60_000
DAY_MS = 86_400_000
MSG = '{"type":"message","message":{"role":"user","content":"hi"}}\n'
U1 = "0f8fad5b-d9cb-469f-a165-70867728950e"
U2 = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
U3 = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
THREAD_KEY = "agent:main:slack:channel:c123:thread:1710000000.000100"


def now_ms() -> int:
    return int(time.time() * 1000)


def stamp(age_ms: int) -> str:
    """The archive timestamp (`2026-02-23T12-34-56.000Z`) of a moment `age_ms` ago."""
    return artifacts.format_archive_timestamp(now_ms() - age_ms)


def put(path: Path, content: str | int = MSG, age_ms: int = 0) -> Path:
    """Write a file (text, or that many bytes of filler) whose mtime is `age_ms` ago."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else "x" * content)
    set_age(path, age_ms)
    return path


def set_age(path: Path, age_ms: int) -> None:
    when = time.time() - age_ms / 1000
    os.utime(path, (when, when))


def sessions_dir(home: Path, agent: str = "main") -> Path:
    return home / ".openclaw" / "agents" / agent / "sessions"


def write_store(home: Path, entries: dict, agent: str = "main") -> Path:
    """sessions.json for an agent, written the way OpenClaw writes it (2-space JSON, no newline)."""
    path = sessions_dir(home, agent) / "sessions.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entries, indent=2, ensure_ascii=False))
    return path


def write_config(home: Path, maintenance: dict | None = None, **top) -> None:
    """~/.openclaw/openclaw.json with `session.maintenance` and any other top-level sections."""
    cfg = dict(top)
    if maintenance is not None:
        cfg.setdefault("session", {})["maintenance"] = maintenance
    (home / ".openclaw" / "openclaw.json").write_text(json.dumps(cfg))


def read_store(path: Path) -> dict:
    return json.loads(path.read_text())


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def cleanup(store: Path | None = None, *, lock_wait_s: float = 2.0, all_agents: bool = False, **options):
    """The whole command in-process (no Gateway), against the HOME the test set up."""
    req = CleanupRequest(options=CleanupOptions(**options), store=str(store) if store else None,
                         all_agents=all_agents, lock_wait_s=lock_wait_s)
    return run_cleanup(req, env=dict(os.environ))


def applied(store: Path | None = None, **options) -> dict:
    outcome = cleanup(store, **options)
    assert len(outcome.summaries) == 1
    return outcome.summaries[0]


def previewed(store: Path | None = None, **options) -> dict:
    outcome = cleanup(store, dry_run=True, **options)
    assert len(outcome.previews) == 1
    return outcome.previews[0].summary


def cli(home: Path, *args: str) -> refbin.Result:
    """`openclaw sessions cleanup ...` end to end; nothing listens on the Gateway port."""
    return refbin.run_ours(["sessions", "cleanup", *args], home, {"OPENCLAW_GATEWAY_PORT": "1"})


class Planned:
    """One maintenance function run against a sessions folder, its file effects only planned."""

    def __init__(self, store_path: Path):
        self.store_path = store_path
        self.folder = store_path.parent
        self.view = FsView.open(str(self.folder))
        self.paths = EntryPaths(self.view, dict(os.environ))
        self.store = load_store(str(store_path)).store

    def removed(self) -> set[str]:
        """Files the run would delete, relative to the sessions folder."""
        real = os.path.realpath(self.folder)
        return {os.path.relpath(e.path, real) for e in self.view.effects if e.kind == "delete"}

    def budget(self, max_bytes: int, high_water: int, active_key: str | None = None,
               preserve: frozenset[str] | None = None) -> dict:
        return budget.enforce_disk_budget(
            store=self.store, store_path=str(self.store_path), paths=self.paths,
            rules=budget.BudgetRules(max_bytes=max_bytes, high_water=high_water, active_key=active_key,
                                     preserve=preserve, warn_only=False, dry_run=False, now_ms=now_ms()))

    def sweep(self, older_than_ms: int = 30 * DAY_MS) -> dict:
        return budget.sweep_unreferenced(store=self.store, store_path=str(self.store_path), paths=self.paths,
                                         older_than_ms=older_than_ms, dry_run=False, now_ms=now_ms())


def blob_rel(prompt: str) -> str:
    """Where a skills prompt's blob lives, relative to the sessions folder."""
    digest = hashlib.sha256(prompt.encode()).hexdigest()
    return f"skills-prompts/sha256/{digest[:2]}/{digest}.txt"


def entries_of(*specs: tuple[str, str, int]) -> dict:
    """{key: {"sessionId", "updatedAt"}} from (key, sessionId, age in ms) triples."""
    now = now_ms()
    return {key: {"sessionId": sid, "updatedAt": now - age} for key, sid, age in specs}


def warn_mode_home(home: Path) -> Path:
    """Mode warn; one entry without transcript, one per-peer DM, one stale entry, one old orphan."""
    write_config(home, {"mode": "warn"})
    store = write_store(home, entries_of(("agent:main:explicit:gone", "gone", 0),
                                         ("agent:main:telegram:direct:bob", "bob", 0),
                                         ("agent:main:explicit:old", "old", 40 * DAY_MS),
                                         ("agent:main:main", "main", 0)))
    for sid in ("bob", "old", "main"):
        put(store.parent / f"{sid}.jsonl")
    put(store.parent / "orphan.jsonl", age_ms=40 * DAY_MS)
    return store


def dead_pid() -> int:
    """The pid of a process that has already exited."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


LABEL_SUMMARY = [
    "Summary by Label:",
    "(unlabeled)         1 kept, 2 pruned",
    "Cron: daily-commit  1 kept, 1 pruned",
    "red\\nline           1 kept, 0 pruned",
    "Unlabeled           0 kept, 1 pruned",
    "Total: 3 kept, 4 pruned",
]


@pytest.fixture(autouse=True)
def isolated(home: Path, monkeypatch):
    """HOME is a scratch folder; no OpenClaw variable of the real environment leaks in."""
    for name in list(os.environ):
        if name.startswith("OPENCLAW_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(home)
    return home


# ---------------------------------------------------------------------------------------
# disk-budget.test.ts: enforceSessionDiskBudget


def test_budget_a_session_id_that_only_contains_a_marker_is_not_an_archive(home):
    """`keep.deleted.keep` is a sessionId, not an archive: its referenced transcript survives."""
    store = write_store(home, entries_of(("agent:main:main", "keep.deleted.keep", 0)))
    put(store.parent / "keep.deleted.keep.jsonl", 2000)
    run = Planned(store)
    result = run.budget(max_bytes=1000, high_water=800, active_key="agent:main:main")
    assert result["overBudget"] is True
    assert (result["removedFiles"], result["removedEntries"]) == (0, 0)
    assert run.removed() == set()


def test_budget_removes_a_real_deleted_archive_and_keeps_the_referenced_transcript(home):
    """A real `.deleted.<TS>` archive goes under pressure; the referenced primary transcript stays."""
    store = write_store(home, entries_of(("agent:main:main", "keep", 0)))
    put(store.parent / "keep.jsonl", 2000)
    archive_name = f"keep.jsonl.deleted.{stamp(DAY_MS)}"
    put(store.parent / archive_name, 2000)
    run = Planned(store)
    result = run.budget(max_bytes=3000, high_water=2500, active_key="agent:main:main")
    assert (result["removedFiles"], result["removedEntries"]) == (1, 0)
    assert run.removed() == {archive_name}


def test_budget_reclaims_stale_store_temps_but_never_fresh_ones(home):
    """Issue #56827: a 30-min-old store temp is reclaimed, a fresh one never, even above high water."""
    store = write_store(home, entries_of(("agent:main:main", "keep", 0)))
    put(store.parent / "keep.jsonl", 5000)
    put(store.parent / f"sessions.json.111.{U1}.tmp", 1000, age_ms=30 * MIN_MS)
    put(store.parent / f"sessions.json.222.{U2}.tmp", 1000)
    run = Planned(store)
    result = run.budget(max_bytes=3000, high_water=2000, active_key="agent:main:main")
    assert run.removed() == {f"sessions.json.111.{U1}.tmp"}
    assert result["totalBytesAfter"] > result["highWaterBytes"]


def test_budget_never_evicts_preserve_keys(home):
    """Entries in preserveKeys survive eviction; an unprotected newer entry is evicted instead."""
    store = write_store(home, entries_of(("agent:main:direct:old", "old", 2 * DAY_MS),
                                         ("agent:main:direct:new", "new", DAY_MS)))
    put(store.parent / "old.jsonl", 2000)
    put(store.parent / "new.jsonl", 2000)
    run = Planned(store)
    result = run.budget(max_bytes=3000, high_water=2500, preserve=preserve_keys("agent:main:direct:old"))
    assert result["removedEntries"] == 1
    assert list(run.store) == ["agent:main:direct:old"]
    assert run.removed() == {"new.jsonl"}


def test_budget_counts_a_shared_skills_prompt_once(home):
    """Twelve entries sharing one large skills prompt: blob dedupe keeps the projection under budget."""
    prompt = "Use the calendar skill when asked about meetings. " * 400  # 20 kB
    entries = entries_of(*[(f"agent:main:direct:u{i}", f"s{i}", i * MIN_MS) for i in range(12)])
    for entry in entries.values():
        entry["skillsSnapshot"] = {"prompt": prompt, "skills": []}
    store = write_store(home, entries)
    assert store.stat().st_size > 12 * 20_000  # inline on disk: far over the budget
    run = Planned(store)
    result = run.budget(max_bytes=40_000, high_water=32_000)
    assert result["overBudget"] is False
    assert result["totalBytesBefore"] < 40_000
    assert (result["removedFiles"], result["removedEntries"]) == (0, 0)
    assert len(run.store) == 12


def test_budget_eviction_deletes_the_unused_prompt_blob_and_stale_blob_temps(home):
    """Evicting an entry deletes its now-unreferenced blob, keeps the active entry's, reclaims stale blob temps."""
    old_prompt, active_prompt = "old skills " * 200, "active skills " * 150
    entries = entries_of(("agent:main:direct:old", "old", DAY_MS), ("agent:main:main", "main", 0))
    entries["agent:main:direct:old"]["skillsSnapshot"] = {"prompt": old_prompt, "skills": []}
    entries["agent:main:main"]["skillsSnapshot"] = {"prompt": active_prompt, "skills": []}
    store = sessions_dir(home) / "sessions.json"
    store.parent.mkdir(parents=True)
    save_store(store, entries)  # writes the two blobs and refs to them
    for rel in (blob_rel(old_prompt), blob_rel(active_prompt)):
        set_age(store.parent / rel, 10 * MIN_MS)
    temp_rel = f"{Path(blob_rel(old_prompt)).parent}/{'ab' * 32}.txt.123.{U3}.tmp"
    put(store.parent / temp_rel, 100, age_ms=10 * MIN_MS)
    put(store.parent / "old.jsonl", 1000)
    put(store.parent / "main.jsonl", 1000)
    run = Planned(store)
    result = run.budget(max_bytes=4500, high_water=4000, active_key="agent:main:main")
    assert result["removedEntries"] == 1
    assert list(run.store) == ["agent:main:main"]
    assert run.removed() == {blob_rel(old_prompt), temp_rel, "old.jsonl"}


def test_budget_removes_unreferenced_checkpoints_and_keeps_referenced_ones(home):
    """An orphan `keep.checkpoint.<uuid>.jsonl` goes; the pre/postCompaction files an entry names stay."""
    folder = sessions_dir(home)
    entries = entries_of(("agent:main:main", "keep", 0))
    entries["agent:main:main"]["compactionCheckpoints"] = [{
        "checkpointId": "c1", "sessionKey": "agent:main:main", "sessionId": "keep", "createdAt": now_ms(),
        "reason": "manual",
        "preCompaction": {"sessionId": "keep", "sessionFile": str(folder / f"keep.checkpoint.{U2}.jsonl")},
        "postCompaction": {"sessionId": "keep", "sessionFile": str(folder / "keep-post.jsonl")},
    }]
    store = write_store(home, entries)
    for name in ("keep.jsonl", f"keep.checkpoint.{U1}.jsonl", f"keep.checkpoint.{U2}.jsonl", "keep-post.jsonl"):
        put(folder / name, 1000)
    run = Planned(store)
    run.budget(max_bytes=3500, high_water=3000, active_key="agent:main:main")
    assert run.removed() == {f"keep.checkpoint.{U1}.jsonl"}


def test_budget_removes_orphan_trajectories_and_keeps_referenced_sidecars(home):
    """Orphan `old.trajectory.jsonl` / `old.trajectory-path.json` go; the live entry's sidecars stay."""
    store = write_store(home, entries_of(("agent:main:main", "keep", 0)))
    for name in ("keep.jsonl", "keep.trajectory.jsonl", "keep.trajectory-path.json",
                 "old.trajectory.jsonl", "old.trajectory-path.json"):
        put(store.parent / name, 1000)
    run = Planned(store)
    run.budget(max_bytes=4000, high_water=3000, active_key="agent:main:main")
    assert run.removed() == {"old.trajectory.jsonl", "old.trajectory-path.json"}


def test_budget_skips_a_protected_slack_thread_and_evicts_a_subagent(home):
    """The oldest entry is a protected Slack thread: the subagent goes instead; the active key stays."""
    store = write_store(home, entries_of((THREAD_KEY, "thread", 3 * DAY_MS),
                                         ("agent:main:subagent:abc", "sub", 2 * DAY_MS),
                                         ("agent:main:main", "main", DAY_MS)))
    for sid in ("thread", "sub", "main"):
        put(store.parent / f"{sid}.jsonl", 1000)
    run = Planned(store)
    result = run.budget(max_bytes=2800, high_water=2400, active_key="agent:main:main")
    assert result["removedEntries"] == 1
    assert list(run.store) == [THREAD_KEY, "agent:main:main"]
    assert run.removed() == {"sub.jsonl"}


# ---------------------------------------------------------------------------------------
# disk-budget.test.ts: pruneUnreferencedSessionArtifacts


def test_sweep_reclaims_stale_store_temps_whatever_older_than_is(home):
    """Store temps older than 5 min go even when olderThan is 30 days; fresh ones stay."""
    store = write_store(home, {})
    put(store.parent / f"sessions.json.{U1}.tmp", 100, age_ms=10 * MIN_MS)
    put(store.parent / f"sessions.json.4242.{U2}.tmp", 100)
    run = Planned(store)
    result = run.sweep(older_than_ms=30 * DAY_MS)
    assert run.removed() == {f"sessions.json.{U1}.tmp"}
    assert (result["removedFiles"], result["olderThanMs"]) == (1, 30 * DAY_MS)


def test_sweep_reclaims_unreferenced_prompt_blobs_after_the_five_minute_floor(home):
    """Unreferenced blobs go; 2026.7.1 keeps a 2-min-old one even with olderThanMs=60 s (5-min floor)."""
    kept_prompt = "referenced skills " * 100
    entries = entries_of(("agent:main:main", "main", 0))
    entries["agent:main:main"]["skillsSnapshot"] = {"prompt": kept_prompt, "skills": []}
    store = sessions_dir(home) / "sessions.json"
    store.parent.mkdir(parents=True)
    save_store(store, entries)
    set_age(store.parent / blob_rel(kept_prompt), 10 * MIN_MS)
    old_orphan, young_orphan = "orphan skills " * 100, "young orphan " * 100
    put(store.parent / blob_rel(old_orphan), old_orphan, age_ms=10 * MIN_MS)
    put(store.parent / blob_rel(young_orphan), young_orphan, age_ms=2 * MIN_MS)
    run = Planned(store)
    run.sweep(older_than_ms=MIN_MS)
    assert run.removed() == {blob_rel(old_orphan)}


def test_sweep_reclaims_stale_prompt_blob_temps(home):
    """Blob temps older than 5 min are reclaimed; a fresh one (a write in progress) stays."""
    store = write_store(home, {})
    hh = "cd" * 32
    put(store.parent / f"skills-prompts/sha256/cd/{hh}.txt.7.{U1}.tmp", 50, age_ms=6 * MIN_MS)
    put(store.parent / f"skills-prompts/sha256/cd/{hh}.txt.8.{U2}.tmp", 50)
    run = Planned(store)
    run.sweep()
    assert run.removed() == {f"skills-prompts/sha256/cd/{hh}.txt.7.{U1}.tmp"}


# ---------------------------------------------------------------------------------------
# store.pruning.integration.test.ts: maintenance inside the save


def test_saves_prune_stale_entries(home):
    """An entry older than pruneAfter (30d) is pruned by the save; a fresh one stays."""
    store = write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS),
                                         ("agent:main:direct:new", "new", 0)))
    summary = applied(store)
    assert summary["pruned"] == 1
    assert list(read_store(store)) == ["agent:main:direct:new"]


def test_stale_entry_transcript_becomes_exactly_one_deleted_archive(home):
    """A stale entry's transcript becomes exactly one `<sid>.jsonl.deleted.<TS>`."""
    store = write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS)))
    put(store.parent / "old.jsonl")
    applied(store)
    archived = [n for n in names(store.parent) if n.startswith("old.jsonl")]
    assert len(archived) == 1
    assert artifacts.parse_archive_timestamp(archived[0], "deleted") is not None
    assert (store.parent / archived[0]).read_text() == MSG


def test_deleted_archives_age_out_after_prune_after_but_bak_archives_stay(home):
    """`.deleted` archives older than pruneAfter go, newer ones stay; `.bak.*` stays even when older."""
    store = write_store(home, entries_of(("agent:main:main", "main", 0)))
    old, new, bak = (f"a.jsonl.deleted.{stamp(40 * DAY_MS)}", f"b.jsonl.deleted.{stamp(DAY_MS)}",
                     f"c.jsonl.bak.{stamp(60 * DAY_MS)}")
    for name in (old, new, bak):
        put(store.parent / name)
    applied(store)
    assert not (store.parent / old).exists()
    assert (store.parent / new).exists()
    assert (store.parent / bak).exists()


def test_reset_archives_follow_reset_archive_retention(home):
    """resetArchiveRetention 3d: a 10-day-old `.reset` archive goes, a 1-day-old one stays."""
    write_config(home, {"resetArchiveRetention": "3d"})
    store = write_store(home, entries_of(("agent:main:main", "main", 0)))
    old, new = f"x.jsonl.reset.{stamp(10 * DAY_MS)}", f"y.jsonl.reset.{stamp(DAY_MS)}"
    put(store.parent / old)
    put(store.parent / new)
    applied(store)
    assert not (store.parent / old).exists()
    assert (store.parent / new).exists()


def test_warn_mode_never_removes_anything(home):
    """mode warn: stale, over-cap and over-budget sessions, old archives and orphans all stay."""
    write_config(home, {"mode": "warn", "maxEntries": 1, "maxDiskBytes": 100})
    store = write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS),
                                         ("agent:main:direct:a", "a", DAY_MS),
                                         ("agent:main:direct:b", "b", 0)))
    files = ["old.jsonl", "a.jsonl", "b.jsonl", f"z.jsonl.deleted.{stamp(90 * DAY_MS)}",
             f"z.jsonl.reset.{stamp(90 * DAY_MS)}"]
    for name in files:
        put(store.parent / name)
    put(store.parent / "orphan.jsonl", age_ms=90 * DAY_MS)
    summary = applied(store)
    assert summary["mode"] == "warn"
    assert (summary["pruned"], summary["capped"]) == (0, 0)
    assert summary["diskBudget"]["overBudget"] is True
    assert (summary["diskBudget"]["removedFiles"], summary["diskBudget"]["removedEntries"]) == (0, 0)
    assert len(read_store(store)) == 3
    assert set(files + ["orphan.jsonl"]) <= set(names(store.parent))


def test_an_entry_evicted_by_the_cap_has_its_transcript_archived(home):
    """maxEntries 1: the older entry is capped and its transcript renamed to `.deleted.<TS>`."""
    write_config(home, {"maxEntries": 1})
    store = write_store(home, entries_of(("agent:main:direct:old", "old", DAY_MS),
                                         ("agent:main:direct:new", "new", 0)))
    put(store.parent / "old.jsonl")
    put(store.parent / "new.jsonl")
    summary = applied(store)
    assert summary["capped"] == 1
    assert "old.jsonl" not in names(store.parent)
    assert [n for n in names(store.parent) if n.startswith("old.jsonl.deleted.")]
    assert "new.jsonl" in names(store.parent)


@pytest.mark.parametrize("limit", [{"maxEntries": 1}, {"maxDiskBytes": 500, "highWaterBytes": 100}],
                         ids=["cap", "budget"])
def test_an_external_transcript_is_never_archived_or_deleted(home, tmp_path, limit):
    """Transcripts outside the sessions folder stay, whether their entry is capped or budget-evicted."""
    write_config(home, limit)
    sibling = put(sessions_dir(home, "work") / "ext.jsonl")
    far = put(tmp_path / "elsewhere" / "far.jsonl")
    entries = entries_of(("agent:main:direct:ext", "ext", 3 * DAY_MS),
                         ("agent:main:direct:far", "far", 2 * DAY_MS),
                         ("agent:main:main", "main", 0))
    entries["agent:main:direct:ext"]["sessionFile"] = str(sibling)
    entries["agent:main:direct:far"]["sessionFile"] = str(far)
    store = write_store(home, entries)
    put(store.parent / "main.jsonl", 1000)
    applied(store, active_key="agent:main:main")
    assert list(read_store(store)) == ["agent:main:main"]
    assert sibling.read_text() == MSG and names(sibling.parent) == ["ext.jsonl"]
    assert far.read_text() == MSG and names(far.parent) == ["far.jsonl"]


def test_budget_900_high_water_700_evicts_the_oldest_session_and_deletes_its_transcript(home):
    """maxDiskBytes 900 / highWaterBytes 700: the oldest session goes, its transcript deleted (not archived)."""
    write_config(home, {"maxDiskBytes": 900, "highWaterBytes": 700})
    store = write_store(home, entries_of(("agent:main:direct:old", "old", 2 * DAY_MS),
                                         ("agent:main:direct:new", "new", DAY_MS)))
    put(store.parent / "old.jsonl", 400)
    put(store.parent / "new.jsonl", 400)
    disk = applied(store)["diskBudget"]
    assert (disk["removedEntries"], disk["removedFiles"]) == (1, 1)
    assert list(read_store(store)) == ["agent:main:direct:new"]
    assert names(store.parent) == ["new.jsonl", "sessions.json"]


def test_budget_measures_the_projected_store_not_a_stale_oversized_file(home):
    """A bloated sessions.json on disk does not count: the store about to be written does."""
    write_config(home, {"maxDiskBytes": 900, "highWaterBytes": 700})
    store = write_store(home, entries_of(("agent:main:direct:old", "old", 2 * DAY_MS),
                                         ("agent:main:direct:new", "new", DAY_MS)))
    store.write_text(json.dumps(read_store(store), indent=400))
    assert store.stat().st_size > 900
    put(store.parent / "old.jsonl", 300)
    put(store.parent / "new.jsonl", 300)
    disk = applied(store)["diskBudget"]
    assert disk["overBudget"] is False
    assert disk["totalBytesBefore"] < 900
    assert len(read_store(store)) == 2


# ---------------------------------------------------------------------------------------
# artifacts.test.ts


@pytest.mark.parametrize("name,kind", [
    ("abc.jsonl", "primary"),
    ("keep.deleted.keep.jsonl", "primary"),
    ("abc.jsonl.deleted.2026-02-23T12-34-56.000Z", "archive"),
    ("abc.jsonl.reset.2026-02-23T12-34-56.000Z", "archive"),
    ("abc.jsonl.bak.2026-02-23T12-34-56Z", "archive"),
    ("sessions.json.bak.1700000000000", "archive"),
    (f"abc.checkpoint.{U1}.jsonl", "checkpoint"),
    ("abc.trajectory.jsonl", "trajectory"),
    ("abc.trajectory-path.json", "trajectory"),
    ("sessions.json", "other"),
    ("abc.jsonl.lock", "other"),
])
def test_artifact_classification(name, kind):
    """The file families of §1.5, told apart by name alone."""
    found = {
        "primary": artifacts.is_primary_transcript(name),
        "archive": artifacts.is_archive(name),
        "checkpoint": artifacts.is_checkpoint(name),
        "trajectory": artifacts.is_trajectory(name),
    }
    assert {k for k, v in found.items() if v} == ({kind} if kind != "other" else set())


def test_archive_timestamp_round_trip():
    """2026-02-23T12:34:56.000Z formats as `2026-02-23T12-34-56.000Z` and parses back; reasons don't mix."""
    ms = 1771850096000  # Date.parse("2026-02-23T12:34:56.000Z")
    assert artifacts.format_archive_timestamp(ms) == "2026-02-23T12-34-56.000Z"
    name = "abc.jsonl.deleted.2026-02-23T12-34-56.000Z"
    assert artifacts.parse_archive_timestamp(name, "deleted") == ms
    assert artifacts.parse_archive_timestamp(name, "reset") is None


def test_checkpoint_names_need_a_uuid_and_no_archive_suffix():
    """`x.checkpoint.not-a-uuid.jsonl` is no checkpoint, nor is a checkpoint name with an archive suffix."""
    assert not artifacts.is_checkpoint("keep.checkpoint.not-a-uuid.jsonl")
    assert not artifacts.is_checkpoint(f"keep.checkpoint.{U1}.jsonl.deleted.2026-02-23T12-34-56.000Z")


# ---------------------------------------------------------------------------------------
# sessions-cleanup.test.ts: the command


def test_non_dry_json_prints_one_json_document_the_bare_summary(home):
    """A non-dry `--json` run prints exactly one JSON value (the bare summary); log lines go to stderr."""
    store = write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS),
                                         ("agent:main:direct:new", "new", 0)))
    result = cli(home, "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["storePath"] == str(store)
    assert (summary["applied"], summary["pruned"], summary["appliedCount"]) == (True, 1, 1)
    assert "pruned stale session entries" in result.stderr


def test_dry_run_json_never_mutates(home):
    """`--dry-run --json` with plenty to do leaves every file alone: bytes, mtimes, no lock, no new file."""
    write_config(home, {"maxEntries": 1, "maxDiskBytes": 200})
    store = write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS),
                                         ("agent:main:direct:a", "a", DAY_MS),
                                         ("agent:main:direct:b", "b", 0)))
    for name in ("old.jsonl", "a.jsonl", f"z.jsonl.deleted.{stamp(90 * DAY_MS)}"):
        put(store.parent / name, age_ms=DAY_MS)
    put(store.parent / "orphan.jsonl", age_ms=90 * DAY_MS)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in store.parent.iterdir()}
    result = cli(home, "--dry-run", "--json", "--fix-missing")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["dryRun"], summary["wouldMutate"], summary["missing"]) == (True, True, 1)
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in store.parent.iterdir()}
    assert after == before


def test_fix_missing_dry_run_reports_missing(home):
    """`--fix-missing --dry-run`: an entry whose transcript is absent or header-only counts as missing."""
    store = write_store(home, entries_of(("agent:main:direct:here", "here", 0),
                                         ("agent:main:direct:gone", "gone", 0),
                                         ("agent:main:direct:empty", "empty", 0)))
    put(store.parent / "here.jsonl")
    put(store.parent / "empty.jsonl", '{"type":"session","version":3,"id":"empty"}\n')
    summary = previewed(store, fix_missing=True)
    assert summary["missing"] == 2
    assert summary["afterCount"] == 1


def test_text_dry_run_lists_planned_actions_and_unreferenced_artifacts(home):
    """The text dry run: `Planned session actions:`, an Action/Key header, keep and prune-stale rows,
    and `Would prune unreferenced artifacts: 2` (the stale entry's own transcript is not counted)."""
    store = write_store(home, entries_of(("agent:main:direct:alice", "alice", 0),
                                         ("agent:main:direct:bob", "bob", 40 * DAY_MS)))
    put(store.parent / "alice.jsonl")
    put(store.parent / "bob.jsonl", age_ms=40 * DAY_MS)
    put(store.parent / "orphan.jsonl", age_ms=40 * DAY_MS)
    put(store.parent / "lost.trajectory.jsonl", age_ms=40 * DAY_MS)
    result = cli(home, "--dry-run", "--store", str(store))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Would prune stale: 1" in lines
    assert "Would prune unreferenced artifacts: 2" in lines
    header = lines.index("Planned session actions:") + 1
    assert lines[header].startswith("Action") and "Key" in lines[header]
    assert lines[header + 1].startswith("keep ") and "agent:main:direct:alice" in lines[header + 1]
    assert lines[header + 2].startswith("prune-stale ") and "agent:main:direct:bob" in lines[header + 2]


@every_file_era_release
@pytest.mark.reference
def test_label_summary_matches_the_reference(home, reference):
    """Labels: per-label counts, `(unlabeled)` for empty/non-string, a literal "Unlabeled" apart,
    ANSI stripped and a newline shown as `\\n`, then the total."""
    stale = 40 * DAY_MS
    entries = entries_of(("agent:main:cron:daily:a", "a", 0), ("agent:main:cron:daily:b", "b", stale),
                         ("agent:main:direct:c", "c", 0), ("agent:main:direct:d", "d", stale),
                         ("agent:main:direct:e", "e", stale), ("agent:main:direct:f", "f", stale),
                         ("agent:main:direct:g", "g", 0))
    labels = {"a": "Cron: daily-commit", "b": "Cron: daily-commit", "d": "", "e": 42, "f": "Unlabeled",
              "g": "\x1b[31mred\nline\x1b[0m"}
    for entry in entries.values():
        if entry["sessionId"] in labels:
            entry["label"] = labels[entry["sessionId"]]
    store = write_store(home, entries)
    ours = cli(home, "--dry-run", "--store", str(store))
    theirs = reference.run_reference(["sessions", "cleanup", "--dry-run", "--store", str(store)], home)
    assert ours.returncode == 0 and theirs.returncode == 0, ours.stderr + theirs.stderr

    def label_lines(text: str) -> list[str]:
        lines = text.splitlines()
        return lines[lines.index("Summary by Label:"):]

    assert label_lines(ours.stdout) == LABEL_SUMMARY
    assert label_lines(theirs.stdout) == LABEL_SUMMARY


def test_all_agents_dry_run_json_is_wrapped(home):
    """`--all-agents` with two stores prints `{allAgents, mode, dryRun, stores}`."""
    write_config(home, agents={"list": [{"id": "main", "default": True}, {"id": "work"}]})
    write_store(home, entries_of(("agent:main:main", "m", 0)))
    write_store(home, entries_of(("agent:work:main", "w", 0)), agent="work")
    result = cli(home, "--all-agents", "--dry-run", "--json")
    assert result.returncode == 0, result.stderr
    wrapped = json.loads(result.stdout)
    assert list(wrapped) == ["allAgents", "mode", "dryRun", "stores"]
    assert (wrapped["allAgents"], wrapped["mode"], wrapped["dryRun"]) == (True, "enforce", True)
    assert [s["agentId"] for s in wrapped["stores"]] == ["main", "work"]


# ---------------------------------------------------------------------------------------
# store.pruning.test.ts: stale pruning, model-run probes, the cap, preserve keys


def test_prune_stale_keeps_threads_topics_channels_and_group_chat_types():
    """Old Slack threads, Telegram topics, `slack:channel:*` and chatType group/channel entries stay."""
    old = 40 * DAY_MS
    store = entries_of((THREAD_KEY, "t", old),
                       ("agent:main:telegram:group:-100123:topic:7", "topic", old),
                       ("agent:main:slack:channel:c999", "chan", old),
                       ("agent:main:discord:room:r1", "room", old),
                       ("agent:main:whatsapp:room:r2", "origin", old),
                       ("agent:main:direct:dave", "dave", old),
                       ("agent:main:main", "main", 0))
    store["agent:main:discord:room:r1"]["chatType"] = "group"
    store["agent:main:whatsapp:room:r2"]["origin"] = {"chatType": "Channel"}
    store["agent:main:no-time"] = {"sessionId": "nt"}
    pruned = steps.prune_stale(store, 30 * DAY_MS, now_ms(), preserve=None)
    assert pruned == 1
    assert "agent:main:direct:dave" not in store
    assert len(store) == 7


@pytest.mark.parametrize("key,is_probe", [
    (f"agent:main:explicit:model-run-{U1}", True),
    (f"Agent:Main:Explicit:Model-Run-{U1.upper()}", True),
    (f"agent:model-run-foo:explicit:model-run-{U1}", True),
    (f" agent:main:explicit:model-run-{U1}", False),
    (f"agent:main:explicit:model-run-{U1} ", False),
    (f"agent:main:explicit:model-runner-{U1}", False),
    ("agent:main:explicit:model-run-not-a-uuid", False),
    (f"agent:main:extra:explicit:model-run-{U1}", False),
])
def test_model_run_probe_key_shapes(key, is_probe):
    """Only `agent:<id>:explicit:model-run-<uuid>` exactly (any case, no padding, no extra segment)."""
    assert keys.is_model_run_key(key) is is_probe


def test_forced_cleanup_prunes_the_stale_probe_before_capping(home):
    """50 real entries + 1 day-old probe with maxEntries 50: the probe is pruned and nothing is capped."""
    write_config(home, {"maxEntries": 50})
    entries = entries_of(*[(f"agent:main:direct:u{i}", f"s{i}", i * MIN_MS) for i in range(50)])
    probe = f"agent:main:explicit:model-run-{U1}"
    entries[probe] = {"sessionId": f"model-run-{U1}", "updatedAt": now_ms() - 2 * DAY_MS}
    store = write_store(home, entries)
    summary = applied(store)
    assert (summary["modelRunPruned"], summary["pruned"], summary["capped"]) == (1, 0, 0)
    assert probe not in read_store(store) and len(read_store(store)) == 50


def test_cap_keeps_the_newest_entries():
    """capEntryCount keeps the N newest; an entry without updatedAt counts as the oldest."""
    store = entries_of(("agent:main:direct:a", "a", 3 * MIN_MS), ("agent:main:direct:b", "b", MIN_MS),
                       ("agent:main:direct:c", "c", 2 * MIN_MS), ("agent:main:direct:d", "d", 0))
    store["agent:main:direct:never"] = {"sessionId": "never"}
    assert steps.cap_entries(store, 3, preserve=None) == 2
    assert list(store) == ["agent:main:direct:b", "agent:main:direct:c", "agent:main:direct:d"]


def test_cap_never_removes_thread_keys():
    """A thread key is protected: it stays even though it is the oldest, and takes a place in the cap."""
    store = entries_of((THREAD_KEY, "t", 9 * DAY_MS), ("agent:main:direct:a", "a", 2 * MIN_MS),
                       ("agent:main:direct:b", "b", MIN_MS))
    assert steps.cap_entries(store, 2, preserve=None) == 1
    assert list(store) == [THREAD_KEY, "agent:main:direct:b"]


@every_file_era_release
@pytest.mark.reference
def test_when_protected_entries_fill_the_cap_every_unprotected_entry_goes(home, reference):
    """2026.7.1: protected entries alone fill maxEntries, so every unprotected entry is capped
    (later releases keep them); confirmed against the reference."""
    store = entries_of((THREAD_KEY, "t", DAY_MS), ("agent:main:telegram:group:-1:topic:2", "g", DAY_MS),
                       ("agent:main:direct:a", "a", 0), ("agent:main:direct:b", "b", 0),
                       ("agent:main:direct:c", "c", 0))
    assert steps.cap_entries(dict(store), 2, preserve=None) == 3

    write_config(home, {"maxEntries": 2})
    path = write_store(home, store)
    ours = cli(home, "--dry-run", "--json", "--store", str(path))
    theirs = reference.run_reference(["sessions", "cleanup", "--dry-run", "--json", "--store", str(path)], home)
    for result in (ours, theirs):
        assert result.returncode == 0, result.stderr
        summary = json.loads(result.stdout)
        assert (summary["capped"], summary["afterCount"]) == (3, 2)


def test_runtime_preserve_keys_are_normalised():
    """`"  Agent:Main:Subagent:CHILD  "` protects `agent:main:subagent:child`, even past the cap."""
    preserve = preserve_keys("  Agent:Main:Subagent:CHILD  ")
    assert preserve == frozenset({"agent:main:subagent:child"})
    store = entries_of(("agent:main:subagent:child", "child", 40 * DAY_MS), (THREAD_KEY, "t", 0),
                       ("agent:main:direct:a", "a", 0))
    assert steps.prune_stale(store, 30 * DAY_MS, now_ms(), preserve) == 0
    assert steps.cap_entries(store, 1, preserve) == 1
    assert list(store) == ["agent:main:subagent:child", THREAD_KEY]  # two entries, cap of one


def test_the_active_key_is_preserved(home):
    """`--active-key` keeps a stale entry (and its transcript) through pruning."""
    store = write_store(home, entries_of(("agent:main:direct:me", "me", 40 * DAY_MS),
                                         ("agent:main:direct:other", "other", 40 * DAY_MS)))
    put(store.parent / "me.jsonl")
    summary = applied(store, active_key="agent:main:direct:me")
    assert summary["pruned"] == 1
    assert list(read_store(store)) == ["agent:main:direct:me"]
    assert (store.parent / "me.jsonl").exists()


def test_a_session_id_still_used_by_a_fresh_alias_is_not_archived(home):
    """The stale key goes, but its transcript stays: a fresh key still uses the same sessionId."""
    store = write_store(home, entries_of(("agent:main:direct:old-alias", "shared", 40 * DAY_MS),
                                         ("agent:main:direct:new-alias", "shared", 0)))
    put(store.parent / "shared.jsonl")
    assert applied(store)["pruned"] == 1
    assert names(store.parent) == ["sessions.json", "shared.jsonl"]


# ---------------------------------------------------------------------------------------
# §8 edge cases


def test_missing_default_store_dry_run_counts_zero_and_apply_creates_it(home):
    """No sessions.json at the default location: a dry run reports beforeCount 0; applying
    creates the folder and `{}`."""
    store = sessions_dir(home) / "sessions.json"
    assert previewed()["beforeCount"] == 0
    assert not store.parent.exists()
    summary = applied()
    assert (summary["beforeCount"], summary["appliedCount"]) == (0, 0)
    assert store.read_text() == "{}"
    assert names(store.parent) == ["sessions.json"]  # and our lock is gone


@pytest.mark.parametrize("flags", [["--enforce"], ["--dry-run"], ["--dry-run", "--enforce"], ["--enforce", "--json"]],
                         ids=" ".join)
def test_an_explicit_store_that_does_not_exist_is_an_error_and_creates_nothing(home, flags):
    """Our deliberate difference: a mistyped `--store` in a cron line fails every night instead of
    "succeeding" on a new empty store (OpenClaw creates the folder and `{}` and exits 0)."""
    write_store(home, {"agent:main:main": {"sessionId": U1, "updatedAt": now_ms()}})
    typo = home / "x" / "typo" / "sesions.json"
    before = folder_digest(home)
    result = cli(home, *flags, "--store", str(typo))
    assert (result.returncode, result.stdout, result.stderr) == (1, "", f"no session store at {typo}\n")
    assert folder_digest(home) == before
    with pytest.raises(CliError, match="^no session store at "):
        cleanup(typo, dry_run=True)


def test_an_explicit_store_naming_a_folder_asks_whether_the_file_was_meant(home):
    store = write_store(home, {"agent:main:main": {"sessionId": U1, "updatedAt": now_ms()}})
    before = folder_digest(home)
    for flags in (["--enforce"], ["--dry-run", "--json"]):
        result = cli(home, *flags, "--store", str(store.parent))
        assert (result.returncode, result.stdout) == (1, ""), flags
        assert result.stderr == f"{store.parent} is a folder; did you mean {store}?\n"
    assert folder_digest(home) == before


def test_an_explicit_store_that_is_not_a_regular_file_is_refused(home, tmp_path):
    """A FIFO (or a device) is never read (it would block) nor replaced by the atomic write."""
    fifo = tmp_path / "pipes" / "store.fifo"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    before = (folder_digest(home), sorted(os.listdir(fifo.parent)))
    result = cli(home, "--enforce", "--store", str(fifo))
    assert (result.returncode, result.stderr) == (1, f"{fifo} is not a regular file, so it cannot be a session "
                                                     "store\n")
    assert (folder_digest(home), sorted(os.listdir(fifo.parent))) == before
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_corrupt_store_is_an_error_and_is_left_untouched(home):
    """Our deliberate difference: corrupt JSON is not read as `{}` and overwritten; exit 1 names the file."""
    store = sessions_dir(home) / "sessions.json"
    store.parent.mkdir(parents=True)
    store.write_text('{"agent:main:main": {"sessionId": "m"')
    before = (store.read_bytes(), store.stat().st_mtime_ns)
    result = cli(home, "--enforce", "--store", str(store))
    assert result.returncode == 1
    assert str(store) in result.stderr
    assert (store.read_bytes(), store.stat().st_mtime_ns) == before
    with pytest.raises(StoreError, match="not valid"):
        cleanup(store, dry_run=True)


def old_transcripts(folder: Path, *sids: str, age_ms: int = 40 * DAY_MS) -> None:
    for sid in sids:
        put(folder / f"{sid}.jsonl", age_ms=age_ms)


@pytest.mark.parametrize("content, why", [(b"", "the file is empty"), (b" \n", "the file holds only whitespace")])
@pytest.mark.parametrize("run", [["--enforce"], ["--enforce", "--json"], ["--dry-run"], ["--dry-run", "--json"]])
def test_an_empty_store_file_is_refused_like_a_corrupt_one_and_nothing_changes(home, content, why, run):
    """Our deliberate difference: OpenClaw reads a 0-byte sessions.json as `{}`, rewrites it and
    sweeps every old transcript beside it as unreferenced."""
    folder = sessions_dir(home)
    old_transcripts(folder, "a", "b", "c")
    store = folder / "sessions.json"
    store.write_bytes(content)
    before = folder_digest(home / ".openclaw")
    result = cli(home, *run, "--store", str(store))
    assert result.returncode == 1
    assert result.stderr == (f"session store {store} is not valid ({why}); restore it from a backup or move it "
                             "aside so a fresh store is created\n")
    assert result.stdout == ""
    assert folder_digest(home / ".openclaw") == before


LOST = ("has no entries, yet 3 transcripts beside it would be swept as unreferenced: that looks like a lost index")


def lost_index_home(home: Path, store_text: str | None = "{}") -> Path:
    """A store with no entries (or none at all) beside two old transcripts, an old compaction
    checkpoint and a young transcript."""
    folder = sessions_dir(home)
    old_transcripts(folder, "a", "b")
    put(folder / f"a.checkpoint.{U1}.jsonl", age_ms=40 * DAY_MS)
    put(folder / "young.jsonl", age_ms=DAY_MS)
    store = folder / "sessions.json"
    if store_text is not None:
        store.write_text(store_text)
    return store


@pytest.mark.parametrize("store_text, state", [("{}", "has no entries"), ("{\n}\n", "has no entries"),
                                               (None, "does not exist")])
@pytest.mark.parametrize("json_out", [False, True])
def test_applying_cleanup_refuses_to_sweep_the_transcripts_of_a_lost_index(home, store_text, state, json_out):
    """Our deliberate difference: OpenClaw deletes every old transcript beside a store with no
    entries (the one it resets a corrupt store to) as an unreferenced artifact."""
    store = lost_index_home(home, store_text)
    before = folder_digest(home / ".openclaw")
    # an explicit --store must name an existing file, so a missing store is the default one
    where = ["--store", str(store)] if store_text is not None else []
    result = cli(home, "--enforce", *(["--json"] if json_out else []), *where)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (f"session store {store} {state}, yet 3 transcripts beside it would be swept as "
                             "unreferenced: that looks like a lost index, so nothing was changed; restore "
                             "sessions.json from a backup, or pass --allow-empty-store if the store was emptied "
                             "on purpose\n")
    assert folder_digest(home / ".openclaw") == before


def test_a_lost_index_is_refused_through_the_default_store_too(home):
    lost_index_home(home)
    before = folder_digest(home / ".openclaw")
    result = cli(home, "--enforce")
    assert result.returncode == 1 and LOST in result.stderr
    assert folder_digest(home / ".openclaw") == before


def test_the_disk_budget_does_not_evict_the_transcripts_of_a_lost_index_either(home):
    """Young transcripts under a disk budget would be evicted as unreferenced files."""
    write_config(home, {"maxDiskBytes": 100, "highWaterBytes": 50})
    folder = sessions_dir(home)
    old_transcripts(folder, "a", "b", age_ms=DAY_MS)
    (folder / "sessions.json").write_text("{}")
    before = folder_digest(home / ".openclaw")
    assert "warnings" in previewed(folder / "sessions.json")
    result = cli(home, "--enforce", "--store", str(folder / "sessions.json"))
    assert result.returncode == 1
    assert "yet 2 transcripts beside it would be swept" in result.stderr
    assert folder_digest(home / ".openclaw") == before


def test_allow_empty_store_sweeps_exactly_like_openclaw(home):
    store = lost_index_home(home)
    result = cli(home, "--enforce", "--json", "--allow-empty-store", "--store", str(store))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert "warnings" not in summary
    assert summary["unreferencedArtifacts"]["removedFiles"] == 3
    assert names(store.parent) == ["sessions.json", "young.jsonl"]


def test_dry_runs_warn_about_a_lost_index_and_say_the_same_otherwise(home):
    """Text: one `warning:` line on stderr, stdout unchanged. JSON: a `warnings` item at the end of
    the store summary. Neither with --allow-empty-store (then the output is OpenClaw's)."""
    store = lost_index_home(home)
    before = folder_digest(home / ".openclaw")
    text = cli(home, "--dry-run", "--store", str(store))
    plain = cli(home, "--dry-run", "--allow-empty-store", "--store", str(store))
    assert text.returncode == plain.returncode == 0
    assert text.stdout == plain.stdout and "Would prune unreferenced artifacts: 3" in text.stdout
    assert text.stderr == (f"warning: session store {store} {LOST}; an enforcing run refuses to sweep them unless "
                           "--allow-empty-store is given (restore sessions.json from a backup instead)\n")
    assert plain.stderr == ""
    doc = cli(home, "--dry-run", "--json", "--store", str(store))
    quiet = cli(home, "--dry-run", "--json", "--allow-empty-store", "--store", str(store))
    assert doc.returncode == quiet.returncode == 0 and doc.stderr == quiet.stderr == ""
    summary, allowed = json.loads(doc.stdout), json.loads(quiet.stdout)
    assert list(summary)[-1] == "warnings" and "warnings" not in allowed
    assert summary.pop("warnings") == [{"code": "lost-index", "transcripts": 3,
                                        "message": text.stderr[len("warning: "):-1]}]
    assert summary == allowed
    assert folder_digest(home / ".openclaw") == before


@pytest.mark.parametrize("setup", ["entries pruned by this run", "only young transcripts", "warn mode"])
def test_what_is_not_a_lost_index_runs_as_openclaw_runs(home, setup):
    """A store whose only entries this run prunes and a store with nothing old enough to sweep are
    applied without a warning; a warn-mode run sweeps nothing, so it applies too (its dry run,
    which previews enforcement, warns)."""
    folder = sessions_dir(home)
    if setup == "entries pruned by this run":
        write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS)))
        old_transcripts(folder, "old", "orphan")
    elif setup == "only young transcripts":
        write_store(home, {})
        old_transcripts(folder, "a", "b", age_ms=DAY_MS)
    else:
        write_config(home, {"mode": "warn"})
        write_store(home, {})
        old_transcripts(folder, "a", "b")
    dry = cli(home, "--dry-run", "--json", "--store", str(folder / "sessions.json"))
    assert dry.returncode == 0, dry.stderr
    assert ("warnings" in json.loads(dry.stdout)) == (setup == "warn mode")
    result = cli(home, "--json", "--store", str(folder / "sessions.json"))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert "warnings" not in summary
    if setup == "entries pruned by this run":
        assert (summary["pruned"], summary["unreferencedArtifacts"]["removedFiles"]) == (1, 1)
        assert [n for n in names(folder) if n.endswith(".jsonl")] == []
    else:
        assert names(folder) == ["a.jsonl", "b.jsonl", "sessions.json"]


def test_one_lost_index_stops_an_all_agents_run_before_any_store_changes(home):
    """`main` has a stale entry to prune and an orphan to sweep; `work` comes later and has lost its
    index: nothing changes anywhere."""
    write_config(home, agents={"list": [{"id": "main", "default": True}, {"id": "work"}]})
    main = write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS),
                                        ("agent:main:main", "m", 0)))
    old_transcripts(main.parent, "old", "orphan")
    put(main.parent / "m.jsonl")
    work = write_store(home, {}, agent="work")
    old_transcripts(work.parent, "w1", "w2")
    before = folder_digest(home / ".openclaw")
    result = cli(home, "--enforce", "--all-agents")
    assert result.returncode == 1
    assert result.stderr.startswith(f"session store {work} has no entries, yet 2 transcripts beside it")
    assert folder_digest(home / ".openclaw") == before
    dry = json.loads(cli(home, "--dry-run", "--json", "--all-agents").stdout)
    assert ["warnings" in s for s in dry["stores"]] == [False, True]


@pytest.mark.reference
def test_openclaw_sweeps_the_transcripts_of_a_lost_index(home, reference):
    """What the difference protects against, on the reference itself: the 3 old transcripts go."""
    store = lost_index_home(home)
    write_config(home)
    theirs = reference.run_reference(["sessions", "cleanup", "--enforce", "--json", "--store", str(store)], home)
    assert theirs.returncode == 0, theirs.stderr
    assert json.loads(theirs.stdout)["unreferencedArtifacts"]["removedFiles"] == 3
    assert names(store.parent) == ["sessions.json", "young.jsonl"]


@pytest.mark.reference
def test_openclaw_rewrites_an_empty_store_file_and_sweeps_its_transcripts(home, reference):
    folder = sessions_dir(home)
    old_transcripts(folder, "a", "b", "c")
    (folder / "sessions.json").write_bytes(b"")
    write_config(home)
    theirs = reference.run_reference(["sessions", "cleanup", "--enforce", "--store", str(folder / "sessions.json")],
                                     home)
    assert theirs.returncode == 0, theirs.stderr
    assert names(folder) == ["sessions.json"] and (folder / "sessions.json").read_text() == "{}"


def test_an_unchanged_serialization_skips_the_write(home):
    """Nothing to change and the file already in OpenClaw's format: it is not rewritten, mtime kept."""
    store = write_store(home, entries_of(("agent:main:main", "main", 0)))
    set_age(store, DAY_MS)
    before = (store.read_bytes(), store.stat().st_mtime_ns)
    applied(store)
    assert (store.read_bytes(), store.stat().st_mtime_ns) == before


@pytest.mark.parametrize("variant", ["formatting", "legacy field", "prompt ref"])
def test_formatting_legacy_fields_and_blob_refs_force_a_rewrite(home, variant):
    """Different formatting, a legacy field (`provider`) or a prompt-blob ref makes the save rewrite."""
    entries = entries_of(("agent:main:main", "main", 0))
    store = write_store(home, entries)
    if variant == "formatting":
        store.write_text(json.dumps(entries))
    elif variant == "legacy field":
        entries["agent:main:main"]["provider"] = "telegram"
        store.write_text(json.dumps(entries, indent=2))
    else:
        entries["agent:main:main"]["skillsSnapshot"] = {"prompt": "skill text " * 100, "skills": []}
        save_store(store, entries)
    set_age(store, DAY_MS)
    before = store.stat().st_mtime_ns
    applied(store)
    assert store.stat().st_mtime_ns != before
    assert store.read_text() == json.dumps(read_store(store), indent=2, ensure_ascii=False)


def test_entries_dropped_by_normalisation_disappear_on_the_next_write(home):
    """A non-object entry and one with an unsafe sessionId vanish even though no rule removes them."""
    store = write_store(home, {"agent:main:a": "not an object",
                               "agent:main:b": {"sessionId": "../escape", "updatedAt": now_ms()},
                               "agent:main:c": {"sessionId": "c", "updatedAt": now_ms()}})
    summary = applied(store)
    assert (summary["pruned"], summary["capped"]) == (0, 0)
    assert list(read_store(store)) == ["agent:main:c"]


def test_warn_mode_still_applies_fix_missing_and_fix_dm_scope(home):
    """Without `--enforce` in warn mode, --fix-missing and --fix-dm-scope removals still happen;
    stale pruning and the orphan sweep do not."""
    store = warn_mode_home(home)
    summary = applied(store, fix_missing=True, fix_dm_scope=True)
    assert summary["mode"] == "warn"
    assert (summary["missing"], summary["dmScopeRetired"], summary["pruned"]) == (1, 1, 0)
    assert summary["unreferencedArtifacts"]["removedFiles"] == 0
    assert list(read_store(store)) == ["agent:main:explicit:old", "agent:main:main"]
    left = names(store.parent)
    assert "bob.jsonl" not in left and [n for n in left if n.startswith("bob.jsonl.deleted.")]
    assert {"old.jsonl", "orphan.jsonl", "main.jsonl"} <= set(left)


def test_enforce_flag_overrides_warn_mode(home):
    """`--enforce` turns warn mode into enforce: the stale entry is pruned and the orphan swept."""
    store = warn_mode_home(home)
    summary = applied(store, enforce=True)
    assert summary["mode"] == "enforce"
    assert (summary["pruned"], summary["unreferencedArtifacts"]["removedFiles"]) == (1, 1)
    assert "orphan.jsonl" not in names(store.parent)


def test_enforce_flag_changes_nothing_when_the_mode_is_already_enforce(home):
    """With the default mode (enforce), `--enforce` gives the same preview as no flag."""
    store = write_store(home, entries_of(("agent:main:explicit:old", "old", 40 * DAY_MS)))
    assert previewed(store, enforce=True) == previewed(store)


def test_warn_mode_preview_still_counts_and_simulates_the_budget(home):
    """A warn-mode dry run still reports what enforcement would prune and a real budget simulation."""
    write_config(home, {"mode": "warn", "maxDiskBytes": 1500, "highWaterBytes": 1200})
    store = write_store(home, entries_of(("agent:main:explicit:old", "old", 40 * DAY_MS),
                                         ("agent:main:direct:a", "a", DAY_MS),
                                         ("agent:main:direct:b", "b", 0)))
    for sid in ("old", "a", "b"):
        put(store.parent / f"{sid}.jsonl", 1000)
    summary = previewed(store)
    assert (summary["mode"], summary["pruned"]) == ("warn", 1)
    disk = summary["diskBudget"]
    assert disk["overBudget"] is True and disk["removedEntries"] == 1
    assert disk["totalBytesAfter"] <= disk["highWaterBytes"]


def test_cap_ties_keep_insertion_order():
    """Equal updatedAt: the cap (newest first) keeps entries in store order, so the last one goes."""
    store = entries_of(("agent:main:direct:x", "x", 0), ("agent:main:direct:y", "y", 0),
                       ("agent:main:direct:z", "z", 0))
    for entry in store.values():
        entry["updatedAt"] = 1_700_000_000_000
    assert steps.cap_entries(store, 2, preserve=None) == 1
    assert list(store) == ["agent:main:direct:x", "agent:main:direct:y"]


def test_budget_ties_keep_insertion_order(home):
    """Equal updatedAt: budget eviction (oldest first) goes in store order, so the first entry goes."""
    entries = entries_of(("agent:main:direct:x", "x", 0), ("agent:main:direct:y", "y", 0),
                         ("agent:main:direct:z", "z", 0))
    for entry in entries.values():
        entry["updatedAt"] = 1_700_000_000_000
    store = write_store(home, entries)
    for sid in "xyz":
        put(store.parent / f"{sid}.jsonl", 1000)
    run = Planned(store)
    run.budget(max_bytes=3000, high_water=2500)
    assert list(run.store) == ["agent:main:direct:y", "agent:main:direct:z"]
    assert run.removed() == {"x.jsonl"}


def test_budget_keeps_a_transcript_another_key_still_uses(home):
    """Shared sessionIds: evicting one of two keys on the same session leaves the transcript."""
    store = write_store(home, entries_of(("agent:main:direct:alias", "shared", DAY_MS),
                                         ("agent:main:main", "shared", 0)))
    put(store.parent / "shared.jsonl", 2000)
    run = Planned(store)
    result = run.budget(max_bytes=1000, high_water=800, active_key="agent:main:main")
    assert (result["removedEntries"], result["removedFiles"]) == (1, 0)
    assert run.removed() == set()


def test_a_topic_transcript_does_not_reference_the_plain_one(home):
    """An entry on `<sid>-topic-7.jsonl` leaves `<sid>.jsonl` unreferenced: an old one is swept."""
    entries = entries_of(("agent:main:telegram:group:-1:topic:7", "abc", 0))
    entries["agent:main:telegram:group:-1:topic:7"]["sessionFile"] = "abc-topic-7.jsonl"
    store = write_store(home, entries)
    put(store.parent / "abc-topic-7.jsonl", age_ms=40 * DAY_MS)
    put(store.parent / "abc.jsonl", age_ms=40 * DAY_MS)
    run = Planned(store)
    run.sweep()
    assert run.removed() == {"abc.jsonl"}


def test_archive_age_comes_from_the_name_not_the_mtime(home):
    """A freshly touched archive named 40 days ago goes; an old file named yesterday stays."""
    store = write_store(home, {})
    named_old = put(store.parent / f"a.jsonl.deleted.{stamp(40 * DAY_MS)}")
    named_new = put(store.parent / f"b.jsonl.deleted.{stamp(DAY_MS)}", age_ms=90 * DAY_MS)
    run = Planned(store)
    removed = archive.age_archives(run.paths, [str(store.parent)], [("deleted", 30 * DAY_MS)], now_ms())
    assert removed == 1
    assert run.removed() == {named_old.name}
    assert named_new.exists()


def test_orphan_age_comes_from_the_mtime(home):
    """Unreferenced transcripts, checkpoints and trajectories age by mtime: old ones go, fresh ones stay."""
    store = write_store(home, {})
    old = ["old.jsonl", f"old.checkpoint.{U1}.jsonl", "old.trajectory.jsonl"]
    for name in old:
        put(store.parent / name, age_ms=31 * DAY_MS)
    for name in ("new.jsonl", f"new.checkpoint.{U2}.jsonl", "new.trajectory.jsonl"):
        put(store.parent / name, age_ms=29 * DAY_MS)
    run = Planned(store)
    run.sweep(older_than_ms=30 * DAY_MS)
    assert run.removed() == set(old)


def test_the_total_may_stay_above_high_water_with_only_a_warning(home):
    """Everything left is protected: the run succeeds, reports overBudget and logs a warning."""
    write_config(home, {"maxDiskBytes": 500})
    store = write_store(home, entries_of((THREAD_KEY, "t", DAY_MS), ("agent:main:main", "main", 0)))
    put(store.parent / "t.jsonl", 1000)
    put(store.parent / "main.jsonl", 1000)
    outcome = cleanup(store, active_key="agent:main:main")
    disk = outcome.summaries[0]["diskBudget"]
    assert disk["overBudget"] is True and disk["removedEntries"] == 0
    assert disk["totalBytesAfter"] > disk["highWaterBytes"]
    assert ("warn", "session disk budget still above high-water target after cleanup") in outcome.logs
    assert len(read_store(store)) == 2


def test_high_water_is_clamped_to_max_and_defaults_to_80_percent():
    """highWaterBytes above maxDiskBytes is clamped to it; the default is floor(0.8 × max)."""
    assert resolve_maintenance({"maxDiskBytes": 1000, "highWaterBytes": 5000}).high_water_bytes == 1000
    assert resolve_maintenance({"maxDiskBytes": 1000}).high_water_bytes == 800
    assert resolve_maintenance({"maxDiskBytes": "1kb"}).high_water_bytes == 819
    assert resolve_maintenance({}).high_water_bytes is None


def test_all_agents_with_a_shared_store_prints_the_bare_summary(home):
    """`session.store` without `{agentId}`: every agent shares one store, so one target, bare JSON."""
    shared = home / "shared" / "sessions.json"
    write_config(home, session={"store": str(shared)},
                 agents={"list": [{"id": "main", "default": True}, {"id": "work"}]})
    shared.parent.mkdir()
    shared.write_text(json.dumps(entries_of(("agent:main:main", "m", 0)), indent=2))
    result = cli(home, "--all-agents", "--dry-run", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert "stores" not in summary
    assert (summary["storePath"], summary["beforeCount"]) == (str(shared), 1)


# ---------------------------------------------------------------------------------------
# The store lock (our deliberate safety behaviour)


def test_our_own_lock_changes_no_count_and_is_gone_afterwards(home, monkeypatch):
    """`<store>.lock` exists while we apply, yet scannedFiles and budget totals equal the dry run's."""
    from openclaw_cli.maintenance import execute as execute_mod

    write_config(home, {"maxDiskBytes": "1mb"})
    store = write_store(home, entries_of(("agent:main:main", "main", 0)))
    put(store.parent / "main.jsonl", 1000)
    put(store.parent / "young-orphan.jsonl", 500)
    lock = Path(f"{store}.lock")
    preview = previewed(store)
    seen = []
    real_execute = execute_mod.execute

    def execute_and_look(plan):
        seen.append(lock.exists())
        return real_execute(plan)

    monkeypatch.setattr(execute_mod, "execute", execute_and_look)
    summary = applied(store)
    assert seen == [True]
    assert summary["unreferencedArtifacts"]["scannedFiles"] == preview["unreferencedArtifacts"]["scannedFiles"] == 3
    assert summary["diskBudget"]["totalBytesBefore"] == preview["diskBudget"]["totalBytesBefore"]
    assert not lock.exists()


def test_a_live_foreign_lock_makes_the_run_wait_then_exit_75(home):
    """Another live process holds the lock: we wait `--wait` seconds, then exit 75 naming its pid."""
    store = write_store(home, entries_of(("agent:main:explicit:old", "old", 40 * DAY_MS)))
    lock = Path(f"{store}.lock")
    holder = os.getpid()  # this test process: alive, and not the CLI's own
    put(lock, json.dumps({"pid": holder, "startedAt": now_ms()}))  # touched now
    before = store.read_bytes()
    started = time.monotonic()
    result = cli(home, "--enforce", "--wait", "0.3", "--store", str(store))
    assert result.returncode == 75
    assert time.monotonic() - started >= 0.3
    assert f"process {holder}" in result.stderr
    assert store.read_bytes() == before
    assert lock.exists()


@pytest.mark.parametrize("why", ["dead pid", "older than 30 s"])
def test_a_stale_lock_is_taken_over(home, why):
    """A lock whose process is gone, or untouched for more than 30 s, does not block the run."""
    store = write_store(home, entries_of(("agent:main:explicit:old", "old", 40 * DAY_MS)))
    lock = Path(f"{store}.lock")
    pid = dead_pid() if why == "dead pid" else os.getppid()
    put(lock, json.dumps({"pid": pid, "startedAt": now_ms() - 60_000}),
        age_ms=60_000 if why == "older than 30 s" else 0)
    assert applied(store, lock_wait_s=0.2)["pruned"] == 1
    assert not lock.exists()


def test_a_fresh_live_lock_blocks_the_in_process_run_too(home):
    """run_cleanup raises LockBusyError (exit 75) instead of touching a store someone else holds."""
    store = write_store(home, entries_of(("agent:main:explicit:old", "old", 40 * DAY_MS)))
    put(Path(f"{store}.lock"), json.dumps({"pid": os.getppid(), "startedAt": now_ms()}))  # touched now
    with pytest.raises(LockBusyError) as err:
        cleanup(store, lock_wait_s=0.1)
    assert err.value.exit_code == 75
    assert len(read_store(store)) == 1

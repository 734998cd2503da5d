"""`sessions cleanup`: one test per behaviour pinned by OpenClaw 2026.7.1's own tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.cleanup import (
    DAY_MS,
    MIN_MS,
    MSG,
    THREAD_KEY,
    U1,
    U2,
    U3,
    Planned,
    applied,
    blob_rel,
    cli,
    entries_of,
    names,
    now_ms,
    previewed,
    put,
    read_store,
    set_age,
    stamp,
    write_config,
    write_store,
)
from helpers.references import every_file_era_release
from helpers.state import home_sessions_dir

from openclaw_cli.maintenance import steps
from openclaw_cli.maintenance.plan import preserve_keys
from openclaw_cli.store import artifacts, keys
from openclaw_cli.store.sessions_json import save_store

LABEL_SUMMARY = [
    "Summary by Label:",
    "(unlabeled)         1 kept, 2 pruned",
    "Cron: daily-commit  1 kept, 1 pruned",
    "red\\nline           1 kept, 0 pruned",
    "Unlabeled           0 kept, 1 pruned",
    "Total: 3 kept, 4 pruned",
]


pytestmark = pytest.mark.usefixtures("at_home")


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
    store = home_sessions_dir(home) / "sessions.json"
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
    folder = home_sessions_dir(home)
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
    store = home_sessions_dir(home) / "sessions.json"
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


@pytest.mark.parametrize("others", [(), ("live.trajectory.jsonl",), ("live.trajectory-path.json",)],
                         ids=["alone", "another-runtime-sidecar", "another-pointer"])
def test_a_stale_entry_takes_its_trajectory_sidecar_and_pointer_with_it(home, others):
    """The pruned session's `<sid>.trajectory.jsonl` and its pointer are deleted (fresh files, so not by the
    sweep); the live session's sidecar files stay."""
    store = write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS),
                                         ("agent:main:direct:live", "live", 0)))
    for name in ("old.jsonl", "live.jsonl", *others):
        put(store.parent / name)
    put(store.parent / "old.trajectory.jsonl", json.dumps({"traceSchema": "openclaw-trajectory"}) + "\n")
    pointer = {"traceSchema": "openclaw-trajectory-pointer", "schemaVersion": 1, "sessionId": "old",
               "runtimeFile": str(store.parent / "old.trajectory.jsonl")}
    put(store.parent / "old.trajectory-path.json", json.dumps(pointer))
    applied(store)
    left = names(store.parent)
    assert "old.trajectory.jsonl" not in left and "old.trajectory-path.json" not in left
    assert set(others) <= set(left) and "live.jsonl" in left


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
    sibling = put(home_sessions_dir(home, "work") / "ext.jsonl")
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


@pytest.mark.parametrize(("level", "shown"), [(None, True), ("info", True), ("warn", False), ("error", False)])
def test_the_maintenance_info_line_follows_the_log_level_as_openclaws_console_does(home, level, shown):
    """`[sessions/store] pruned stale session entries` is an info line: --log-level warn or error hides it."""
    write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS), ("agent:main:direct:new", "new", 0)))
    result = cli(home, *(["--log-level", level] if level else []))
    assert result.returncode == 0, result.stderr
    assert ("[sessions/store] pruned stale session entries" in result.stdout) is shown
    assert "Applied maintenance. Current entries: 1" in result.stdout


def test_at_a_terminal_an_applying_run_ends_with_what_it_removed_archived_and_freed(home):
    from helpers.cli import run_in_pty

    folder = write_store(home, entries_of(("agent:main:direct:old", "old", 40 * DAY_MS),
                                          ("agent:main:direct:new", "new", 0))).parent
    put(folder / "old.jsonl")
    put(folder / "orphan.jsonl", 2048, age_ms=40 * DAY_MS)
    text = run_in_pty(["sessions", "cleanup", "--enforce"], home, env={"OPENCLAW_GATEWAY_PORT": "1"})
    assert text.rstrip().splitlines()[-1] == (
        "Done: removed 1 entry (1 stale), archived 1 file, deleted 1 file, freed 2.05 KB.")
    piped = cli(home)
    assert "Done:" not in piped.stdout

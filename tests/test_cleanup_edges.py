"""`sessions cleanup` on the edge cases of the file era: odd stores, lost indexes, the store lock."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest
from helpers.cleanup import (
    DAY_MS,
    THREAD_KEY,
    U1,
    U2,
    Planned,
    applied,
    cleanup,
    cli,
    dead_pid,
    entries_of,
    names,
    now_ms,
    previewed,
    put,
    read_store,
    set_age,
    stamp,
    warn_mode_home,
    write_config,
    write_store,
)
from helpers.folders import folder_digest
from helpers.state import home_sessions_dir

from openclaw_cli.errors import CliError, LockBusyError, StoreError
from openclaw_cli.maintenance import archive, steps
from openclaw_cli.maintenance.settings import resolve_maintenance
from openclaw_cli.store.sessions_json import save_store

pytestmark = pytest.mark.usefixtures("at_home")


# ---------------------------------------------------------------------------------------
# §8 edge cases


def test_missing_default_store_dry_run_counts_zero_and_apply_creates_it(home):
    """No sessions.json at the default location: a dry run reports beforeCount 0; applying
    creates the folder and `{}`."""
    store = home_sessions_dir(home) / "sessions.json"
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
    with pytest.raises(CliError, match=r"^no session store at "):
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
    store = home_sessions_dir(home) / "sessions.json"
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
    folder = home_sessions_dir(home)
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
    folder = home_sessions_dir(home)
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
    folder = home_sessions_dir(home)
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
    folder = home_sessions_dir(home)
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
    folder = home_sessions_dir(home)
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
    result = cli(home, "--enforce", "--wait", "0.3", "--store", str(store), child_process=True)
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


@pytest.mark.parametrize("content", ["", "{", '{"startedAt": 1}'])
def test_a_lock_left_without_a_pid_by_a_killed_run_is_taken_over_after_two_seconds(home, content):
    """Killed between creating the lock and writing its pid, a run leaves a lock that names nobody:
    it no longer blocks the next run for 30 s (a deliberate difference from the old builds)."""
    store = write_store(home, entries_of(("agent:main:explicit:old", "old", 40 * DAY_MS)))
    lock = Path(f"{store}.lock")
    put(lock, content, age_ms=2_500)
    assert applied(store, lock_wait_s=0.2)["pruned"] == 1
    assert not lock.exists()


def test_a_lock_without_a_pid_that_was_just_made_still_blocks(home):
    """A lock created a moment ago may be about to get its pid: it is respected, not removed."""
    store = write_store(home, entries_of(("agent:main:explicit:old", "old", 40 * DAY_MS)))
    lock = Path(f"{store}.lock")
    put(lock, "")
    with pytest.raises(LockBusyError):
        cleanup(store, lock_wait_s=0.1)
    assert lock.exists() and len(read_store(store)) == 1


def test_a_fresh_live_lock_blocks_the_in_process_run_too(home):
    """run_cleanup raises LockBusyError (exit 75) instead of touching a store someone else holds."""
    store = write_store(home, entries_of(("agent:main:explicit:old", "old", 40 * DAY_MS)))
    put(Path(f"{store}.lock"), json.dumps({"pid": os.getppid(), "startedAt": now_ms()}))  # touched now
    with pytest.raises(LockBusyError) as err:
        cleanup(store, lock_wait_s=0.1)
    assert err.value.exit_code == 75
    assert len(read_store(store)) == 1

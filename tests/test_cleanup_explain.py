"""`sessions cleanup --dry-run --explain`: the rule behind every decision, as the plan made it."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from helpers.cleanup import DAY_MS, THREAD_KEY, U1, cli, now_ms, put, write_config, write_store
from helpers.cli import run_in_pty
from helpers.state import home_sessions_dir

pytestmark = pytest.mark.usefixtures("at_home")

ACTION_COUNTS = {"prune-stale": "pruned", "cap-overflow": "capped", "prune-missing": "missing",
                 "prune-model-run": "modelRunPruned", "retire-dm-scope": "dmScopeRetired",
                 "repair-session-file": "repaired"}


def generated(home: Path, seed: int) -> Path:
    """Stale, fresh, protected, per-peer DM, model-run and transcript-less entries with orphans beside them."""
    rng = random.Random(seed)
    now = now_ms()
    folder = home_sessions_dir(home)
    entries: dict[str, dict] = {}
    for i in range(rng.randint(30, 60)):
        sid = f"e{seed}-{i}"
        age = rng.choice([0, 3 * DAY_MS, 20 * DAY_MS, 45 * DAY_MS, 120 * DAY_MS])
        kind = rng.choice(["explicit", "explicit", "thread", "group", "dm", "model-run"])
        key = {"explicit": f"agent:main:explicit:x{i}", "thread": f"{THREAD_KEY}{i}",
               "group": f"agent:main:discord:group:g{i}", "dm": f"agent:main:telegram:direct:peer{i}",
               "model-run": f"agent:main:explicit:model-run-0f8fad5b-d9cb-469f-a165-70867728{i:04d}"}[kind]
        entries[key] = {"sessionId": sid, "updatedAt": now - age}
        if rng.random() < 0.85:
            put(folder / f"{sid}.jsonl", age_ms=age)
    for i in range(rng.randint(1, 5)):
        put(folder / f"lost-{i}.jsonl", rng.randint(5, 300), age_ms=rng.choice([DAY_MS, 40 * DAY_MS]))
    return write_store(home, entries)


def explained(home: Path, *args: str) -> dict:
    result = cli(home, "--dry-run", "--explain", "--json", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


SCENARIOS = {
    "age": ({}, ()),
    "cap": ({"maxEntries": 12}, ()),
    "budget": ({"maxDiskBytes": 6000, "highWaterBytes": 4000}, ()),
    "fixes": ({"maxEntries": 20}, ("--fix-missing", "--fix-dm-scope")),
    "active-key": ({"maxEntries": 5}, ("--active-key", "agent:main:explicit:x1")),
}


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_store_key_is_explained_once_and_the_actions_match_the_plan_s_counts(home, scenario, seed):
    maintenance, args = SCENARIOS[scenario]
    write_config(home, maintenance)
    store = generated(home, seed)
    summary = explained(home, *args)
    keys = [row["key"] for row in summary["explain"]]
    assert sorted(keys) == sorted(json.loads(store.read_text()))
    assert len(keys) == len(set(keys))
    actions = Counter(row["action"] for row in summary["explain"])
    for action, field in ACTION_COUNTS.items():
        assert actions[action] == summary[field], action
    budget = summary["diskBudget"]
    assert actions["evict-budget"] == (budget["removedEntries"] if budget else 0)
    removed = sum(n for a, n in actions.items() if a not in ("keep", "repair-session-file"))
    assert removed == summary["beforeCount"] - summary["afterCount"]
    assert all(row["reason"] for row in summary["explain"])


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_artifacts_removed_are_exactly_the_files_the_plan_counts(home, scenario):
    maintenance, args = SCENARIOS[scenario]
    write_config(home, maintenance)
    store = generated(home, 3)
    summary = explained(home, *args)
    removed = [a for a in summary["artifacts"] if a["action"] == "remove"]
    budget = summary["diskBudget"]
    assert len(removed) == (summary["unreferencedArtifacts"]["removedFiles"]
                            + (budget["removedFiles"] if budget else 0))
    on_disk = {str(p) for p in store.parent.rglob("*") if p.is_file()}
    assert {a["path"] for a in summary["artifacts"]} == on_disk
    assert all(a["reason"] and a["family"] for a in summary["artifacts"])


def test_reasons_carry_the_numbers_behind_each_rule(home):
    write_config(home, {"maxEntries": 3, "pruneAfter": "30d"})
    now = now_ms()
    entries = {"agent:main:explicit:old": {"sessionId": "old", "updatedAt": now - 41 * DAY_MS},
               "agent:main:explicit:a": {"sessionId": "a", "updatedAt": now - 1 * DAY_MS},
               "agent:main:explicit:b": {"sessionId": "b", "updatedAt": now - 2 * DAY_MS},
               "agent:main:explicit:c": {"sessionId": "c", "updatedAt": now - 3 * DAY_MS},
               THREAD_KEY: {"sessionId": U1, "updatedAt": now - 90 * DAY_MS}}
    store = write_store(home, entries)
    for sid in ("old", "a", "b", "c", U1):
        put(store.parent / f"{sid}.jsonl")
    put(store.parent / "orphan.jsonl", age_ms=45 * DAY_MS)
    summary = explained(home, "--active-key", "agent:main:explicit:b")
    reasons = {row["key"]: (row["action"], row["reason"]) for row in summary["explain"]}
    assert reasons["agent:main:explicit:old"] == ("prune-stale", "41d > pruneAfter 30d")
    assert reasons[THREAD_KEY][0] == "keep"
    assert reasons[THREAD_KEY][1].startswith("protected: thread conversation pointer")
    assert reasons["agent:main:explicit:b"][0] == "keep"
    assert "the --active-key session" in reasons["agent:main:explicit:b"][1]
    assert reasons["agent:main:explicit:a"] == (
        "keep", "younger than pruneAfter (1d < 30d); rank 1 of 2 unprotected, within maxEntries 3, 2 protected")
    assert reasons["agent:main:explicit:c"] == ("cap-overflow", "rank 2 of 2 unprotected, maxEntries 3, 2 protected")
    orphan = next(a for a in summary["artifacts"] if a["path"].endswith("/orphan.jsonl"))
    assert (orphan["family"], orphan["action"], orphan["reason"]) == (
        "unreferencedTranscripts", "remove", "unreferenced, 45d > pruneAfter 30d")
    assert orphan["ageMs"] >= 45 * DAY_MS


def test_the_kept_summary_answers_why_so_little_was_removed(home):
    """Most entries are old, but thread and group pointers are protected: the summary says so."""
    now = now_ms()
    entries = {f"{THREAD_KEY}{i}": {"sessionId": f"t{i}", "updatedAt": now - 60 * DAY_MS} for i in range(5)}
    entries.update({f"agent:main:discord:group:g{i}": {"sessionId": f"g{i}", "updatedAt": now - 60 * DAY_MS}
                    for i in range(3)})
    entries["agent:main:explicit:fresh"] = {"sessionId": "fresh", "updatedAt": now}
    entries["agent:main:explicit:old"] = {"sessionId": "old", "updatedAt": now - 60 * DAY_MS}
    write_store(home, entries)
    result = cli(home, "--dry-run", "--explain")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = lines.index("Why entries were kept:")
    assert lines[start + 1:] == [
        "  protected conversation pointers (never pruned by age or count): 8 (thread 5, group 3)",
        "  younger than pruneAfter (or no updatedAt): 1",
    ]
    header = next(line for line in lines if line.startswith("Action "))
    assert header.rstrip().endswith("Reason")


def test_without_explain_the_json_and_the_piped_text_have_no_reasons(home):
    write_config(home, {"maxEntries": 5})
    generated(home, 4)
    plain = cli(home, "--dry-run", "--json")
    assert "explain" not in json.loads(plain.stdout) and "artifacts" not in json.loads(plain.stdout)
    text = cli(home, "--dry-run").stdout
    assert "Reason" not in text and "Why entries were kept" not in text
    with_reasons = cli(home, "--dry-run", "--explain").stdout
    strip = re.compile(r"^(Action|keep|prune-|cap-|evict-|repair-|retire-).*$", re.M)
    assert strip.sub("", with_reasons).split("\n\nWhy entries were kept:")[0] == strip.sub("", text).rstrip("\n")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_an_applying_run_explains_what_it_did_and_the_files_it_names_are_the_ones_changed(home, scenario):
    maintenance, args = SCENARIOS[scenario]
    write_config(home, maintenance)
    store = generated(home, 6)
    keys = sorted(json.loads(store.read_text()))
    before = {str(p) for p in store.parent.rglob("*") if p.is_file()}
    result = cli(home, "--enforce", "--explain", "--json", *args)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert sorted(row["key"] for row in summary["explain"]) == keys
    actions = Counter(row["action"] for row in summary["explain"])
    for action, field in ACTION_COUNTS.items():
        assert actions[action] == summary[field], action
    # An applying run's beforeCount is the count after the fixes, as OpenClaw reports it.
    assert sum(n for a, n in actions.items() if a not in ("keep", "repair-session-file")) == (
        len(keys) - summary["afterCount"])
    assert sorted(json.loads(store.read_text())) == sorted(
        row["key"] for row in summary["explain"] if row["action"] in ("keep", "repair-session-file"))
    assert all(row["reason"] for row in summary["explain"])
    after = {str(p) for p in store.parent.rglob("*") if p.is_file()}
    changed = {a["path"] for a in summary["artifacts"] if a["action"] in ("remove", "archive")}
    assert changed & before == {p for p in before - after if not p.endswith(".lock")}
    # The rest are archives this run made and the disk budget then deleted.
    assert all(".deleted." in p and p not in after for p in changed - before)


def test_an_applying_run_prints_each_entry_s_action_and_rule_after_its_report(home):
    write_store(home, {"agent:main:explicit:old": {"sessionId": "old", "updatedAt": now_ms() - 41 * DAY_MS},
                       "agent:main:explicit:new": {"sessionId": "new", "updatedAt": now_ms()}})
    result = cli(home, "--enforce", "--explain")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = lines.index("Session actions:")
    assert lines[start + 1].startswith("keep                agent:main:explicit:new    younger than pruneAfter (")
    assert lines[start + 2] == "prune-stale         agent:main:explicit:old    41d > pruneAfter 30d"
    assert "Why entries were kept:" in lines


def test_at_a_terminal_the_plan_shows_the_reason_column_without_explain(home):
    write_store(home, {"agent:main:explicit:old": {"sessionId": "old", "updatedAt": now_ms() - 41 * DAY_MS}})
    text = run_in_pty(["sessions", "cleanup", "--dry-run"], home,
                      {"OPENCLAW_GATEWAY_PORT": "1", "NO_COLOR": "1", "COLUMNS": "200"})
    assert re.search(r"^Action .*Flags +Reason$", text, re.M), text
    assert re.search(r"^prune-stale .*41d > pruneAfter 30d$", text, re.M), text


def test_an_archive_is_as_old_as_the_timestamp_in_its_name_which_retention_judges(home):
    """A `.reset.<time>` archive from 10 days ago copied today (fresh mtime): 10 days old, as retention sees it."""
    from openclaw_cli.store.artifacts import format_archive_timestamp

    write_config(home, {"resetArchiveRetention": "7d"})
    now = now_ms()
    store = write_store(home, {"agent:main:explicit:a": {"sessionId": "a", "updatedAt": now}})
    put(store.parent / "a.jsonl")
    put(store.parent / f"old.jsonl.reset.{format_archive_timestamp(now - 10 * DAY_MS)}")
    put(store.parent / f"new.jsonl.reset.{format_archive_timestamp(now - 2 * DAY_MS)}", age_ms=20 * DAY_MS)

    def by_name(summary: dict) -> dict:
        return {Path(a["path"]).name.split(".")[0]: a for a in summary["artifacts"]}

    preview = by_name(explained(home))
    assert preview["old"]["action"] == "keep" and "only an applying run ages archives" in preview["old"]["reason"]
    assert 10 * DAY_MS <= preview["old"]["ageMs"] < 11 * DAY_MS
    assert 2 * DAY_MS <= preview["new"]["ageMs"] < 3 * DAY_MS
    result = cli(home, "--enforce", "--explain", "--json")
    assert result.returncode == 0, result.stderr
    applied = by_name(json.loads(result.stdout))
    assert (applied["old"]["action"], applied["old"]["reason"]) == (
        "remove", ".reset archive older than resetArchiveRetention (10d > 7d)")
    assert applied["new"]["action"] == "keep"
    assert not any(p.name.startswith("old.") for p in store.parent.iterdir())

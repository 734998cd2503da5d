"""Soundness of the differential harness: helpers, generator coverage, reference determinism."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers.diffcoverage import REQUIRED_CATEGORIES, case_features, classify_key, classify_transcript
from helpers.diffgen import (
    DAY,
    HOUR,
    MIN,
    Ages,
    case_seeds,
    edge_cases,
    format_time_ago,
    generate_case,
    parse_duration_ms,
)
from helpers.diffharness import (
    MASKED_TS,
    Case,
    DiffRunner,
    Normaliser,
    Snapshot,
    archive_ts,
    compare_snapshots,
    error_line,
    iso_ms,
    mask_archive_timestamps,
    materialize,
    run_case,
    save_reproducer,
    snapshot_tree,
)

SELF_CHECK_CASES = int(os.environ.get("OPENCLAW_DIFF_SELF_CASES", "12"))


# --------------------------------------------------------------------------- time formats

def test_iso_and_archive_timestamps_match_javascript() -> None:
    ms = 1771850096000  # Date.parse("2026-02-23T12:34:56.000Z")
    assert iso_ms(ms) == "2026-02-23T12:34:56.000Z"
    assert archive_ts(ms + 7) == "2026-02-23T12-34-56.007Z"


def test_format_time_ago_matches_the_reference_rules() -> None:
    assert format_time_ago(-1) == "unknown"
    assert format_time_ago(29_000) == "just now"
    assert format_time_ago(30_000) == "1m ago"
    assert format_time_ago(59 * MIN + 29_000) == "59m ago"
    assert format_time_ago(59 * MIN + 30_000) == "1h ago"
    assert format_time_ago(47 * HOUR) == "47h ago"
    assert format_time_ago(47 * HOUR + 30 * MIN) == "2d ago"
    assert format_time_ago(60 * HOUR) == "3d ago"


def test_duration_grammar_used_for_cutoffs() -> None:
    assert parse_duration_ms("7d") == 7 * DAY
    assert parse_duration_ms(7) == 7 * DAY
    assert parse_duration_ms("1d12h") == 36 * HOUR
    assert parse_duration_ms("1.5d") == 36 * HOUR
    assert parse_duration_ms("90m") == 90 * MIN
    assert parse_duration_ms("abc") is None
    assert parse_duration_ms(False) is None


def test_ages_keep_away_from_cutoffs_and_rounding_edges() -> None:
    import random
    ages = Ages(random.Random(1), [30 * DAY, DAY, 5 * MIN])
    assert not ages.safe(30 * DAY)
    assert not ages.safe(30 * DAY + 2 * MIN)
    assert ages.safe(30 * DAY + 10 * MIN)
    assert not ages.safe(DAY - MIN)
    assert not ages.safe(5 * MIN)
    assert ages.safe(2 * MIN - 29_000)
    assert not ages.safe(59 * MIN + 20_000)   # flips to "1h ago" within the slack
    assert ages.safe(12 * MIN - 29_000) and not ages.safe(12 * MIN)
    assert not ages.safe(-MIN)                # future, but too close to now
    for _ in range(300):
        age = ages.between(0, 400 * DAY)
        assert ages.safe(age)
        assert format_time_ago(age) == format_time_ago(age + 20_000)
        if 30_000 <= age < 55 * MIN:
            assert format_time_ago(age) == format_time_ago(age + 50_000)


# --------------------------------------------------------------------------- masking / snapshot

def _case(files: list[dict], **kw) -> Case:
    return Case(name="unit", files=files, runs=[["sessions", "cleanup"]], **kw)


def test_materialize_expands_placeholders_and_sets_every_mtime(tmp_path: Path) -> None:
    case = _case([
        {"path": "s/sessions.json", "role": "store", "age": 2 * HOUR,
         "json": {"agent:main:main": {"sessionId": "a", "updatedAt": {"$ago": 3 * DAY}}}},
        {"path": "s/a.jsonl.deleted.@TS(86400000)@", "text": "@HOME@ @ISO(0)@", "age": DAY, "mode": "600"},
        {"path": "s/link.jsonl", "symlink": "a.jsonl"},
        {"path": "s/sub", "dir": True, "mode": "700"},
    ], config={"session": {"maintenance": {"maxDiskBytes": {"$bytesOf": "s", "x": 0.5}}}})
    home = tmp_path / "home"
    mat = materialize(case, home, now_ms=1_800_000_000_000)
    store = json.loads((home / "s/sessions.json").read_text())
    assert store["agent:main:main"]["updatedAt"] == 1_800_000_000_000 - 3 * DAY
    archive = home / f"s/a.jsonl.deleted.{archive_ts(1_800_000_000_000 - DAY)}"
    assert archive.read_text() == f"{home} {iso_ms(1_800_000_000_000)}"
    assert oct(archive.stat().st_mode & 0o777) == "0o600"
    assert archive.stat().st_mtime_ns == (1_800_000_000_000 - DAY) * 1_000_000
    assert (home / "s/sessions.json").stat().st_mtime_ns == (1_800_000_000_000 - 2 * HOUR) * 1_000_000
    assert os.readlink(home / "s/link.jsonl") == "a.jsonl"
    assert oct((home / "s/sub").stat().st_mode & 0o777) == "0o700"
    config = json.loads((home / ".openclaw/openclaw.json").read_text())
    budget = config["session"]["maintenance"]["maxDiskBytes"]
    assert isinstance(budget, int) and budget > 0
    assert mat.tokens[str(1_800_000_000_000 - 3 * DAY)] == f"<now-{3 * DAY}>"


def test_snapshot_masks_new_archives_but_keeps_preexisting_ones(tmp_path: Path) -> None:
    case = _case([{"path": "s/a.jsonl.deleted.@TS(3600000)@", "text": "x", "age": HOUR},
                  {"path": "s/b.jsonl", "text": "b", "age": 2 * HOUR}])
    home = tmp_path / "home"
    mat = materialize(case, home)
    (home / "s/b.jsonl").rename(home / f"s/b.jsonl.deleted.{archive_ts(mat.now_ms + 1234)}")
    (home / "s/new.txt").write_text("fresh")
    tree = snapshot_tree(home, Normaliser(mat))
    assert f"s/a.jsonl.deleted.<ts:now-{HOUR}>" in tree
    assert f"s/b.jsonl.deleted.{MASKED_TS}" in tree
    assert tree[f"s/b.jsonl.deleted.{MASKED_TS}"]["mtime"] == f"<now-{2 * HOUR}>"   # rename keeps mtime
    assert tree["s/new.txt"]["mtime"] == "new"
    assert mask_archive_timestamps("x.jsonl.reset.2026-02-23T12-34-56.000Z") == f"x.jsonl.reset.{MASKED_TS}"
    assert mask_archive_timestamps("x.jsonl.bak.2026-02-23T12-34-56Z") == f"x.jsonl.bak.{MASKED_TS}"


def test_snapshots_of_two_materialisations_are_equal(tmp_path: Path) -> None:
    """Different 'now' values must normalise to the same snapshot."""
    case = generate_case(3)
    trees = []
    for now in (1_800_000_000_000, 1_800_000_004_321):
        home = tmp_path / "home"
        mat = materialize(case, home, now_ms=now)
        trees.append(snapshot_tree(home, Normaliser(mat)))
    assert trees[0] == trees[1]


def test_normaliser_maps_home_and_times_in_text_and_json(tmp_path: Path) -> None:
    mat = materialize(_case([{"path": "f", "text": "@MS(1000)@", "age": 0}]), tmp_path / "h", now_ms=10**12)
    norm = Normaliser(mat)
    assert norm.text(f"{tmp_path}/h/x {10**12 - 1000}") == "@HOME@/x <now-1000>"
    assert norm.text(f"{10**12 - 1000}5") == f"{10**12 - 1000}5"      # no partial-number matches
    assert norm.json({"updatedAt": 10**12 - 1000, "n": 3}) == {"updatedAt": "<now-1000>", "n": 3}


def _snap(**kw) -> Snapshot:
    base: dict[str, Any] = {"argv": ["x"], "exit": 0, "stdout": "{}\n", "stdout_json": {}, "stderr": "", "tree": {}}
    base.update(kw)
    return Snapshot(**base)


def test_compare_reports_each_kind_of_difference() -> None:
    same = _snap(tree={"a": {"type": "file", "size": 1, "text": "x"}})
    assert compare_snapshots(same, _snap(tree={"a": {"type": "file", "size": 1, "text": "x"}})) == []
    diffs = compare_snapshots(_snap(exit=0, stdout_json={"pruned": 1}, stdout='{"pruned": 1}'),
                              _snap(exit=1, stdout_json={"pruned": 2}, stdout='{"pruned": 2}'))
    assert any("exit code" in d for d in diffs)
    assert any("$.pruned: ref=1  ours=2" in d for d in diffs)
    raw = compare_snapshots(_snap(stdout='{"a": 1}\n'), _snap(stdout='{"a":1}\n'))
    assert raw and "raw text differs" in raw[0]
    tree = compare_snapshots(_snap(tree={"a": {"type": "file", "text": "1\n"}, "b": {"type": "dir"}}),
                             _snap(tree={"a": {"type": "file", "text": "2\n"}, "c": {"type": "dir"}}))
    assert any("only in ref" in d for d in tree) and any("only in ours" in d for d in tree)
    assert any("content differs" in d for d in tree)
    text = compare_snapshots(_snap(stdout="a\n", stdout_json=None), _snap(stdout="b\n", stdout_json=None))
    assert text[0] == "stdout differs:"


def test_stderr_is_compared_only_loosely() -> None:
    ref = _snap(exit=1, stderr="[sessions/store] noise\nError: --agent and --all-agents cannot be used together\n")
    assert error_line(ref.stderr) == "--agent and --all-agents cannot be used together"
    ok = _snap(exit=1, stderr="openclaw: --agent and --all-agents cannot be used together")
    bad = _snap(exit=1, stderr="something else")
    assert compare_snapshots(ref, ok) == []
    assert any("lacks the error message" in d for d in compare_snapshots(ref, bad))
    assert compare_snapshots(_snap(stderr="[warn] a"), _snap(stderr="")) == []


# --------------------------------------------------------------------------- generator

def test_cases_round_trip_through_json() -> None:
    for case in [generate_case(s) for s in range(5)] + edge_cases()[:5]:
        again = Case.from_json(case.to_json())
        assert again == case


def test_generator_is_deterministic() -> None:
    assert generate_case(42).to_json() == generate_case(42).to_json()
    assert generate_case(42).to_json() != generate_case(43).to_json()
    assert case_seeds(7, 3) == [700000, 700001, 700002]


def test_edge_cases_have_unique_readable_names() -> None:
    names = [c.name for c in edge_cases()]
    assert len(names) == len(set(names))
    assert all(n.startswith("edge-") for n in names)


def test_classifiers() -> None:
    assert "key:model-run" in classify_key("agent:main:explicit:model-run-" + "0" * 8 + "-0000-4000-8000-" + "0" * 12)
    assert "key:model-run-near-miss" in classify_key(" agent:main:explicit:model-run-" + "0" * 8 + "-0000-4000-8000-"
                                                     + "0" * 12)
    assert {"key:direct-per-account-channel-peer"} <= classify_key("agent:main:tg:acct:direct:bob")
    assert {"key:subagent-nested"} <= classify_key("agent:x:subagent:a:subagent:b")
    assert classify_transcript('{"type":"session"}\n') == "tr:header-only"
    assert classify_transcript("\n\n") == "tr:empty"
    assert classify_transcript('{"type":"session"}\n{bad\n') == "tr:unparseable"
    assert classify_transcript('{"role":"user"}\n') == "tr:messages"


def test_generator_covers_every_category_in_the_first_100_seeds() -> None:
    counts: Counter[str] = Counter()
    for seed in case_seeds(0, 100):
        counts.update(case_features(generate_case(seed)))
    missing = [c for c in REQUIRED_CATEGORIES if counts[c] == 0]
    assert not missing, f"categories never generated: {missing}"
    rare = sorted((counts[c], c) for c in REQUIRED_CATEGORIES)[:8]
    print("rarest categories:", rare)


def test_generated_stores_stay_small_except_a_few_large_ones() -> None:
    sizes = []
    for seed in case_seeds(0, 100):
        case = generate_case(seed)
        sizes += [len(n["json"]) for n in case.files if n.get("role") == "store" and isinstance(n.get("json"), dict)]
    assert max(sizes) <= 400
    assert sum(1 for s in sizes if s > 40) <= 10


# --------------------------------------------------------------------------- reference vs itself

@pytest.mark.reference
def test_reference_against_itself_is_deterministic(reference, tmp_path_factory) -> None:
    """Two materialisations and two reference runs per invocation give identical snapshots."""
    runner = DiffRunner(jobs=min(2, os.cpu_count() or 1))
    try:
        futures = [runner.submit(generate_case(seed), against="reference")
                   for seed in case_seeds(0, SELF_CHECK_CASES)]
        outcomes = [f.result() for f in futures]
    finally:
        runner.close()
    failures = [o for o in outcomes if not o.identical]
    if failures:
        repro = tmp_path_factory.mktemp("self-repro")
        pytest.fail("\n".join(o.report(save_reproducer(o, repro)) for o in failures))
    unexpected = [o.case.name for o in outcomes if o.reference_failed_unexpectedly]
    assert not unexpected, f"reference exited non-zero on generated cases: {unexpected}"
    assert all(len(o.invocations) == 3 for o in outcomes)


@pytest.mark.reference
def test_reference_self_check_detects_a_real_difference(reference, tmp_path: Path) -> None:
    """A harness that compared nothing would pass the determinism test too: make sure it can fail."""
    case = Case(name="unit-dry-vs-apply", files=[
        {"path": ".openclaw/agents/main/sessions/sessions.json", "role": "store", "age": HOUR,
         "json": {"agent:main:direct:old": {"sessionId": "old", "updatedAt": {"$ago": 40 * DAY}}}},
        {"path": ".openclaw/agents/main/sessions/old.jsonl", "text": "{}\n", "age": 40 * DAY}],
        runs=[["sessions", "cleanup", "--dry-run", "--json"]])
    outcome = run_case(case, tmp_path / "home", against="reference")
    assert outcome.identical, outcome.report()
    applied = Case.from_dict({**case.to_dict(), "runs": [["sessions", "cleanup", "--enforce", "--json",
                                                           "--store", "@HOME@/.openclaw/agents/main/sessions/"
                                                           "sessions.json"]]})
    a = run_case(applied, tmp_path / "home", against="reference").invocations[0].a
    dry = outcome.invocations[0].a
    diffs = compare_snapshots(dry, a)
    assert any("old.jsonl.deleted.<TS*>" in d for d in diffs)
    assert any("$.dryRun" in d for d in diffs)

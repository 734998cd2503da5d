"""`sessions cleanup --dry-run` on a SQLite-era agent: OpenClaw 2026.9.6's plan (text and JSON, every flag),
computed read-only from the database, compared with the 2026.9.6 CLI on states its Gateway wrote.

Each comparison runs both CLIs on separate fresh copies of the same state. Ages come from a clock moved
with libfaketime for both processes, so the plans have rows to archive and prune on any date.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import refbin, sqlite_gen
from helpers.cli import run
from helpers.folders import folder_digest
from helpers.sqlite_state import REAL_96_CLI, agent_db, copy_real_96

VERSION = refbin.SQLITE_ERA_VERSION


def _with_maintenance(state: Path, maintenance: dict | None) -> None:
    if maintenance is None:
        return
    config_path = state / "openclaw.json"
    config = json.loads(config_path.read_text())
    config.setdefault("session", {})["maintenance"] = maintenance
    config_path.write_text(json.dumps(config, indent=2))


def _both(tmp_path: Path, make_state, argv: list[str], maintenance: dict | None, offset: str | None
          ) -> tuple[refbin.Result, refbin.Result, Path, Path]:
    """2026.9.6's CLI and ours, each on its own copy of the state, under the same moved clock."""
    if not refbin.reference_available(VERSION):
        pytest.fail(refbin.missing_message(VERSION))
    homes = []
    for name in ("ref", "ours"):
        home = tmp_path / name
        _with_maintenance(make_state(home), maintenance)
        homes.append(home)
    env = sqlite_gen.clock_env_from(offset)  # one starting instant: both print the same ages
    args = [a.format(home="{home}") for a in argv]
    ref = refbin.run_reference([a.format(home=homes[0]) for a in args], homes[0], env, version=VERSION)
    ours = refbin.run_ours([a.format(home=homes[1]) for a in args], homes[1], env)
    return ref, ours, homes[0], homes[1]


def _same(ref: refbin.Result, ours: refbin.Result, ref_home: Path, ours_home: Path, json_out: bool) -> None:
    assert (ours.returncode, ours.stderr) == (ref.returncode, ""), ours.stderr
    assert ref.returncode == 0, ref.stdout + ref.stderr
    if json_out:
        ref_doc = json.loads(ref.stdout.replace(str(ref_home), "<HOME>"))
        ours_doc = json.loads(ours.stdout.replace(str(ours_home), "<HOME>"))
        assert ours_doc == ref_doc
    else:
        assert ours.stdout.replace(str(ours_home), "<HOME>") == ref.stdout.replace(str(ref_home), "<HOME>")


# -- the recorded fixture ---------------------------------------------------------------------------------


def _disk_masked(doc: dict) -> dict:
    for store in doc["stores"]:
        store["storePath"] = store["storePath"].split("/.openclaw/", 1)[1]
        store["diskBudget"]["totalBytesBefore"] = store["diskBudget"]["totalBytesAfter"] = None
    return doc


def _physical_bytes(state: Path, agent: str) -> int:
    db = agent_db(state, agent)
    sessions = state / "agents" / agent / "sessions"
    files = [db, Path(f"{db}-wal"), *(sessions.iterdir() if sessions.is_dir() else [])]
    return sum(path.stat().st_size for path in files if path.is_file())


def test_the_json_plan_equals_what_openclaw_2026_9_6_printed_on_the_fixture(tmp_path):
    home = tmp_path / "home"
    state = copy_real_96(home)
    result = run(["sessions", "cleanup", "--all-agents", "--dry-run", "--json"], home=home)
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)
    recorded = json.loads((REAL_96_CLI / "sessions-cleanup--all-agents--dry-run--json.json").read_text())
    # The fixture's databases were rewritten (paths scrubbed, VACUUM) after the run: sizes aside.
    assert [s["diskBudget"]["totalBytesBefore"] for s in ours["stores"]] == [
        _physical_bytes(state, "main"), _physical_bytes(state, "work")]
    assert _disk_masked(ours) == _disk_masked(recorded)


def _table_cells(lines: list[str]) -> list[list[str]]:
    """The table's rows, each cell's wrapped pieces joined, the Age column left out."""
    rows: list[list[str]] = []
    for line in lines:
        if not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip("│").split("│")]
        if cells[0] or not rows:
            rows.append(cells)
        else:
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells)]
    return [[cell for i, cell in enumerate(row) if i != 2] for row in rows]


def test_the_text_plan_has_the_lines_openclaw_2026_9_6_printed_on_the_fixture(tmp_path):
    home = tmp_path / "home"
    copy_real_96(home)
    result = run(["sessions", "cleanup", "--all-agents", "--dry-run"], home=home)
    assert result.returncode == 0, result.stderr
    recorded = (REAL_96_CLI / "sessions-cleanup--all-agents--dry-run.txt").read_text().splitlines()
    ours = result.stdout.replace(str(home), "/home/user").splitlines()

    def outside(lines: list[str]) -> list[str]:
        return [re.sub(r"disk budget: \d+ -> \d+", "disk budget: N -> N", line) for line in lines
                if not line.startswith(("│", "┌", "├", "└"))]

    assert outside(ours) == outside(recorded)
    assert _table_cells(ours) == _table_cells(recorded)


def test_the_dry_run_changes_no_byte_of_the_state(tmp_path):
    home = tmp_path / "home"
    state = copy_real_96(home)
    assert run(["sessions", "--all-agents"], home=home).returncode == 0  # -wal/-shm as a Gateway leaves them
    before = folder_digest(state)
    for argv in (["--all-agents", "--json"], ["--all-agents"], ["--fix-missing", "--fix-dm-scope", "--json"],
                 ["--store", f"{state}/agents/work/sessions/sessions.json"]):
        result = run(["sessions", "cleanup", "--dry-run", *argv], home=home)
        assert result.returncode == 0, result.stderr
    assert folder_digest(state) == before
    assert not (state / "agents" / "work" / "sessions").exists()


# -- differential runs on the fixture state -------------------------------------------------------------------

FIXTURE_RUNS = [
    (["--all-agents"], None, None),
    (["--all-agents", "--json"], None, "+40d"),
    (["--all-agents"], None, "+40d"),
    (["--all-agents", "--json"], {"pruneAfter": "1h"}, None),
    (["--json"], {"maxEntries": 2}, None),
    (["--agent", "work"], {"maxEntries": 2}, None),
    (["--all-agents", "--json"], {"maxDiskBytes": "1mb"}, None),
    (["--all-agents", "--json"], {"maxDiskBytes": "1mb", "mode": "warn"}, None),
    (["--json", "--active-key", "agent:main:scratchpad"], {"pruneAfter": "5h", "maxEntries": 1}, None),
    (["--all-agents", "--fix-missing", "--fix-dm-scope", "--json"], None, None),
    (["--store", "{home}/.openclaw/agents/work/sessions/sessions.json", "--json"],
     {"maxEntries": 3, "highWaterBytes": "500kb", "maxDiskBytes": "2mb"}, None),
]


@pytest.mark.reference
@pytest.mark.parametrize(("argv", "maintenance", "offset"), FIXTURE_RUNS,
                         ids=[" ".join(a) + f" {m} {o}" for a, m, o in FIXTURE_RUNS])
def test_the_plan_on_the_fixture_state_matches_openclaw_2026_9_6(tmp_path, argv, maintenance, offset):
    ref, ours, ref_home, ours_home = _both(tmp_path, copy_real_96, ["sessions", "cleanup", "--dry-run", *argv],
                                           maintenance, offset)
    _same(ref, ours, ref_home, ours_home, "--json" in argv)


# -- differential runs on states a 2026.9.6 Gateway generated ---------------------------------------------------


@pytest.fixture
def generated(generated_96_state: Path) -> Path:
    """The state a 2026.9.6 Gateway generated (helpers/gateway_fixtures.py), shared with the listing tests."""
    return generated_96_state


GENERATED_RUNS = [
    ([], None, None),
    (["--json"], None, None),
    ([], None, "+10d"),                          # stale dashboards archived
    (["--json"], None, "+40d"),                  # age retention: durable rows archived, synthetic ones pruned
    ([], {"pruneAfter": "20d"}, "+10d"),
    (["--json"], {"maxEntries": 3}, None),       # the cap: archive overflow, synthetic rows deleted, probes pruned
    ([], {"maxEntries": 3}, "+2d"),
    (["--json", "--active-key", "agent:main:notes-a"], {"maxEntries": 2}, "+40d"),
    (["--fix-missing", "--json"], None, None),
    (["--fix-missing", "--fix-dm-scope"], None, None),
    (["--json"], {"maxDiskBytes": "100kb", "highWaterBytes": "50kb"}, None),
    (["--json"], {"mode": "warn", "pruneAfter": "1d"}, "+3d"),
]


@pytest.mark.reference
@pytest.mark.gateway
@pytest.mark.parametrize(("argv", "maintenance", "offset"), GENERATED_RUNS,
                         ids=[" ".join(a) + f" {m} {o}" for a, m, o in GENERATED_RUNS])
def test_the_plan_on_a_generated_state_matches_openclaw_2026_9_6(generated, tmp_path, argv, maintenance, offset):
    ref, ours, ref_home, ours_home = _both(tmp_path, lambda home: sqlite_gen.copy_state(generated, home),
                                           ["sessions", "cleanup", "--dry-run", *argv], maintenance, offset)
    _same(ref, ours, ref_home, ours_home, "--json" in argv)


@pytest.mark.reference
@pytest.mark.gateway
def test_the_generated_plans_exercise_every_new_action(generated, tmp_path):
    """The runs above are not all "keep": the new archive actions and the deletions do occur."""
    seen: set[str] = set()
    for argv, maintenance, offset in [([], None, "+10d"), ([], None, "+40d"), ([], {"maxEntries": 3}, None),
                                      (["--fix-missing", "--fix-dm-scope"], None, None)]:
        home = tmp_path / f"run{len(seen)}-{offset}"
        _with_maintenance(sqlite_gen.copy_state(generated, home), maintenance)
        result = refbin.run_ours(["sessions", "cleanup", "--dry-run", *argv], home, sqlite_gen.clock_env(offset))
        assert result.returncode == 0, result.stderr
        seen |= set(re.findall(r"^│ ([a-z-]+) ", result.stdout, re.MULTILINE))
    assert {"archive-dashboard", "archive-age", "archive-cap", "prune-stale", "cap-overflow", "prune-missing",
            "retire-dm-scope", "keep"} <= seen


def _without_work_database(home: Path) -> Path:
    state = copy_real_96(home)
    for path in (state / "agents" / "work" / "agent").iterdir():
        path.unlink()
    return state


@pytest.mark.reference
@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_an_agent_without_a_database_beside_one_with_is_planned_as_empty_as_by_openclaw_2026_9_6(tmp_path,
                                                                                                   json_flag):
    ref, ours, ref_home, ours_home = _both(tmp_path, _without_work_database,
                                           ["sessions", "cleanup", "--dry-run", "--all-agents", *json_flag], None, None)
    _same(ref, ours, ref_home, ours_home, bool(json_flag))


def test_a_dry_run_over_sqlite_and_file_era_agents_stops_with_one_line(tmp_path):
    home = tmp_path / "home"
    state = _without_work_database(home)
    sessions = state / "agents" / "work" / "sessions"
    sessions.mkdir()
    (sessions / "sessions.json").write_text('{"agent:work:old": {"sessionId": "x", "updatedAt": 1}}')
    before = folder_digest(state)
    result = run(["sessions", "cleanup", "--dry-run", "--all-agents", "--json"], home=home)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        "agent main keeps its sessions in SQLite (OpenClaw 2026.8+) and work in sessions.json; "
        "one dry run reads one kind", "hint: run it for each agent (--agent ID)"]
    assert folder_digest(state) == before


def _with_leftover_files(home: Path) -> Path:
    """The fixture with files a migration or a crash may leave in `sessions/`, 50 days old: an orphan
    transcript, one a live row names, a trajectory, a `.migrated` original, a store temp file, a prompt
    blob nothing references, and a cold archive."""
    import os
    import time

    state = copy_real_96(home)
    folder = state / "agents" / "main" / "sessions"
    blob = folder / "skills-prompts" / "sha256" / "ab" / ("ab" * 32 + ".txt")
    blob.parent.mkdir(parents=True)
    (folder / "cold").mkdir()
    files = {folder / "old-orphan.jsonl": "{}\n", folder / "725bd506-bb02-4dae-bfe1-35c4c28b1073.jsonl": "x\n",
             folder / "other.trajectory.jsonl": "y\n", folder / "x.jsonl.migrated": "z\n",
             folder / "sessions.json.0f0e0d0c-1111-4222-8333-944455556666.tmp": "t\n", blob: "p\n",
             folder / "cold" / "c.jsonl.zst": "c\n"}
    old = time.time() - 50 * 86_400
    for path, text in files.items():
        path.write_text(text)
        os.utime(path, (old, old))
    return state


@pytest.mark.reference
@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_leftover_files_in_the_sessions_folder_are_counted_as_by_openclaw_2026_9_6(tmp_path, json_flag):
    ref, ours, ref_home, ours_home = _both(tmp_path, _with_leftover_files,
                                           ["sessions", "cleanup", "--dry-run", "--all-agents", *json_flag], None, None)
    _same(ref, ours, ref_home, ours_home, bool(json_flag))
    if json_flag:
        sweep = json.loads(ours.stdout)["stores"][0]["unreferencedArtifacts"]
        assert (sweep["scannedFiles"], sweep["removedFiles"]) == (6, 4)


def _with_pages_in_the_wal(home: Path) -> Path:
    """The fixture with the work database's last write still in its `-wal` (copied while a writer
    held it open, as a Gateway killed mid-run leaves it)."""
    import shutil

    import apsw

    state = copy_real_96(home)
    db = agent_db(state, "work")
    scratch = home / "scratch"
    scratch.mkdir()
    shutil.copy(db, scratch / db.name)
    writer = apsw.Connection(str(scratch / db.name))
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("CREATE TABLE test_pages (x BLOB) STRICT")
        writer.execute("INSERT INTO test_pages VALUES (randomblob(200000))")
        for suffix in ("", "-wal"):
            shutil.copy(f"{scratch / db.name}{suffix}", f"{db}{suffix}")
    finally:
        writer.close()
    shutil.rmtree(scratch)
    return state


@pytest.mark.reference
def test_pages_left_in_the_wal_count_in_the_disk_budget_as_in_openclaw_2026_9_6(tmp_path):
    ref, ours, ref_home, ours_home = _both(tmp_path, _with_pages_in_the_wal,
                                           ["sessions", "cleanup", "--dry-run", "--agent", "work", "--json"], None, None)
    _same(ref, ours, ref_home, ours_home, True)
    db = agent_db(ours_home / ".openclaw", "work")
    wal = Path(f"{db}-wal").stat().st_size
    assert wal > 0 and json.loads(ours.stdout)["diskBudget"]["totalBytesBefore"] == db.stat().st_size + wal


def _with_edited_rows(home: Path, edits: dict[str, dict[str, dict]]) -> Path:
    """The fixture with fields merged into some rows' entries, {agent: {key: fields}} (edited in
    place; the database's triggers queue them for the Gateway's validation)."""
    import apsw

    state = copy_real_96(home)
    for agent, rows in edits.items():
        db = apsw.Connection(str(agent_db(state, agent)))
        try:
            for key, fields in rows.items():
                ((text,),) = db.execute("SELECT entry_json FROM session_nodes WHERE session_key = ?", (key,))
                entry = {**json.loads(text), **fields}
                db.execute("UPDATE session_nodes SET entry_json = ? WHERE session_key = ?",
                           (json.dumps(entry, separators=(",", ":")), key))
        finally:
            db.close()
    return state


def _with_protected_rows(home: Path) -> Path:
    """The fixture with rows 2026.9.6 protects from age and cap: pinned, running, model-locked."""
    return _with_edited_rows(home, {
        "main": {"agent:main:scratchpad": {"pinnedAt": 1}, "agent:main:cron:nightly-report": {"status": "running"}},
        "work": {"agent:work:basalt-notes": {"modelSelectionLocked": True}}})


def _with_token_like_labels(home: Path) -> Path:
    """Labels that 2026.7.1's console masks: one inside an id-like word (`…81fc-…`, which 2026.9.6 prints
    whole) and one Firecrawl-style key standing alone (masked by both)."""
    return _with_edited_rows(home, {"main": {"agent:main:scratchpad": {"label": "run-81fc-460960d42325"},
                                             "agent:main:cron:nightly-report": {"label": "fc-A1b2C3d4E5f6G7h8"}}})


@pytest.mark.reference
def test_the_text_plan_masks_labels_as_openclaw_2026_9_6_does(tmp_path):
    ref, ours, ref_home, ours_home = _both(tmp_path, _with_token_like_labels,
                                           ["sessions", "cleanup", "--dry-run"], None, None)
    assert (ref.returncode, ours.returncode, ours.stderr) == (0, 0, "")
    sizes = re.compile(r"budget: \d+ -> \d+ bytes")  # the edit left the copies' WALs apart
    assert sizes.sub("", ours.stdout.replace(str(ours_home), "<HOME>")) == \
        sizes.sub("", ref.stdout.replace(str(ref_home), "<HOME>"))
    assert "run-81fc-460960d42325" in ours.stdout
    assert "fc-A1b2C3d4E5f6G7h8" not in ours.stdout and "fc-A1b" in ours.stdout


def _sizes_aside(doc: dict) -> dict:
    for store in doc["stores"]:
        store["diskBudget"]["totalBytesBefore"] = store["diskBudget"]["totalBytesAfter"] = None
    return doc


@pytest.mark.reference
def test_pinned_running_and_model_locked_rows_are_kept_as_by_openclaw_2026_9_6(tmp_path):
    ref, ours, ref_home, ours_home = _both(tmp_path, _with_protected_rows,
                                           ["sessions", "cleanup", "--dry-run", "--all-agents", "--json"],
                                           {"maxEntries": 1}, "+40d")
    assert (ref.returncode, ours.returncode, ours.stderr) == (0, 0, "")
    ref_doc = json.loads(ref.stdout.replace(str(ref_home), "<HOME>"))
    ours_doc = json.loads(ours.stdout.replace(str(ours_home), "<HOME>"))
    # 2026.9.6 validates the queued rows first, writing its database, and measures after; ours reads.
    assert _sizes_aside(ours_doc) == _sizes_aside(ref_doc)
    assert [s["archived"] for s in ours_doc["stores"]] == [0, 1]  # only work's raven-lumen ages out
    state = ours_home / ".openclaw"
    assert [s["diskBudget"]["totalBytesBefore"] for s in json.loads(ours.stdout)["stores"]] == [
        _physical_bytes(state, "main"), _physical_bytes(state, "work")]

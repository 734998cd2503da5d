"""doctor on SQLite-era state: each database opened untouched (quick_check, schema version, WAL
size, one that cannot be opened), and the migration verifier on states the real 2026.9.6 imported
from the real 2026.7.1 fixture, intact and damaged. Nothing on disk changes, -wal/-shm included."""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.folders import folder_digest
from helpers.sqlite_state import (
    REAL_96_CLI,
    agent_db,
    copy_real_96,
    migrate_real_71,
    swap_agent_dbs,
    write_db,
)

DB_CHECK = "core/doctor/session-sqlite"
MIGRATION = "core/doctor/session-sqlite-migration"
FIXTURE_A = "a436f897-7aca-4203-8405-66e524820219"  # agent:main:fixture-a, 6 lines
FIXTURE_B = "23c43962-55e8-4eb3-a2f8-b79cf1f70924"  # agent:main:fixture-b, 16 lines


def lint(home: Path) -> tuple[int, list[dict]]:
    result = run(["doctor", "--lint", "--json", "--severity-min", "info"], home=home)
    return result.returncode, json.loads(result.stdout)["findings"]


def ours(findings: list[dict], check_id: str) -> list[dict]:
    return [f for f in findings if f["checkId"] == check_id]


def human(home: Path) -> str:
    result = run(["doctor", "--non-interactive"], home=home)
    return result.stdout + result.stderr


@pytest.fixture(scope="module")
def migrated_template(tmp_path_factory) -> Path:
    """One import by the real 2026.9.6 per module; each test works on its own copy."""
    home = tmp_path_factory.mktemp("migrated") / "home"
    migrate_real_71(home)
    return home


@pytest.fixture
def migrated(migrated_template: Path, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    shutil.copytree(migrated_template, home, symlinks=True)
    return home


def archive(home: Path) -> Path:
    return home / ".openclaw" / "agents" / "main" / "session-sqlite-import-archive"


def archived_transcript(home: Path, sid: str) -> Path:
    [found] = [p for p in archive(home).iterdir() if f".{sid}.jsonl.imported-" in p.name]
    return found


def test_the_real_2026_9_6_state_has_healthy_databases_and_doctor_changes_no_byte(tmp_path):
    home = tmp_path / "home"
    state = copy_real_96(home)
    before = folder_digest(state)
    _, findings = lint(home)
    assert ours(findings, DB_CHECK) == [] and ours(findings, MIGRATION) == []
    text = human(home)
    assert "\nSession databases\n" not in text and "\nSession SQLite migration\n" not in text
    assert folder_digest(state) == before  # no -wal/-shm created beside a database that had none


def test_2026_9_6s_own_lint_on_the_same_state_reports_no_database_problem_either():
    recorded = json.loads((REAL_96_CLI / "doctor--lint--json.json").read_text())
    ids = {f["checkId"] for f in recorded["findings"]}
    assert not any("sqlite" in i or "database" in i or "session" in i for i in ids)


@pytest.mark.reference
def test_a_migrated_state_has_every_original_safe_to_retire_and_doctor_leaves_wal_and_shm(migrated):
    state = migrated / ".openclaw"
    before = folder_digest(state)
    assert {"agents/main/agent/openclaw-agent.sqlite-wal", "agents/main/agent/openclaw-agent.sqlite-shm"} <= set(before)
    _code, findings = lint(migrated)
    verdicts = ours(findings, MIGRATION)
    assert sorted((f["severity"], f["requirement"], f["path"]) for f in verdicts) == sorted(
        ("info", "verified_import_original", str(p)) for p in archive(migrated).iterdir()
        if p.name.startswith("agent_main_") and ".trajectory" not in p.name)
    assert any(f["message"] == "agent:main:main: all 32 lines are in the database, byte for byte." for f in verdicts)
    assert ours(findings, DB_CHECK) == []
    text = human(migrated)
    assert "Session SQLite migration" in text and "agent:main:fixture-b: all 16 lines are in the database" in text
    assert folder_digest(state) == before


@pytest.mark.reference
def test_an_event_missing_from_the_database_keeps_its_original(migrated):
    write_db(agent_db(migrated / ".openclaw"),
             f"DELETE FROM transcript_events WHERE session_id = '{FIXTURE_A}' AND seq = 5")
    state = migrated / ".openclaw"
    before = folder_digest(state)
    _code, findings = lint(migrated)
    [found] = [f for f in ours(findings, MIGRATION) if f["severity"] == "warning"]
    assert found["requirement"] == "sqlite_transcript_count_mismatch"
    assert found["message"] == "agent:main:fixture-a: SQLite transcript has 5 events; source has 6."
    assert found["path"] == str(archived_transcript(migrated, FIXTURE_A))
    assert found["fixHint"].startswith("Keep the original")
    assert "SQLite transcript has 5 events; source has 6." in human(migrated)
    assert folder_digest(state) == before


@pytest.mark.reference
def test_an_event_changed_in_the_database_is_reported_as_differing_from_its_line(migrated):
    write_db(agent_db(migrated / ".openclaw"),
             "UPDATE transcript_events SET event_json = replace(event_json, '\"type\"', '\"type\" '), "
             f"event_utf8_bytes = event_utf8_bytes + 1 WHERE session_id = '{FIXTURE_B}' AND seq = 2")
    _, findings = lint(migrated)
    [found] = [f for f in ours(findings, MIGRATION) if f["severity"] == "warning"]
    assert found["requirement"] == "sqlite_transcript_content_mismatch"
    assert found["message"] == "agent:main:fixture-b: event 2 differs from line 3 of the original (16 events, 16 lines)."
    safe = [f["message"].split(":")[2] for f in ours(findings, MIGRATION) if f["severity"] == "info"]
    assert sorted(safe) == ["fixture-a", "main"]


@pytest.mark.reference
def test_a_jsonl_never_imported_is_reported_as_missing_from_the_database(migrated):
    sid = str(uuid.UUID(int=7))
    sessions = migrated / ".openclaw" / "agents" / "main" / "sessions"
    lines = archived_transcript(migrated, FIXTURE_A).read_text().splitlines()
    (sessions / f"{sid}.jsonl").write_text("\n".join(lines).replace(FIXTURE_A, sid) + "\n")
    _, findings = lint(migrated)
    [found] = [f for f in ours(findings, MIGRATION) if f["severity"] == "warning"]
    assert found["requirement"] == "sqlite_transcript_missing"
    assert found["path"] == str(sessions / f"{sid}.jsonl")
    assert found["message"] == (f"{sid}: the database has no events for session {sid}; the original's 6 lines "
                                f"exist only in {sessions / f'{sid}.jsonl'}.")
    # the .jsonl.bak archive the import left in sessions/ is not an original
    assert not any(".bak." in f["path"] for f in ours(findings, MIGRATION))


@pytest.mark.reference
def test_a_sessions_json_left_beside_the_database_is_checked_key_by_key(migrated):
    [legacy] = [p for p in archive(migrated).iterdir() if p.name.startswith("legacy-store.sessions.json")]
    store = json.loads(legacy.read_text())
    store["agent:main:ghost"] = {"sessionId": str(uuid.UUID(int=9)), "updatedAt": 1}
    store["agent:main:fixture-b"]["sessionId"] = str(uuid.UUID(int=8))
    sessions_json = migrated / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"
    sessions_json.write_text(json.dumps(store))
    _, findings = lint(migrated)
    problems = {(f["requirement"], f["message"]) for f in ours(findings, MIGRATION) if f["severity"] == "warning"}
    assert problems == {
        ("sqlite_entry_missing", "SQLite entry is missing for agent:main:ghost."),
        ("sqlite_entry_mismatch", f"agent:main:fixture-b: SQLite sessionId {FIXTURE_B} does not match "
                                  f"{uuid.UUID(int=8)}."),
    }


def test_a_database_of_a_newer_schema_is_named_clearly(tmp_path):
    home = tmp_path / "home"
    state = copy_real_96(home)
    write_db(agent_db(state, "work"), "PRAGMA user_version = 99")
    write_db(state / "state" / "openclaw.sqlite", "PRAGMA user_version = 19")
    code, findings = lint(home)
    assert code == 1
    found = sorted((f["severity"], f["requirement"], f["message"], f["path"]) for f in ours(findings, DB_CHECK))
    assert found == [
        ("error", "schema_newer", "Agent work database was written by a newer OpenClaw (schema 99); this tool reads "
                                  "up to 23.", str(agent_db(state, "work"))),
        ("error", "schema_newer", "Global state database was written by a newer OpenClaw (schema 19); this tool "
                                  "reads up to 18.", str(state / "state" / "openclaw.sqlite")),
    ]
    assert ours(findings, MIGRATION) == []  # a database it cannot read is not compared
    assert "written by a newer OpenClaw (schema 99)" in human(home)


def test_a_database_that_cannot_be_opened_is_an_error_with_its_reason(tmp_path):
    home = tmp_path / "home"
    state = copy_real_96(home)
    agent_db(state, "work").write_bytes(b"this is not a database at all" * 200)
    code, findings = lint(home)
    [found] = ours(findings, DB_CHECK)
    assert (found["severity"], found["requirement"], found["path"]) == ("error", "sqlite_corrupt",
                                                                        str(agent_db(state, "work")))
    assert found["message"] == "Agent work database could not be opened: file is not a database."
    assert "openclaw doctor --session-sqlite recover" in found["fixHint"]
    assert code == 1


def test_a_damaged_page_fails_quick_check(tmp_path):
    import apsw

    home = tmp_path / "home"
    state = copy_real_96(home)
    db = agent_db(state)
    conn = apsw.Connection(str(db))
    [(root,)] = list(conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'transcript_events'"))
    conn.close()
    with open(db, "r+b") as handle:
        handle.seek((root - 1) * 4096 + 8)
        handle.write(b"\xff" * 64)
    before = folder_digest(state)
    code, findings = lint(home)
    [found] = ours(findings, DB_CHECK)
    assert found["requirement"] == "sqlite_integrity_check_failed" and found["severity"] == "error"
    assert found["message"].startswith(f"Agent main database: SQLite quick_check reported: Tree {root} page {root}")
    assert code == 1
    assert folder_digest(state) == before


def test_a_large_wal_is_a_warning_with_a_fix_hint_and_is_left_as_it_was(tmp_path):
    """A crash-consistent copy of a database whose writer is still open (the file, -wal and -shm):
    its WAL holds 70 MiB of frames no checkpoint has moved into the file."""
    import apsw

    home = tmp_path / "home"
    state = copy_real_96(home)
    db = agent_db(state)
    scratch = tmp_path / "writer.sqlite"
    shutil.copyfile(db, scratch)
    writer = apsw.Connection(str(scratch))
    writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
    writer.execute("CREATE TABLE ballast (b BLOB) STRICT")
    writer.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 70) "
                   "INSERT INTO ballast SELECT zeroblob(1024 * 1024) FROM n")
    shutil.copyfile(scratch, db)
    shutil.copyfile(str(scratch) + "-wal", str(db) + "-wal")
    shutil.copyfile(str(scratch) + "-shm", str(db) + "-shm")
    writer.close()
    before = folder_digest(state)
    _code, findings = lint(home)
    [found] = ours(findings, DB_CHECK)
    assert (found["severity"], found["requirement"], found["path"]) == ("warning", "wal_large", str(db) + "-wal")
    assert found["message"].startswith(f"Agent main database has a {(db.parent / (db.name + '-wal')).stat().st_size} "
                                       "byte write-ahead log, above OpenClaw's 67108864 byte limit")
    assert "openclaw doctor --session-sqlite compact" in found["fixHint"]
    # the WAL's frames were read (the sessions are there to compare) and nothing was checkpointed
    assert ours(findings, MIGRATION) == []
    assert "write-ahead log" in human(home)
    assert folder_digest(state) == before


@pytest.mark.reference
def test_a_newer_schema_is_a_lint_finding_where_2026_9_6_only_prints_a_warning_box(tmp_path):
    from helpers.refbin import SQLITE_ERA_VERSION, run_reference

    home = tmp_path / "home"
    state = copy_real_96(home)
    write_db(agent_db(state, "work"), "PRAGMA user_version = 99")
    theirs = run_reference(["doctor", "--lint", "--json", "--severity-min", "info"], home,
                           version=SQLITE_ERA_VERSION)
    box, _, doc = theirs.stdout.partition('{"schemaVersion"')
    assert "uses newer schema version 99; this build supports 23." in " ".join(
        line.strip("│ ") for line in box.splitlines())
    assert not any(str(agent_db(state, "work")) == f.get("path") for f in json.loads('{"schemaVersion"' + doc)["findings"])
    _, findings = lint(home)
    [found] = ours(findings, DB_CHECK)
    assert found["path"] == str(agent_db(state, "work")) and "(schema 99); this tool reads up to 23." in found["message"]


def test_doctor_fix_on_a_sqlite_era_config_keeps_2026_9_6_keys_and_removes_only_unknown_ones(tmp_path):
    """An invalid SQLite-era config: the keys 2026.9.6 knows (session.maintenance.preserveRecent,
    archiveDashboardAfter) are not "unknown" to doctor --fix; a key no release knows is removed."""
    home = tmp_path / "home"
    state = copy_real_96(home)
    config_path = state / "openclaw.json"
    config = json.loads(config_path.read_text())
    config.setdefault("session", {})["maintenance"] = {"preserveRecent": 3, "archiveDashboardAfter": "7d"}
    config["session"]["notAKeyAnywhere"] = True
    config_path.write_text(json.dumps(config, indent=2))
    result = run(["doctor", "--fix", "--non-interactive"], home=home)
    assert result.returncode in (0, 1), result.stderr
    after = json.loads(config_path.read_text())
    assert after["session"]["maintenance"] == {"preserveRecent": 3, "archiveDashboardAfter": "7d"}
    assert "notAKeyAnywhere" not in after["session"]


def test_a_database_in_another_agents_folder_names_its_owner_and_where_it_belongs(tmp_path):
    home = tmp_path / "home"
    state = copy_real_96(home)
    swap_agent_dbs(state, "main", "work")  # the two agents' databases swapped, with their WAL files
    _code, findings = lint(home)
    found = sorted((f["requirement"], f["message"], f["fixHint"]) for f in ours(findings, DB_CHECK))
    assert found == [
        ("agent_mismatch", "Agent main database belongs to agent 'work'; OpenClaw refuses to open it for this agent.",
         "Move it to agents/work/agent/ in the state folder: OpenClaw 2026.9.6 opens each agent's database there, "
         "whatever agentDir says."),
        ("agent_mismatch", "Agent work database belongs to agent 'main'; OpenClaw refuses to open it for this agent.",
         "Move it to agents/main/agent/ in the state folder: OpenClaw 2026.9.6 opens each agent's database there, "
         "whatever agentDir says."),
    ]

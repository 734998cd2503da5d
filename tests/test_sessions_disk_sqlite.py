"""`sessions disk` on a SQLite-era agent (OpenClaw 2026.8+): the database, its -wal/-shm, free pages,
session tables, archives and what is left beside it, read without changing a byte."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers.cli import run, run_in_pty
from helpers.folders import folder_digest
from helpers.sqlite_state import agent_db, write_db

from openclaw_cli.store.sqlite.connection import SUPPORTED_AGENT_SCHEMA

NO_GATEWAY = {"OPENCLAW_GATEWAY_PORT": "1"}
SESSION_TABLE_PREFIXES = ("session_", "transcript_", "trajectory_")


@pytest.fixture
def home(real_96_home: Path) -> Path:
    return real_96_home


def state(home: Path) -> Path:
    return home / ".openclaw"


def disk_json(home: Path, *args: str) -> list[dict]:
    result = run(["sessions", "disk", "--json", *args], home, NO_GATEWAY)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["agents"]


def files_below(folder: Path) -> dict[str, int]:
    out: dict[str, int] = {}
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
        for name in names:
            path = Path(root, name)
            if path.is_file() and not path.is_symlink():
                out[str(path)] = path.stat().st_size
    return out


def read_copy(db: Path, tmp_path: Path, sql: str) -> list[tuple]:
    """A query on a private copy of the database and its WAL (the original is never opened here)."""
    import apsw

    copy = tmp_path / "copy"
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir()
    for suffix in ("", "-wal"):
        if Path(f"{db}{suffix}").exists():
            shutil.copyfile(f"{db}{suffix}", copy / f"db.sqlite{suffix}")
    conn = apsw.Connection(str(copy / "db.sqlite"))
    try:
        return list(conn.execute(sql))
    finally:
        conn.close()


def test_each_agent_reports_its_database_and_the_families_add_up_to_the_files_on_disk(home):
    agents = disk_json(home, "--all-agents")
    assert [a["agentId"] for a in agents] == ["main", "work"]
    for agent in agents:
        db = agent_db(state(home), agent["agentId"])
        assert agent["era"] == "sqlite" and agent["storePath"] == str(db)
        fam = agent["families"]
        assert fam["database"] == {"files": 1, "bytes": db.stat().st_size}
        on_disk = {**files_below(db.parent), **files_below(db.parent.parent / "sessions")}
        assert agent["totalBytes"] == sum(on_disk.values())
        assert sum(f["bytes"] for f in fam.values()) == agent["totalBytes"]
        assert sum(f["files"] for f in fam.values()) == len(on_disk)
        assert agent["wouldFreeBytes"] is None
        assert agent["database"]["schemaVersion"] == SUPPORTED_AGENT_SCHEMA


def test_wal_and_shm_are_counted_as_they_are(home):
    db = agent_db(state(home))
    Path(f"{db}-wal").write_bytes(b"")
    Path(f"{db}-shm").write_bytes(b"\0" * 32768)
    fam = disk_json(home)[0]["families"]
    assert fam["wal"] == {"files": 1, "bytes": 0}
    assert fam["shm"] == {"files": 1, "bytes": 32768}
    assert fam["lockCompanions"]["files"] == 3


def test_free_pages_are_freelist_count_times_page_size(home, tmp_path):
    db = agent_db(state(home))
    write_db(db, "DELETE FROM trajectory_runtime_events")
    database = disk_json(home)[0]["database"]
    (free,), (page_size,), (pages,) = (read_copy(db, tmp_path, f"PRAGMA {p}")[0]
                                       for p in ("freelist_count", "page_size", "page_count"))
    assert free > 0
    assert (database["freePages"], database["pageSize"], database["pageCount"]) == (free, page_size, pages)
    assert database["freeBytes"] == free * page_size


def test_session_tables_have_their_rows_and_page_bytes(home, tmp_path):
    db = agent_db(state(home))
    database = disk_json(home)[0]["database"]
    tables = {t["name"]: t for t in database["sessionTables"]}
    assert {"session_nodes", "transcript_events", "session_windows"} <= set(tables)
    assert all(name.startswith(SESSION_TABLE_PREFIXES) for name in tables)
    for name in ("session_nodes", "transcript_events", "session_windows"):
        assert tables[name]["rows"] == read_copy(db, tmp_path, f"SELECT COUNT(*) FROM {name}")[0][0]
        assert tables[name]["bytes"] == tables[name]["pages"] * database["pageSize"] > 0
    dbstat = dict(read_copy(db, tmp_path, "SELECT m.tbl_name, SUM(s.pgsize) FROM dbstat s JOIN sqlite_master m "
                                          "ON m.name = s.name GROUP BY m.tbl_name"))
    assert tables["transcript_events"]["bytes"] == dbstat["transcript_events"]
    used = database["pageCount"] * database["pageSize"] - database["freeBytes"]
    assert sum(t["bytes"] for t in tables.values()) <= used


def test_archives_in_the_database_and_their_published_files_are_reported(home, tmp_path):
    db = agent_db(state(home))
    agent = disk_json(home)[0]
    (size,) = read_copy(db, tmp_path, "SELECT SUM(length(archive_blob)) FROM session_transcript_archives")[0]
    assert agent["database"]["archives"] == {"rows": 1, "bytes": size}
    published = list((state(home) / "agents" / "main" / "sessions").glob("*.zst"))
    assert agent["families"]["publishedArchives"] == {"files": 1, "bytes": published[0].stat().st_size}
    assert agent["database"]["coldArchives"] == {"rows": 0, "bytes": 0}


def test_files_left_after_a_migration_cold_files_and_the_import_archive_are_their_own_families(home):
    agent_dir = state(home) / "agents" / "main"
    sessions = agent_dir / "sessions"
    (sessions / "sessions.json").write_text("{}\n")
    (sessions / "old-session.jsonl").write_text("x" * 100)
    (sessions / "cold").mkdir()
    (sessions / "cold" / ("ab" * 32 + ".jsonl.zst")).write_bytes(b"z" * 70)
    (agent_dir / "session-sqlite-import-archive").mkdir()
    (agent_dir / "session-sqlite-import-archive" / "agent_main_x.jsonl").write_text("y" * 40)
    agent = disk_json(home)[0]
    assert agent["era"] == "sqlite"  # mid-migration: the database holds the sessions
    fam = agent["families"]
    assert fam["leftovers"] == {"files": 2, "bytes": 3 + 100}
    assert fam["coldFiles"] == {"files": 1, "bytes": 70}
    assert fam["importArchive"] == {"files": 1, "bytes": 40}
    left = {Path(item["path"]).name: (item["family"], item["bytes"]) for item in agent["database"]["leftovers"]}
    assert left == {"sessions.json": ("sessionsJson", 3), "old-session.jsonl": ("unreferencedTranscripts", 100)}


def test_the_largest_sessions_are_those_with_the_most_stored_transcript_bytes(home, tmp_path):
    db = agent_db(state(home))
    top = disk_json(home, "--top", "3")[0]["top"]
    stored = dict(read_copy(db, tmp_path, "SELECT session_id, SUM(COALESCE(length(CAST(event_json AS BLOB)), 0) "
                                          "+ COALESCE(length(event_zstd), 0)) FROM transcript_events GROUP BY 1"))
    assert [row["bytes"] for row in top] == sorted(stored.values(), reverse=True)[:3]
    assert all(stored[row["sessionId"]] == row["bytes"] for row in top)


def test_reading_leaves_every_file_byte_identical(home):
    before = folder_digest(state(home), mtimes=True)
    disk_json(home, "--all-agents")
    assert run(["sessions", "disk", "--all-agents"], home, NO_GATEWAY).returncode == 0
    assert folder_digest(state(home), mtimes=True) == before


def test_reading_while_the_wal_holds_frames_leaves_every_file_byte_identical(home):
    import apsw

    db = agent_db(state(home))
    writer = apsw.Connection(str(db))
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("DELETE FROM trajectory_runtime_events")
        assert os.path.getsize(f"{db}-wal") > 0
        before = folder_digest(state(home), mtimes=True)
        agent = disk_json(home)[0]
        assert folder_digest(state(home), mtimes=True) == before
        assert agent["families"]["wal"]["bytes"] == os.path.getsize(f"{db}-wal") > 0
        tables = {t["name"]: t for t in agent["database"]["sessionTables"]}
        assert tables["trajectory_runtime_events"]["rows"] == 0  # the WAL's frames were read
    finally:
        writer.close()


def test_piped_text_names_the_database_and_no_phantom_store(home):
    result = run(["sessions", "disk"], home, NO_GATEWAY)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    db = agent_db(state(home))
    assert lines[0] == f"Session database: {db} (OpenClaw 2026.8+, schema {SUPPORTED_AGENT_SCHEMA})"
    assert "sessions.json" not in result.stdout.split("Session table")[0].replace("left in sessions/", "")
    assert any(line.startswith("Pages: ") and ", free: 0 (0 bytes)" in line for line in lines)
    assert any(line.startswith("transcript_events ") for line in lines)
    assert "Archives in the database: 1 (" in result.stdout
    assert "Largest sessions (top 7):" in lines


def test_at_a_terminal_without_colour_the_database_view_has_no_escape_code(home):
    text = run_in_pty(["sessions", "disk"], home, {**NO_GATEWAY, "NO_COLOR": "1", "COLUMNS": "120"})
    assert "Session database: " in text and "Session table" in text and " KB" in text, text
    assert "\x1b" not in text


def test_a_database_of_a_newer_schema_is_refused_with_its_version(home):
    db = agent_db(state(home))
    write_db(db, f"PRAGMA user_version = {SUPPORTED_AGENT_SCHEMA + 1}")
    before = folder_digest(state(home))
    result = run(["sessions", "disk"], home, NO_GATEWAY)
    assert result.returncode == 1 and result.stdout == ""
    assert (f"written by a newer OpenClaw (schema {SUPPORTED_AGENT_SCHEMA + 1}); "
            f"this tool reads up to {SUPPORTED_AGENT_SCHEMA}") in result.stderr
    assert folder_digest(state(home)) == before


@pytest.mark.reference
def test_after_a_real_import_the_moved_originals_are_the_import_archive_and_nothing_changes(tmp_path):
    """The real 2026.9.6 imports the 2026.7.1 fixture (`doctor --session-sqlite import`): the agent is
    in the SQLite era, the originals it moved aside are counted, and the run leaves -wal/-shm as they are."""
    from helpers.sqlite_state import migrate_real_71

    home = tmp_path / "m"
    migrate_real_71(home)
    agent_dir = home / ".openclaw" / "agents" / "main"
    before = folder_digest(home / ".openclaw", mtimes=True)
    agent = disk_json(home)[0]
    assert folder_digest(home / ".openclaw", mtimes=True) == before
    assert agent["era"] == "sqlite"
    moved = files_below(agent_dir / "session-sqlite-import-archive")
    assert moved and agent["families"]["importArchive"] == {"files": len(moved), "bytes": sum(moved.values())}
    db = agent_db(home / ".openclaw")
    database_files = {p: n for p, n in files_below(agent_dir / "agent").items() if Path(p).name.startswith(db.name)}
    assert len(database_files) < len(files_below(agent_dir / "agent"))  # models.json is no session data
    on_disk = {**database_files, **files_below(agent_dir / "sessions"), **moved}
    assert agent["totalBytes"] == sum(on_disk.values())
    assert agent["families"]["wal"]["bytes"] == Path(f"{db}-wal").stat().st_size
    assert {row["key"] for row in agent["top"]} >= {"agent:main:fixture-a", "agent:main:fixture-b"}


def test_a_file_era_agent_beside_sqlite_era_ones_is_measured_from_its_folder(home):
    config = state(home) / "openclaw.json"
    cfg = json.loads(config.read_text())
    cfg["agents"]["list"].append({"id": "ops"})
    config.write_text(json.dumps(cfg))
    sessions = state(home) / "agents" / "ops" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "sessions.json").write_text(json.dumps({"agent:ops:main": {"sessionId": "s1", "updatedAt": 1}}))
    (sessions / "s1.jsonl").write_text("x" * 500)
    agents = {a["agentId"]: a for a in disk_json(home, "--all-agents")}
    assert (agents["main"]["era"], agents["work"]["era"], agents["ops"]["era"]) == ("sqlite", "sqlite", "files")
    assert agents["ops"]["families"]["liveTranscripts"] == {"files": 1, "bytes": 500}
    assert agents["ops"]["totalBytes"] == sum(files_below(sessions).values())
    assert "database" not in agents["ops"] and isinstance(agents["ops"]["wouldFreeBytes"], int)


def test_store_naming_a_sqlite_agent_s_sessions_folder_measures_its_database(home):
    store = state(home) / "agents" / "work" / "sessions" / "sessions.json"
    [agent] = disk_json(home, "--store", str(store))
    assert agent["era"] == "sqlite" and agent["agentId"] == "work"
    assert agent["storePath"] == str(agent_db(state(home), "work"))


def test_store_naming_the_database_itself_measures_what_the_default_store_does(home):
    """`--store …/agent/openclaw-agent.sqlite`: the sessions folder is the agent's `sessions/`, as the dry run
    takes it (not the database's own folder, whose files would be counted twice and budgeted)."""
    db = agent_db(state(home), "work")
    [by_path] = disk_json(home, "--store", str(db), "--agent", "work")
    [by_agent] = disk_json(home, "--agent", "work")
    assert {k: v for k, v in by_path.items() if k != "top"} == {k: v for k, v in by_agent.items() if k != "top"}
    assert by_path["families"]["leftovers"] == {"files": 0, "bytes": 0}
    assert by_path["budget"]["usedBytes"] == db.stat().st_size + sum(files_below(db.parent.parent / "sessions").values())

"""The SQLite-era store: which store an agent has, and the read-only reader of its database."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers.folders import folder_digest
from helpers.sqlite_state import agent_db, copy_real_96, write_db

from openclaw_cli.config.agents import Target
from openclaw_cli.errors import AgentDbRefusedError, StoreError
from openclaw_cli.store import era
from openclaw_cli.store.sqlite.connection import open_agent_db
from openclaw_cli.store.sqlite.entries import read_entries
from openclaw_cli.store.sqlite.transcript import read_events

# key → (transcript rows, of them zstd), from the fixture's README table.
MAIN_SESSIONS = {
    "agent:main:main": (39, 3),
    "agent:main:telegram:group:247614": (40, 1),
    "agent:main:telegram:group:247614:topic:40": (26, 1),
    "agent:main:cron:nightly-report": (3, 0),
    "agent:main:scratchpad": (42, 1),
    "agent:main:archived-idea": (26, 0),
    "agent:main:slack:channel:c9525": (26, 0),
}


def _target(state: Path, agent: str = "main") -> Target:
    return Target(agent, str(state / "agents" / agent / "sessions" / "sessions.json"))


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return copy_real_96(tmp_path)


def test_an_agent_with_only_a_database_is_in_the_sqlite_era(state):
    found = era.detect({}, _target(state))
    assert (found.era, found.in_sqlite) == (era.SQLITE, True)
    assert found.display_path == str(agent_db(state))


def test_an_agent_with_a_database_and_a_sessions_json_is_mid_migration(state):
    (state / "agents" / "work" / "sessions").mkdir()
    (state / "agents" / "work" / "sessions" / "sessions.json").write_text("{}")
    assert era.detect({}, _target(state, "work")).era == era.BOTH


def test_an_agent_with_only_sessions_json_is_in_the_file_era(tmp_path):
    sessions = tmp_path / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "sessions.json").write_text("{}")
    found = era.detect({}, _target(tmp_path))
    assert (found.era, found.display_path) == (era.FILES, str(sessions / "sessions.json"))


def test_an_agent_with_neither_has_no_store(tmp_path):
    assert era.detect({}, _target(tmp_path, "ghost")).era == era.NONE


def test_a_database_without_session_tables_does_not_make_the_sqlite_era(tmp_path):
    db = tmp_path / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    db.parent.mkdir(parents=True)
    write_db(db, "CREATE TABLE other(x)")
    assert era.detect({}, _target(tmp_path)).era == era.NONE


def test_a_configured_agent_dir_does_not_move_the_database(state, tmp_path):
    """As 2026.9.6: the database stays `<state>/agents/<id>/agent/openclaw-agent.sqlite` whatever
    `agentDir` says (tests/test_sqlite_list.py compares the listing with its CLI)."""
    moved = tmp_path / "elsewhere"
    shutil.copytree(agent_db(state, "work").parent, moved)
    for cfg in ({"agents": {"entries": {"work": {"agentDir": str(moved)}}}},
                {"agents": {"list": [{"id": "work", "agentDir": str(moved)}]}}, {}):
        found = era.detect(cfg, _target(state, "work"))
        assert (found.era, found.sqlite_path) == (era.SQLITE, str(agent_db(state, "work")))
    shutil.rmtree(agent_db(state, "work").parent)
    assert era.detect({"agents": {"list": [{"id": "work", "agentDir": str(moved)}]}}, _target(state, "work")).era \
        == era.NONE


def test_the_reader_returns_every_session_entry_in_key_order(state):
    with open_agent_db(str(agent_db(state)), "main") as db:
        entries = read_entries(db)
    assert [key for key, _ in entries] == sorted(MAIN_SESSIONS)
    main = dict(entries)["agent:main:main"]
    assert main["sessionId"].startswith("725bd506")
    assert main["participants"] == [{"identity": {"type": "observation", "pluginId": None, "accountId": None,
                                                  "senderKind": "unknown", "id": "cli"}}]
    assert main["participantCount"] == 1 and "skillsSnapshot" in main


def test_a_listing_read_leaves_out_the_prompt_snapshots(state):
    with open_agent_db(str(agent_db(state)), "main") as db:
        entry = dict(read_entries(db, listing=True))["agent:main:main"]
    assert "skillsSnapshot" not in entry and "systemPromptReport" not in entry


def test_the_reader_decodes_every_transcript_event_including_zstd_frames(state):
    with open_agent_db(str(agent_db(state)), "main") as db:
        entries = dict(read_entries(db))
        for key, (rows, compressed) in MAIN_SESSIONS.items():
            events = read_events(db, entries[key]["sessionId"])
            assert [e.seq for e in events] == list(range(rows)), key
            assert sum(e.compressed for e in events) == compressed, key
            objects = [json.loads(e.data) for e in events]
            assert objects[0]["type"] == "session" and objects[0]["id"] == entries[key]["sessionId"]
            assert all(isinstance(o, dict) and o.get("type") for o in objects), key


def _read_everything(state) -> None:
    for agent in ("main", "work"):
        with open_agent_db(str(agent_db(state, agent)), agent) as db:
            for _key, entry in read_entries(db):
                read_events(db, entry["sessionId"])
        era.detect({}, _target(state, agent))


def test_reading_leaves_every_file_of_the_state_byte_identical(state):
    """As a cleanly stopped Gateway leaves a database: an empty -wal and its 32 KiB -shm beside it."""
    for agent in ("main", "work"):
        Path(f"{agent_db(state, agent)}-wal").write_bytes(b"")
        Path(f"{agent_db(state, agent)}-shm").write_bytes(bytes(range(256)) * 128)
    before = folder_digest(state)
    _read_everything(state)
    assert folder_digest(state) == before


def test_reading_a_database_without_a_wal_creates_no_file_beside_it(state):
    before = folder_digest(state)
    assert not any(name.endswith(("-wal", "-shm")) for name in before)
    _read_everything(state)
    assert folder_digest(state) == before


def test_a_database_written_by_a_newer_openclaw_is_refused_with_its_schema(state):
    db = agent_db(state)
    write_db(db, "PRAGMA user_version = 24")
    with pytest.raises(StoreError) as caught, open_agent_db(str(db), "main"):
        pass
    assert caught.value.message == (f"{db} was written by a newer OpenClaw (schema 24); this tool reads up to 23")


def test_a_database_of_another_agent_or_role_is_refused(state):
    db = agent_db(state)
    with pytest.raises(AgentDbRefusedError) as in_folder, open_agent_db(str(db), "work"):
        pass
    assert in_folder.value.message == "SQLite session store path belongs to agent main; requested agent work."
    elsewhere = state / "elsewhere.sqlite"
    shutil.copyfile(db, elsewhere)
    with pytest.raises(AgentDbRefusedError) as mismatch, open_agent_db(str(elsewhere), "work"):
        pass
    assert mismatch.value.message == f"OpenClaw agent database {elsewhere} belongs to agent main; requested agent work."
    with open_agent_db(str(db), "main") as opened:  # the owner as recorded, compared as 2026.9.6 does
        assert opened.agent_id == "main"
    write_db(db, "DROP TRIGGER IF EXISTS x", "UPDATE schema_meta SET role = 'global'")
    with pytest.raises(AgentDbRefusedError, match=r"has schema role global; expected agent[.]$"), \
            open_agent_db(str(db), "main"):
        pass
    write_db(db, "UPDATE schema_meta SET role = 'agent', agent_id = NULL")
    with pytest.raises(AgentDbRefusedError, match=r"has no agent owner[.]$"), open_agent_db(str(db), "main"):
        pass
    write_db(db, "DELETE FROM schema_meta WHERE meta_key = 'primary'")
    with pytest.raises(AgentDbRefusedError, match=r"has no schema ownership metadata[.]$"), \
            open_agent_db(str(db), "main"):
        pass


def test_a_file_that_is_not_a_database_is_one_clear_error(tmp_path):
    db = tmp_path / "openclaw-agent.sqlite"
    db.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="not a database"), open_agent_db(str(db)):
        pass


def test_committed_rows_still_in_the_wal_are_read_while_a_writer_holds_its_lock(state):
    import apsw

    db = agent_db(state)
    writer = apsw.Connection(str(db))
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE session_nodes SET entry_json = json_set(entry_json, '$.label', 'from the wal') "
                       "WHERE session_key = 'agent:main:main'")
        assert os.path.getsize(f"{db}-wal") > 0
        main_file = (db.read_bytes(), os.path.getsize(f"{db}-wal"))
        writer.execute("BEGIN IMMEDIATE")  # a Gateway in the middle of a write
        with open_agent_db(str(db), "main") as opened:
            entry = dict(read_entries(opened))["agent:main:main"]
        assert entry["label"] == "from the wal"
        assert (db.read_bytes(), os.path.getsize(f"{db}-wal")) == main_file  # no checkpoint by the reader
        writer.execute("ROLLBACK")
    finally:
        writer.close()


def test_asking_which_store_an_agent_has_changes_no_file_while_its_wal_holds_frames(state):
    """A Gateway stopped under load may leave frames in the WAL: the probe still leaves -shm as it was."""
    import apsw

    db = agent_db(state)
    writer = apsw.Connection(str(db))
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE session_nodes SET updated_at = updated_at + 1 WHERE session_key = 'agent:main:main'")
        assert os.path.getsize(f"{db}-wal") > 0
        before = folder_digest(state)
        assert era.detect({}, _target(state, "main")).in_sqlite
        assert folder_digest(state) == before
    finally:
        writer.close()


def test_a_database_whose_schema_is_only_in_its_wal_is_still_found(tmp_path):
    import apsw

    db = tmp_path / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    db.parent.mkdir(parents=True)
    writer = apsw.Connection(str(db))
    try:
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("CREATE TABLE session_nodes (session_key TEXT PRIMARY KEY)")
        assert os.path.getsize(f"{db}-wal") > 0
        assert era.has_session_tables(str(db))
    finally:
        writer.close()

"""Store changes on a SQLite-era state (OpenClaw 2026.8+) with no Gateway running: one clear refusal
that says to start the Gateway, exit 1, and nothing written (no database, no sessions.json, no lock)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.folders import folder_digest
from helpers.gateway import closed_port
from helpers.state import sessions_dir, write_config

from openclaw_cli.config.agents import Target
from openclaw_cli.errors import StoreError
from openclaw_cli.store.era import refuse_sqlite

AGENTS = ("main", "work")


def _agent_database(path: Path, agent: str) -> None:
    """An agent database as OpenClaw 2026.9.6 lays it out (schema 23, its schema_meta row, one
    session row); the full state a real 2026.9.6 Gateway wrote is refused in test_gateway_sqlite_era.py."""
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as db:
        db.executescript(f"""
            PRAGMA journal_mode = WAL;
            PRAGMA user_version = 23;
            CREATE TABLE schema_meta (meta_key TEXT PRIMARY KEY, role TEXT, schema_version INTEGER,
                agent_id TEXT, app_version TEXT, created_at INTEGER, updated_at INTEGER) STRICT;
            INSERT INTO schema_meta VALUES ('primary', 'agent', 23, '{agent}', '2026.9.6', 1, 1);
            CREATE TABLE session_nodes (session_key TEXT PRIMARY KEY, current_session_id TEXT,
                entry_json TEXT NOT NULL, updated_at INTEGER) STRICT;
            INSERT INTO session_nodes VALUES ('agent:{agent}:main', 'sid-{agent}',
                '{{"sessionId":"sid-{agent}","updatedAt":1}}', 1);
        """)
    db.close()


@pytest.fixture
def sqlite_home(tmp_path: Path) -> Path:
    """A SQLite-era home: config, and each agent's sessions in agents/<id>/agent/openclaw-agent.sqlite."""
    home = tmp_path / "home"
    state = home / ".openclaw"
    write_config(state, {"agents": {"list": [{"id": "main", "default": True}, {"id": "work"}]}})
    for agent in AGENTS:
        _agent_database(state / "agents" / agent / "agent" / "openclaw-agent.sqlite", agent)
    return home


def _env() -> dict[str, str]:
    return {"OPENCLAW_GATEWAY_PORT": str(closed_port())}


def test_enforcing_cleanup_on_a_sqlite_era_state_without_a_gateway_says_to_start_it(sqlite_home: Path) -> None:
    before = folder_digest(sqlite_home)
    result = run(["sessions", "cleanup", "--enforce"], sqlite_home, _env())
    assert result.returncode == 1, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    database = sqlite_home / ".openclaw" / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    assert lines == [
        f"cannot apply session maintenance: {database} is an OpenClaw 2026.8+ session database, which only "
        "its Gateway changes, and no Gateway is running",
        "hint: start the Gateway (openclaw gateway run, or openclaw gateway start for the service), then run "
        "the command again"]
    assert folder_digest(sqlite_home) == before


def test_every_agent_of_a_sqlite_era_state_is_refused_before_any_is_touched(sqlite_home: Path) -> None:
    before = folder_digest(sqlite_home)
    result = run(["sessions", "cleanup", "--all-agents", "--json"], sqlite_home, _env())
    assert result.returncode == 1, result
    assert result.stdout == ""
    assert "openclaw-agent.sqlite is an OpenClaw 2026.8+ session database" in result.stderr
    assert not (sqlite_home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json").exists()
    assert not (sqlite_home / ".openclaw" / "agents" / "work" / "sessions").exists()
    assert folder_digest(sqlite_home) == before


def test_an_explicit_store_beside_an_agent_database_is_refused_with_the_flag_named(sqlite_home: Path) -> None:
    store = sessions_dir(sqlite_home / ".openclaw", "work") / "sessions.json"
    store.parent.mkdir(parents=True)
    store.write_text("{}\n")
    before = folder_digest(sqlite_home)
    result = run(["sessions", "cleanup", "--enforce", "--store", str(store)], sqlite_home, _env())
    assert result.returncode == 1, result
    assert "agents/work/agent/openclaw-agent.sqlite is an OpenClaw 2026.8+ session database" in result.stderr
    assert "hint: run the command again without --store, with the Gateway running" in result.stderr
    assert folder_digest(sqlite_home) == before


def test_a_dry_run_on_a_sqlite_era_state_is_not_refused(sqlite_home: Path) -> None:
    result = run(["sessions", "cleanup", "--dry-run", "--json"], sqlite_home, _env())
    assert "only its Gateway changes" not in result.stderr


def test_compact_on_a_sqlite_era_state_without_a_gateway_says_to_start_it(sqlite_home: Path) -> None:
    before = folder_digest(sqlite_home)
    result = run(["compact", "agent:main:main"], sqlite_home, _env())
    assert result.returncode == 1, result
    database = sqlite_home / ".openclaw" / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    assert result.stderr.splitlines() == [
        f"Compaction failed: cannot compact agent:main:main: {database} is an OpenClaw 2026.8+ session "
        "database, which only its Gateway changes, and no Gateway is running",
        "hint: start the Gateway (openclaw gateway run, or openclaw gateway start for the service), then run "
        "the command again"]
    assert folder_digest(sqlite_home) == before


def test_offline_compact_on_a_sqlite_era_state_is_refused_in_json_too(sqlite_home: Path) -> None:
    before = folder_digest(sqlite_home)
    result = run(["compact", "agent:main:main", "--offline", "--max-lines", "3", "--json"], sqlite_home, _env())
    assert result.returncode == 1, result
    reply = json.loads(result.stdout)
    assert reply["ok"] is False and reply["key"] == "agent:main:main"
    assert "is an OpenClaw 2026.8+ session database, which only its Gateway changes" in reply["error"]
    assert "hint: run the command again without --offline, with the Gateway running" in result.stderr
    assert folder_digest(sqlite_home) == before


def test_the_refusal_names_nothing_for_a_file_era_store(tmp_path: Path) -> None:
    state = tmp_path / ".openclaw"
    write_config(state, {})
    store = sessions_dir(state) / "sessions.json"
    store.parent.mkdir(parents=True)
    store.write_text("{}\n")
    target = [Target("main", str(store))]
    refuse_sqlite({}, target, "sessions cleanup", change="apply session maintenance")  # file era: no error
    database = state / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    database.parent.mkdir(parents=True)
    database.write_bytes(b"")  # an empty file is no session database either
    refuse_sqlite({}, target, "sessions cleanup", change="apply session maintenance")
    database.unlink()
    database.parent.rmdir()
    _agent_database(database, "main")
    with pytest.raises(StoreError) as refused:
        refuse_sqlite({}, target, "sessions cleanup", change="apply session maintenance")
    assert refused.value.exit_code == 1
    assert str(database) in refused.value.message and "no Gateway is running" in refused.value.message

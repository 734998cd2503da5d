"""`openclaw context` on a SQLite-era agent (OpenClaw 2026.9.6) against the real 9.6 Gateway's own
/context replies: the entry, its persisted run report and its transcript events come from the
agent database, read-only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.context import env_for, reference_part, run_context
from helpers.folders import folder_digest
from helpers.sqlite_state import REAL_96, agent_db, write_db

MAIN_ID = "725bd506-bb02-4dae-bfe1-35c4c28b1073"
# The detail reply was made before its own turn (seq 35 on) reached the transcript.
FIRST_ROW_AFTER_DETAIL = 35


def reply(name: str) -> str:
    return (REAL_96 / name).read_text(encoding="utf-8")


@pytest.fixture
def home(real_96_home: Path) -> Path:
    return real_96_home


def drop_rows_from(home: Path, seq: int) -> None:
    write_db(agent_db(home / ".openclaw"),
             f"DELETE FROM transcript_events WHERE session_id = '{MAIN_ID}' AND seq >= {seq}")


def test_list_matches_the_gateway(home):
    out = run_context(["list", "--offline"], env_for(home))
    assert out.returncode == 0, out.stderr
    assert reference_part(out.stdout) == reply("context-list.txt")


def test_list_plain_is_exactly_the_reply(home):
    out = run_context(["list", "--offline", "--plain"], env_for(home))
    assert out.stdout == reply("context-list.txt") + "\n"


def test_detail_matches_the_gateway(home):
    drop_rows_from(home, FIRST_ROW_AFTER_DETAIL)
    out = run_context(["detail", "--offline"], env_for(home))
    assert out.returncode == 0, out.stderr
    expected = reply("context-detail.txt")
    assert reference_part(out.stdout) == expected
    assert "Compactable transcript: 16 real conversation message(s) / 20 transcript message(s)" in expected


def test_detail_counts_the_turns_the_reply_did_not_see_when_they_are_there(home):
    out = run_context(["detail", "--offline", "--plain"], env_for(home))
    assert "Compactable transcript: 20 real conversation message(s) / 24 transcript message(s)" in out.stdout


def test_detail_extras_name_the_agent_database(home):
    drop_rows_from(home, FIRST_ROW_AFTER_DETAIL)
    out = run_context(["detail", "--offline"], env_for(home))
    extras = out.stdout.split("\n\n", 1)[1]
    assert extras.startswith("Source: the run report persisted on the session entry in the agent database.")
    assert "- toolResult: 4 message(s), ~41 tok" in extras
    assert "Largest tool results:\n- read: ~23 tok [entry ef072425-e9ac-490f-a028-7b71a882ac47]" in extras


def test_json_is_byte_identical(home):
    out = run_context(["json", "--offline"], env_for(home))
    assert out.returncode == 0, out.stderr
    assert out.stdout == reply("context-json.json") + "\n"
    assert list(json.loads(out.stdout)) == ["report", "session"]


def test_map_draws_the_run_report(home):
    out = run_context(["map", "--offline"], env_for(home))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Context treemap\nSource: run\n")


def test_every_mode_leaves_every_file_byte_identical(home):
    state = home / ".openclaw"
    before = folder_digest(state)
    for mode in ("list", "detail", "json", "map"):
        out = run_context([mode, "--offline"], env_for(home))
        assert out.returncode == 0, out.stderr
    assert folder_digest(state) == before


def test_a_wal_holding_frames_is_read_and_left_as_it_was(home):
    """A writer (as a running Gateway) keeps frames in the -wal: they are read, and no file but
    the -shm (SQLite's shared read marks) changes."""
    import apsw

    state = home / ".openclaw"
    writer = apsw.Connection(str(agent_db(state)))
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute(f"DELETE FROM transcript_events WHERE session_id = '{MAIN_ID}' "
                       f"AND seq >= {FIRST_ROW_AFTER_DETAIL}")
        wal = agent_db(state).parent / "openclaw-agent.sqlite-wal"
        assert wal.stat().st_size > 0
        before = {k: v for k, v in folder_digest(state).items() if not k.endswith("-shm")}
        out = run_context(["detail", "--offline"], env_for(home))
        assert out.returncode == 0, out.stderr
        assert reference_part(out.stdout) == reply("context-detail.txt")
        assert {k: v for k, v in folder_digest(state).items() if not k.endswith("-shm")} == before
    finally:
        writer.close()


def test_a_session_of_another_agent_is_read_from_its_own_database(home):
    out = run_context(["detail", "--offline", "--session", "agent:work:main"], env_for(home))
    assert out.returncode == 0, out.stderr
    assert "Session tokens (cached): 16,035 total / ctx=128,000" in out.stdout
    assert "Transcript (active branch, as the Gateway reads it):" in out.stdout


def test_an_unknown_session_names_the_agent_database(home):
    out = run_context(["list", "--offline", "--session", "nope"], env_for(home))
    assert out.returncode == 1
    assert "unknown session agent:main:nope in " in out.stderr
    assert str(agent_db(home / ".openclaw")) in out.stderr


def test_the_database_source_counts_as_its_events_written_as_a_file_do(home, tmp_path):
    from openclaw_cli.context.target import SqliteTranscript
    from openclaw_cli.context.transcript import scan_transcript
    from openclaw_cli.store.sqlite.connection import open_agent_db
    from openclaw_cli.store.sqlite.transcript import read_events

    db_path = str(agent_db(home / ".openclaw"))
    with open_agent_db(db_path, "main") as db:
        events = read_events(db, MAIN_ID)
    assert sum(e.compressed for e in events) == 3
    jsonl = tmp_path / f"{MAIN_ID}.jsonl"
    jsonl.write_bytes(b"".join(e.data + b"\n" for e in events))
    from_file = scan_transcript(str(jsonl))
    from_db = scan_transcript(SqliteTranscript(db_path, "main", MAIN_ID))
    assert (from_db.total, from_db.real, from_db.by_role) == (from_file.total, from_file.real, from_file.by_role)
    assert from_db.largest_tool_results == from_file.largest_tool_results
    assert from_db.file is None and from_file.file == str(jsonl)


def test_a_database_of_a_newer_schema_stops_context_with_its_version(home):
    write_db(agent_db(home / ".openclaw"), "PRAGMA user_version = 24")
    out = run_context(["list", "--offline"], env_for(home))
    assert out.returncode == 1
    assert "was written by a newer OpenClaw (schema 24); this tool reads up to 23" in out.stderr
    assert out.stdout == ""


def test_a_session_without_events_has_no_transcript_messages(home):
    drop_rows_from(home, 0)
    out = run_context(["detail", "--offline", "--plain"], env_for(home))
    assert out.returncode == 0, out.stderr
    assert "Compactable transcript: unavailable (no transcript messages found)" in out.stdout


COMPACTED_KEY = "agent:main:telegram:group:247614"  # compacted by 2026.9.6 (sessions.compact, LLM)
COMPACTED_ID = "8e478720-0bf4-4687-ba4c-bbfd66d4c662"


def _compaction_event(home: Path) -> tuple[int, dict]:
    from helpers.sqlite_state import stored_events

    events = stored_events(agent_db(home / ".openclaw"), COMPACTED_KEY)
    return next((seq, e) for seq, e in enumerate(events) if e.get("type") == "compaction")


def test_detail_plans_the_compaction_that_2026_9_6_made_from_the_events_before_it(home):
    """The session as it was when the Gateway compacted it: our planner, on its events, cuts where
    2026.9.6 cut and counts the tokens it counted."""
    from openclaw_cli.compact.planner import plan_compaction
    from openclaw_cli.compact.settings import resolve_settings
    from openclaw_cli.store.sqlite.connection import open_agent_db
    from openclaw_cli.store.sqlite.export import temporary_jsonl
    from openclaw_cli.transcript import load_index

    seq, compaction = _compaction_event(home)
    write_db(agent_db(home / ".openclaw"),
             f"DELETE FROM transcript_events WHERE session_id = '{COMPACTED_ID}' AND seq >= {seq}")
    out = run_context(["detail", "--offline", "--session", COMPACTED_KEY], env_for(home))
    assert out.returncode == 0, out.stderr
    line = out.stdout.rstrip("\n").split("\n")[-1]
    assert line.startswith("Compaction (keepRecentTokens 50): would summarise ")
    assert f"context now ~{compaction['tokensBefore']:,} tok" in line
    cfg = json.loads((home / ".openclaw" / "openclaw.json").read_text())
    with open_agent_db(str(agent_db(home / ".openclaw")), "main") as db, temporary_jsonl(db, COMPACTED_ID) as path:
        plan = plan_compaction(load_index(path), resolve_settings(cfg, context_window=128000))
    assert plan.first_kept_entry_id == compaction["firstKeptEntryId"]
    assert plan.cut.is_split_turn  # 2026.9.6 summarised the turn's prefix apart (compaction-requests.jsonl)
    assert f"would summarise {len(plan.history) + len(plan.turn_prefix)} message(s)" in line


def test_detail_of_a_compacted_session_says_what_a_further_compaction_frees(home):
    out = run_context(["detail", "--offline", "--session", COMPACTED_KEY], env_for(home))
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip("\n").split("\n")[-1].startswith("Compaction (keepRecentTokens 50): ")


def test_the_temporary_transcript_of_the_compaction_line_is_removed(home, tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    out = run_context(["detail", "--offline", "--session", COMPACTED_KEY], env_for(home, TMPDIR=str(tmp_path / "tmp")))
    assert out.returncode == 0, out.stderr
    assert "Compaction (keepRecentTokens 50)" in out.stdout
    assert list((tmp_path / "tmp").iterdir()) == []

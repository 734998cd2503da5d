"""`openclaw sessions export`: a SQLite-era transcript as a file-era JSONL file, every event intact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.folders import folder_digest
from helpers.sqlite_state import REAL_96, agent_db, copy_real_96

from openclaw_cli.store.sqlite.connection import open_agent_db
from openclaw_cli.store.sqlite.entries import read_entries
from openclaw_cli.store.sqlite.transcript import read_events
from openclaw_cli.transcript.index import load_index
from openclaw_cli.transcript.tree import scan_tree

MAX_LINES_COMPACTED = {"agent:main:cron:nightly-report"}  # rewritten to its last rows
LOG_CUT = 300  # replies at least this long may be cut in the generator's log


@pytest.fixture
def state_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    copy_real_96(home)
    return home


def _stored(home: Path, agent: str) -> dict[str, tuple[dict, list[bytes]]]:
    with open_agent_db(str(agent_db(home / ".openclaw", agent)), agent) as db:
        return {key: (entry, [e.data for e in read_events(db, entry["sessionId"])])
                for key, entry in read_entries(db)}


def _export_all(home: Path, agent: str, out: Path) -> list[dict]:
    out.mkdir(exist_ok=True)
    result = run(["sessions", "export", "--all", "--agent", agent, "--output", str(out), "--json"], home=home)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["exported"]


def _text(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")


def _turns(lines: list[dict]) -> list[tuple[str, str]]:
    """(user text, the last assistant text before the next user message) for each turn."""
    turns: list[list[str]] = []
    for line in lines:
        message = line.get("message") if line.get("type") == "message" else None
        if not message:
            continue
        if message.get("role") == "user":
            turns.append([_text(message), ""])
        elif message.get("role") == "assistant" and turns and _text(message):
            turns[-1][1] = _text(message)
    return [(u, a) for u, a in turns]


def test_every_event_is_written_as_stored_one_per_line(state_home, tmp_path):
    for agent in ("main", "work"):
        stored = _stored(state_home, agent)
        exported = _export_all(state_home, agent, tmp_path / f"out-{agent}")
        assert sorted(e["key"] for e in exported) == sorted(stored)
        for item in exported:
            entry, events = stored[item["key"]]
            data = Path(item["path"]).read_bytes()
            assert Path(item["path"]).name == f"{entry['sessionId']}.jsonl"
            assert data == b"".join(e + b"\n" for e in events)
            assert item["events"] == len(events)
    assert sum(e["compressedEvents"] for e in _export_all(state_home, "main", tmp_path / "again")) == 6


def test_the_exported_tree_is_intact_and_file_era_tools_read_it(state_home, tmp_path):
    exported = _export_all(state_home, "main", tmp_path / "out")
    for item in exported:
        lines = [json.loads(line) for line in Path(item["path"]).read_text().splitlines()]
        header, entries = lines[0], lines[1:]
        assert header["type"] == "session" and header["id"] == item["sessionId"]
        ids = [e["id"] for e in entries]
        assert len(set(ids)) == len(ids)
        seen: set[str] = set()
        for entry in entries:
            assert entry.get("parentId") is None or entry["parentId"] in seen, (item["key"], entry["id"])
            seen.add(entry["id"])
        index = load_index(item["path"])
        # A 2026.9 `reset` marker is not an entry the file-era reader indexes; all the others are.
        indexed = [e for e in entries if e["type"] != "reset"]
        assert (index.session_id, index.skipped_lines, len(index.entries)) == (item["sessionId"], 0, len(indexed))
        assert index.leaf_id == indexed[-1]["id"]
        tree = scan_tree(lines)
        assert len(tree.by_id) == len(entries)


def test_the_exported_conversation_is_the_one_the_gateway_answered(state_home, tmp_path):
    log = [json.loads(line) for line in (REAL_96 / "generator" / "rpc-log.jsonl").read_text().splitlines()]
    chats: dict[str, list[tuple[str, str]]] = {}
    for record in log:
        if "chat" in record and record.get("state") == "final":
            chats.setdefault(record["chat"], []).append((record["text"], record["reply"]))
    compared = 0
    for agent in ("main", "work"):
        for item in _export_all(state_home, agent, tmp_path / f"out-{agent}"):
            if item["key"] in MAX_LINES_COMPACTED:
                continue
            lines = [json.loads(line) for line in Path(item["path"]).read_text().splitlines()]
            # `/new` and `/reset` are recorded as user messages; the log has no reply for them.
            turns = [(u, a) for u, a in _turns(lines) if u not in ("/new", "/reset")]
            sent = [(t, r) for t, r in chats[item["key"]] if t not in ("/new", "/reset")]
            assert [u for u, _ in turns] == [t for t, _ in sent], item["key"]
            for (_, ours), (_, reply) in zip(turns, sent):
                # The log keeps the start of a long reply (the chat `final` event and the log cut it).
                assert ours == reply or (len(reply) >= LOG_CUT and ours.startswith(reply)), item["key"]
            compared += len(sent)
    assert compared > 50


def test_an_existing_file_is_kept_unless_forced(state_home, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    first = run(["sessions", "export", "agent:main:main", "--output", str(out)], home=state_home)
    assert first.returncode == 0 and first.stdout.startswith("Exported agent:main:main: 39 events (3 stored")
    target = next(out.iterdir())
    target.write_text("mine")
    again = run(["sessions", "export", "main", "--output", str(out)], home=state_home)
    assert again.returncode == 1 and again.stderr.startswith(f"{target} exists; nothing was written")
    assert target.read_text() == "mine"
    forced = run(["sessions", "export", "main", "--output", str(out), "--force"], home=state_home)
    assert forced.returncode == 0 and target.read_text().startswith('{"type":"session","version":4')
    assert sorted(p.name for p in out.iterdir()) == [target.name]


def test_export_changes_nothing_in_the_state(state_home, tmp_path):
    state = state_home / ".openclaw"
    assert run(["sessions", "--all-agents"], home=state_home).returncode == 0
    before = folder_digest(state)
    _export_all(state_home, "main", tmp_path / "out")
    assert folder_digest(state) == before


@pytest.mark.parametrize(("argv", "code", "message"), [
    (["sessions", "export"], 2, "give a session KEY or --all (not both)"),
    (["sessions", "export", "main", "--all"], 2, "give a session KEY or --all (not both)"),
    (["sessions", "export", "agent:main:nope"], 1, "unknown session agent:main:nope in "),
    (["sessions", "export", "--all", "--agent", "ghost"], 1, 'Unknown agent id "ghost"'),
    (["sessions", "export", "main", "--output", "/nonexistent/folder"], 1, "/nonexistent/folder is not a folder"),
])
def test_bad_requests_are_one_line_errors(state_home, argv, code, message):
    result = run(argv, home=state_home)
    assert result.returncode == code and result.stdout == ""
    assert message in result.stderr.splitlines()[0]


def test_a_file_era_agent_is_told_its_transcripts_are_jsonl_already(tmp_path):
    home = tmp_path / "home"
    sessions = home / ".openclaw" / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "sessions.json").write_text('{"agent:main:main": {"sessionId": "s", "updatedAt": 1}}')
    result = run(["sessions", "export", "main"], home=home)
    assert result.returncode == 1
    assert "has no SQLite session store" in result.stderr and "JSONL already" in result.stderr

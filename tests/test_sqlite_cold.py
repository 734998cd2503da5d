"""Sessions 2026.9.6 moved to cold storage (`session.maintenance.coldStorage`): their events leave
`transcript_events` for a zstd archive in `sessions/cold/`. A 2026.9.6 Gateway makes them here, on a copy
of the generated state, with the clock moved three days on; `sessions` lists them as 2026.9.6 lists them
(as any other session), `context` and `sessions export` read the archive (never restoring it) and
print what the Gateway prints once it has restored the session.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers import refbin, sqlite_gen
from helpers.cli import run
from helpers.context import as_replied, env_for, run_context
from helpers.folders import folder_digest
from helpers.gateway import SQLITE_ERA_VERSION, start_gateway
from helpers.sqlite_state import agent_db, last_reply, listing_text, wait_until_settled

pytestmark = [pytest.mark.reference, pytest.mark.gateway]

OFFSET = "+3d"
RESTORED = "agent:main:notes-a"  # asked for /context on the live Gateway, which restores it
COLD = "agent:main:notes-b"      # stays cold


@dataclass
class ColdState:
    """The state as the Gateway left it (stopped), and what was recorded while it ran."""

    home: Path
    hot_home: Path  # the generated state before cold storage
    replies: dict[str, str] = field(default_factory=dict)
    ours: dict[str, str] = field(default_factory=dict)


def _cold_rows(db: Path) -> list[tuple]:
    import apsw

    conn = apsw.Connection(f"file:{db}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        conn.set_busy_timeout(5000)
        return list(conn.execute("SELECT c.session_id, c.archive_name, c.storage, "
                                 "(SELECT count(*) FROM transcript_events e WHERE e.session_id = c.session_id) "
                                 "FROM session_transcript_cold_archives c"))
    finally:
        conn.close()


def _session_id(home: Path, key: str) -> str:
    from helpers.sqlite_state import stored_events

    return stored_events(agent_db(home / ".openclaw"), key)[0]["id"]


@pytest.fixture(scope="module")
def cold(generated_96_state: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ColdState]:
    base = tmp_path_factory.mktemp("cold-9.6")
    hot_home = base / "hot"
    sqlite_gen.copy_state(generated_96_state, hot_home)
    state = sqlite_gen.copy_state(generated_96_state, base / "home")
    config = json.loads((state / "openclaw.json").read_text())
    config.setdefault("session", {}).setdefault("maintenance", {})["coldStorage"] = {"enabled": True, "afterDays": 1}
    (state / "openclaw.json").write_text(json.dumps(config, indent=2))
    try:
        gateway = start_gateway(base, auth="token", version=SQLITE_ERA_VERSION, ready_timeout=240,
                                extra_env=refbin.faketime_env(OFFSET))
    except RuntimeError as exc:
        pytest.fail(str(exc))
    recorded = ColdState(gateway.home, hot_home)
    try:
        ids = {_session_id(hot_home, key) for key in (RESTORED, COLD)}
        deadline = time.monotonic() + 120
        while not ids <= {row[0] for row in _cold_rows(agent_db(state))}:
            assert time.monotonic() < deadline, "the Gateway moved no transcript to cold storage"
            time.sleep(1)
        for mode in ("detail", "json"):  # ours on the archive first, then the Gateway, which restores it
            args = [mode, "--session", RESTORED, "--offline"] + (["--plain"] if mode == "detail" else [])
            mine = run_context(args, env_for(gateway.home))
            assert mine.returncode == 0, mine.stderr
            recorded.ours[mode] = as_replied(mine.stdout.rstrip("\n"))
            sender = sqlite_gen.client_connection(gateway, "chat.send", base / "client")
            from openclaw_cli.gateway.rpc import chat_send

            sent = chat_send({"sessionKey": RESTORED, "message": f"/context {mode}"}, connection=sender,
                             timeout_ms=120_000)
            assert sent.final is not None and sent.final.get("state") == "final", sent.final
            recorded.replies[mode] = last_reply(agent_db(state), RESTORED)
            wait_until_settled(agent_db(state), RESTORED)  # the turn's entry update comes after the reply
    finally:
        gateway.stop()
    yield recorded


def _copy(cold: ColdState, home: Path) -> Path:
    shutil.copytree(cold.home / ".openclaw", home / ".openclaw", symlinks=True,
                    ignore=shutil.ignore_patterns("cache", "logs", "tmp", "plugin-skills"))
    return home


def test_the_gateway_moved_transcripts_to_archives_in_sessions_cold(cold):
    rows = {row[0]: row for row in _cold_rows(agent_db(cold.home / ".openclaw"))}
    session_id = _session_id(cold.hot_home, COLD)
    _, name, storage, events_left = rows[session_id]
    assert (storage, events_left) == ("file", 0)
    assert (cold.home / ".openclaw" / "agents" / "main" / "sessions" / "cold" / name).is_file()


def test_context_on_a_cold_session_prints_what_the_gateway_prints_once_it_restored_it(cold):
    assert cold.ours["detail"] == cold.replies["detail"]
    assert "Compactable transcript: 2 real conversation message(s) / 2 transcript message(s)" in cold.replies["detail"]
    assert cold.ours["json"] == cold.replies["json"]


def test_context_detail_says_the_transcript_is_read_from_cold_storage(cold, tmp_path):
    home = _copy(cold, tmp_path / "home")
    before = folder_digest(home / ".openclaw")
    out = run_context(["detail", "--offline", "--session", COLD], env_for(home))
    assert out.returncode == 0, out.stderr
    assert "Transcript: in cold storage (session.maintenance.coldStorage); read from its archive" in out.stdout
    assert "Compactable transcript: 2 real conversation message(s) / 2 transcript message(s)" in out.stdout
    assert "Compaction (keepRecentTokens " in out.stdout
    assert folder_digest(home / ".openclaw") == before


@pytest.mark.parametrize("argv", [["sessions", "--json"], ["sessions"]])
def test_the_listing_of_a_state_with_cold_sessions_matches_openclaw_2026_9_6(cold, tmp_path, argv):
    homes = [_copy(cold, tmp_path / "ref"), _copy(cold, tmp_path / "ours")]
    env = sqlite_gen.clock_env_from(OFFSET)
    ref = refbin.run_reference(argv, homes[0], env, version=refbin.SQLITE_ERA_VERSION)
    ours = refbin.run_ours(argv, homes[1], env)
    assert (ref.returncode, ours.returncode) == (0, 0), ref.stderr + ours.stderr
    if "--json" in argv:
        ref_doc = json.loads(ref.stdout.replace(str(homes[0]), "<HOME>"))
        assert COLD in [row["key"] for row in ref_doc["sessions"]]
        assert json.loads(ours.stdout.replace(str(homes[1]), "<HOME>")) == ref_doc
    else:
        assert ours.stdout.replace(str(homes[1]), "<HOME>") == listing_text(ref).replace(str(homes[0]), "<HOME>")
        assert f"Sessions listed: {len(sqlite_gen.KEYS) + 1}" in ours.stdout


def test_export_of_a_cold_session_writes_the_transcript_it_had_before(cold, tmp_path):
    home = _copy(cold, tmp_path / "home")
    before = folder_digest(home / ".openclaw")
    out_cold, out_hot = tmp_path / "cold", tmp_path / "hot"
    out_cold.mkdir()
    out_hot.mkdir()
    result = run(["sessions", "export", COLD, "--output", str(out_cold), "--json"], home=home)
    assert result.returncode == 0, result.stderr
    (exported,) = json.loads(result.stdout)["exported"]
    assert exported["cold"] is True and exported["events"] >= 4
    hot = run(["sessions", "export", COLD, "--output", str(out_hot)], home=cold.hot_home)
    assert hot.returncode == 0, hot.stderr
    name = f"{_session_id(cold.hot_home, COLD)}.jsonl"
    assert (out_cold / name).read_bytes() == (out_hot / name).read_bytes()
    assert folder_digest(home / ".openclaw") == before
    text = run(["sessions", "export", COLD, "--output", str(out_cold), "--force"], home=home)
    assert f"events (from its cold-storage archive) -> {out_cold / name}" in text.stdout


def test_a_cold_archive_that_fails_verification_stops_context_and_export(cold, tmp_path):
    home = _copy(cold, tmp_path / "home")
    rows = {row[0]: row for row in _cold_rows(agent_db(home / ".openclaw"))}
    archive = home / ".openclaw" / "agents" / "main" / "sessions" / "cold" / rows[_session_id(cold.hot_home, COLD)][1]
    data = bytearray(archive.read_bytes())
    data[-1] ^= 0xFF
    archive.write_bytes(bytes(data))
    for args in (["context", "detail", "--offline", "--session", COLD], ["sessions", "export", COLD]):
        result = run(args, home=home, cwd=tmp_path)
        assert result.returncode == 1, args
        assert "failed verification (size or sha256)" in result.stderr
    archive.unlink()
    result = run(["sessions", "export", COLD], home=home, cwd=tmp_path)
    assert result.returncode == 1 and "is missing or unreadable" in result.stderr


def test_an_archive_kept_in_its_row_is_read_as_the_file_is(cold, tmp_path):
    """2026.9.6 may keep the archive in the row (`storage = 'sqlite'`, the blob) until it writes the file."""
    from helpers.sqlite_state import write_db

    home = _copy(cold, tmp_path / "home")
    session_id = _session_id(cold.hot_home, COLD)
    name = {row[0]: row for row in _cold_rows(agent_db(home / ".openclaw"))}[session_id][1]
    archive = home / ".openclaw" / "agents" / "main" / "sessions" / "cold" / name
    write_db(agent_db(home / ".openclaw"), "UPDATE session_transcript_cold_archives SET storage = 'sqlite', "
             f"archive_blob = x'{archive.read_bytes().hex()}' WHERE session_id = '{session_id}'")
    archive.unlink()
    for where, source in (("row", home), ("hot", cold.hot_home)):
        (tmp_path / where).mkdir()
        result = run(["sessions", "export", COLD, "--output", str(tmp_path / where)], home=source)
        assert result.returncode == 0, result.stderr
    assert (tmp_path / "row" / f"{session_id}.jsonl").read_bytes() == (tmp_path / "hot" / f"{session_id}.jsonl").read_bytes()

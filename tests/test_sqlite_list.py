"""`openclaw sessions` on a SQLite-era (2026.9.6) state: the same rows as OpenClaw 2026.9.6 lists."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from helpers import refbin
from helpers.cli import run
from helpers.folders import folder_digest
from helpers.sqlite_state import REAL_96_CLI, agent_db, copy_real_96, listing_text, read_notes

AGE_SLACK_MS = 120_000  # the two processes read the clock up to this far apart


def _masked(doc: dict, home: Path) -> dict:
    text = json.dumps(doc).replace(str(home), "<HOME>").replace("/home/user", "<HOME>")
    masked = json.loads(text)
    for row in masked.get("sessions", []):
        row["ageMs"] = None if row.get("ageMs") is None else 0
    return masked


def _ages(doc: dict) -> list:
    return [row.get("ageMs") for row in doc.get("sessions", [])]


@pytest.fixture
def state_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    copy_real_96(home)
    return home


def test_all_agents_json_equals_what_openclaw_2026_9_6_printed_on_the_fixture(state_home):
    result = run(["sessions", "--all-agents", "--json"], home=state_home)
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)
    recorded = json.loads((REAL_96_CLI / "sessions--all-agents--json.json").read_text())
    assert _masked(ours, state_home) == _masked(recorded, state_home)
    assert ours["stores"][0]["path"] == str(agent_db(state_home / ".openclaw"))
    assert ours["count"] == 12


def test_the_text_listing_names_the_database_and_every_session(state_home):
    result = run(["sessions"], home=state_home)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Session store: {agent_db(state_home / '.openclaw')}"
    assert lines[1] == "Sessions listed: 7"
    assert "sessions.json" not in result.stdout
    assert sum("id:" in line for line in lines) == 7


def test_listing_changes_no_file_of_the_state(state_home):
    state = state_home / ".openclaw"
    assert run(["sessions", "--all-agents"], home=state_home).returncode == 0
    before = folder_digest(state)
    for argv in (["sessions", "--all-agents", "--json"], ["sessions", "--agent", "work"], ["sessions"]):
        assert run(argv, home=state_home).returncode == 0
    assert folder_digest(state) == before
    assert not (state / "agents" / "main" / "sessions" / "sessions.json").exists()


def test_a_sessions_json_left_beside_the_database_is_noted_and_the_database_listed(state_home):
    sessions = state_home / ".openclaw" / "agents" / "work" / "sessions"
    sessions.mkdir()
    (sessions / "sessions.json").write_text('{"agent:work:old": {"sessionId": "x", "updatedAt": 1}}')
    result = run(["sessions", "--agent", "work", "--json"], home=state_home)
    assert result.returncode == 0, result.stderr
    keys = [row["key"] for row in json.loads(result.stdout)["sessions"]]
    assert "agent:work:old" not in keys and len(keys) == 5
    assert "a migration not finished" in result.stderr


def test_a_newer_schema_stops_the_listing_with_one_line(state_home):
    from helpers.sqlite_state import write_db

    db = agent_db(state_home / ".openclaw")
    write_db(db, "PRAGMA user_version = 31")
    result = run(["sessions", "--json"], home=state_home)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines()[3] == (  # after the three notes on the fixture's config
        f"{db} was written by a newer OpenClaw (schema 31); this tool reads up to 23")


@pytest.mark.parametrize("argv", [
    ["sessions", "cleanup", "--enforce"],
    ["compact", "agent:main:main", "--offline"],
])
def test_commands_that_read_only_sessions_json_refuse_a_sqlite_agent_instead_of_an_empty_store(state_home, argv):
    state = state_home / ".openclaw"
    assert run(["sessions", "--all-agents"], home=state_home).returncode == 0  # -wal/-shm as a Gateway leaves them
    before = folder_digest(state)
    result = run(argv, home=state_home)
    assert result.returncode == 1
    assert "Entries: 0" not in result.stdout + result.stderr
    first = result.stderr.splitlines()[0]
    assert str(agent_db(state)) in first
    if "--enforce" in argv or argv[0] == "compact":  # a store change: its Gateway's alone
        assert "is an OpenClaw 2026.8+ session database, which only its Gateway changes" in first
    else:
        assert "keeps its sessions in SQLite (OpenClaw 2026.8+)" in first or "keep their sessions in SQLite" in first
        assert "does not read" in first
    assert folder_digest(state) == before


# Differential runs against the real 2026.9.6 CLI, each side on its own fresh copy.
DIFF_RUNS = [
    ["sessions", "--json"],
    ["sessions", "--all-agents", "--json"],
    ["sessions", "--agent", "work", "--json"],
    ["sessions", "list", "--all-agents", "--json", "--limit", "3"],
    ["sessions", "--all-agents", "--json", "--limit", "all"],
    ["sessions", "--all-agents", "--json", "--active", "5256000"],
    ["sessions", "--all-agents", "--json", "--active", "1"],
    ["sessions", "--json", "--limit", "0"],
    ["sessions", "--json", "--active", "soon"],
    ["sessions", "--json", "--store", "{home}/.openclaw/agents/work/sessions/sessions.json"],
]


@pytest.mark.reference
@pytest.mark.parametrize("argv", DIFF_RUNS, ids=" ".join)
def test_json_listing_matches_openclaw_2026_9_6(tmp_path, argv):
    version = refbin.SQLITE_ERA_VERSION
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    ref_home, ours_home = tmp_path / "ref", tmp_path / "ours"
    copy_real_96(ref_home)
    copy_real_96(ours_home)
    started = time.time()
    ref = refbin.run_reference([a.format(home=ref_home) for a in argv], ref_home, version=version)
    ours = refbin.run_ours([a.format(home=ours_home) for a in argv], ours_home)
    if ref.returncode != 0:
        # 2026.9.6 exits 1 with a JSON error document on stdout; a bad option value is a usage
        # error here (exit 2, the same one line on stderr, nothing on stdout): README lists it.
        message = json.loads(ref.stdout)["error"]["message"]
        assert (ref.returncode, ours.returncode, ours.stdout) == (1, 2, "")
        # the notes on the config first, then the message line, both as 2026.9.6 prints them on stderr
        assert ours.stderr.replace(str(ours_home), "<HOME>") == ref.stderr.replace(str(ref_home), "<HOME>")
        assert ours.stderr.endswith(message + "\n")
        return
    assert ours.returncode == 0, ours.stderr
    ref_doc, ours_doc = json.loads(ref.stdout), json.loads(ours.stdout)
    slack = AGE_SLACK_MS + (time.time() - started) * 1000
    for r, o in zip(_ages(ref_doc), _ages(ours_doc)):
        assert (r is None) == (o is None) and (r is None or abs(o - r) <= slack)
    assert _masked(ours_doc, ours_home) == _masked(ref_doc, ref_home)


TEXT_RUNS = [
    ["sessions"],
    ["sessions", "--all-agents"],
    ["sessions", "--agent", "work"],
    ["sessions", "list", "--all-agents", "--limit", "2"],
    ["sessions", "--all-agents", "--active", "1"],
]


@pytest.mark.reference
@pytest.mark.parametrize("argv", TEXT_RUNS, ids=" ".join)
def test_text_listing_matches_openclaw_2026_9_6(tmp_path, argv):
    version = refbin.SQLITE_ERA_VERSION
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    ref_home, ours_home = tmp_path / "ref", tmp_path / "ours"
    copy_real_96(ref_home)
    copy_real_96(ours_home)
    ref = refbin.run_reference(argv, ref_home, version=version)
    ours = refbin.run_ours(argv, ours_home)
    assert (ref.returncode, ours.returncode) == (0, 0), ours.stderr
    assert ours.stdout.replace(str(ours_home), "<HOME>") == listing_text(ref).replace(str(ref_home), "<HOME>")
    assert ours.stderr.replace(str(ours_home), "<HOME>") == read_notes(ref).replace(str(ref_home), "<HOME>")


def test_doctor_says_a_sqlite_agent_is_checked_as_a_database_and_touches_nothing(state_home):
    state = state_home / ".openclaw"
    assert run(["sessions", "--all-agents"], home=state_home).returncode == 0
    before = folder_digest(state)
    lint = run(["doctor", "--lint", "--json", "--severity-min", "info"], home=state_home)
    found = [f for f in json.loads(lint.stdout)["findings"] if f["checkId"] == "core/doctor/session-store"]
    assert [(f["severity"], f["path"]) for f in found] == [("info", str(agent_db(state, a))) for a in ("main", "work")]
    assert found[0]["message"].startswith("Agent main keeps its sessions in SQLite (OpenClaw 2026.8+)")
    human = run(["doctor", "--non-interactive"], home=state_home)
    assert "doctor checks that database as OpenClaw's database, not as sessions.json" in human.stdout
    assert "Entries: 0" not in human.stdout + human.stderr and "sessions cleanup" not in human.stdout
    assert folder_digest(state) == before


def _in_terminal(argv: list[str], env: dict[str, str], cwd: Path, columns: int) -> str:
    """What a command prints to a terminal `columns` wide (a pseudo-terminal; stdout and stderr)."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(master)
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


@pytest.mark.reference
@pytest.mark.parametrize("columns", [70, 100, 160])
def test_the_table_fits_the_terminal_as_openclaw_2026_9_6_fits_it(tmp_path, columns):
    version = refbin.SQLITE_ERA_VERSION
    if not refbin.reference_available(version):
        pytest.fail(refbin.missing_message(version))
    import sys

    ref_home, ours_home = tmp_path / "ref", tmp_path / "ours"
    copy_real_96(ref_home)
    copy_real_96(ours_home)
    ref_env = refbin.clean_env(ref_home)
    ref_env["PATH"] = f"{refbin.reference_node_bin_dir()}:{ref_env['PATH']}"
    argv = ["sessions", "--all-agents"]
    ref = _in_terminal([str(refbin.reference_bin(version)), *argv], ref_env, ref_home, columns)
    ours = _in_terminal([sys.executable, "-m", "openclaw_cli", *argv], refbin.clean_env(ours_home), ours_home, columns)
    widest = max(len(line) for line in ours.splitlines() if not line.startswith("Config ("))
    # As wide as the terminal, unless the headers need more (8 columns cannot go below 71).
    assert widest == max(columns, 71)
    assert ours.replace(str(ours_home), "<HOME>") == ref.replace(str(ref_home), "<HOME>")


# -- states a 2026.9.6 Gateway generated (helpers/sqlite_gen.py) ------------------------------------------------

GENERATED_RUNS = [
    (["sessions", "--json"], None),
    (["sessions", "--all-agents", "--json"], "+10d"),
    (["sessions", "--json", "--active", "30"], None),
    (["sessions", "--json", "--active", "30"], "+2d"),
    (["sessions", "list", "--json", "--limit", "3"], None),
    (["sessions", "--json", "--limit", "all"], "+40d"),
    (["sessions"], None),
    (["sessions", "--all-agents"], "+40d"),
    (["sessions", "--limit", "4", "--active", "600"], None),
]


@pytest.mark.reference
@pytest.mark.gateway
@pytest.mark.parametrize(("argv", "offset"), GENERATED_RUNS, ids=[" ".join(a) + f" {o}" for a, o in GENERATED_RUNS])
def test_the_listing_of_a_generated_state_matches_openclaw_2026_9_6(generated_96_state, tmp_path, argv, offset):
    """Every kind of session row (main, dashboard, model run, cron, hook, notes, DM, group, thread, a row with
    no messages) listed by both CLIs on their own copies under one stopped clock: identical output."""
    from helpers import sqlite_gen

    version = refbin.SQLITE_ERA_VERSION
    homes = [tmp_path / "ref", tmp_path / "ours"]
    for home in homes:
        sqlite_gen.copy_state(generated_96_state, home)
    env = sqlite_gen.clock_env_from(offset)
    ref = refbin.run_reference(argv, homes[0], env, version=version)
    ours = refbin.run_ours(argv, homes[1], env)
    assert (ref.returncode, ours.returncode) == (0, 0), ref.stdout + ref.stderr + ours.stderr
    if "--json" in argv:
        ref_doc = json.loads(ref.stdout.replace(str(homes[0]), "<HOME>"))
        ours_doc = json.loads(ours.stdout.replace(str(homes[1]), "<HOME>"))
        assert ref_doc["sessions"] or (offset and "--active" in argv), "the generated state lists sessions"
        assert ours_doc == ref_doc
    else:
        assert ours.stdout.replace(str(homes[1]), "<HOME>") == listing_text(ref).replace(str(homes[0]), "<HOME>")
        assert ours.stderr.replace(str(homes[1]), "<HOME>") == read_notes(ref).replace(str(homes[0]), "<HOME>")


# -- a configured agentDir ------------------------------------------------------------------------------------------

@pytest.mark.reference
@pytest.mark.parametrize("layout", ["moved", "copied"])
@pytest.mark.parametrize("argv", [["sessions", "--agent", "work", "--json"], ["sessions", "--all-agents", "--json"]])
def test_a_configured_agent_dir_is_not_where_2026_9_6_reads_the_database(tmp_path, layout, argv):
    """`agents.list[].agentDir` pointing elsewhere, the agent's `agent/` folder moved (or copied) there:
    2026.9.6 still reads `<state>/agents/work/agent/openclaw-agent.sqlite`, and so do we."""
    import shutil

    docs = []
    for who in ("ref", "ours"):
        home = tmp_path / who
        state = copy_real_96(home)
        elsewhere = home / "elsewhere" / "work-agent"
        elsewhere.parent.mkdir()
        (shutil.move if layout == "moved" else shutil.copytree)(str(agent_db(state, "work").parent), str(elsewhere))
        config = json.loads((state / "openclaw.json").read_text())
        for entry in config["agents"]["list"]:
            if entry["id"] == "work":
                entry["agentDir"] = str(elsewhere)
        (state / "openclaw.json").write_text(json.dumps(config, indent=2))
        result = refbin.run_reference(argv, home, version=refbin.SQLITE_ERA_VERSION) if who == "ref" \
            else run(argv, home=home)
        assert result.returncode == 0, result.stderr
        docs.append(_masked(json.loads(result.stdout), home))
    assert docs[1] == docs[0]
    paths = [docs[0].get("path")] + [store["path"] for store in docs[0].get("stores") or []]
    assert "<HOME>/.openclaw/agents/work/agent/openclaw-agent.sqlite" in paths
    assert not any("elsewhere" in str(p) for p in paths)


def _keyed_roster(state: Path, entries: dict) -> None:
    """The fixture's config with its `agents.list` replaced by 2026.9.6's keyed `agents.entries`."""
    config = json.loads((state / "openclaw.json").read_text())
    del config["agents"]["list"]
    config["agents"]["entries"] = entries
    (state / "openclaw.json").write_text(json.dumps(config, indent=2))


KEYED_ROSTERS = {
    "both": {"main": {"default": True}, "work": {"name": "Work"}},
    "work first": {"work": {"name": "Work"}, "main": {"default": True}},
    "work only": {"work": {"name": "Work"}},
}


@pytest.mark.reference
@pytest.mark.parametrize("roster", list(KEYED_ROSTERS))
@pytest.mark.parametrize("argv", [["sessions", "--json"], ["sessions", "--agent", "work", "--json"],
                                  ["sessions", "--all-agents", "--json"],
                                  ["sessions", "cleanup", "--dry-run", "--all-agents", "--json"]], ids=" ".join)
def test_a_keyed_agent_roster_is_read_as_openclaw_2026_9_6_reads_it(tmp_path, roster, argv):
    """`agents.entries` (each key an agent id) instead of `agents.list`: the same agents, the same
    default agent (the sole one when only `work` is configured), the same stores."""
    results = []
    for who in ("ref", "ours"):
        home = tmp_path / who
        _keyed_roster(copy_real_96(home), KEYED_ROSTERS[roster])
        result = refbin.run_reference(argv, home, version=refbin.SQLITE_ERA_VERSION) if who == "ref" \
            else run(argv, home=home)
        results.append((result.returncode, _masked(json.loads(result.stdout), home) if result.returncode == 0
                        else result.stderr))
    assert results[0][0] == 0, results[0]
    assert results[1] == results[0]
    if "--agent" in argv or roster == "work only":
        assert "<HOME>/.openclaw/agents/work/agent/openclaw-agent.sqlite" in json.dumps(results[1][1])

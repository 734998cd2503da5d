"""Unit tests for `openclaw sessions` (list): option parsing, selection, number formatting, output modes."""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import cli
from helpers.folders import folder_digest

from openclaw_cli.errors import CliError
from openclaw_cli.js.values import js_to_fixed, js_to_number
from openclaw_cli.listing import options, table
from openclaw_cli.listing.context_tokens import ContextDefaults, ContextWindows
from openclaw_cli.listing.kind import classify_session_kind
from openclaw_cli.listing.model_ref import display_model_ref
from openclaw_cli.listing.policy_key import runtime_policy_key
from openclaw_cli.listing.rows import RowBuilder, json_row, select_newest
from openclaw_cli.listing.runtime import agent_runtime, runtime_label

# --------------------------------------------------------------------------------------------
# Options


@pytest.mark.parametrize("raw, expected", [
    (None, 100), ("25", 25), (" 7 ", 7), ("all", None), ("ALL", None), (" All ", None), ("0250", 250),
    ("9007199254740991", 9007199254740991),
])
def test_limit_accepts(raw, expected) -> None:
    assert options.parse_limit(raw) == expected


@pytest.mark.parametrize("raw", ["0", "-1", "+3", "1.5", "abc", "", "9007199254740992", "１２"])
def test_limit_rejects(raw) -> None:
    with pytest.raises(CliError) as info:
        options.parse_limit(raw)
    assert info.value.message == '--limit must be a positive integer or "all", for example --limit 25.'
    assert info.value.exit_code == 2  # bad usage (OpenClaw exits 1)


@pytest.mark.parametrize("raw, expected", [(None, None), ("30", 30), ("+5", 5), (" 007 ", 7)])
def test_active_accepts(raw, expected) -> None:
    assert options.parse_active_minutes(raw) == expected


@pytest.mark.parametrize("raw", ["0", "-5", "1.5", "abc", "", "1e3", "all"])
def test_active_rejects(raw) -> None:
    with pytest.raises(CliError) as info:
        options.parse_active_minutes(raw)
    assert info.value.message == "--active must be a positive number of minutes, for example --active 30."
    assert info.value.exit_code == 2


# --------------------------------------------------------------------------------------------
# Newest-first selection


class _Row:
    def __init__(self, name: str, updated_at):
        self.name = name
        self.updated_at = updated_at

    @property
    def sort_value(self):
        return self.updated_at if self.updated_at is not None else 0


def _reference_selection(rows: list[_Row], limit: int | None) -> list[_Row]:
    """The reference's algorithm, step by step: insertion into a bounded list for limit <= 200."""
    def compare(a: _Row, b: _Row) -> float:
        return b.sort_value - a.sort_value

    if limit is None or limit > 200:
        import functools

        ordered = sorted(rows, key=functools.cmp_to_key(compare))
        return ordered if limit is None else ordered[:limit]
    selected: list[_Row] = []
    for row in rows:
        at = next((i for i, c in enumerate(selected) if compare(row, c) < 0), -1)
        if at >= 0:
            selected.insert(at, row)
            if len(selected) > limit:
                selected.pop()
        elif len(selected) < limit:
            selected.append(row)
    return selected


@pytest.mark.parametrize("seed", range(30))
def test_selection_matches_insertion_algorithm(seed: int) -> None:
    rng = random.Random(seed)
    times = [None, 0, 5, 5, 7, 1.5, 100, 100, 100, 3]
    rows = [_Row(f"r{i}", rng.choice(times)) for i in range(rng.randint(0, 60))]
    for limit in (1, 2, 3, 5, 10, 59, 200, 201, 250, None):
        got = [r.name for r in select_newest(rows, limit)]
        assert got == [r.name for r in _reference_selection(rows, limit)], (seed, limit)


def test_selection_keeps_the_first_of_tied_rows() -> None:
    rows = [_Row("a", 5), _Row("b", 9), _Row("c", 5), _Row("d", 9), _Row("e", None)]
    assert [r.name for r in select_newest(rows, 3)] == ["b", "d", "a"]
    assert [r.name for r in select_newest(rows, None)] == ["b", "d", "a", "c", "e"]


# --------------------------------------------------------------------------------------------
# Numbers and cells


@pytest.mark.parametrize("value, digits, expected", [
    (1.25, 1, "1.3"), (12.5, 0, "13"), (0.05, 1, "0.1"), (0.35, 1, "0.3"), (-0.04, 1, "-0.0"),
    (-0.0, 1, "0.0"), (5, 1, "5.0"), (1e21, 1, "1e+21"), (float("nan"), 1, "NaN"), (999.95, 1, "1000.0"),
])
def test_to_fixed_like_javascript(value, digits, expected) -> None:
    assert js_to_fixed(value, digits) == expected


@pytest.mark.parametrize("value, expected", [
    ("  12 ", 12.0), ("0x10", 16.0), ("", 0.0), ("1_000", None), ([5], 5.0), ([], 0.0), (True, 1.0),
    (None, 0.0), ({}, None), ("Infinity", float("inf")), ("infinity", None),
])
def test_to_number_like_javascript(value, expected) -> None:
    got = js_to_number(value)
    assert (got != got) if expected is None else got == expected


def _plain(_style: str, text: str) -> str:
    return text


@pytest.mark.parametrize("total, ctx, expected", [
    (None, 200_000, "unknown/200k (?%)"), (12_345, 200_000, "12k/200k (6%)"), (1250, 5000, "1.3k/5.0k (25%)"),
    (1250, 0, "1.3k/? (?%)"), (5, "abc", "0.0k/NaNk (NaN%)"), (1250, [], "1.3k/0.0k (999%)"),
    (1250, -3000, "1.3k/-3.0k (-42%)"), (0, "0", "0.0k/0.0k (NaN%)"), (9_999, 10_000, "10.0k/10k (100%)"),
])
def test_tokens_cell(total, ctx, expected) -> None:
    assert table.tokens_cell(total, ctx, _plain) == expected.ljust(table.TOKENS_PAD)


def test_tokens_cell_colours_by_share() -> None:
    seen = []

    def style(name: str, text: str) -> str:
        seen.append(name)
        return text

    for total in (10, 130_000, 170_000, 195_000):
        table.tokens_cell(total, 200_000, style)
    table.tokens_cell(None, 200_000, style)
    assert seen == ["muted", "success", "warn", "error", "muted"]


# --------------------------------------------------------------------------------------------
# Rows


def test_kinds() -> None:
    assert classify_session_kind("global", {}) == "global"
    assert classify_session_kind("unknown", {}) == "unknown"
    assert classify_session_kind("agent:main:cron:job:run:x", {"spawnedBy": "y"}) == "cron"
    assert classify_session_kind("agent:main:subagent:x", {"spawnedBy": "agent:main:main"}) == "spawn-child"
    assert classify_session_kind("agent:main:subagent:x", {"spawnedBy": ""}) == "direct"
    assert classify_session_kind("agent:main:x", {"chatType": "channel"}) == "group"
    assert classify_session_kind("agent:main:x", {"chatType": "Group"}) == "direct"
    assert classify_session_kind("agent:main:slack:channel:c1", {}) == "group"
    assert classify_session_kind("cron:legacy", {}) == "direct"


def test_cli_provider_rows_show_the_model_provider() -> None:
    cfg = {"agents": {"defaults": {"model": "anthropic/claude-opus-4-6"}}}
    ref = display_model_ref(cfg, "agent:main:x", {"model": "claude-x", "modelProvider": "claude-cli"})
    assert (ref.provider, ref.model) == ("anthropic", "claude-x")
    ref = display_model_ref({}, "agent:main:x", {"model": "claude-cli/opus-4"})
    assert (ref.provider, ref.model) == ("openai", "opus-4")
    disabled = {"plugins": {"entries": {"anthropic": {"enabled": False}}}}
    ref = display_model_ref(disabled, "agent:main:x", {"model": "claude-x", "modelProvider": "claude-cli"})
    assert (ref.provider, ref.model) == ("claude-cli", "claude-x")


def test_runtime_and_label() -> None:
    runtime = agent_runtime({}, agent_id="main", provider="openai", model="gpt-5.5", session_key="agent:main:main",
                            acp_runtime=False, acp_backend=None)
    assert runtime == {"id": "codex", "source": "implicit"}
    custom = {"models": {"providers": {"openai": {"baseUrl": "http://localhost:1/v1"}}}}
    runtime = agent_runtime(custom, agent_id="main", provider="openai", model="gpt-5.5",
                            session_key="agent:main:main", acp_runtime=False, acp_backend=None)
    assert runtime == {"id": "auto", "source": "implicit"}
    runtime = agent_runtime({}, agent_id="main", provider="acpx", model="main-acp", session_key="agent:main:acp:1",
                            acp_runtime=True, acp_backend="")
    assert runtime == {"id": "acpx", "source": "session-key"}
    assert runtime_label({}, {"acp": {"agent": "codex"}}, runtime, "acpx") == "codex (acp)"
    assert runtime_label({}, {"modelProvider": "claude-cli"}, {"id": "auto"}, "anthropic") == "Claude CLI"
    assert runtime_label({"agents": {"defaults": {"cliBackends": {"my-cli": {}}}}}, {"modelProvider": "My-CLI"},
                         {"id": "auto"}, "x") == "My-CLI (cli)"
    assert runtime_label({}, {}, {"id": "openclaw"}, "anthropic") == "OpenClaw Default"


def test_policy_key_for_a_direct_chat_in_the_main_session() -> None:
    entry = {"chatType": "direct", "origin": {"provider": "Telegram", "to": "telegram:111:topic:9"}}
    assert runtime_policy_key({}, "agent:main:main", entry) == "agent:main:telegram:default:direct:111"
    linked = {"session": {"identityLinks": {"alice": ["telegram:111"]}}}
    assert runtime_policy_key(linked, "agent:main:main", entry) == "agent:main:telegram:default:direct:alice"
    assert runtime_policy_key({}, "agent:main:telegram:direct:111", entry) is None
    assert runtime_policy_key({}, " agent:main:x ", entry) == "agent:main:x"
    assert runtime_policy_key({}, "agent:main:main", {"chatType": "direct", "origin": {"surface": "webchat",
                                                                                       "from": "v"}}) is None


def test_context_windows_follow_the_configured_catalog() -> None:
    cfg = {"models": {"providers": {
        "a": {"contextTokens": 300_000, "models": [{"id": "dual"}, {"id": "solo", "contextTokens": 1000}]},
        "b": {"models": [{"id": "dual"}, {"id": "wide", "contextWindow": 400_000}]},
    }}}
    windows = ContextWindows(cfg)
    assert windows.lookup("dual") == 200_000  # b's default window caps a's 300k
    assert windows.lookup("solo") == 1000
    assert windows.lookup("wide") == 400_000
    assert windows.lookup("other") is None
    defaults = ContextDefaults(cfg, "wide")
    assert defaults.for_row(None, "other") == 400_000
    assert defaults.for_row(0, "other") == 0
    cfg["agents"] = {"defaults": {"contextTokens": 50_000}}
    assert ContextDefaults(cfg, "wide").for_row(None, "solo") == 50_000


# --------------------------------------------------------------------------------------------
# End to end (this project only)


def _write_store(home: Path, store: dict) -> Path:
    path = home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(store))
    return path


def _store(now: int) -> dict:
    return {f"agent:main:explicit:s{i}": {"sessionId": f"s{i}", "updatedAt": now - i * 3_600_000,
                                          "totalTokens": 150_000} for i in range(5)}


def test_colour_only_when_asked(home: Path) -> None:
    _write_store(home, _store(int(time.time() * 1000)))
    plain = cli.run(["sessions"], home)
    assert "\x1b[" not in plain.stdout
    env = {"FORCE_COLOR": "1"}
    coloured = cli.run(["sessions"], home, env=env)
    assert "\x1b[" in coloured.stdout
    lines = coloured.stdout.splitlines()
    assert len(lines) == len(plain.stdout.splitlines())
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured.stdout) == plain.stdout


def test_one_runs_no_color_flag_does_not_leak_into_the_next_run_in_the_same_process(home: Path) -> None:
    _write_store(home, _store(int(time.time() * 1000)))
    flagged = cli.run(["--no-color", "sessions"], home, env={"FORCE_COLOR": "1"})
    assert flagged.returncode == 0 and "\x1b[" not in flagged.stdout
    assert "\x1b[" in cli.run(["sessions"], home, env={"FORCE_COLOR": "1"}).stdout


def test_global_options_are_settings_of_the_run_not_environment_variables(home: Path, monkeypatch) -> None:
    """`--no-color` and `--log-level` change nothing in the process environment (nor what children inherit)."""
    import contextlib
    import io

    from openclaw_cli.cli.app import main
    from openclaw_cli.ui import console

    _write_store(home, _store(int(time.time() * 1000)))
    monkeypatch.delenv("NO_COLOR", raising=False)
    before = dict(os.environ)
    with contextlib.redirect_stdout(io.StringIO()), pytest.raises(SystemExit) as done:
        main(["--no-color", "--log-level", "error", "sessions", "--json"])
    assert done.value.code == 0
    assert dict(os.environ) == before
    assert console.log_level() == "error"
    with contextlib.redirect_stdout(io.StringIO()), pytest.raises(SystemExit):
        main(["sessions", "--json"])
    assert console.log_level() == "info"


def test_parent_json_agent_and_store_reach_list(home: Path) -> None:
    _write_store(home, _store(int(time.time() * 1000)))
    direct = cli.run(["sessions", "list", "--json", "--agent", "main"], home)
    parent = cli.run(["sessions", "--json", "--agent", "main", "list"], home)
    assert direct.returncode == parent.returncode == 0
    assert json.loads(parent.stdout)["count"] == json.loads(direct.stdout)["count"] == 5


def test_parent_active_and_limit_reach_list(home: Path) -> None:
    _write_store(home, _store(int(time.time() * 1000)))
    result = cli.run(["sessions", "--limit", "2", "--active", "200", "--json", "list"], home)
    doc = json.loads(result.stdout)
    assert (doc["count"], doc["totalCount"], doc["activeMinutes"]) == (2, 4, 200)


def test_listing_reads_the_state_database_without_writing(home: Path, tmp_path: Path) -> None:
    now = int(time.time() * 1000)
    _write_store(home, {"agent:main:acp:one": {"sessionId": "one", "updatedAt": now}})
    result = cli.run(["sessions", "--json"], home)
    assert json.loads(result.stdout)["sessions"][0]["acpRuntime"] is False
    assert not (home / ".openclaw" / "state").exists()

    db = home / ".openclaw" / "state" / "openclaw.sqlite"
    db.parent.mkdir()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE acp_sessions (session_key TEXT PRIMARY KEY, session_id TEXT, backend TEXT)")
        conn.execute("INSERT INTO acp_sessions VALUES ('agent:main:acp:one', NULL, 'acpx')")
    conn.close()
    before = sorted(p.name for p in db.parent.iterdir())
    row = json.loads(cli.run(["sessions", "--json"], home).stdout)["sessions"][0]
    assert (row["acpRuntime"], row["model"], row["modelProvider"]) == (True, "main-acp", "acpx")
    assert row["agentRuntime"] == {"id": "acpx", "source": "session-key"}
    assert sorted(p.name for p in db.parent.iterdir()) == before


def test_help_does_not_load_the_listing(tmp_path: Path) -> None:
    code = ("import sys\nfrom openclaw_cli.cli.app import app\n"
            "try:\n    app(['sessions', '--help'], prog_name='openclaw')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('openclaw_cli.listing') or m == 'sqlite3'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_listing_sees_rows_still_in_the_write_ahead_log(home: Path) -> None:
    now = int(time.time() * 1000)
    _write_store(home, {"agent:main:acp:two": {"sessionId": "two", "updatedAt": now}})
    db = home / ".openclaw" / "state" / "openclaw.sqlite"
    db.parent.mkdir(parents=True)
    writer = sqlite3.connect(db)
    try:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("CREATE TABLE acp_sessions (session_key TEXT PRIMARY KEY, session_id TEXT, backend TEXT)")
        writer.commit()
        writer.execute("INSERT INTO acp_sessions VALUES ('agent:main:acp:two', 'two', 'custom')")
        writer.commit()
        assert (db.parent / "openclaw.sqlite-wal").stat().st_size > 0
        row = json.loads(cli.run(["sessions", "--json"], home).stdout)["sessions"][0]
    finally:
        writer.close()
    assert row["agentRuntime"] == {"id": "custom", "source": "session-key"}


# --------------------------------------------------------------------------------------------
# Stores that cannot be listed (deliberate differences: OpenClaw lists them as empty, exit 0)

LIST_FORMS = [["sessions"], ["sessions", "--json"], ["sessions", "list"], ["sessions", "list", "--json"]]


@pytest.mark.parametrize("argv", LIST_FORMS, ids=" ".join)
def test_an_explicit_store_that_does_not_exist_is_an_error(home: Path, argv: list[str]) -> None:
    _write_store(home, _store(int(time.time() * 1000)))
    typo = home / "x" / "typo" / "sesions.json"
    before = folder_digest(home)
    result = cli.run([*argv, "--store", str(typo)], home)
    assert (result.returncode, result.stdout, result.stderr) == (1, "", f"no session store at {typo}\n")
    parent = cli.run(["sessions", "--store", str(typo), *argv[1:]], home)
    assert (parent.returncode, parent.stderr) == (1, f"no session store at {typo}\n")
    assert folder_digest(home) == before


def test_an_explicit_store_naming_a_folder_asks_whether_the_file_was_meant(home: Path) -> None:
    store = _write_store(home, _store(int(time.time() * 1000)))
    before = folder_digest(home)
    for argv in LIST_FORMS:
        result = cli.run([*argv, "--store", str(store.parent)], home)
        assert (result.returncode, result.stdout) == (1, ""), argv
        assert result.stderr == f"{store.parent} is a folder; did you mean {store}?\n"
    assert folder_digest(home) == before


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "null"])
def test_a_store_that_does_not_parse_is_an_error_like_cleanup(home: Path, text: str) -> None:
    store = home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json"
    store.parent.mkdir(parents=True)
    store.write_text(text)
    before = folder_digest(home)
    cleanup = cli.run(["sessions", "cleanup", "--dry-run"], home)
    assert cleanup.returncode == 1 and f"session store {store} is not valid" in cleanup.stderr
    for argv in LIST_FORMS + [[*LIST_FORMS[0], "--store", str(store)], ["sessions", "--all-agents", "--json"]]:
        result = cli.run(argv, home)
        assert (result.returncode, result.stdout, result.stderr) == (1, "", cleanup.stderr), argv
    assert folder_digest(home) == before


# --------------------------------------------------------------------------------------------
# Rows built for a whole listing


ROW_CFG = {
    "agents": {"defaults": {"model": "anthropic/opus", "cliBackends": {"my-cli": {}}},
               "list": [{"id": "main"}, {"id": "work", "model": {"primary": "google/gemini-3-pro"}}]},
    "models": {"providers": {"openai": {"models": [{"id": "gpt-5.5", "contextWindow": 400000}]}}},
}


def _random_entry(rng: random.Random) -> dict:
    entry: dict = {"sessionId": f"s{rng.randrange(10**6)}", "updatedAt": rng.randrange(10**12)}
    for name, values in (("model", ["gpt-5.5", "opus", "my-cli/gpt-5.5", " gpt-5.5 ", None]),
                         ("modelProvider", ["openai", "my-cli", "claude-cli", "", 7, None]),
                         ("providerOverride", ["anthropic", "my-cli", None]),
                         ("modelOverride", ["sonnet", "openai/gpt-5.5", None]),
                         ("chatType", ["direct", "group", None]),
                         ("acp", [{"agent": "codex", "backend": "acpx"}, None]),
                         ("contextTokens", [1000, None])):
        if rng.random() < 0.5:
            value = rng.choice(values)
            if value is not None:
                entry[name] = value
    return entry


@pytest.mark.parametrize("seed", range(3))
def test_rows_built_for_a_whole_listing_are_the_rows_built_one_by_one(seed):
    rng = random.Random(seed)
    keys = ["agent:main:main", "agent:work:main", "main", "agent:main:telegram:direct:5", "agent:work:cron:job",
            "agent:work:slack:channel:c1", "global", "custom"]
    rows = [(f"{rng.choice(keys)}:{i}" if rng.random() < 0.7 else rng.choice(keys), _random_entry(rng))
            for i in range(400)]
    context = ContextDefaults(ROW_CFG, "gpt-5.5")
    shared = RowBuilder(ROW_CFG, {})

    def shown(row) -> str:  # what the JSON and the table show of a row
        return json.dumps([json_row(row, 0, context), row.runtime_label])

    together = [shown(shared.build(key, entry, "main")) for key, entry in rows]
    alone = [shown(RowBuilder(ROW_CFG, {}).build(key, entry, "main")) for key, entry in rows]
    assert together == alone
    assert len({json.loads(r)[1] for r in together}) > 2 and len(set(together)) == len(rows)  # the rows differ

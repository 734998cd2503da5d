"""A database that belongs to another agent (two agents' databases swapped, or one copied over
another): every command fails as OpenClaw 2026.9.6 fails, byte for byte, and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import refbin
from helpers.cli import run
from helpers.folders import folder_digest
from helpers.sqlite_state import agent_db, copy_agent_db, copy_real_96, swap_agent_dbs, write_db

TAIL = ("[openclaw] Debug: set OPENCLAW_DEBUG=1 to include the stack trace.\n"
        "[openclaw] Try: openclaw doctor\n[openclaw] Help: openclaw --help\n")

STATES: dict[str, Callable[[Path], None]] = {
    "swapped": lambda state: swap_agent_dbs(state, "main", "work"),
    "work holds main's": lambda state: copy_agent_db(state, "main", "work"),
    "main holds work's": lambda state: copy_agent_db(state, "work", "main"),
}

# The commands 2026.9.6 also has, on each state; each is compared with its run byte for byte.
SHARED = [
    ("swapped", ["sessions"]),
    ("swapped", ["sessions", "--json"]),
    ("swapped", ["sessions", "--agent", "main"]),
    ("swapped", ["sessions", "--agent", "work", "--json"]),
    ("swapped", ["sessions", "list", "--agent", "main"]),
    ("swapped", ["sessions", "list", "--agent", "main", "--json"]),
    ("swapped", ["sessions", "--all-agents"]),
    ("swapped", ["sessions", "--all-agents", "--json"]),
    ("swapped", ["sessions", "cleanup", "--dry-run"]),
    ("swapped", ["sessions", "cleanup", "--dry-run", "--json"]),
    ("swapped", ["sessions", "cleanup", "--dry-run", "--agent", "work"]),
    ("swapped", ["sessions", "cleanup", "--dry-run", "--all-agents"]),
    ("swapped", ["sessions", "cleanup", "--dry-run", "--all-agents", "--json"]),
    ("work holds main's", ["sessions", "--all-agents"]),
    ("work holds main's", ["sessions", "--all-agents", "--json"]),
    ("work holds main's", ["sessions", "cleanup", "--dry-run", "--all-agents"]),
    ("work holds main's", ["sessions", "cleanup", "--dry-run", "--all-agents", "--json"]),
    ("main holds work's", ["sessions", "--all-agents", "--json"]),
    ("main holds work's", ["sessions", "cleanup", "--dry-run", "--all-agents"]),
]


def _home(tmp_path: Path, name: str, state_name: str) -> Path:
    home = tmp_path / name
    STATES[state_name](copy_real_96(home))
    return home


# 2026.9.6's line that is no part of the failure: its timing diagnostic when a write to its own global
# database waited over 100 ms for a lock (its dry run writes that database; ours writes nothing).
NOISE = ("[sqlite/transaction] slow SQLite ",)


def _masked(result, home: Path) -> tuple[int, str, str]:
    """Exit code, stdout and stderr with the scratch home as `<HOME>`, `NOISE` left out."""
    stderr = "".join(line for line in result.stderr.splitlines(True) if not line.startswith(NOISE))
    return result.returncode, result.stdout.replace(str(home), "<HOME>"), stderr.replace(str(home), "<HOME>")


def _ours(args: list[str], home: Path) -> tuple[int, str, str]:
    """Our run, which must leave the state (every database, -wal and -shm included) as it was."""
    before = folder_digest(home, mtimes=True)
    result = run(args, home=home)
    assert folder_digest(home, mtimes=True) == before, args
    return _masked(result, home)


@pytest.fixture(autouse=True)
def _needs_96(request):
    if "reference" in request.keywords and not refbin.reference_available(refbin.SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(refbin.SQLITE_ERA_VERSION))


@pytest.mark.reference
@pytest.mark.parametrize(("state_name", "args"), SHARED, ids=[f"{s}: {' '.join(a)}" for s, a in SHARED])
def test_a_command_2026_9_6_has_fails_as_2026_9_6_fails(tmp_path, state_name, args):
    ref_home, ours_home = _home(tmp_path, "ref", state_name), _home(tmp_path, "ours", state_name)
    theirs = _masked(refbin.run_reference(args, ref_home, version=refbin.SQLITE_ERA_VERSION), ref_home)
    assert _ours(args, ours_home) == theirs
    assert theirs[0] == 1 and "belongs to agent" in theirs[2]


# What 2026.9.6's bare `sessions` prints first on the fixture's config: its notes on the legacy roster.
NOTES = "".join(f"Config (<HOME>/.openclaw/openclaw.json): {note}\n" for note in (
    "Moved agents.list to keyed agents.entries.", "Materialized legacy per-surface agent ownership.",
    "Removed retired agents.entries.*.default markers."))


def _reason(agent: str, owner: str) -> str:
    return (f"OpenClaw agent database <HOME>/.openclaw/agents/{agent}/agent/openclaw-agent.sqlite "
            f"belongs to agent {owner}; requested agent {agent}.")


def test_the_listing_prints_2026_9_6s_failure_lines_and_with_json_its_document(tmp_path):
    home = _home(tmp_path, "home", "swapped")
    reason = _reason("main", "work")
    lines = f"[openclaw] The CLI command failed.\n[openclaw] Reason: {reason}\n{TAIL}"
    assert _ours(["sessions"], home) == (1, "", NOTES + lines)
    code, out, err = _ours(["sessions", "--json"], home)
    assert (code, json.loads(out), err) == (1, {"ok": False, "error": {"type": "cli_error", "message": reason}},
                                            NOTES + lines)
    # the text dry run prints the reason alone, as 2026.9.6's does; with --json the same document
    assert _ours(["sessions", "cleanup", "--dry-run"], home) == (1, "", reason + "\n")
    assert _ours(["sessions", "cleanup", "--dry-run", "--json"], home) == (1, out, lines)


def test_all_agents_fails_on_the_first_foreign_database_and_lists_no_other_agent(tmp_path):
    home = _home(tmp_path, "home", "work holds main's")
    assert _ours(["sessions", "--agent", "main"], home)[0] == 0  # main's own database is fine
    code, out, err = _ours(["sessions", "--all-agents"], home)
    assert (code, out) == (1, "") and err.startswith(f"{NOTES}[openclaw] The CLI command failed.\n"
                                                     f"[openclaw] Reason: {_reason('work', 'main')}\n")


OURS_ONLY = [
    ["sessions", "disk"],
    ["sessions", "disk", "--json"],
    ["sessions", "disk", "--all-agents"],
    ["sessions", "export", "--all"],
    ["sessions", "export", "agent:main:main", "--json"],
    ["context", "list"],
    ["context", "detail"],
    ["context", "map"],
]


@pytest.mark.parametrize("args", OURS_ONLY, ids=" ".join)
def test_our_own_commands_fail_in_the_style_of_2026_9_6s_sessions(tmp_path, args):
    home = _home(tmp_path, "home", "swapped")
    reason = _reason("main", "work")
    lines = f"[openclaw] The CLI command failed.\n[openclaw] Reason: {reason}\n{TAIL}"
    document = json.dumps({"ok": False, "error": {"type": "cli_error", "message": reason}}, indent=2) + "\n"
    assert _ours(args, home) == (1, document if "--json" in args else "", lines)
    assert not list(home.glob("*.jsonl"))  # export wrote no file


def test_context_json_prints_the_failure_document_where_its_report_would_be(tmp_path):
    home = _home(tmp_path, "home", "swapped")
    code, out, err = _ours(["context", "json"], home)
    assert (code, json.loads(out)["error"]["message"]) == (1, _reason("main", "work"))
    assert err.startswith("[openclaw] The CLI command failed.\n")


@pytest.mark.reference
def test_an_owner_is_compared_normalised_as_2026_9_6_compares_it(tmp_path):
    homes = [tmp_path / "ref", tmp_path / "ours"]
    for home in homes:
        write_db(agent_db(copy_real_96(home), "main"), "UPDATE schema_meta SET agent_id = 'MAIN' WHERE meta_key = 'primary'")
    args = ["sessions", "--agent", "main", "--json"]
    theirs = refbin.run_reference(args, homes[0], version=refbin.SQLITE_ERA_VERSION)
    ours = run(args, home=homes[1])
    assert (ours.returncode, theirs.returncode) == (0, 0), ours.stderr
    assert json.loads(ours.stdout)["count"] == json.loads(theirs.stdout)["count"] == 7


OWNER_ROWS = {
    "a role other than agent's": "UPDATE schema_meta SET role = 'global' WHERE meta_key = 'primary'",
    "no owner": "UPDATE schema_meta SET agent_id = NULL WHERE meta_key = 'primary'",
    "an empty owner": "UPDATE schema_meta SET agent_id = '' WHERE meta_key = 'primary'",
}


@pytest.mark.reference
@pytest.mark.parametrize("row", list(OWNER_ROWS))
def test_a_database_with_no_agent_owner_fails_as_2026_9_6_fails(tmp_path, row):
    homes = [tmp_path / "ref", tmp_path / "ours"]
    for home in homes:
        write_db(agent_db(copy_real_96(home), "main"), OWNER_ROWS[row])
    for args in (["sessions", "--json"], ["sessions", "cleanup", "--dry-run"]):
        theirs = _masked(refbin.run_reference(args, homes[0], version=refbin.SQLITE_ERA_VERSION), homes[0])
        assert _ours(args, homes[1]) == theirs, args
        assert theirs[0] == 1 and "OpenClaw agent database <HOME>/" in theirs[2]


@pytest.mark.reference
def test_a_database_without_its_ownership_row_is_refused_where_2026_9_6_lists_nothing(tmp_path):
    """2026.9.6's cleanup refuses it; its listing shows no sessions at all though the database holds
    seven. Ours refuses in both, with the cleanup's words: never a phantom empty store."""
    homes = [tmp_path / "ref", tmp_path / "ours"]
    for home in homes:
        write_db(agent_db(copy_real_96(home), "main"), "DELETE FROM schema_meta WHERE meta_key = 'primary'")
    args = ["sessions", "cleanup", "--dry-run"]
    theirs = _masked(refbin.run_reference(args, homes[0], version=refbin.SQLITE_ERA_VERSION), homes[0])
    assert _ours(args, homes[1]) == theirs
    listing = _masked(refbin.run_reference(["sessions", "--json"], homes[0], version=refbin.SQLITE_ERA_VERSION),
                      homes[0])
    assert json.loads(listing[1])["count"] == 0
    code, out, _err = _ours(["sessions", "--json"], homes[1])
    assert code == 1 and json.loads(out)["error"]["message"] == theirs[2].rstrip("\n")

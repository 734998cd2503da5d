"""On a SQLite-era state `--agent`, `--store` and `--all-agents` choose stores as OpenClaw 2026.9.6 does,
and refuse in its words: a blank selector, an unknown agent (normalised, `Run openclaw agents list`), a
`--store` with `--all-agents`, a `--store` whose database does not exist, a database in another agent's
folder. `--store` with `--agent` works, as in 2026.9.6."""

from __future__ import annotations

import pytest
from helpers import refbin
from helpers.sqlite_state import assert_same_as_96, real_96_home

from openclaw_cli.store.db_target import unsuffixed_target

MAIN_DB = "{home}/.openclaw/agents/main/agent/openclaw-agent.sqlite"
WORK_DB = "{home}/.openclaw/agents/work/agent/openclaw-agent.sqlite"
WORK_JSON = "{home}/.openclaw/agents/work/sessions/sessions.json"

CASES = {
    "an unknown agent": ["sessions", "--agent", "Nobody"],
    "an unknown agent, json": ["sessions", "list", "--agent", "Nobody", "--json"],
    "an unknown agent in a dry run": ["sessions", "cleanup", "--dry-run", "--agent", "nobody"],
    "a blank agent": ["sessions", "--agent", " "],
    "a blank store": ["sessions", "list", "--store", " "],
    "a padded agent id": ["sessions", "list", "--agent", " Work ", "--json"],
    "agent and all agents": ["sessions", "--agent", "work", "--all-agents"],
    "store and all agents": ["sessions", "--store", "{home}/x.json", "--all-agents", "--json"],
    "store with its agent": ["sessions", "list", "--store", WORK_DB, "--agent", "work"],
    "another agent's folder": ["sessions", "list", "--store", MAIN_DB, "--agent", "work"],
    "another agent's folder in a dry run": ["sessions", "cleanup", "--dry-run", "--store", MAIN_DB,
                                            "--agent", "work", "--json"],
    "another agent's database": ["sessions", "list", "--store", WORK_DB],
    "a sessions.json naming its agent": ["sessions", "list", "--store", WORK_JSON, "--agent", "main"],
    "a store whose database does not exist": ["sessions", "list", "--store", "{home}/other/foo.json"],
}


def sqlite_path_of(store_path: str) -> str:
    return unsuffixed_target(store_path).path


def test_a_store_path_names_the_database_2026_9_6_maps_it_to_before_ownership_is_asked():
    assert sqlite_path_of("/s/agents/w/sessions/sessions.json") == "/s/agents/w/agent/openclaw-agent.sqlite"
    assert sqlite_path_of("/s/fixed/sessions.json") == "/s/fixed/openclaw-agent.sqlite"
    assert sqlite_path_of("/s/fixed/store.json") == "/s/fixed/store.sqlite"
    assert sqlite_path_of("/s/fixed/.json") == "/s/fixed/.json.sqlite"
    assert sqlite_path_of("/s/any/thing.sqlite") == "/s/any/thing.sqlite"


@pytest.mark.reference
@pytest.mark.parametrize("case", list(CASES))
def test_selectors_choose_and_refuse_as_2026_9_6_does(tmp_path, case):
    if not refbin.reference_available(refbin.SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(refbin.SQLITE_ERA_VERSION))
    ref_home = real_96_home(tmp_path / "ref", lambda cfg: None)
    ours_home = real_96_home(tmp_path / "ours", lambda cfg: None)
    argv = CASES[case]
    ref = refbin.run_reference([a.format(home=ref_home) for a in argv], ref_home, version=refbin.SQLITE_ERA_VERSION)
    ours = refbin.run_ours([a.format(home=ours_home) for a in argv], ours_home)
    assert_same_as_96(ours, ref, ours_home, ref_home, bare_text=argv[1] != "list" and argv[1] != "cleanup")

"""Under `agents.ownership: "explicit"` OpenClaw 2026.9.6 lists and cleans the system agent's store,
or the sole agent's; with several agents and neither it refuses to pick one (`--agent` or
`--all-agents` chooses), and its bare `sessions` warns that heartbeats have no owner. Ours does the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import refbin
from helpers.sqlite_state import agent_db, assert_same_as_96, real_96_home

from openclaw_cli.config.owner96 import (
    HEARTBEAT_OWNER,
    NO_AGENTS,
    SELECTION_REQUIRED,
    default_store_agent,
    heartbeat_warnings,
)
from openclaw_cli.errors import ExpectedCliError

TWO = {"main": {}, "work": {"name": "Work"}}


def _owner(agents: dict, **top) -> str:
    return default_store_agent({"agents": agents, **top}, {"HOME": "/nonexistent"})


def _refusal(agents: dict, **top) -> str:
    with pytest.raises(ExpectedCliError) as caught:
        _owner(agents, **top)
    return caught.value.message


# -- the rule, from the config alone ---------------------------------------------------------------------------

def test_explicit_ownership_takes_the_system_agent_trimmed_and_normalized_when_it_is_on_the_roster():
    assert _owner({"ownership": "explicit", "entries": TWO, "defaults": {"systemAgent": {"agentId": " Work "}}}) == "work"
    assert _refusal({"ownership": "explicit", "entries": TWO,
                     "defaults": {"systemAgent": {"agentId": "nobody"}}}) == SELECTION_REQUIRED


def test_explicit_ownership_of_several_agents_without_a_system_agent_names_no_store():
    assert _refusal({"ownership": "explicit", "entries": TWO}) == SELECTION_REQUIRED
    assert _refusal({"ownership": "explicit", "entries": {"main": {"default": True}, "work": {}}}) == \
        SELECTION_REQUIRED, "a default marker means nothing under explicit ownership"
    assert _refusal({"ownership": "explicit", "entries": {}}) == NO_AGENTS


def test_a_sole_agent_or_a_legacy_default_owns_the_store():
    assert _owner({"ownership": "explicit", "entries": {"work": {}}}) == "work"
    assert _owner({"entries": {"main": {}, "work": {"default": True}}}) == "work"
    assert _owner({"list": [{"id": "main"}, {"id": "work", "default": True}]}) == "work"
    assert _owner({}) == "main"


def test_a_fixed_store_belongs_to_its_recorded_owner_unless_that_agent_left_the_roster():
    fixed = {"store": "/srv/sessions.json"}
    owned = {"ownership": "explicit", "entries": TWO, "defaults": {"sessionStore": {"agentId": "work"}}}
    assert _owner(owned, session=fixed) == "work"
    assert _refusal(owned) == SELECTION_REQUIRED, "a per-agent store has no recorded owner"
    gone = {**owned, "defaults": {"sessionStore": {"agentId": "gone"}}}
    assert _refusal(gone, session=fixed) == "Session store owner is retired: gone"


def test_heartbeats_without_an_ambient_owner_are_warned_about_only_among_several_agents():
    assert heartbeat_warnings({"agents": {"ownership": "explicit", "entries": TWO}}) == [HEARTBEAT_OWNER]
    for owned in ({"ownership": "explicit", "entries": TWO, "defaults": {"systemAgent": {"agentId": "gone"}}},
                  {"ownership": "explicit", "entries": TWO, "defaults": {"heartbeat": {"every": "1h"}}},
                  {"ownership": "explicit", "entries": {"main": {"heartbeat": {}}, "work": {}}},
                  {"ownership": "explicit", "entries": {"work": {}}},
                  {"entries": {"main": {"default": True}, "work": {}}}):
        assert heartbeat_warnings({"agents": owned}) == [], owned


# -- against the real 2026.9.6 --------------------------------------------------------------------------------

CASES: dict[str, dict] = {
    "no owner": {"ownership": "explicit", "entries": TWO},
    "the system agent": {"ownership": "explicit", "entries": TWO, "defaults": {"systemAgent": {"agentId": " Work "}}},
    "a system agent off the roster": {"ownership": "explicit", "entries": TWO,
                                      "defaults": {"systemAgent": {"agentId": "nobody"}}},
    "a heartbeat on an entry": {"ownership": "explicit", "entries": {"main": {"heartbeat": {"every": "30m"}},
                                                                    "work": {}}},
    "a sole agent": {"ownership": "explicit", "entries": {"work": {"name": "Work"}}},
    "a keyed legacy default": {"entries": {"main": {}, "work": {"default": True}}},
    "a retired store owner": {"ownership": "explicit", "entries": TWO,
                              "defaults": {"sessionStore": {"agentId": "gone"}}},
}
COMMANDS = (["sessions"], ["sessions", "list", "--json"], ["sessions", "cleanup", "--dry-run", "--json"])


def _change(case: str):
    def change(cfg: dict) -> None:
        agents = {k: v for k, v in CASES[case].items() if k != "defaults"}
        cfg["agents"] = {"defaults": {**cfg["agents"]["defaults"], **CASES[case].get("defaults", {})}, **agents}
        if case == "a retired store owner":
            cfg["session"] = {**cfg.get("session", {}), "store": "~/fixed/sessions.json"}
    return change


def _compare(tmp_path, case: str, commands) -> None:
    if not refbin.reference_available(refbin.SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(refbin.SQLITE_ERA_VERSION))
    ref_home = real_96_home(tmp_path / "ref", _change(case))
    ours_home = real_96_home(tmp_path / "ours", _change(case))
    for argv in commands:
        ref = refbin.run_reference([a.format(home=ref_home) for a in argv], ref_home,
                                   version=refbin.SQLITE_ERA_VERSION)
        ours = refbin.run_ours([a.format(home=ours_home) for a in argv], ours_home)
        assert_same_as_96(ours, ref, ours_home, ref_home, bare_text=argv == ["sessions"])


@pytest.mark.reference
@pytest.mark.parametrize("case", list(CASES))
def test_sessions_and_a_dry_run_pick_the_store_2026_9_6_picks_or_refuse_as_it_does(tmp_path, case):
    _compare(tmp_path, case, COMMANDS)


@pytest.mark.reference
def test_without_an_owner_a_selector_chooses_and_every_form_of_the_command_refuses_alike(tmp_path):
    work_db = str(agent_db(Path("{home}") / ".openclaw", "work"))
    _compare(tmp_path, "no owner", (
        ["sessions", "--json"], ["sessions", "cleanup", "--dry-run"], ["sessions", "--agent", "work", "--json"],
        ["sessions", "--all-agents", "--json"], ["sessions", "list", "--store", work_db]))

"""OpenClaw 2026.9.6 migrates legacy config in memory as it reads it (context budgets, the `agents.list`
roster) and its bare `openclaw sessions` notes each step on stderr (`Config (<file>): …`), with the
unset `${VAR}`s first, and every command warns about a config a newer release wrote: ours prints the
same lines, judges the migrated config, and lists the same."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import refbin
from helpers.sqlite_state import assert_same_as_96, real_96_home

from openclaw_cli.config.era import SQLITE_ERA
from openclaw_cli.config.read96 import migrate_context_budget, roster_notes
from openclaw_cli.config.schema import validate_config

MOVED = "Moved agents.list to keyed agents.entries."
PRESERVED = "Preserved the first legacy agent's existing workspace."
MATERIALIZED = "Materialized legacy per-surface agent ownership."
REMOVED = "Removed retired agents.entries.*.default markers."


# -- the notes, from the config alone -------------------------------------------------------------------------

def test_a_list_with_one_default_among_two_agents_is_moved_materialized_and_unmarked():
    cfg = {"agents": {"list": [{"id": "main", "default": True}, {"id": "work"}]}}
    assert roster_notes(cfg) == [MOVED, MATERIALIZED, REMOVED]


def test_a_list_without_a_default_pins_the_first_agents_workspace_unless_it_has_one():
    assert roster_notes({"agents": {"list": [{"id": "main"}, {"id": "work"}]}}) == [MOVED, PRESERVED]
    assert roster_notes({"agents": {"list": [{"id": "main", "workspace": "/w"}, {"id": "work"}]}}) == [MOVED]
    assert roster_notes({"agents": {"list": [{"id": "main"}, {"id": "w"}], "ownership": "explicit"}}) == [MOVED]


def test_a_single_marked_agent_only_loses_its_marker():
    assert roster_notes({"agents": {"list": [{"id": "main", "default": True}]}}) == [MOVED, REMOVED]


def test_a_list_that_does_not_convert_or_a_marker_that_is_no_boolean_gets_no_note():
    assert roster_notes({"agents": {"list": [{"id": "Main"}, {"id": "work"}]}}) == []
    assert roster_notes({"agents": {"list": [{"id": "main"}, {"id": "main"}]}}) == []
    assert roster_notes({"agents": {"list": [{"id": "main", "default": "yes"}, {"id": "w"}]}}) == []
    assert roster_notes({"agents": {"entries": {"main": {}, "work": {}}}}) == []
    assert roster_notes({"agents": {"list": []}}) == [MOVED]


def test_ownership_assigned_everywhere_already_materializes_nothing():
    owned = {"agentId": "main"}
    cfg = {"talk": owned, "agents": {"defaults": {"systemAgent": owned, "heartbeat": owned},
                                     "list": [{"id": "main", "default": True}, {"id": "work"}]}}
    assert roster_notes(cfg) == [MOVED, REMOVED]
    cfg["channels"] = {"telegram": {}}
    assert roster_notes(cfg) == [MOVED, MATERIALIZED, REMOVED]
    cfg["bindings"] = [{"agentId": "main", "match": {"channel": "Telegram", "accountId": "*"}}]
    assert roster_notes(cfg) == [MOVED, REMOVED]


def test_context_budgets_move_to_model_entries_or_are_dropped_with_a_warning():
    cfg = {"models": {"providers": {"a": {"contextWindow": 5, "models": [{"id": "x"}, {"id": "y", "contextWindow": 9}]},
                                    "b": {"contextTokens": 7}}},
           "agents": {"defaults": {"contextTokens": 3}, "list": [{"id": "main", "contextTokens": 1}]}}
    migrated, notes = migrate_context_budget(cfg)
    assert notes == [
        "models.providers.a.contextWindow → models.providers.a.models[0].contextWindow.",
        "Removed models.providers.a.contextWindow after baking it into explicit model entries.",
        "Removed models.providers.b.contextTokens.",
        "Removed agents.defaults.contextTokens.",
        "Removed agents.list[0].contextTokens.",
        "models.providers.b.contextTokens had no explicit model entries to receive its value; "
        "use models.providers.<provider>.models[].contextTokens instead.",
        "agents.defaults.contextTokens cannot be represented per model; "
        "use models.providers.<provider>.models[].contextTokens instead.",
        "agents.list[0].contextTokens cannot be represented per model; "
        "use models.providers.<provider>.models[].contextTokens instead."]
    assert migrated["models"]["providers"]["a"] == {"models": [{"id": "x", "contextWindow": 5},
                                                               {"id": "y", "contextWindow": 9}]}
    assert migrated["agents"] == {"defaults": {}, "list": [{"id": "main"}]}
    assert cfg["agents"]["defaults"] == {"contextTokens": 3}, "the config as read is left as it is"
    plain = {"agents": {"defaults": {}}, "models": {"providers": {"a": {"models": []}}}}
    assert migrate_context_budget(plain)[0] is plain and migrate_context_budget(plain)[1] == []


def test_the_schema_judges_a_legacy_list_as_the_keyed_entries_it_becomes(tmp_path):
    env = {"HOME": str(tmp_path)}

    def problems(agents: dict) -> list[str]:
        return [issue.format() for issue in validate_config({"agents": agents}, env, SQLITE_ERA)]

    assert problems({"list": [{"id": "main", "default": True}, {"id": "work", "name": 5}]}) == [
        "agents.entries.work.name: Invalid input: expected string, received number"]
    assert problems({"list": [{"id": "main", "default": True}, {"id": "work"}], "defaults": {"contextTokens": 9}}) == []
    assert problems({"list": [{"id": "Main"}, {"id": "work"}]}) == [
        'agents: Unrecognized key: "list"', "agents.entries: agents.entries must contain at least one configured agent"]


# -- against the real 2026.9.6 --------------------------------------------------------------------------------

Change = Callable[[dict], None]


def _two(cfg: dict) -> list[dict]:
    return cfg["agents"]["list"]


CASES: dict[str, Change] = {
    "as written": lambda c: None,
    "unset variables": lambda c: (_two(c)[1].update(name="${NAME_X} and ${NAME_Y}"),
                                  c.setdefault("env", {}).setdefault("vars", {}).update({"A.B": "${MISS_AB}"}),
                                  c["models"]["providers"]["fake"].update(apiKey="${MISSING_KEY}")),
    "context budgets": lambda c: (c["models"]["providers"]["fake"].update(contextWindow=64000),
                                  c["models"]["providers"].update(other={
                                      "baseUrl": "http://127.0.0.1:9/v1", "apiKey": "k", "api": "openai-completions",
                                      "contextTokens": 1000, "models": []}),
                                  c["agents"]["defaults"].update(contextTokens=7000),
                                  _two(c)[1].update(contextTokens=5000)),
    "no default marker": lambda c: _two(c)[0].pop("default"),
    "one agent": lambda c: c["agents"].update(list=_two(c)[:1]),
    "keyed entries": lambda c: (c["agents"].pop("list"),
                                c["agents"].update(entries={"main": {"default": True}, "work": {"name": "Work"}})),
    "a list that does not convert": lambda c: _two(c)[1].update(id="Work"),
    "a marker that is no boolean": lambda c: _two(c)[1].update(default="yes"),
    "a bad value in a list entry": lambda c: _two(c)[1].update(name=5),
    "gateway.token": lambda c: c.update(gateway={"token": "t"}),
    "written by a newer release": lambda c: c.update(meta={"lastTouchedVersion": "2026.10.1"}),
    "ownership assigned": lambda c: (c.update(talk={"agentId": "main"}),
                                     c["agents"]["defaults"].update(systemAgent={"agentId": "main"})),
}


@pytest.mark.reference
@pytest.mark.parametrize("json_out", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("case", list(CASES))
def test_sessions_prints_the_notes_of_2026_9_6s_read_of_the_config_and_lists_the_same(tmp_path, case, json_out):
    if not refbin.reference_available(refbin.SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(refbin.SQLITE_ERA_VERSION))
    ref_home, ours_home = real_96_home(tmp_path / "ref", CASES[case]), real_96_home(tmp_path / "ours", CASES[case])
    argv = ["sessions", "--json"] if json_out else ["sessions"]
    ref = refbin.run_reference(argv, ref_home, version=refbin.SQLITE_ERA_VERSION)
    ours = refbin.run_ours(argv, ours_home)
    assert_same_as_96(ours, ref, ours_home, ref_home, bare_text=not json_out)


@pytest.mark.reference
@pytest.mark.parametrize("case", ["context budgets", "a bad value in a list entry", "written by a newer release"])
def test_sessions_list_and_a_dry_run_judge_the_migrated_config_and_print_no_notes(tmp_path, case):
    """2026.9.6's other commands check the config before they run: migrated the same way, silently
    (but for the warning on a config a newer release wrote, which every command prints)."""
    if not refbin.reference_available(refbin.SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(refbin.SQLITE_ERA_VERSION))
    ref_home, ours_home = real_96_home(tmp_path / "ref", CASES[case]), real_96_home(tmp_path / "ours", CASES[case])
    for argv in (["sessions", "list", "--json"], ["sessions", "cleanup", "--dry-run"]):
        ref = refbin.run_reference(argv, ref_home, version=refbin.SQLITE_ERA_VERSION)
        ours = refbin.run_ours(argv, ours_home)
        assert "Config (" not in ref.stderr
        assert_same_as_96(ours, ref, ours_home, ref_home)

"""The heartbeat-owned main session row of `State integrity`, against the reference `openclaw doctor`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import refbin
from helpers.doctor import MAIN_SID, both_on_homes, clack_notes, heartbeat_home, lint, sessions, state

pytestmark = pytest.mark.reference

CASES = {"human": (heartbeat_home, ["doctor", "--non-interactive"]),
         "fix": (heartbeat_home, ["doctor", "--fix", "--non-interactive"]),
         "not-only-heartbeats": (lambda h: heartbeat_home(h, human=True), ["doctor", "--non-interactive"]),
         "interacted": (lambda h: heartbeat_home(h, interacted=True), ["doctor", "--non-interactive"])}
STAMP = re.compile(r"heartbeat-recovered-\d{4}-\d\d-\d\dt\d\d-\d\d-\d\d\.\d{3}z")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[str, str], tuple[refbin.Result, Path]]:
    return both_on_homes(tmp_path_factory.mktemp("doctor-heartbeat"), CASES, {"OPENCLAW_GATEWAY_PORT": "1"})


def _items(result: refbin.Result, title: str) -> list[str]:
    return [STAMP.sub("heartbeat-recovered-STAMP", item)
            for t, items in clack_notes(result.stdout) if t == title for item in items]


def _ours(result: refbin.Result) -> str:
    return STAMP.sub("heartbeat-recovered-STAMP", " ".join(result.stdout.split()))


def _heartbeat_items(result: refbin.Result, title: str) -> list[str]:
    return [i for i in _items(result, title) if "heartbeat-owned" in i or "heartbeat-recovered" in i
            or "TUI last-session" in i]


def test_the_human_run_names_a_heartbeat_owned_main_session_as_the_reference_does(runs):
    ref, ours = runs[("human", "ref")][0], runs[("human", "ours")][0]
    items = _heartbeat_items(ref, "State integrity")
    assert items == ["- Main session agent:main:main appears to be a heartbeat-owned session (2 heartbeat-only user "
                     "message(s)). Doctor can move it to agent:main:heartbeat-recovered-STAMP and let the next "
                     "interactive launch create a fresh main session."]
    assert items[0] in _ours(ours)
    assert "Main session transcript" not in ref.stdout and "Main session transcript" not in ours.stdout


@pytest.mark.parametrize("name", ["not-only-heartbeats", "interacted"])
def test_a_main_session_with_a_human_turn_or_an_interaction_is_not_heartbeat_owned(runs, name):
    ref, ours = runs[(name, "ref")][0], runs[(name, "ours")][0]
    assert ref.returncode == ours.returncode == 0
    assert "heartbeat-owned" not in ref.stdout and "heartbeat-owned" not in ours.stdout


def test_fix_moves_the_main_session_and_clears_its_tui_pointer_like_the_reference(runs):
    (ref, ref_home), (ours, our_home) = runs[("fix", "ref")], runs[("fix", "ours")]
    assert ref.returncode == ours.returncode == 0
    changes = _heartbeat_items(ref, "Doctor changes")
    assert changes == ["- Moved heartbeat-owned main session agent:main:main to agent:main:heartbeat-recovered-STAMP.",
                       "- Cleared 1 stale TUI last-session pointer for agent:main:main."]
    assert all(line in _ours(ours) for line in changes)
    for home in (ref_home, our_home):
        store = json.loads((sessions(home) / "sessions.json").read_text())
        keys = sorted(STAMP.sub("heartbeat-recovered-STAMP", k) for k in store)
        assert keys == ["agent:main:heartbeat-recovered-STAMP", "agent:main:telegram:group:5"]
        moved = next(v for k, v in store.items() if "heartbeat-recovered" in k)
        assert moved["sessionId"] == MAIN_SID
        tui = json.loads((state(home) / "tui" / "last-session.json").read_text())
        assert tui == {"b": {"sessionKey": "agent:main:telegram:group:5"}}


def test_lint_reports_the_heartbeat_owned_main_session(tmp_path):
    (tmp_path / ".openclaw").mkdir()
    heartbeat_home(tmp_path)
    findings = [f for f in json.loads(lint(tmp_path).out)["findings"] if "heartbeat-owned" in f["message"]]
    assert [(f["checkId"], f["severity"]) for f in findings] == [("core/doctor/state-integrity", "warning")]
    assert findings[0]["message"] == ("Main session agent:main:main appears to be a heartbeat-owned session "
                                      "(2 heartbeat-only user message(s)).")
    assert (sessions(tmp_path) / "sessions.json").read_text().count("agent:main:main") == 1

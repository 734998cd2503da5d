"""The `State integrity` rows for heartbeat session targets and plugin-owned session route state,
against the reference `openclaw doctor` (2026.7.1)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import refbin
from helpers.doctor import (
    ROUTE_SIDS,
    both_on_homes,
    clack_notes,
    heartbeat_target_home,
    lint,
    route_state_home,
    sessions,
    state,
)

pytestmark = pytest.mark.reference

CASES = {"heartbeat-target": (heartbeat_target_home, ["doctor", "--non-interactive"]),
         "route-state": (route_state_home, ["doctor", "--non-interactive"]),
         "route-state-fix": (route_state_home, ["doctor", "--fix", "--non-interactive"])}
STAMP = re.compile(r'"updatedAt": \d+')
# The entries the repair clears (the explicit user override and the OpenAI state stay).
REPAIRED = ["agent:main:main", "agent:main:telegram:group:5", "agent:main:slack:channel:c1", "agent:main:cron:nightly"]
STATE = "core/doctor/state-integrity"
# No registry lookups by the reference (it would install the codex plugin the OpenAI route asks for).
OFFLINE = {"OPENCLAW_GATEWAY_PORT": "1", "npm_config_registry": "http://127.0.0.1:9/", "npm_config_fetch_retries": "0"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[str, str], tuple[refbin.Result, Path]]:
    return both_on_homes(tmp_path_factory.mktemp("doctor-state-rows"), CASES, OFFLINE)


def _rows(result: refbin.Result, needle: str, home: Path) -> list[str]:
    return [item.replace(str(home), "HOME") for title, items in clack_notes(result.stdout)
            if title == "State integrity" for item in items if needle in item]


def _ours(result: refbin.Result, home: Path) -> str:
    return " ".join(result.stdout.replace(str(home), "HOME").split())


def test_the_human_run_warns_of_each_heartbeat_pinned_to_a_missing_session_as_the_reference_does(runs):
    (ref, ref_home), (ours, our_home) = runs[("heartbeat-target", "ref")], runs[("heartbeat-target", "ours")]
    rows = _rows(ref, "heartbeat.session pins", ref_home)
    assert [row.split(" heartbeat.session")[0] for row in rows] == ["- Agent main", "- Agent ops"]
    assert rows[1].startswith("- Agent ops heartbeat.session pins agent:ops:discord:channel:42 (resolved to "
                              "agent:ops:discord:channel:42) but that session has no entry in "
                              "HOME/.openclaw/agents/ops/sessions/sessions.json. Heartbeats will run")
    text = _ours(ours, our_home)
    assert [row for row in rows if row not in text] == []
    assert text.count("heartbeat.session pins") == len(rows)


def test_lint_reports_each_pinned_heartbeat_session_at_its_config_path(tmp_path):
    (tmp_path / ".openclaw").mkdir()
    heartbeat_target_home(tmp_path)
    findings = [f for f in lint(tmp_path).findings(STATE) if "heartbeat.session pins" in f["message"]]
    assert [(f["severity"], f["path"]) for f in findings] == [
        ("warning", "agents.defaults.heartbeat.session"), ("warning", "agents.list.1.heartbeat.session")]
    assert findings[0]["message"] == (
        "Agent main heartbeat.session pins telegram:group:999 (resolved to agent:main:telegram:group:999) but that "
        f"session has no entry in {state(tmp_path)}/agents/main/sessions/sessions.json.")
    assert findings[0]["fixHint"].startswith("Point heartbeat.session at a session the agent actually owns")
    assert json.loads((state(tmp_path) / "openclaw.json").read_text())["agents"]["list"][0]["id"] == "main"


def test_the_human_run_reports_stale_plugin_route_state_per_owner_as_the_reference_does(runs):
    (ref, ref_home), (ours, our_home) = runs[("route-state", "ref")], runs[("route-state", "ours")]
    rows = _rows(ref, "session routing state", ref_home) + _rows(ref, "model overrides", ref_home)
    assert [row.split(" in ")[0] for row in rows] == ["- Found stale Anthropic session routing state",
                                                       "- Found stale Google session routing state",
                                                       "- Found explicit Google model overrides"]
    text = _ours(ours, our_home)
    assert [row for row in rows if row not in text] == []
    # Without --fix, nothing is cleared.
    for home in (ref_home, our_home):
        store = json.loads((sessions(home) / "sessions.json").read_text())
        assert store["agent:main:main"]["model"] == "claude-sonnet-4-6"
        assert store["agent:main:slack:channel:c1"]["agentHarnessId"] == "claude-cli"


def test_fix_clears_the_owned_keys_in_sessions_json_as_the_reference_does(runs):
    (ref, ref_home), (ours, our_home) = runs[("route-state-fix", "ref")], runs[("route-state-fix", "ours")]
    assert ref.returncode == ours.returncode == 0
    changes = [item for title, items in clack_notes(ref.stdout) if title == "Doctor changes" for item in items
               if "session routing state" in item]
    assert changes == ["- Cleared stale Anthropic session routing state for 3 sessions.",
                       "- Cleared stale Google session routing state for 1 session."]
    assert all(line in ours.stdout for line in changes)
    written = {side: (sessions(home) / "sessions.json").read_text() for side, home in (("ref", ref_home),
                                                                                      ("ours", our_home))}
    # Byte for byte, but for the stamps: repaired entries get the time of the repair.
    assert STAMP.sub('"updatedAt": T', written["ours"]) == STAMP.sub('"updatedAt": T', written["ref"])
    stored = json.loads(written["ours"])
    assert set(stored) == {"agent:main:main", *ROUTE_SIDS}
    assert [k for k in REPAIRED if set(stored[k]) - {"sessionId", "updatedAt", "cliSessionIds"}] == []
    assert stored["agent:main:cron:nightly"]["cliSessionIds"] == {"codex-cli": "x-1"}
    assert stored["agent:main:discord:channel:9"]["modelOverrideSource"] == "user"


def test_lint_reports_each_owner_of_stale_route_state_and_the_overrides_left_for_review(tmp_path):
    (tmp_path / ".openclaw").mkdir()
    route_state_home(tmp_path)
    before = (sessions(tmp_path) / "sessions.json").read_bytes()
    findings = [f for f in lint(tmp_path, severity_min="info").findings(STATE) if "Found " in f["message"]
                and ("routing state" in f["message"] or "model overrides" in f["message"])]
    store = str(sessions(tmp_path) / "sessions.json")
    assert [(f["severity"], f["path"], f["message"].split(" in ")[0]) for f in findings] == [
        ("warning", store, "Found stale Anthropic session routing state"),
        ("warning", store, "Found stale Google session routing state"),
        ("info", store, "Found explicit Google model overrides")]
    assert findings[0]["fixHint"] == "Run `openclaw doctor --fix` to clear it."
    assert (sessions(tmp_path) / "sessions.json").read_bytes() == before

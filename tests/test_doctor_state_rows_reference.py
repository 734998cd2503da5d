"""The `State integrity` rows for heartbeat session targets and plugin-owned session route state,
against the reference `openclaw doctor` (2026.7.1)."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import refbin
from helpers.doctor import clack_notes, heartbeat_target_home, lint, state

pytestmark = pytest.mark.reference

CASES = {"heartbeat-target": (heartbeat_target_home, ["doctor", "--non-interactive"])}
STATE = "core/doctor/state-integrity"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[str, str], tuple[refbin.Result, Path]]:
    assert refbin.reference_available(), refbin.missing_message()
    root = tmp_path_factory.mktemp("doctor-state-rows")
    jobs = [(name, side) for name in CASES for side in ("ref", "ours")]

    def run(job: tuple[str, str]) -> tuple[refbin.Result, Path]:
        name, side = job
        home = root / name / side / "home"
        (home / ".openclaw").mkdir(parents=True)
        build, args = CASES[name]
        build(home)
        runner = refbin.run_reference if side == "ref" else refbin.run_ours
        return runner(args, home, {"OPENCLAW_GATEWAY_PORT": "1"}, timeout=400), home

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(jobs, pool.map(run, jobs), strict=True))


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

"""The human doctor run and `doctor --lint` report the same problems: every check in the registry,
on a fixture of its own and on the combined state, and no credential in either output."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers.doctor import (
    MAIN_SID,
    TOKEN,
    base_env,
    c1,
    c2,
    c3,
    c4,
    f1,
    header,
    heartbeat_home,
    heartbeat_target_home,
    lint,
    route_state_home,
    sessions,
    state,
    write_config,
    write_lock,
    write_store,
    write_transcript,
)
from helpers.folders import folder_digest

# Lines of a note that are advice about the rows above them, not problems of their own.
ADVICE = ("- Run ", "- Fix: ", "  Fix: ", "- Or ", "- No channel security warnings")
# Notes that only repeat or explain a problem another note of the same check already reports.
FOLLOW_UPS = {
    "core/doctor/plugin-slots": ("- plugins.slots.contextEngine: could not inspect context engine",),
}


def healthy(home: Path, cfg: dict | None = None) -> None:
    """Private folders, an owner, a consistent store: little left to report (a Gateway without a
    token, the Gateway probe and the workspace advice)."""
    os.chmod(state(home), 0o700)
    (state(home) / "credentials").mkdir(mode=0o700, exist_ok=True)
    write_config(home, cfg if cfg is not None else {"gateway": {"mode": "local", "auth": {"mode": "token"}},
                                                    "commands": {"ownerAllowFrom": ["telegram:1"]}})
    now = int(time.time() * 1000)
    write_store(home, {"agent:main:main": {"sessionId": MAIN_SID, "updatedAt": now}})
    write_transcript(home, MAIN_SID, [header(MAIN_SID), json.dumps({
        "type": "message", "id": "a", "parentId": None, "message": {"role": "user", "content": "hi"}})])


def with_cfg(**extra):
    def build(home: Path) -> None:
        healthy(home, {"gateway": {"mode": "local", "auth": {"mode": "token"}},
                       "commands": {"ownerAllowFrom": ["telegram:1"]}, **extra})
    return build


def legacy_keys(home: Path) -> None:
    with_cfg(session={"maintenance": {"rotateBytes": "10mb"}, "parentForkMaxTokens": 1000})(home)


def stale_lock(home: Path) -> None:
    healthy(home)
    write_lock(home, MAIN_SID, {"pid": 999999, "createdAt": "2020-01-01T00:00:00.000Z"})


def open_modes(home: Path) -> None:
    healthy(home)
    os.chmod(state(home), 0o755)
    os.chmod(state(home) / "openclaw.json", 0o644)


def store_over_budget(home: Path) -> None:
    with_cfg(session={"maintenance": {"maxEntries": 0}})(home)


def damaged_database(home: Path) -> None:
    """A second agent whose database is not a database at all."""
    healthy(home)
    db = state(home) / "agents" / "work" / "agent" / "openclaw-agent.sqlite"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a database" * 300)


def half_migrated(home: Path) -> None:
    """The real 2026.9.6 agent database beside a file-era store it never imported: the main
    transcript is only in its file, and the store's main key names another session."""
    from helpers.sqlite_state import REAL_96_STATE

    healthy(home)
    db = state(home) / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(REAL_96_STATE / "agents" / "main" / "agent" / "openclaw-agent.sqlite", db)


def legacy_dirs(home: Path) -> None:
    healthy(home)
    (state(home) / "sessions").mkdir()
    (state(home) / "sessions" / "sessions.json").write_text("{}")


def branch_transcript(home: Path) -> None:
    from helpers.doctor import BRANCH_SID, branch_lines

    healthy(home)
    store = json.loads((sessions(home) / "sessions.json").read_text())
    store["agent:main:branch"] = {"sessionId": BRANCH_SID, "updatedAt": int(time.time() * 1000) - 1000}
    write_store(home, store)
    write_transcript(home, BRANCH_SID, branch_lines())


def big_bootstrap(home: Path) -> None:
    healthy(home)
    ws = state(home) / "workspace"
    ws.mkdir(parents=True, exist_ok=True)
    (ws / "AGENTS.md").write_text("a" * 40_000)


def no_gateway_mode(home: Path) -> None:
    healthy(home, {"gateway": {"auth": {"mode": "token"}}, "commands": {"ownerAllowFrom": ["telegram:1"]}})


def custom_state(home: Path) -> dict[str, str]:
    return c3(home, home / "st")


# One fixture per registered check: a state in which that check has something to say.
PER_CHECK = {
    "core/doctor/legacy-config": legacy_keys,
    "core/doctor/plugin-slots": with_cfg(plugins={"slots": {"contextEngine": "lossless-claw"}}),
    "core/doctor/gateway-config": no_gateway_mode,
    "core/doctor/gateway-auth": with_cfg(gateway={"mode": "local"}),
    "core/doctor/command-owner": with_cfg(commands={}),
    "core/doctor/legacy-state": legacy_dirs,
    "core/doctor/disk-space": healthy,  # reports only on a nearly full partition (see MACHINE)
    "core/doctor/state-integrity": open_modes,
    "core/doctor/session-locks": stale_lock,
    "core/doctor/session-transcripts": branch_transcript,
    "core/doctor/session-store": store_over_budget,
    "core/doctor/session-sqlite": damaged_database,
    "core/doctor/session-sqlite-migration": half_migrated,
    "core/doctor/security": with_cfg(gateway={"mode": "local", "auth": {"mode": "token", "token": TOKEN}}),
    "core/doctor/bootstrap-size": big_bootstrap,
    "core/doctor/gateway-health": healthy,
    "core/doctor/workspace-suggestions": healthy,
    "core/doctor/final-config-validation": with_cfg(bogusTop=1),
}
# Checks whose problem is the machine's, not the fixture's: compared, but maybe silent here.
MACHINE = {"core/doctor/disk-space"}
COMBINED = {"f1": f1, "c1": c1, "c2": c2, "c3": custom_state, "c4": c4, "heartbeat-main": heartbeat_home}


@dataclass
class HumanRun:
    notes: list
    findings: list
    text: str


def human(home: Path, env: dict[str, str]) -> HumanRun:
    """`openclaw doctor --non-interactive` in-process, keeping the report it printed."""
    from openclaw_cli.doctor.context import Options, new_context
    from openclaw_cli.doctor.prompter import Prompter, resolve_repair_mode
    from openclaw_cli.doctor.registry import load_checks
    from openclaw_cli.doctor.report import Renderer, Report
    from openclaw_cli.doctor.runner import run_doctor

    out, err = io.StringIO(), io.StringIO()
    full_env = base_env(home, env)
    cwd = os.getcwd()
    os.chdir(home)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            ctx = new_context(full_env, prompter=Prompter(resolve_repair_mode(non_interactive=True, env=full_env)),
                              options=Options(non_interactive_flag=True))
            report = Report(Renderer(out, err), secrets=ctx.secrets)
            run_doctor(ctx, load_checks(), report)
    finally:
        os.chdir(cwd)
    return HumanRun(report.notes, report.findings, out.getvalue() + err.getvalue())


def _key(finding) -> str:
    doc = finding if isinstance(finding, dict) else finding.to_json()
    return json.dumps(doc, sort_keys=True)


def problem_rows(note) -> list[str]:
    rows = [line for line in note.lines if line.startswith("- ") and not line.startswith(ADVICE)]
    return [row for row in rows if not row.startswith(FOLLOW_UPS.get(note.check_id, ()))]


def compare(home: Path, env: dict[str, str]):
    before = folder_digest(home)
    run = lint(home, env=env, include_all=True, severity_min="info")
    seen = human(home, env)
    assert folder_digest(home) == before  # neither run changed anything
    linted = Counter(_key(f) for f in run.findings())
    printed = Counter(_key(f) for f in seen.findings)
    assert printed == linted
    for note in seen.notes:
        if note.check_id is None or note.kind not in ("warning", "error"):
            continue
        rows = problem_rows(note)
        assert rows == [] or note.findings, (note.title, rows)
        if note.check_id == "core/doctor/state-integrity" and note.kind != "changes":
            assert len(rows) == len(note.findings), rows  # each row its own finding
    for text in (run.out, seen.text):
        assert TOKEN not in text
        assert "sk-live-abcdef0123456789" not in text and "pw-c3-0123456789" not in text
    return run, seen


def test_every_registered_check_has_a_fixture():
    from openclaw_cli.doctor.registry import check_ids

    assert sorted(PER_CHECK) == sorted(check_ids())


@pytest.mark.parametrize("check_id", sorted(PER_CHECK))
def test_the_human_run_and_lint_report_the_same_problems_of_each_check(home, check_id):
    env = PER_CHECK[check_id](home) or {}
    run, seen = compare(home, env)
    if check_id in MACHINE:
        return
    assert run.findings(check_id), f"the fixture for {check_id} should give it something to report"
    assert any(f.check_id == check_id for f in seen.findings)


@pytest.mark.parametrize("name", sorted(COMBINED))
def test_the_human_run_and_lint_report_the_same_problems_on_combined_states(home, name):
    env = COMBINED[name](home) or {}
    run, seen = compare(home, env)
    assert len(run.findings()) > 5 and len(seen.findings) == len(run.findings())


# State-integrity rows that need a state of their own: (fixture, text of the row's finding).
STATE_ROWS = {"heartbeat-target": (heartbeat_target_home, "heartbeat.session pins"),
              "route-state": (route_state_home, "session routing state")}


@pytest.mark.parametrize("name", sorted(STATE_ROWS))
def test_the_human_run_and_lint_report_the_same_state_integrity_rows(home, name):
    build, text = STATE_ROWS[name]
    run, seen = compare(home, build(home) or {})
    assert any(text in f["message"] for f in run.findings("core/doctor/state-integrity"))
    assert any(text in f.message for f in seen.findings)


def test_default_lint_reports_every_problem_of_the_combined_state_one_finding_each(home):
    """Legacy keys, a slot naming a missing plugin, a 0755 state folder, a 0644 config, a recent
    session without transcript, a one-line main transcript, an orphan transcript, a stale lock and a
    plaintext token: all of them without --all, at the default threshold."""
    f1(home)
    run = lint(home)
    assert run.code == 1
    found = [(f["checkId"].removeprefix("core/doctor/"), f.get("path", "").replace(str(home), "~"))
             for f in run.findings()]
    for expected in [("legacy-config", "session.maintenance.rotateBytes"),
                     ("legacy-config", "session.parentForkMaxTokens"),
                     ("plugin-slots", "plugins.slots.contextEngine"),
                     ("state-integrity", "~/.openclaw"), ("state-integrity", "~/.openclaw/openclaw.json"),
                     ("state-integrity", "~/.openclaw/agents/main/sessions/sessions.json"),
                     ("state-integrity", f"~/.openclaw/agents/main/sessions/{MAIN_SID}.jsonl"),
                     ("state-integrity", "~/.openclaw/agents/main/sessions"),
                     ("session-locks", f"~/.openclaw/agents/main/sessions/{MAIN_SID}.jsonl.lock"),
                     ("final-config-validation", "session")]:
        assert expected in found
    assert any(f["checkId"] == "core/doctor/security" and "gateway.auth.token" in f["message"]
               for f in run.findings())
    assert run.json["checksSkipped"] == 3  # the Gateway probe, the workspace suggestions, the disk space
    assert TOKEN not in run.out

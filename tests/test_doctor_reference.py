"""Differential tests against the reference `openclaw doctor` (every file-era release) on combined fixtures."""

from __future__ import annotations

import json
import re
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import refbin
from helpers.doctor import (
    BRANCH_SID,
    CODEX_SID,
    MAIN_SID,
    ORPHAN_SID,
    c1,
    c2,
    c3,
    c4,
    clack_notes,
    sessions,
    state,
    write_config,
)

pytestmark = pytest.mark.reference

# Reference lint checks whose findings depend only on files, config and env (not on the machine's
# installed tools, services, SQLite plugin registry or network).
ON_DISK = {"core/doctor/final-config-validation", "core/doctor/state-integrity", "core/doctor/session-locks",
           "core/doctor/session-transcripts", "core/doctor/bootstrap-size", "core/doctor/gateway-auth",
           "core/doctor/gateway-config", "core/doctor/security", "core/doctor/workspace-suggestions",
           "core/doctor/command-owner", "core/doctor/legacy-state"}
# Human notes whose every item we reproduce (other notes come from runtime-only checks).
NOTES = {"State integrity", "Session locks", "Session transcripts", "Security", "Bootstrap file size",
         "Gateway auth", "Command owner", "Legacy config keys detected", "Unknown config keys"}
PARTIAL_NOTES = {  # note title -> item prefixes we reproduce
    "Gateway": ("gateway.mode is unset", "Fix: run `openclaw configure`", "Or set directly:"),
    "Doctor warnings": ("- plugins.slots.", '- Run "openclaw doctor --fix" to remove stale plugin ids'),
    "Doctor": ('Run "openclaw doctor --fix" to migrate legacy config keys.',
               'Run "openclaw doctor --fix" to remove these keys.'),
    "Doctor changes": ("- plugins.slots:", "- Tightened permissions", "- Created "),
}
LINT = ["doctor", "--lint", "--json", "--all", "--severity-min", "info"]
LINT_DEFAULT = ["doctor", "--lint", "--json"]
# Our deliberate difference: these on-disk checks run by default (the reference makes them opt-in).
OPT_IN_THERE = {"core/doctor/state-integrity", "core/doctor/session-locks"}
OPT_IN_HERE = {"core/doctor/workspace-suggestions", "core/doctor/gateway-health"}
HUMAN = ["doctor", "--non-interactive"]
FIX = ["doctor", "--fix", "--non-interactive"]

class Case:
    def __init__(self, root: Path, name: str, build, args: list[str], version: str):
        self.name, self.args, self.version = name, args, version
        self.homes: dict[str, Path] = {}
        self.envs: dict[str, dict[str, str]] = {}
        for side in ("ref", "ours"):
            home = root / name / side / "home"
            (home / ".openclaw").mkdir(parents=True)
            env = {"OPENCLAW_GATEWAY_PORT": "1"}
            env.update(build(home) or {})
            self.homes[side], self.envs[side] = home, env
        self.results: dict[str, refbin.Result] = {}

    def run(self, side: str) -> None:
        if side == "ref":
            self.results[side] = refbin.run_reference(self.args, self.homes[side], self.envs[side], timeout=180,
                                                      version=self.version)
        else:
            self.results[side] = refbin.run_ours(self.args, self.homes[side], self.envs[side], timeout=180)

    def out(self, side: str) -> str:
        return self.results[side].stdout.replace(str(self.homes[side]), "HOME")


def _c3(home: Path) -> dict[str, str]:
    return c3(home, home / "st")


def _unknown_keys(home: Path) -> None:
    """Unknown keys at the root (two) and in a section, beside a bad value."""
    write_config(home, {"bogusKey": 1, "zzz": {"a": 1}, "session": {"bogus2": 1, "dmScope": "nope"}})


CASES = {
    "c1-lint": (c1, LINT), "c1-human": (c1, HUMAN), "c1-fix": (c1, FIX),
    "c1-lint-default": (c1, LINT_DEFAULT), "c2-lint": (c2, LINT), "c2-human": (c2, HUMAN), "c3-lint": (_c3, LINT), "c3-human": (_c3, HUMAN),
    "c4-human": (c4, HUMAN), "c4-fix": (c4, FIX), "unknown-keys-human": (_unknown_keys, HUMAN),
}


@pytest.fixture(scope="module", params=refbin.FILE_ERA_VERSIONS)
def cases(file_era_references, tmp_path_factory, request) -> dict[str, Case]:
    root = tmp_path_factory.mktemp(f"doctor-diff-{request.param}")
    built = {name: Case(root, name, build, args, request.param) for name, (build, args) in CASES.items()}
    jobs = [(case, side) for case in built.values() for side in ("ref", "ours")]
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        list(pool.map(lambda job: job[0].run(job[1]), jobs))
    return built


def _finding_key(finding: dict) -> str:
    return json.dumps(finding, sort_keys=True)


@pytest.mark.parametrize("name", ["c1-lint", "c2-lint", "c3-lint"])
def test_lint_every_on_disk_finding_has_a_counterpart(cases, name):
    case = cases[name]
    ref = json.loads(case.out("ref"))
    ours = json.loads(case.out("ours"))
    assert case.results["ours"].returncode == case.results["ref"].returncode == 1
    assert ours["ok"] is ref["ok"] is False
    mine = {_finding_key(f) for f in ours["findings"]}
    expected = [f for f in ref["findings"] if f["checkId"] in ON_DISK]
    assert expected, "the fixture should trigger on-disk findings"
    missing = [f for f in expected if _finding_key(f) not in mine]
    assert missing == []
    # The Gateway probe (network) is compared by check, path and target only.
    probes = [f for f in ref["findings"] if f["checkId"] == "core/doctor/gateway-health"]
    for probe in probes:
        assert any(f["checkId"] == probe["checkId"] and f.get("path") == probe.get("path")
                   and f.get("target") == probe.get("target") for f in ours["findings"])


def test_default_lint_reports_what_the_reference_only_reports_with_all(cases):
    """The documented difference: the reference's default lint leaves out state integrity and
    session locks; ours reports every on-disk finding its `--all` run has, at the default threshold."""
    default, everything = cases["c1-lint-default"], cases["c1-lint"]
    ref_default = json.loads(default.out("ref"))
    assert not {f["checkId"] for f in ref_default["findings"]} & OPT_IN_THERE
    ours = {_finding_key(f) for f in json.loads(default.out("ours"))["findings"]}
    expected = [f for f in json.loads(everything.out("ref"))["findings"]
                if f["checkId"] in ON_DISK - OPT_IN_HERE and f["severity"] != "info"]
    assert {f["checkId"] for f in expected} >= OPT_IN_THERE
    assert [f for f in expected if _finding_key(f) not in ours] == []
    assert default.results["ours"].returncode == default.results["ref"].returncode == 1


def test_lint_goes_on_past_an_invalid_config_where_the_reference_stops(cases):
    case = cases["c2-lint"]
    ref, ours = json.loads(case.out("ref")), json.loads(case.out("ours"))
    assert ref["checksRun"] == 1 and {f["checkId"] for f in ref["findings"]} == {
        "core/doctor/final-config-validation"}
    assert ours["checksRun"] > 10
    legacy = {f["path"]: f["severity"] for f in ours["findings"] if f["checkId"] == "core/doctor/legacy-config"}
    assert legacy["session.maintenance.rotateBytes"] == legacy["session.parentForkMaxTokens"] == "error"
    assert "core/doctor/state-integrity" in {f["checkId"] for f in ours["findings"]}


def _normalize(text: str) -> str:
    text = re.sub(r"age=\S+", "age=*", " ".join(text.split()))
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z", "TS", text)


# Lines of the reference's notes that come from steps we do not run (plugin auto-enable).
NOT_OURS = re.compile(r"enabled automatically\.$")


def expected_items(case: Case) -> list[tuple[str, str]]:
    items = []
    for title, note in clack_notes(case.out("ref")):
        if title in ("Doctor changes", "Doctor changes preview"):
            note = [line for line in note if not NOT_OURS.search(line)]  # unbulleted: lines, not items
            items.extend((title, line) for line in note
                         if title == "Doctor changes preview" or line.startswith(PARTIAL_NOTES[title])
                         or not line.startswith("- "))
            continue
        for item in note:
            if title in NOTES or any(item.startswith(p) for p in PARTIAL_NOTES.get(title, ())):
                items.append((title, item))
    return items


@pytest.mark.parametrize("name", ["c1-human", "c2-human", "c3-human", "c4-human"])
def test_human_notes_have_counterparts(cases, name):
    case = cases[name]
    assert case.results["ours"].returncode == case.results["ref"].returncode == 0
    ours = _normalize(case.out("ours"))
    items = expected_items(case)
    assert len(items) > 5
    missing = [(title, item) for title, item in items if _normalize(item) not in ours]
    assert missing == []


def test_human_invalid_config_goes_to_stderr(cases):
    case = cases["c2-human"]
    assert "Invalid config:" in case.results["ref"].stderr
    assert "Invalid config:" in case.results["ours"].stderr


def _invalid_config_block(text: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index("Invalid config:")
    return [line for line in lines[start:] if line.startswith(("Invalid config:", "- "))]


@pytest.mark.parametrize("name", ["c2-human", "unknown-keys-human"])
def test_the_closing_invalid_config_lines_are_the_references(cases, name):
    """Unknown keys in OpenClaw's words there (`Unrecognized keys: "a", "b"`), though lint says Invalid input."""
    case = cases[name]
    ref, ours = (_invalid_config_block(case.results[side].stderr) for side in ("ref", "ours"))
    assert ours == ref
    assert len(ref) > 1


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_fix_leaves_the_same_files(cases):
    case = cases["c1-fix"]
    ref, ours = case.homes["ref"], case.homes["ours"]
    assert case.results["ours"].returncode == case.results["ref"].returncode == 0
    for home in (ref, ours):
        assert _mode(state(home)) == 0o700
        assert _mode(state(home) / "openclaw.json") == 0o600
        assert _mode(state(home) / "openclaw.json.bak") == 0o600
    assert sorted(p.name for p in sessions(ref).glob("*.lock")) == sorted(p.name for p in sessions(ours).glob("*.lock"))
    assert not list(sessions(ours).glob("*.lock"))
    for sid in (BRANCH_SID, CODEX_SID, MAIN_SID, ORPHAN_SID):
        name = f"{sid}.jsonl"
        assert (sessions(ref) / name).read_bytes() == (sessions(ours) / name).read_bytes(), name
    for pattern in ("*.pre-doctor-branch-repair-*.bak", "*.pre-doctor-openai-codex-repair-*.bak"):
        assert len(list(sessions(ref).glob(pattern))) == len(list(sessions(ours).glob(pattern))) == 1
    assert (state(ref) / "openclaw.json.bak").read_bytes().replace(str(ref).encode(), b"") == \
        (state(ours) / "openclaw.json.bak").read_bytes().replace(str(ours).encode(), b"")
    ref_cfg = json.loads((state(ref) / "openclaw.json").read_text())
    our_cfg = json.loads((state(ours) / "openclaw.json").read_text())
    for key in ("plugins", "gateway", "models"):
        assert our_cfg[key] == ref_cfg[key], key
    assert our_cfg["wizard"]["lastRunCommand"] == ref_cfg["wizard"]["lastRunCommand"] == "doctor"
    assert_version_stamps(case, _flat(ref_cfg), _flat(our_cfg))
    items = expected_items(case)
    ours_text = _normalize(case.out("ours"))
    missing = [(t, i) for t, i in items if _normalize(i) not in ours_text]
    assert missing == []


def _flat(value, prefix: str = "") -> dict:
    if isinstance(value, dict):
        out: dict = {}
        for key, item in value.items():
            out.update(_flat(item, f"{prefix}.{key}" if prefix else key))
        return out
    return {prefix: json.dumps(value, sort_keys=True)}


# Written by the reference but not by us, on purpose: runtime defaults it writes only because the
# source file was invalid, plugin auto-enable (a runtime step), and the run's timestamps.
NOT_REPRODUCED = ("agents.defaults.maxConcurrent", "agents.defaults.subagents.", "commands.", "cron.maxConcurrentRuns",
                  "messages.ackReactionScope", "meta.lastTouchedAt", "wizard.lastRunAt", "skills.entries.",
                  "plugins.allow", "plugins.entries.anthropic")


# Each release stamps its own version into a config it writes. We always stamp 2026.7.1: a
# 2026.7.35 stamp would make 2026.7.1 warn "config was written by version 2026.7.35" on every
# command, while no file-era release warns about a 2026.7.1 stamp.
VERSION_STAMPS = ("meta.lastTouchedVersion", "wizard.lastRunVersion")


def assert_version_stamps(case: Case, ref: dict, ours: dict) -> None:
    for key in VERSION_STAMPS:
        assert json.loads(ref[key]) == case.version, key
        assert json.loads(ours[key]) == refbin.PRIMARY_VERSION, key


def test_fix_migrates_legacy_keys_like_the_reference(cases):
    case = cases["c4-fix"]
    assert case.results["ours"].returncode == case.results["ref"].returncode == 0
    ref = _flat(json.loads((state(case.homes["ref"]) / "openclaw.json").read_text()))
    ours = _flat(json.loads((state(case.homes["ours"]) / "openclaw.json").read_text()))
    differ = sorted(k for k in set(ref) | set(ours) if ref.get(k) != ours.get(k)
                    and not k.startswith(NOT_REPRODUCED) and k not in VERSION_STAMPS)
    assert differ == []
    assert_version_stamps(case, ref, ours)
    assert json.loads(ours["plugins.allow"]) == ["openai", "memory-core"]
    items = [(t, i) for t, i in expected_items(case) if t == "Doctor changes"]
    assert len(items) > 20
    ours_text = _normalize(case.out("ours"))
    assert [(t, i) for t, i in items if _normalize(i) not in ours_text] == []

"""The `tools.profile` configured-section grants migration against the reference `openclaw doctor`
(2026.7.1 and 2026.7.35): the rewritten config, its change lines, the legacy-key rows and lint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import refbin
from helpers.doctor import both_on_configs, clack_notes, lint, state, write_config

pytestmark = pytest.mark.reference

# A global profile filtering explicit exec/fs grants, with an alsoAllow in the same scope (which the
# schema refuses until the migration merges it), tool aliases, groups, globs and a plugin tool.
GLOBAL = {"gateway": {"mode": "local"},
          "tools": {"profile": "messaging", "allow": ["exec", "message", "lobster", "group:fs", "bash", "sessions_*"],
                    "alsoAllow": ["web_search"], "exec": {}, "fs": {}}}
# Agents inheriting the global profile, alsoAllow and provider policies, with provider policies of
# their own (mixed-case keys, one with an empty alsoAllow) and an agent without tools.
AGENTS = {"gateway": {"mode": "local"},
          "tools": {"profile": "minimal", "alsoAllow": ["message"], "exec": {},
                    "byProvider": {"OpenAI/GPT-5": {"profile": "coding", "allow": ["read", "exec", "web_*"]},
                                   "anthropic": {"profile": "messaging", "allow": ["process", "message"],
                                                 "alsoAllow": []}}},
          "agents": {"list": [
              {"id": "main", "tools": {"allow": ["exec", "session_status", "my_plugin_tool"]}},
              {"id": "coder", "tools": {"profile": "messaging", "allow": ["read", "write", "sessions_list"], "fs": {},
                                        "byProvider": {"openai": {"allow": ["exec", "read"]},
                                                       "Anthropic": {"profile": "minimal", "allow": ["exec", "edit"]}}}},
              {"id": "plain"}]}}
# Profiles that already allow the grants, or `full`: nothing to migrate.
UNTOUCHED = {"gateway": {"mode": "local"},
             "tools": {"profile": "coding", "allow": ["read", "exec"], "exec": {}},
             "agents": {"list": [{"id": "main", "tools": {"profile": "full", "allow": ["exec"], "exec": {}}}]}}
CONFIGS = {"global": GLOBAL, "agents": AGENTS, "untouched": UNTOUCHED}
MIGRATED = ("global", "agents")
OFFLINE = {"OPENCLAW_GATEWAY_PORT": "1", "npm_config_registry": "http://127.0.0.1:9/", "npm_config_fetch_retries": "0"}
MODES = {"fix": ["doctor", "--fix", "--non-interactive"], "human": ["doctor", "--non-interactive"],
         "lint": ["doctor", "--lint", "--json"]}
# The stamps of the run and the runtime defaults the reference writes when it rewrites a config that
# failed validation (agents.defaults, commands, skills.entries, ...) are not compared: the policies
# the migration owns are, whole.
RULE = "core/doctor/legacy-config"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[str, str, str], tuple[refbin.Result, Path]]:
    return both_on_configs(tmp_path_factory.mktemp("doctor-tools-profile"), CONFIGS, MODES, OFFLINE)


@pytest.fixture(scope="module")
def runs_735(tmp_path_factory) -> dict[tuple[str, str, str], tuple[refbin.Result, Path]]:
    return both_on_configs(tmp_path_factory.mktemp("doctor-tools-profile-735"), CONFIGS, {"fix": MODES["fix"]},
                           OFFLINE, version="2026.7.35")


def _policies(cfg: dict) -> dict:
    """What the migration owns: the global tools and every agent's entry."""
    return {"tools": cfg.get("tools"), "agents.list": (cfg.get("agents") or {}).get("list")}


def _written(home: Path) -> dict:
    return _policies(json.loads((state(home) / "openclaw.json").read_text()))


def _ref_note(result: refbin.Result, title: str) -> list[str]:
    """The items of the reference's first note called `title`."""
    return next((items for t, items in clack_notes(result.stdout) if t == title), [])


def _our_note(result: refbin.Result, title: str) -> list[str]:
    """The lines of our first plain-text note called `title`."""
    lines = result.stdout.splitlines()
    start = lines.index(title) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def _squeezed(lines: list[str]) -> str:
    # The reference's note box breaks long paths mid-word: compared without whitespace.
    return "".join("".join(lines).split())


@pytest.mark.parametrize("config", MIGRATED)
def test_fix_writes_the_tool_policies_the_reference_writes(runs, config):
    (ref, ref_home), (ours, our_home) = runs[(config, "fix", "ref")], runs[(config, "fix", "ours")]
    assert ref.returncode == ours.returncode == 0
    assert _written(our_home) == _written(ref_home)
    assert _written(our_home) != _policies(CONFIGS[config])


@pytest.mark.parametrize("config", MIGRATED)
def test_fix_prints_the_change_lines_of_the_reference_in_its_order(runs, config):
    ref, ours = runs[(config, "fix", "ref")][0], runs[(config, "fix", "ours")][0]
    expected = _ref_note(ref, "Doctor changes")
    assert any(line.startswith("Replaced ") for line in expected)
    assert _squeezed(_our_note(ours, "Doctor changes")) == _squeezed(expected)


@pytest.mark.parametrize("config", MIGRATED)
def test_fix_agrees_with_2026_7_35(runs_735, config):
    (ref, ref_home), (ours, our_home) = runs_735[(config, "fix", "ref")], runs_735[(config, "fix", "ours")]
    assert ref.returncode == ours.returncode == 0
    assert _written(our_home) == _written(ref_home)
    assert _squeezed(_our_note(ours, "Doctor changes")) == _squeezed(_ref_note(ref, "Doctor changes"))


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_the_human_run_lists_the_legacy_rows_the_reference_lists(runs, config):
    ref, ours = runs[(config, "human", "ref")][0], runs[(config, "human", "ours")][0]
    expected = _ref_note(ref, "Legacy config keys detected")
    assert bool(expected) == (config in MIGRATED)
    if expected:
        assert _squeezed(_our_note(ours, "Legacy config keys detected")) == _squeezed(expected)
    else:
        assert "Legacy config keys detected" not in ours.stdout


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_lint_reports_each_row_of_the_reference_at_its_path(runs, config, tmp_path):
    ref = runs[(config, "human", "ref")][0]
    expected = [tuple(item[2:].split(": ", 1)) for item in _ref_note(ref, "Legacy config keys detected")]
    write_config(tmp_path, CONFIGS[config])
    found = [(f["path"], f["message"]) for f in lint(tmp_path).findings(RULE)]
    assert len(found) == len(expected)
    for rule_path, message in expected:
        assert any(path.split(".")[0] == rule_path.split(".")[0] and path.startswith(rule_path)
                   and " ".join(text.split()) == " ".join(message.split()) for path, text in found)


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_lint_validates_the_config_as_the_reference_lint_does(runs, config):
    ref, ours = runs[(config, "lint", "ref")][0], runs[(config, "lint", "ours")][0]

    def validation(result: refbin.Result) -> list[dict]:
        return [f for f in json.loads(result.stdout)["findings"]
                if f["checkId"] == "core/doctor/final-config-validation"]

    assert validation(ours) == validation(ref)
    assert bool(validation(ref)) == (config == "global")

"""`doctor --fix` on a config that is still invalid after every repair, against the reference `openclaw doctor`:
the write is refused with the first validation issue, exit 1, and the file stays as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import refbin
from helpers.doctor import both_on_configs, state

pytestmark = pytest.mark.reference

CONFIGS = {
    # tavily is a legacy provider block no migration moves; the brave block beside it is migrated in memory.
    "tavily-left-over": {"gateway": {"mode": "local"},
                         "tools": {"web": {"search": {"tavily": {"apiKey": "tavily-legacy-key-0123456789"},
                                                      "brave": {"country": "DE"}}}}},
    "tavily-only": {"gateway": {"mode": "local"}, "tools": {"web": {"search": {"tavily": {"maxResults": 3}}}}},
    "tailscale-rule": {"gateway": {"mode": "local", "bind": "lan", "tailscale": {"mode": "serve"}}},
}
MODES = {"fix": ["doctor", "--fix", "--non-interactive"], "human": ["doctor", "--non-interactive"]}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[str, str, str], tuple[refbin.Result, Path]]:
    return both_on_configs(tmp_path_factory.mktemp("doctor-write-refusal"), CONFIGS, MODES, {"OPENCLAW_GATEWAY_PORT": "1"})


def _error_lines(result: refbin.Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("Error: ")]


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_fix_exits_1_with_the_validation_error_of_the_reference(runs, config):
    ref, ours = runs[(config, "fix", "ref")][0], runs[(config, "fix", "ours")][0]
    assert (ref.returncode, ours.returncode) == (1, 1)
    assert _error_lines(ref) == _error_lines(ours)
    assert _error_lines(ours)[0].startswith("Error: Config validation failed: ")


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_refused_fix_leaves_the_config_as_authored_and_stops_before_the_closing_line(runs, config):
    for side in ("ref", "ours"):
        result, home = runs[(config, "fix", side)]
        assert json.loads((state(home) / "openclaw.json").read_text()) == CONFIGS[config]
        assert "Doctor complete." not in result.stdout


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_human_run_says_the_config_is_invalid_and_lists_the_issues_as_the_reference_does(runs, config):
    ref, ours = runs[(config, "human", "ref")][0], runs[(config, "human", "ours")][0]
    assert ref.returncode == ours.returncode == 0
    # The note is left out when a legacy key explains the invalid config (its own note says what to run).
    note = "Config invalid; doctor will run with best-effort config."
    assert (note in ours.stdout) == (note in ref.stdout) == (config != "tavily-left-over")

    def listed(result: refbin.Result) -> list[str]:
        lines = result.stderr.splitlines()
        start = lines.index("Invalid config:") if "Invalid config:" in lines else len(lines)
        return [line for line in lines[start + 1:] if line.startswith("- ")]

    assert listed(ours) == listed(ref) != []

"""Global options are accepted wherever people type them, and option values are never mistaken for them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from helpers import cli
from helpers.cleanup import write_store

from openclaw_cli.cli.argv import hoist_global_options


def _root():
    from typer.main import get_command

    from openclaw_cli.cli.app import app

    return get_command(app)


@pytest.mark.parametrize(("typed", "meant"), [
    (["sessions", "--no-color"], ["--no-color", "sessions"]),
    (["sessions", "cleanup", "--dry-run", "--log-level", "error"], ["--log-level", "error", "sessions", "cleanup",
                                                                    "--dry-run"]),
    (["doctor", "--log-level=debug", "--lint"], ["--log-level=debug", "doctor", "--lint"]),
    (["--no-color", "sessions"], ["--no-color", "sessions"]),
])
def test_a_global_option_after_a_sub_command_means_the_same_as_before_it(typed, meant):
    assert hoist_global_options(_root(), typed) == meant


@pytest.mark.parametrize("typed", [
    ["sessions", "cleanup", "--active-key", "--no-color", "--dry-run"],
    ["sessions", "--store", "--log-level", "list"],
    ["sessions", "cleanup", "--dry-run", "--", "--no-color"],
])
def test_option_values_and_anything_after_a_double_dash_stay_where_they_are(typed):
    assert hoist_global_options(_root(), typed) == typed


def test_no_color_after_the_sub_command_takes_the_colour_away(home: Path):
    now = int(time.time() * 1000)
    write_store(home, {"agent:main:explicit:a": {"sessionId": "a", "updatedAt": now, "model": "gpt-5.5"}})
    forced = {"FORCE_COLOR": "1"}
    assert "\x1b[" in cli.run(["sessions"], home, env=forced).stdout
    for args in (["sessions", "--no-color"], ["sessions", "list", "--no-color"]):
        result = cli.run(args, home, env=forced)
        assert result.returncode == 0, result.stderr
        assert "\x1b[" not in result.stdout and "agent:main:explicit:a" in result.stdout


def test_a_bad_log_level_after_the_sub_command_is_a_usage_error(home: Path):
    result = cli.run(["sessions", "cleanup", "--dry-run", "--log-level", "loud"], home)
    assert (result.returncode, result.stderr.strip()) == (
        2, "--log-level must be one of error, warn, info, debug (got 'loud')")


def test_json_output_is_unchanged_by_where_the_global_options_stand(home: Path):
    now = int(time.time() * 1000)
    write_store(home, {"agent:main:explicit:a": {"sessionId": "a", "updatedAt": now}})
    before = json.loads(cli.run(["--no-color", "sessions", "--json"], home).stdout)
    after = json.loads(cli.run(["sessions", "--json", "--no-color"], home).stdout)
    before["sessions"][0].pop("ageMs"), after["sessions"][0].pop("ageMs")
    assert before == after

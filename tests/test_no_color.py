"""NO_COLOR and --no-color at a terminal: no command writes a single escape code (no colour, no bold)."""

from __future__ import annotations

import pytest
from helpers.cleanup import DAY_MS, now_ms, write_store
from helpers.cli import run_in_pty

NO_GATEWAY = {"OPENCLAW_GATEWAY_PORT": "1", "COLUMNS": "120"}
COMMANDS = [["doctor", "--non-interactive"], ["sessions"], ["sessions", "cleanup", "--dry-run"],
            ["sessions", "disk"], ["sessions", "verify"]]


def _state(home):
    now = now_ms()
    write_store(home, {"agent:main:main": {"sessionId": "s1", "updatedAt": now - 60_000, "label": "today"},
                       "agent:main:old": {"sessionId": "s2", "updatedAt": now - 45 * DAY_MS}})


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("how", ["env", "flag"])
def test_no_color_at_a_terminal_writes_no_escape_code(home, argv, how):
    _state(home)
    env = {**NO_GATEWAY, **({"NO_COLOR": "1"} if how == "env" else {})}
    shown = run_in_pty([*argv, *([] if how == "env" else ["--no-color"])], home, env)
    assert shown.strip(), argv
    assert "\x1b" not in shown, shown


def test_the_same_terminal_is_coloured_when_colour_is_allowed(home):
    _state(home)
    shown = run_in_pty(["doctor", "--non-interactive"], home, {**NO_GATEWAY, "TERM": "xterm-256color"})
    assert "\x1b[" in shown

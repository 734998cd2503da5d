"""Errors in one style: `error: …` and an optional `hint: …`; OpenClaw's own words kept when piped."""

from __future__ import annotations

from helpers.cli import run, run_in_pty

NO_GATEWAY = {"OPENCLAW_GATEWAY_PORT": "1", "NO_COLOR": "1"}


def test_an_unknown_option_is_one_error_line_and_a_hint_naming_the_commands_help(home):
    result = run(["sessions", "cleanup", "--bogus"], home=home)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: No such option: --bogus",
        "hint: 'openclaw sessions cleanup --help' shows the usage and examples",
    ]


def test_an_unknown_command_is_an_error_line_with_the_root_help_as_hint(home):
    result = run(["sesions"], home=home)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: No such command 'sesions'")
    assert lines[1] == "hint: 'openclaw --help' shows the usage and examples"


def test_openclaws_own_error_words_stay_as_they_are_when_piped(home):
    result = run(["sessions", "cleanup", "--agent", "main", "--all-agents"], home=home)
    assert result.returncode == 2
    assert result.stderr == "--agent and --all-agents cannot be used together\n"


def test_at_a_terminal_every_error_starts_with_lower_case_error(home):
    shown = run_in_pty(["sessions", "cleanup", "--agent", "main", "--all-agents"], home, NO_GATEWAY)
    assert "error: --agent and --all-agents cannot be used together" in shown.splitlines()
    shown = run_in_pty(["doctor", "--lint", "--severity-min", "loud"], home, NO_GATEWAY)
    assert "error: Invalid --severity-min value. Expected one of: info, warning, error." in shown.splitlines()
    assert "Error:" not in shown

"""A session key or label carrying escape sequences is shown, never obeyed, at a terminal."""

from __future__ import annotations

from helpers.cleanup import now_ms, write_store
from helpers.cli import run, run_in_pty

from openclaw_cli.ui.console import terminal_safe

KEY = "agent:main:explicit:\x1b[31mred\x07"
ENV = {"OPENCLAW_GATEWAY_PORT": "1", "NO_COLOR": "1", "COLUMNS": "200"}


def test_control_characters_become_visible_escapes_and_text_stays():
    assert terminal_safe("a\x1b[2Jb\x07c\x9bd\te\nf") == "a\\x1b[2Jb\\x07c\\x9bd\te\nf"
    assert terminal_safe("plain ünïcode 🦞") == "plain ünïcode 🦞"


def test_an_error_naming_such_a_key_shows_the_escape_at_a_terminal(home):
    write_store(home, {})
    shown = run_in_pty(["compact", KEY, "--offline"], home, ENV)
    assert "\x1b[31mred" not in shown and "\x07" not in shown
    assert "explicit:\\x1b[31mred\\x07" in shown


def test_the_session_table_shows_the_escape_at_a_terminal(home):
    write_store(home, {KEY: {"sessionId": "s1", "updatedAt": now_ms()}})
    shown = run_in_pty(["sessions"], home, ENV)
    assert "\x1b[31m" not in shown and "\\x1b[31mred" in shown


def test_piped_output_stays_as_openclaw_prints_it(home):
    write_store(home, {})
    piped = run(["compact", KEY, "--offline"], home, {"OPENCLAW_GATEWAY_PORT": "1"})
    assert piped.returncode == 1 and "\x1b[31mred\x07" in piped.stderr

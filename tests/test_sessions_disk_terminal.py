"""`sessions disk` at a terminal: colour only when allowed, and then nothing but plain text without it."""

from __future__ import annotations

import pytest
from helpers.cleanup import put, write_store
from helpers.cli import run_in_pty
from helpers.state import home_sessions_dir

pytestmark = pytest.mark.usefixtures("at_home")

NO_GATEWAY = {"OPENCLAW_GATEWAY_PORT": "1", "COLUMNS": "120", "TERM": "xterm-256color"}


def a_store(home) -> None:
    write_store(home, {"agent:main:main": {"sessionId": "s1", "updatedAt": 1, "label": "L", "totalTokens": 5}})
    put(home_sessions_dir(home) / "s1.jsonl", 2000)


@pytest.mark.parametrize(("env", "args"), [({"NO_COLOR": "1"}, []), ({}, ["--no-color"]),
                                           ({"NO_COLOR": "1"}, ["--no-color"])],
                         ids=["NO_COLOR", "--no-color", "both"])
def test_without_colour_the_terminal_output_has_no_escape_code_at_all(home, env, args):
    a_store(home)
    text = run_in_pty(["sessions", "disk", *args], home, {**NO_GATEWAY, **env})
    assert "Largest sessions (top 1)" in text and "live transcripts" in text, text
    assert "\x1b" not in text, repr(text)


def test_with_colour_allowed_the_terminal_output_is_styled(home):
    a_store(home)
    text = run_in_pty(["sessions", "disk"], home, NO_GATEWAY)
    assert "live transcripts" in text
    assert "\x1b[" in text

"""`openclaw context list|detail|json` against the real 2026.7.1 Gateway's own /context replies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.context import MAIN_ID, REAL, copy_state, drop_last_lines, env_for, reference_part, run_context


@pytest.fixture
def state_env(tmp_path: Path) -> dict[str, str]:
    state = copy_state(tmp_path / "state")
    # the detail reply was made before its own turn and the json turn reached the transcript
    drop_last_lines(state / "agents" / "main" / "sessions" / f"{MAIN_ID}.jsonl", 4)
    home = tmp_path / "home"
    home.mkdir()
    return env_for(home, state, state / "workspace")


def test_list_matches_the_gateway(state_env):
    out = run_context(["list", "--offline"], state_env)
    assert out.returncode == 0, out.stderr
    assert reference_part(out.stdout) == (REAL / "context-list.txt").read_text(encoding="utf-8")


def test_list_plain_is_exactly_the_reply(state_env):
    out = run_context(["list", "--offline", "--plain"], state_env)
    assert out.stdout == (REAL / "context-list.txt").read_text(encoding="utf-8") + "\n"


def test_detail_matches_the_gateway(state_env):
    out = run_context(["detail", "--offline"], state_env)
    assert out.returncode == 0, out.stderr
    expected = (REAL / "context-detail.txt").read_text(encoding="utf-8")
    assert reference_part(out.stdout) == expected
    assert len(expected.splitlines()) == 137


def test_detail_extras_follow_a_blank_line(state_env):
    out = run_context(["detail", "--offline"], state_env)
    extras = out.stdout.split("\n\n", 1)[1]
    assert extras.startswith("Source: the run report persisted on the session entry")
    assert "Transcript (active branch, as the Gateway reads it):" in extras
    assert "- toolResult: 2 message(s)" in extras
    assert "Largest tool results:\n- read: ~19 tok" in extras
    assert "Compaction (keepRecentTokens 50)" in extras


def test_json_is_byte_identical(state_env):
    out = run_context(["json", "--offline"], state_env)
    assert out.returncode == 0, out.stderr
    assert out.stdout == (REAL / "context-json.json").read_text(encoding="utf-8") + "\n"
    assert list(json.loads(out.stdout)) == ["report", "session"]

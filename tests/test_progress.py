"""Feedback on long work: a progress bar on stderr at a terminal, nothing in pipes or JSON."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.cli import run_in_pty
from helpers.context import MAIN_ID, copy_state, env_for, run_context


def _large_transcript(state: Path, mib: int = 40) -> Path:
    """The fixture's main transcript grown past the size that earns a bar, with custom entries on its branch."""
    path = state / "agents" / "main" / "sessions" / f"{MAIN_ID}.jsonl"
    last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["id"]
    with path.open("a", encoding="utf-8") as out:
        for i in range(mib):
            entry = {"type": "custom", "customType": "filler", "id": f"fill{i:04d}", "parentId": last,
                     "timestamp": "2026-11-30T12:00:00.000Z", "data": {"text": "x" * (1 << 20)}}
            out.write(json.dumps(entry) + "\n")
            last = entry["id"]
    return path


def test_context_detail_on_a_large_transcript_shows_a_reading_bar_only_at_a_terminal(tmp_path: Path):
    state = copy_state(tmp_path / "state")
    _large_transcript(state)
    env = env_for(tmp_path, state)
    shown = run_in_pty(["context", "detail", "--offline"], tmp_path,
                       {k: env[k] for k in ("OPENCLAW_STATE_DIR", "TZ", "NO_COLOR")} | {"COLUMNS": "100"})
    assert f"Reading {MAIN_ID}.jsonl" in shown
    assert "MB" in shown
    piped = run_context(["detail", "--offline"], env)
    assert piped.returncode == 0, piped.stderr
    assert "Reading" not in piped.stderr and "Reading" not in piped.stdout


def test_context_json_never_shows_a_bar_even_at_a_terminal(tmp_path: Path):
    state = copy_state(tmp_path / "state")
    _large_transcript(state)
    env = env_for(tmp_path, state)
    shown = run_in_pty(["context", "json", "--offline"], tmp_path,
                       {k: env[k] for k in ("OPENCLAW_STATE_DIR", "TZ", "NO_COLOR")})
    assert "Reading" not in shown
    assert json.loads(shown[shown.index("{"):])["session"] is not None

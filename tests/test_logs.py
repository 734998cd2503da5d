"""Our library log records stay off the console (no last-resort handler) until `--log-level` asks for
them, and nothing loads `logging` before something logs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys
from openclaw_cli.transcript.index import load_index
{setup}
load_index(sys.argv[1])
"""


def _warned(tmp_path: Path, setup: str = "") -> str:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type":"session","version":3,"id":"s"}\nnot json\n')
    run = subprocess.run([sys.executable, "-c", SCRIPT.format(setup=setup), str(transcript)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stderr


def test_a_skipped_transcript_line_is_not_reported_without_a_log_handler(tmp_path):
    assert _warned(tmp_path) == ""


def test_a_skipped_transcript_line_is_reported_once_a_handler_is_installed(tmp_path):
    setup = "import logging; logging.basicConfig(level=logging.INFO)"
    assert "skipped 1 malformed JSONL line(s)" in _warned(tmp_path, setup)


def test_importing_the_package_does_not_load_logging():
    run = subprocess.run([sys.executable, "-c", "import sys, openclaw_cli.cli.app; print('logging' in sys.modules)"],
                         capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "False", run.stderr

"""A summary written elsewhere (a file or standard input), stored as given."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from openclaw_cli.compact.planner import CompactionPlan
from openclaw_cli.compact.summarizers.base import SummaryResult, file_details
from openclaw_cli.errors import UsageError


def read_summary_text(source: str) -> str:
    """The text of `--summary-file PATH`, or of standard input for `-` (UTF-8 either way)."""
    name = "standard input" if source == "-" else f"summary file {source}"
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{name} is not UTF-8 text (invalid byte at offset {exc.start})") from None
    if not text.strip():
        raise UsageError("the summary is empty")
    return text


@dataclass
class TextSummarizer:
    text: str
    name: str = "text"

    def summarize(self, plan: CompactionPlan) -> SummaryResult:
        details, _, _ = file_details(plan)
        return SummaryResult(summary=self.text, details=details)

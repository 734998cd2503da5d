"""A summary written elsewhere (a file or standard input), stored as given."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from openclaw_cli.compact.planner import CompactionPlan
from openclaw_cli.compact.summarizers.base import SummaryResult, file_details
from openclaw_cli.errors import UsageError


def read_summary_text(source: str) -> str:
    """The text of `--summary-file PATH`, or of standard input for `-`."""
    if source == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read summary file {source}: {exc.strerror or exc}") from None
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

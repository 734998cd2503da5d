"""What every summarizer returns, and the shared assembly of the final summary text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from openclaw_cli.compact.planner import CompactionPlan


@dataclass
class SummaryResult:
    """The summary text, the entry's `details` and `fromHook`, and any model requests sent."""

    summary: str
    details: dict[str, Any] | None
    from_hook: bool = False
    requests: list[dict[str, Any]] = field(default_factory=list)


class Summarizer(Protocol):
    name: str

    def summarize(self, plan: CompactionPlan) -> SummaryResult: ...


def file_details(plan: CompactionPlan) -> tuple[dict[str, Any], list[str], list[str]]:
    read, modified = plan.file_ops.lists()
    return {"readFiles": read, "modifiedFiles": modified}, read, modified

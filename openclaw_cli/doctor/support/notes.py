"""A check's findings as one note of the human doctor run: a row per finding with its path and its fix."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.model import Finding
    from openclaw_cli.doctor.report import Report


def report_findings(ctx: DoctorContext, report: Report, title: str, check_id: str,
                    findings: list[Finding]) -> None:
    """One note: a row per finding with its path and its fix."""
    if not findings:
        return
    lines = []
    for f in findings:
        lines.append(f"- {f.message} ({ctx.display(f.path or '')})")
        if f.fix_hint:
            lines.append(f"  Fix: {f.fix_hint}")
    kind = "error" if any(f.severity == "error" for f in findings) else \
        "warning" if any(f.severity == "warning" for f in findings) else "note"
    report.note(title, lines, check_id=check_id, findings=findings, kind=kind)

"""Findings, severities and the check interface shared by every doctor check."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

SEVERITIES = ("info", "warning", "error")
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}
ID_PREFIX = "core/doctor/"


def parse_severity(value: str | None) -> str | None:
    """The severity named by `value`, or None when it is not one of info, warning, error."""
    return value if value in SEVERITY_RANK else None


def meets(severity: str, minimum: str) -> bool:
    return SEVERITY_RANK[severity] >= SEVERITY_RANK[minimum]


@dataclass
class Finding:
    """One problem: `{checkId, severity, message, path?, target?, fixHint?}` in lint JSON."""

    check_id: str
    severity: str
    message: str
    path: str | None = None
    fix_hint: str | None = None
    target: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Keys in the reference's order; absent optional keys are left out."""
        out: dict[str, Any] = {"checkId": self.check_id, "severity": self.severity, "message": self.message}
        if self.path is not None:
            out["path"] = self.path
        if self.target is not None:
            out["target"] = self.target
        if self.fix_hint is not None:
            out["fixHint"] = self.fix_hint
        return out


@dataclass
class Check:
    """A doctor check: `detect` gives lint findings; `run` reports (and repairs) in a doctor run.

    The default `run` shows the findings of `detect` as one note titled `title` and applies
    `repair` when the prompter agrees; checks with richer output override `run`.
    """

    id: str
    title: str
    description: str
    severity: str = "warning"
    default_enabled: bool = True
    repair_prompt: str | None = None
    repair_kind: str = "runtime"  # runtime | config | interactive (see prompter)
    extra: dict[str, Any] = field(default_factory=dict)

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        raise NotImplementedError

    def repair(self, ctx: DoctorContext, findings: list[Finding]) -> list[str]:
        """Apply the repair for `findings`; returns the change lines. Default: nothing to repair."""
        return []

    def has_repair(self) -> bool:
        return type(self).repair is not Check.repair

    def finding(self, message: str, *, severity: str | None = None, path: str | None = None,
                fix_hint: str | None = None, target: str | None = None) -> Finding:
        return Finding(self.id, severity or self.severity, message, path, fix_hint, target)

    def run(self, ctx: DoctorContext, report: Report) -> None:
        findings = self.detect(ctx)
        if not findings:
            return
        report.note(self.title, [_bullet(f) for f in findings], check_id=self.id, findings=findings)
        if not self.has_repair() or not self.repair_prompt:
            return
        if ctx.prompter.confirm_kind(self.repair_kind, self.repair_prompt, True):
            changes = self.repair(ctx, findings)
            if changes:
                report.changes(changes, check_id=self.id)


def _bullet(finding: Finding) -> str:
    text = f"- {finding.message}"
    if finding.fix_hint:
        text += f"\n  Fix: {finding.fix_hint}"
    return text

"""Findings, severities and the check interface shared by every doctor check."""

from __future__ import annotations

from dataclasses import dataclass
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
    """One problem: `{checkId, severity, message, path?, target?, requirement?, fixHint?}` in lint JSON."""

    check_id: str
    severity: str
    message: str
    path: str | None = None
    fix_hint: str | None = None
    target: str | None = None
    requirement: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Keys in OpenClaw's order; absent optional keys are left out."""
        out: dict[str, Any] = {"checkId": self.check_id, "severity": self.severity, "message": self.message}
        if self.path is not None:
            out["path"] = self.path
        if self.target is not None:
            out["target"] = self.target
        if self.requirement is not None:
            out["requirement"] = self.requirement
        if self.fix_hint is not None:
            out["fixHint"] = self.fix_hint
        return out


@dataclass
class Check:
    """A doctor check: `detect` gives the lint findings; `run` reports in a doctor run and makes
    the check's repairs (asking the prompter first), reporting each change it makes.

    The default `run` shows the findings as one note titled `title`; checks that repair or need
    richer output override it.
    """

    id: str
    title: str
    description: str
    severity: str = "warning"
    default_enabled: bool = True

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        raise NotImplementedError

    def prepare_rest(self, ctx: DoctorContext) -> None:
        """What a doctor run that declines this check's repairs leaves the later checks to look at
        (lint calls it after `detect`, so that both runs judge the same config)."""

    def run(self, ctx: DoctorContext, report: Report) -> None:
        findings = self.detect(ctx)
        if findings:
            report.note(self.title, [_bullet(f) for f in findings], check_id=self.id, findings=findings)


def _bullet(finding: Finding) -> str:
    text = f"- {finding.message}"
    if finding.fix_hint:
        text += f"\n  Fix: {finding.fix_hint}"
    return text

"""`core/doctor/final-config-validation`: the config parses (JSON, JSON5), includes resolve, validates."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/final-config-validation"


def issue_findings(issues) -> list[Finding]:
    return [Finding(CHECK_ID, "error", issue.message, issue.path or "<root>") for issue in issues]


def warning_findings(warnings) -> list[Finding]:
    """Config warnings (a `${VAR}` that is not set, ...): the rows of the `Config warnings` note."""
    return [Finding(CHECK_ID, "warning", w.message, w.path or "<root>") for w in warnings]


class FinalConfigValidationCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Config", "The active config parses and passes validation.", severity="error")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        """The file as it is (earlier checks may have previewed repairs in memory)."""
        from openclaw_cli.doctor.configfile import load_doc

        doc = load_doc(dict(ctx.env))
        if not doc.exists:
            return []
        return issue_findings(doc.issues) + warning_findings(doc.warnings)

    def preflight(self, ctx: DoctorContext, report: Report) -> None:
        """Start of a doctor run: say when the run goes on with a best-effort config (not when legacy
        keys explain it: their own note says what to run)."""
        from openclaw_cli.doctor.checks.legacy_config import legacy_issues

        if ctx.doc.exists and ctx.doc.issues:
            if legacy_issues(ctx):
                report.findings.extend(issue_findings(ctx.doc.issues))  # listed by the closing `Invalid config:`
            else:
                report.note("Config", ["Config invalid; doctor will run with best-effort config."], check_id=self.id,
                            findings=issue_findings(ctx.doc.issues), kind="warning")
        if ctx.doc.warnings:
            report.note("Config warnings", [f"- {w.path or '<root>'}: {w.message}" for w in ctx.doc.warnings],
                        check_id=self.id, findings=warning_findings(ctx.doc.warnings), kind="warning")

    def run(self, ctx: DoctorContext, report: Report) -> None:
        """End of a doctor run: re-read the file and list what is still invalid (stderr)."""
        from openclaw_cli.doctor.configfile import load_doc

        env = dict(ctx.env)
        doc = load_doc(env)
        if not doc.exists or not doc.issues:
            return
        report.error("Invalid config:")
        for issue in doc.issues:
            report.error(f"- {issue.path or '<root>'}: {issue.snapshot_message}")
        report.step("openclaw config validate")

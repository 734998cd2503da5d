"""`openclaw doctor --lint`: read-only structured findings, one JSON document or plain lines."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from openclaw_cli.doctor.model import SEVERITY_RANK, Check, Finding, meets

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext

SELECTION_ID = "core/doctor/lint-selection"


@dataclass
class LintResult:
    findings: list[Finding]
    checks_run: int
    checks_skipped: int
    console_cfg: Mapping | None = None  # for the console redaction of the text form


def _sort_key(finding: Finding):
    """Severity, check id, path; config validation errors keep the validator's order, as OpenClaw
    prints them (its lint reports an invalid config before, and instead of, the sorted checks)."""
    from openclaw_cli.doctor.checks.final_config import CHECK_ID as FINAL_ID
    from openclaw_cli.js.strings import locale_sort_key

    path = "" if finding.check_id == FINAL_ID else finding.path or ""
    return (-SEVERITY_RANK[finding.severity], locale_sort_key(finding.check_id), locale_sort_key(path))


def run_checks(ctx: DoctorContext, checks: Sequence[Check], *, only: Sequence[str] = (),
               skip: Sequence[str] = (), include_all: bool = False) -> LintResult:
    from openclaw_cli.doctor.runner import console_config
    from openclaw_cli.doctor.support.sessionfiles import shared_store_reads
    from openclaw_cli.gcpause import paused

    console_cfg = console_config(ctx)
    only_set, skip_set = set(only), set(skip)
    known = {c.id for c in checks}
    selected = [c for c in checks
                if (c.id in only_set if only_set else (include_all or c.default_enabled)) and c.id not in skip_set]
    findings: list[Finding] = []
    for check_id in dict.fromkeys(only):
        if check_id not in known:
            findings.append(Finding(SELECTION_ID, "error",
                                    f"Unknown health check id selected by --only: {check_id}.", check_id))
    # Nothing is written, so the checks share each store's one read (and what they read lives on).
    with shared_store_reads(), paused():
        for check in selected:
            try:
                findings.extend(check.detect(ctx))
                check.prepare_rest(ctx)
            except Exception as exc:
                findings.append(Finding(check.id, "error", f"health check threw: {exc}"))
    findings.sort(key=_sort_key)
    return LintResult(findings, len(selected), len(checks) - len(selected), console_cfg)


def emit(result: LintResult, severity_min: str, *, json_mode: bool, secrets: set[str],
         out: TextIO | None = None) -> int:
    """Print the result; returns the exit code (1 when a finding reaches the threshold)."""
    from openclaw_cli.doctor.report import console_text
    from openclaw_cli.ui.console import print_json

    out = out or sys.stdout
    failing = any(meets(f.severity, severity_min) for f in result.findings)
    visible = [f for f in result.findings if meets(f.severity, severity_min)]
    if json_mode:
        doc = {"ok": not failing, "checksRun": result.checks_run, "checksSkipped": result.checks_skipped,
               "findings": [f.to_json() for f in visible]}
        print_json(doc, compact=True, secrets=secrets, out=out)
    else:
        lines = [f"doctor --lint: ran {result.checks_run} check(s), {len(visible)} finding(s)"]
        if not visible:
            lines.append("  no findings")
        for f in visible:
            where = f" {f.path}" if f.path is not None else ""
            lines.append(f"  [{f.severity}] {f.check_id}{where} - {f.message}")
            if f.fix_hint is not None:
                lines.append(f"    fix: {f.fix_hint}")
        out.write("".join(console_text(line, secrets, result.console_cfg) + "\n" for line in lines))
    out.flush()
    return 1 if failing else 0

"""A full `openclaw doctor` run: preflight, checks in order, config write, final validation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from openclaw_cli.errors import EXIT_ERROR, EXIT_OK

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.model import Check
    from openclaw_cli.doctor.report import Report

FINAL_ID = "core/doctor/final-config-validation"
AFTER_WRITE = ("core/doctor/workspace-suggestions", FINAL_ID)


def _run_one(check: Check, ctx: DoctorContext, report: Report) -> bool:
    from openclaw_cli.doctor.prompter import PromptCancelled

    try:
        check.run(ctx, report)
        return True
    except PromptCancelled:
        raise
    except Exception as exc:
        report.note("Doctor warnings", [f"- {check.id} run failed: {type(exc).__name__}: {exc}"],
                    check_id=check.id, kind="error")
        return False


def write_config(ctx: DoctorContext, report: Report) -> bool:
    """Persist in-memory config edits (token, migrations, slot resets). False when refused."""
    doc = ctx.doc
    if not doc.changed:
        return True
    if not doc.parsed:
        report.note("Doctor warnings", [
            f"- {ctx.display(doc.path)} does not parse, so doctor will not overwrite it; the pending config "
            "changes were not written.",
            "- Fix the file by hand (see `openclaw config validate`), then rerun doctor."], kind="error")
        return False
    try:
        backup = doc.write(ctx.state_dir, ctx.now_ms)
    except OSError as exc:
        report.note("Doctor warnings", [f"- Config write failed: {ctx.display(doc.path)}: {exc.strerror or exc}"],
                    kind="error")
        return False
    doc.changed = False
    report.log(f"Updated config: {ctx.display(doc.path)}")
    if backup:
        report.log(f"  Backup: {ctx.display(backup)}")
    report.log("")
    return True


def write_refusal(ctx: DoctorContext) -> str | None:
    """`--fix` ends by writing the repaired config, and OpenClaw validates what it writes: a config
    still invalid after every repair (a block no migration moves, a rule no repair fixes) stops the
    run there with the first issue, exit 1, before the checks that follow the write."""
    doc = ctx.doc
    if not ctx.should_repair or doc.raw is None or not doc.issues:
        return None
    issue = doc.issues[0]
    return f"Error: Config validation failed: {issue.path or '<root>'}: {issue.snapshot_message}"


def _words(step: str) -> list[str]:
    import shlex

    try:
        return shlex.split(step)
    except ValueError:
        return step.split()


def runnable_steps(ctx: DoctorContext, steps: Sequence[str]) -> list[str]:
    """The next steps as they work on this machine: a step that needs OpenClaw's own CLI, while
    none is installed, becomes one line saying so and how to install it."""
    from openclaw_cli.cli.overlay import UPSTREAM_ENV, find_upstream

    commands = [_foreign(step) for step in steps]
    missing = any(commands) and find_upstream(ctx.env) is None
    out: list[str] = []
    for step, command in zip(steps, commands):
        if command is not None and missing:
            step = (f"`{step}` needs OpenClaw's own CLI (`openclaw {command}`), which is not installed here: "
                    f"install it with `npm install -g openclaw`, or set {UPSTREAM_ENV} to its executable.")
        if step not in out:
            out.append(step)
    return out


def _foreign(step: str) -> str | None:
    """The OpenClaw command (`config`) an `openclaw ...` step runs, when it is not one of ours."""
    from openclaw_cli.cli.overlay import foreign_command

    words = _words(step)
    return foreign_command(words[1:]) if words[:1] == ["openclaw"] else None


def console_config(ctx: DoctorContext) -> dict | None:
    """The config file as read before any repair: what OpenClaw's console redaction looks at."""
    import copy

    return copy.deepcopy(ctx.doc.raw) if isinstance(ctx.doc.raw, dict) else None


def run_doctor(ctx: DoctorContext, checks: Sequence[Check], report: Report) -> int:
    from openclaw_cli.doctor.checks.final_config import FinalConfigValidationCheck

    report.console_cfg = console_config(ctx)
    report.renderer.header("OpenClaw doctor")
    ok = True
    final = next((c for c in checks if isinstance(c, FinalConfigValidationCheck)), None)
    if final is not None:
        final.preflight(ctx, report)
    for check in checks:
        if check.id in AFTER_WRITE:
            continue
        ok = _run_one(check, ctx, report) and ok
    refused = write_refusal(ctx)
    if refused is not None:
        report.error(refused)
        report.renderer.flush()
        return EXIT_ERROR
    ok = write_config(ctx, report) and ok
    for check in checks:
        if check.id in AFTER_WRITE:
            ok = _run_one(check, ctx, report) and ok
    if report.next_steps:
        report.note("Next steps", [f"- {step}" for step in runnable_steps(ctx, report.next_steps)])
    if report.pending_fix and not ctx.should_repair:
        report.log('Run "openclaw doctor --fix" to apply changes.')
    report.renderer.footer("Doctor complete.")
    report.renderer.flush()
    return EXIT_OK if ok else EXIT_ERROR

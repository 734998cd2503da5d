"""`openclaw doctor`: its flags turned into a lint run or a doctor run, with OpenClaw's exit codes."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from openclaw_cli.errors import EXIT_USAGE, CliError, UsageError

LINT_ONLY_MESSAGE = "doctor lint options require --lint. Use `openclaw doctor --lint ...`."
SEVERITY_MESSAGE = "Error: Invalid --severity-min value. Expected one of: info, warning, error."
NIX_MESSAGE = ("Config is managed by Nix (`OPENCLAW_NIX_MODE=1`), so OpenClaw treats openclaw.json as immutable. "
               "Do not run doctor repair/token-generation against this file; edit the Nix source instead.")


@dataclass
class DoctorArgs:
    fix: bool = False
    yes: bool = False
    force: bool = False
    non_interactive: bool = False
    generate_gateway_token: bool = False
    deep: bool = False
    lint: bool = False
    json: bool = False
    severity_min: str | None = None
    only: list[str] = field(default_factory=list)
    skip: list[str] = field(default_factory=list)
    include_all: bool = False
    workspace_suggestions: bool = True


def _probe_ms(deep: bool) -> int:
    """Gateway health probe deadline: 3 s, or 10 s with --deep."""
    return 10_000 if deep else 3_000


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def run_doctor_command(args: DoctorArgs, *, env: dict[str, str] | None = None, stdin_tty: bool | None = None,
                       ask=None) -> int:
    """Run `openclaw doctor` with parsed flags; returns the exit code."""
    from openclaw_cli.doctor.context import Options, new_context
    from openclaw_cli.doctor.prompter import Prompter, resolve_repair_mode
    from openclaw_cli.doctor.registry import load_checks

    env = dict(os.environ) if env is None else env
    if not args.lint and (args.json or args.severity_min is not None or args.include_all or args.only or args.skip):
        raise UsageError(LINT_ONLY_MESSAGE)
    if stdin_tty is None:
        stdin_tty = bool(getattr(sys.stdin, "isatty", lambda: False)())
    if args.lint:
        from openclaw_cli.doctor.lint import SELECTION_ID, emit, run_checks
        from openclaw_cli.doctor.model import parse_severity

        severity = "warning" if args.severity_min is None else parse_severity(args.severity_min)
        if severity is None:
            raise UsageError(SEVERITY_MESSAGE)
        mode = resolve_repair_mode(non_interactive=True, stdin_tty=False, env=env)
        ctx = new_context(env, prompter=Prompter(mode), options=Options(lint=True, deep=args.deep,
                                                                        gateway_timeout_ms=_probe_ms(args.deep)))
        result = run_checks(ctx, load_checks(), only=args.only, skip=args.skip, include_all=args.include_all)
        json_mode = args.json or not sys.stdout.isatty()
        code = emit(result, severity, json_mode=json_mode, secrets=ctx.secrets)
        # an unknown --only id is reported as a finding (as OpenClaw does) and is bad usage
        return EXIT_USAGE if any(f.check_id == SELECTION_ID for f in result.findings) else code
    if (args.fix or args.yes or args.generate_gateway_token) and _truthy(env.get("OPENCLAW_NIX_MODE")):
        raise CliError(NIX_MESSAGE)
    from openclaw_cli.doctor.report import Report, make_renderer
    from openclaw_cli.doctor.runner import run_doctor

    mode = resolve_repair_mode(fix=args.fix, yes=args.yes, non_interactive=args.non_interactive,
                               force=args.force, stdin_tty=stdin_tty, env=env)
    options = Options(deep=args.deep, generate_gateway_token=args.generate_gateway_token,
                      gateway_timeout_ms=_probe_ms(args.deep),
                      non_interactive_flag=args.non_interactive,
                      workspace_suggestions=args.workspace_suggestions)
    ctx = new_context(env, prompter=Prompter(mode, ask), options=options)
    report = Report(make_renderer(), secrets=ctx.secrets)
    return run_doctor(ctx, load_checks(), report)

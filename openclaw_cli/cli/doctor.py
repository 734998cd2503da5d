"""`openclaw doctor`: health checks and repairs for the files under ~/.openclaw."""

from __future__ import annotations

import typer

HELP = "Health checks and quick fixes for the OpenClaw state folder and config."

EPILOG = """\b
Examples:
  openclaw doctor                   Check everything; change nothing without a yes.
  openclaw doctor --fix             Apply the recommended repairs without prompting.
  openclaw doctor --lint --json     Read-only findings as one JSON document.
  openclaw doctor --lint --all --severity-min info

\b
Exit codes:
  0   success (with --lint: no finding at or above --severity-min)
  1   error (with --lint: a finding at or above --severity-min, default warning)
  2   bad usage (unknown option, a lint option without --lint, an unknown --only check id)

\b
Files:
  ~/.openclaw/openclaw.json   the config it checks (and, with --fix, rewrites; a .bak is kept)
  ~/.openclaw/                the state folder: agents/<id>/sessions, credentials, logs
  $OPENCLAW_STATE_DIR         the state folder, instead of ~/.openclaw
"""


# list-valued options as module-level singletons (a call in a default would be shared anyway)
ONLY_OPTION = typer.Option(None, "--only", metavar="ID", help="With --lint: run only this check id (repeatable)")
SKIP_OPTION = typer.Option(None, "--skip", metavar="ID", help="With --lint: skip this check id (repeatable)")


def doctor(
    no_workspace_suggestions: bool = typer.Option(False, "--no-workspace-suggestions",
                                                  help="Disable workspace memory system suggestions"),
    yes: bool = typer.Option(False, "--yes", help="Accept defaults without prompting"),
    repair: bool = typer.Option(False, "--repair", help="Apply recommended repairs without prompting"),
    fix: bool = typer.Option(False, "--fix", help="Apply recommended repairs (alias for --repair)"),
    force: bool = typer.Option(False, "--force", help="Apply aggressive repairs"),
    non_interactive: bool = typer.Option(False, "--non-interactive",
                                         help="Run without prompts (safe migrations only)"),
    generate_gateway_token: bool = typer.Option(False, "--generate-gateway-token",
                                                help="Generate and configure a gateway token"),
    deep: bool = typer.Option(False, "--deep", help="Slower, wider checks: every agent's session store, a longer "
                                                    "Gateway probe"),
    lint: bool = typer.Option(False, "--lint", help="Run read-only health checks and report findings"),
    json_out: bool = typer.Option(False, "--json", help="With --lint: output one JSON document"),
    severity_min: str = typer.Option(None, "--severity-min", metavar="LEVEL",
                                     help="With --lint: minimum severity to report (info, warning, error)"),
    only: list[str] = ONLY_OPTION,
    skip: list[str] = SKIP_OPTION,
    include_all: bool = typer.Option(False, "--all", help="With --lint: run all checks, including opt-in ones"),
) -> None:
    """Health checks and quick fixes for the OpenClaw state folder and config."""
    from openclaw_cli.commands.doctor import DoctorArgs, run_doctor_command

    args = DoctorArgs(fix=fix or repair, yes=yes, force=force, non_interactive=non_interactive,
                      generate_gateway_token=generate_gateway_token, deep=deep, lint=lint, json=json_out,
                      severity_min=severity_min, only=list(only or []), skip=list(skip or []),
                      include_all=include_all, workspace_suggestions=not no_workspace_suggestions)
    code = run_doctor_command(args)
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add `doctor` to the root app: one command with options, no sub-commands."""
    app.command("doctor", help=HELP, short_help="Health checks and repairs for the state folder and config.",
                epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})(doctor)

"""OpenClaw's words for an invalid config: 2026.7.1's or 2026.9.6's block before a command, or 2026.9.6's failure lines."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from openclaw_cli.ui import console
from openclaw_cli.ui.failure import cli_command, json_requested, print_failure

if TYPE_CHECKING:
    from openclaw_cli.config.invalid import InvalidReport

_STILL_RUN = "Audit, status, health, logs, tasks list/audit, and doctor commands still run with invalid config."


def _shown_path(path: str) -> str:
    from openclaw_cli.config.paths import display_path

    return display_path(path)


def print_invalid_config(report: InvalidReport, *, guarded: bool, argv: Sequence[str]) -> None:
    """The messages of `report` (config/invalid.py) on stderr, and with `--json` the failure document on stdout."""
    if report.layout == "2026.7.1":
        _print_guard(report, located=False, fix_line=True, run_line=False)
    elif not guarded:
        _print_failure(report, json_requested(argv))
    else:
        as_json = json_requested(argv)
        _print_guard(report, located=True, fix_line=as_json, run_line=not as_json)
        if as_json:
            console.print_json({"ok": False, "error": {"type": "cli_error", "message": "OpenClaw config is invalid: "
                                                       f"{_shown_path(report.path)}"},
                                "issues": [p.as_json() for p in report.problems]})


def _print_guard(report: InvalidReport, *, located: bool, fix_line: bool, run_line: bool) -> None:
    """The block of the check before a command: 2026.7.1's (problems unlocated, always `Fix:`), or
    2026.9.6's (each problem's line and value, the advice on a newer writer; `Fix:` with --json,
    else the closing `Run …` line)."""
    colour = console.color_enabled(sys.stderr)

    def paint(style: str, text: str) -> str:
        return console.ansi_style(style, text) if colour else text

    lines = [paint("heading", "OpenClaw config is invalid"),
             f"{paint('muted', 'File:')} {paint('muted', _shown_path(report.path))}"]
    problems = [f"- {p.line_text(located=located)}" for p in report.problems]
    if located and report.touched_warning:
        problems.append(report.touched_warning)
    if problems:
        lines.append(paint("muted", "Problem:"))
        lines += [f"  {paint('error', text)}" for text in problems]
    lines.append("")
    if fix_line:
        lines.append(f"{paint('muted', 'Fix:')} {paint('accent', cli_command('openclaw doctor --fix'))}")
    lines.append(f"{paint('muted', 'Inspect:')} {paint('accent', cli_command('openclaw config validate'))}")
    lines.append(paint("muted", _STILL_RUN))
    if run_line:
        lines.append(f'Run "{cli_command("openclaw doctor --fix")}" to repair the config, then retry.')
    for line in lines:
        console.stderr_line(line)


def _print_failure(report: InvalidReport, as_json: bool) -> None:
    if report.read_failure is not None:
        reason = report.read_failure  # json5's message, as it is (one line: it escapes line breaks)
        logged = f"Failed to read config at {report.path}: {reason}"
    else:
        details = "\n".join(f"- {p.line_text(located=False)}" for p in report.problems)
        logged = reason = f"Invalid config at {report.path}:\n{details}"
    print_failure(reason, as_json=as_json, logged=logged)

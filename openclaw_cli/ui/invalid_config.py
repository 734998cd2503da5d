"""OpenClaw 2026.9.6's words for an invalid config: the block of its pre-command check, or a command's own failure."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from openclaw_cli.ui import console

_PROFILE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}", re.I)
_CONTAINER = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}")
_STILL_RUN = "Audit, status, health, logs, tasks list/audit, and doctor commands still run with invalid config."


def json_requested(argv: Sequence[str]) -> bool:
    """`--json` among the arguments (before a `--`), as 2026.9.6 tells JSON output apart before parsing."""
    for arg in argv:
        if arg == "--":
            return False
        if arg == "--json" or arg.startswith("--json="):
            return True
    return False


def cli_command(command: str) -> str:
    """An `openclaw …` command with the active `--container` or `--profile`, as 2026.9.6 shows its hints."""
    container = (os.environ.get("OPENCLAW_CONTAINER_HINT") or "").strip()
    profile = (os.environ.get("OPENCLAW_PROFILE") or "").strip()
    if container and _CONTAINER.fullmatch(container):
        return command.replace("openclaw", f"openclaw --container {container}", 1)
    if profile and profile.lower() != "default" and _PROFILE.fullmatch(profile):
        return command.replace("openclaw", f"openclaw --profile {profile}", 1)
    return command


def _shown_path(path: str) -> str:
    from openclaw_cli.config.paths import display_path

    return display_path(path)


def print_invalid_config(report: Any, *, guarded: bool, argv: Sequence[str]) -> None:
    """The messages of `report` (config/invalid.py) on stderr, and with `--json` the failure document on stdout."""
    if getattr(report, "layout", "") == "2026.7.1":
        _print_guard_71(report)
    elif guarded:
        _print_guard(report, json_requested(argv))
    else:
        _print_failure(report, json_requested(argv))


def _print_guard_71(report: Any) -> None:
    """2026.7.1's block before a command: the same for every command, `--json` or not, stdout empty."""
    colour = console.color_enabled(sys.stderr)

    def paint(style: str, text: str) -> str:
        return console.ansi_style(style, text) if colour else text

    lines = [paint("heading", "OpenClaw config is invalid"), f"{paint('muted', 'File:')} {paint('muted', _shown_path(report.path))}"]
    if report.problems:
        lines.append(paint("muted", "Problem:"))
        lines += [f"  {paint('error', '- ' + p.line_text(located=False))}" for p in report.problems]
    lines += ["", f"{paint('muted', 'Fix:')} {paint('accent', cli_command('openclaw doctor --fix'))}",
              f"{paint('muted', 'Inspect:')} {paint('accent', cli_command('openclaw config validate'))}",
              paint("muted", _STILL_RUN)]
    for line in lines:
        console.stderr_line(line)


def _print_guard(report: Any, as_json: bool) -> None:
    colour = console.color_enabled(sys.stderr)

    def paint(style: str, text: str) -> str:
        return console.ansi_style(style, text) if colour else text

    shown = _shown_path(report.path)
    lines = [paint("heading", "OpenClaw config is invalid"), f"{paint('muted', 'File:')} {paint('muted', shown)}"]
    problems = [p.line_text(located=True) for p in report.problems]
    if report.touched_warning:
        problems.append(report.touched_warning)
    if problems:
        lines.append(paint("muted", "Problem:"))
        lines += [f"  {paint('error', f'- {text}' if i < len(report.problems) else text)}"
                  for i, text in enumerate(problems)]
    lines.append("")
    if as_json:
        lines.append(f"{paint('muted', 'Fix:')} {paint('accent', cli_command('openclaw doctor --fix'))}")
    lines.append(f"{paint('muted', 'Inspect:')} {paint('accent', cli_command('openclaw config validate'))}")
    lines.append(paint("muted", _STILL_RUN))
    if not as_json:
        lines.append(f'Run "{cli_command("openclaw doctor --fix")}" to repair the config, then retry.')
    for line in lines:
        console.stderr_line(line)
    if as_json:
        console.print_json({"ok": False, "error": {"type": "cli_error", "message": f"OpenClaw config is invalid: {shown}"},
                            "issues": [p.as_json() for p in report.problems]})


def _print_failure(report: Any, as_json: bool) -> None:
    if report.read_failure is not None:
        from openclaw_cli.config.invalid import safe_text

        reason = safe_text(report.read_failure)  # one line: our parser's words may hold a line break
        logged = f"Failed to read config at {report.path}: {reason}"
    else:
        details = "\n".join(f"- {p.line_text(located=False)}" for p in report.problems)
        logged = reason = f"Invalid config at {report.path}:\n{details}"
    if as_json:
        console.print_json({"ok": False, "error": {"type": "cli_error", "message": reason}})
    for line in (logged, "[openclaw] The CLI command failed.", f"[openclaw] Reason: {reason}",
                 "[openclaw] Debug: set OPENCLAW_DEBUG=1 to include the stack trace.",
                 f"[openclaw] Try: {cli_command('openclaw doctor')}", f"[openclaw] Help: {cli_command('openclaw --help')}"):
        console.stderr_line(line)

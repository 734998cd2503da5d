"""2026.9.6's failure lines of a command that failed (`[openclaw] The CLI command failed.` …), with its `--json` document."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from openclaw_cli.ui import console

_PROFILE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}", re.I)
_CONTAINER = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}")


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


def print_expected(reason: str, *, as_json: bool) -> None:
    """2026.9.6's expected failure: with `as_json` its failure document on stdout, and the reason on stderr."""
    if as_json:
        console.print_json(_document(reason))
    console.stderr_line(reason)


def _document(reason: str) -> dict:
    return {"ok": False, "error": {"type": "cli_error", "message": reason}}


def print_failure(reason: str, *, as_json: bool, logged: str | None = None) -> None:
    """With `as_json` the document `{"ok": false, "error": {"type": "cli_error", "message": reason}}`
    on stdout; then on stderr the line the command logged (if any) and the failure lines."""
    if as_json:
        console.print_json(_document(reason))
    lines = [] if logged is None else [logged]
    lines += ["[openclaw] The CLI command failed.", f"[openclaw] Reason: {reason}",
              "[openclaw] Debug: set OPENCLAW_DEBUG=1 to include the stack trace.",
              f"[openclaw] Try: {cli_command('openclaw doctor')}", f"[openclaw] Help: {cli_command('openclaw --help')}"]
    for line in lines:
        console.stderr_line(line)

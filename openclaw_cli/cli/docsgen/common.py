"""Helpers the completion script writers share."""

from __future__ import annotations

from openclaw_cli.cli.docsgen.model import Command, Option

GENERATED = "Generated from the CLI definition by scripts/gen-shell-files.py; do not edit."


def one_line(text: str) -> str:
    """A help text as one line, for a completion menu."""
    return " ".join(text.split())


def single_quote(text: str) -> str:
    """POSIX shell single quotes (also right for zsh)."""
    return "'" + text.replace("'", "'\\''") + "'"


def path_key(command: Command) -> str:
    """`sessions cleanup` (empty for the root)."""
    return " ".join(command.path)


def function_suffix(command: Command) -> str:
    """`sessions_cleanup` (`root` for the root), for function names."""
    return "_".join(p.replace("-", "_") for p in command.path) or "root"


def value_options(command: Command) -> list[Option]:
    return [o for o in command.options if o.takes_value]

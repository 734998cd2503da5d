"""Printing: JSON like `JSON.stringify(v, null, 2)`, plain or styled text, errors on stderr."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable


def print_json(value) -> None:
    from openclaw_cli.js import json as jsjson

    sys.stdout.write(jsjson.dumps_pretty(value) + "\n")


def color_enabled(stream=None, *, no_color_flag: bool = False) -> bool:
    """Colour only at a terminal, never with NO_COLOR (unless FORCE_COLOR says otherwise)."""
    if no_color_flag or os.environ.get("OPENCLAW_CLI_NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force is not None and force not in ("0", "false"):
        return True
    if os.environ.get("NO_COLOR"):
        return False
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


_ANSI = {
    "heading": "1",
    "muted": "2",
    "accent": "36",
    "key": "36",
    "info": "34",
    "warn": "33",
    "error": "31",
    "success": "32",
}


def ansi_style(style: str, text: str) -> str:
    code = _ANSI.get(style)
    return f"\x1b[{code}m{text}\x1b[0m" if code and text else text


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """Lone UTF-16 surrogates (from slicing astral characters) print as U+FFFD, as Node prints them."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def print_lines(lines: Iterable[str]) -> None:
    write = sys.stdout.write
    for line in lines:
        write(printable(line) + "\n")


def console_lines(lines: Iterable[str], cfg=None) -> list[str]:
    """Lines as OpenClaw's console prints them: through its secret redaction
    (`logging.redactSensitive` / `logging.redactPatterns` from the config)."""
    from openclaw_cli.ui.redact.engine import redact_lines

    return list(redact_lines(lines, cfg))


def print_console_lines(lines: Iterable[str], cfg=None) -> None:
    print_lines(console_lines(lines, cfg))


class GuardedStream:
    """Standard output whose write failures (a full disk, a vanished terminal) become one clear
    CliError; a closed pipe stays BrokenPipeError (the reader is gone: exit quietly)."""

    def __init__(self, stream):
        self._stream = stream

    def _guard(self, call, *args):
        from openclaw_cli.errors import CliError

        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise CliError(f"openclaw: cannot write to standard output: {exc.strerror or exc}") from None

    def write(self, text):
        return self._guard(self._stream.write, text)

    def flush(self):
        return self._guard(self._stream.flush)

    def __getattr__(self, name):
        return getattr(self._stream, name)

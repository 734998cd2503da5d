"""Printing: JSON like `JSON.stringify(v, null, 2)`, plain or styled text, errors on stderr."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO


def print_json(value: Any, *, compact: bool = False, secrets: Iterable[str | None] = (),
               out: TextIO | None = None) -> None:
    """`JSON.stringify(value, null, 2)` (or compact) and a newline, known secrets blanked out."""
    from openclaw_cli.js import json as jsjson
    from openclaw_cli.ui.redact.secrets import scrub

    text = jsjson.dumps_compact(value) if compact else jsjson.dumps_pretty(value)
    (out or sys.stdout).write(scrub(text, secrets) + "\n")


def print_json_ending_in_list(head: dict, key: str, items: Iterable[Any], *, out: TextIO | None = None,
                              chunk: int = 500) -> None:
    """`print_json({**head, key: [*items]})` written a few hundred items at a time: the same bytes, without
    the whole list's JSON (nor its items all at once, when `items` is a generator) in memory."""
    from openclaw_cli.js import json as jsjson

    assert key not in head and not jsjson.is_array_index(key)  # else JSON.stringify puts it elsewhere
    stream = out or sys.stdout
    text = jsjson.dumps_pretty(head)
    stream.write(("{\n" if text == "{}" else text[:-2] + ",\n") + f"  {jsjson.stringify(key)}: ")
    batch: list[Any] = []
    written = False
    for item in items:
        batch.append(item)
        if len(batch) == chunk:
            written = _write_items(stream, batch, written)
    written = _write_items(stream, batch, written)
    stream.write("\n  ]\n}\n" if written else "[]\n}\n")


def _write_items(stream: TextIO, batch: list[Any], written: bool) -> bool:
    """The items of `batch` as members of a list two levels in (its opening `[` before the first)."""
    from openclaw_cli.js import json as jsjson

    if not batch:
        return written
    body = jsjson.dumps_pretty(batch)[1:-2]  # `\n  item,\n  item` of `[\n  item,\n  item\n]`
    stream.write(("," if written else "[") + body.replace("\n", "\n  "))
    batch.clear()
    return True


def stderr_text(text: str, *, flush: bool = False) -> None:
    """Text on standard error exactly as given (a prompt, a line's end)."""
    sys.stderr.write(text)
    if flush:
        sys.stderr.flush()


def stderr_line(text: str) -> None:
    """One line on standard error."""
    sys.stderr.write(text + "\n")


def warn(message: str) -> None:
    """A `warning:` line on standard error."""
    stderr_line(f"warning: {for_stderr(message)}")


def note(message: str) -> None:
    """A `note:` line on standard error."""
    stderr_line(f"note: {for_stderr(message)}")


def hint(message: str) -> None:
    """A `hint:` line on standard error."""
    stderr_line(f"hint: {for_stderr(message)}")


def error_line(text: str, *, ours: bool = False) -> None:
    """An error line on standard error, lone surrogates as U+FFFD; at a terminal `error: ` first (in
    the style of the `warning:`/`note:`/`hint:` lines; OpenClaw's own `Error: ` lower-cased) and red
    when colour is on. Piped: OpenClaw's words byte for byte, and `error: ` before a message of
    ours (`ours=True`: usage, interruptions) that OpenClaw does not print."""
    text = for_stderr(text)
    if ours or getattr(sys.stderr, "isatty", lambda: False)():
        if text.startswith("Error: "):
            text = text[len("Error: "):]
        if not text.lower().startswith("error"):
            text = f"error: {text}"
    if color_enabled(sys.stderr):
        text = ansi_style("error", text)
    stderr_line(printable(text))


_color_disabled = False
_log_level = "info"  # OpenClaw's console default: its info lines are shown
LOG_LEVELS = ("error", "warn", "info", "debug")


def set_no_color(disabled: bool) -> None:
    """`--no-color` (or its absence) for this run: no colour, whatever FORCE_COLOR says.

    Set at the start of every run, so that one in-process run's flag never leaks into the next."""
    global _color_disabled
    _color_disabled = disabled


def set_log_level(level: str) -> None:
    """`--log-level` for this run (reset to `info` at the start of every run, like the colour flag)."""
    global _log_level
    _log_level = level


def log_level() -> str:
    return _log_level


def rich_console(file: TextIO, *, color: bool, **options):
    """The one way a rich Console is made: without colour (NO_COLOR, --no-color, a pipe) it has no
    colour system and so writes no escape code at all (rich's own `no_color` still writes bold and dim)."""
    from rich.console import Console

    options = {"highlight": False, "soft_wrap": False, **options}
    return Console(file=file, color_system="auto" if color else None, **options)


def color_enabled(stream: TextIO | None = None, *, no_color_flag: bool = False) -> bool:
    """Colour only at a terminal, never with NO_COLOR (unless FORCE_COLOR says otherwise)."""
    if no_color_flag or _color_disabled:
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


Style = Callable[[str, str], str]  # (style name, text) -> text, the one styling hook of text output


def plain_style(_style: str, text: str) -> str:
    """The Style of uncoloured output: the text unchanged."""
    return text


def ansi_style(style: str, text: str) -> str:
    """The Style of coloured output: `text` in the ANSI colour of `style`."""
    code = _ANSI.get(style)
    return f"\x1b[{code}m{text}\x1b[0m" if code and text else text


def ansi_background(rgb: tuple[int, int, int], text: str) -> str:
    """`text` on a 24-bit background colour."""
    return f"\x1b[48;2;{rgb[0]};{rgb[1]};{rgb[2]}m{text}\x1b[0m"


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    """Control characters (ESC, BEL, CR, C1, ...; not tab or newline) shown as `\\x1b` escapes, so that a
    session key or label carrying them cannot move the cursor or recolour the terminal."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def for_stderr(text: str) -> str:
    """`text` as our stderr lines print it: escapes made visible at a terminal (piped: as it is)."""
    return terminal_safe(text) if getattr(sys.stderr, "isatty", lambda: False)() else text


def printable(text: str) -> str:
    """Lone UTF-16 surrogates (from slicing astral characters) print as U+FFFD, as Node prints them."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def print_lines(lines: Iterable[str]) -> None:
    write = sys.stdout.write
    for line in lines:
        write(printable(line) + "\n")


def console_lines(lines: Iterable[str], cfg=None, sqlite_era: bool = False) -> list[str]:
    """Lines as OpenClaw's console prints them: through its secret redaction
    (`logging.redactSensitive` / `logging.redactPatterns` from the config), as 2026.9.6 has it
    with `sqlite_era`."""
    from openclaw_cli.ui.redact.engine import redact_lines

    return list(redact_lines(lines, cfg, sqlite_era=sqlite_era))


def print_console_lines(lines: Iterable[str], cfg=None, sqlite_era: bool = False) -> None:
    print_lines(console_lines(lines, cfg, sqlite_era))


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

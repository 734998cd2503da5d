"""What a doctor run tells the user: titled notes, applied changes, next steps; printed as it goes."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TextIO

from openclaw_cli.doctor.model import Finding
from openclaw_cli.ui.redact.secrets import scrub


@dataclass
class Note:
    title: str
    lines: list[str]
    kind: str = "note"  # note | changes | warning | error
    check_id: str | None = None
    findings: list[Finding] = field(default_factory=list)  # the lint findings of the note's rows


@dataclass
class Report:
    """Collects notes in order and hands each one to the renderer immediately; every printed line
    goes through the known secrets and OpenClaw's console redaction (`console_cfg`: the config file
    as read at the start, for its `logging` settings)."""

    renderer: Renderer
    secrets: set[str] = field(default_factory=set)
    console_cfg: Mapping | None = None
    notes: list[Note] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    pending_fix: bool = False
    changed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def clean(self, text: str) -> str:
        """The text as the console may show it."""
        return console_text(text, self.secrets, self.console_cfg)

    def _emit(self, note: Note) -> None:
        note.lines = [self.clean(line) for line in note.lines]
        note.title = self.clean(note.title)
        self.notes.append(note)
        self.renderer.note(note)

    def note(self, title: str, lines: Sequence[str], *, check_id: str | None = None,
             findings: Sequence[Finding] = (), kind: str = "note") -> None:
        if not lines:
            return
        self.findings.extend(findings)
        self._emit(Note(title, list(lines), kind, check_id, list(findings)))

    def changes(self, lines: Sequence[str], *, check_id: str | None = None) -> None:
        lines = [line if line.startswith("- ") else f"- {line}" for line in lines]
        if not lines:
            return
        self.changed.extend(lines)
        self._emit(Note("Doctor changes", lines, "changes", check_id))

    def log(self, line: str) -> None:
        self.renderer.line(self.clean(line))

    def error(self, line: str) -> None:
        text = self.clean(line)
        self.errors.append(text)
        self.renderer.error(text)

    def step(self, command: str) -> None:
        if command not in self.next_steps:
            self.next_steps.append(command)


def console_text(text: str, secrets: set[str], cfg: Mapping | None) -> str:
    """Known secrets blanked out, then OpenClaw's console redaction (as cleanup's text gets it)."""
    from openclaw_cli.ui.console import printable
    from openclaw_cli.ui.redact.engine import redact_console_text

    scrubbed = scrub(text, secrets)
    try:
        return printable(redact_console_text(scrubbed, cfg))
    except TypeError:  # unusable logging.redactPatterns: doctor still prints, with the built-in patterns
        return printable(redact_console_text(scrubbed, None))


class Renderer:
    def __init__(self, out: TextIO | None = None, err: TextIO | None = None):
        self.out = out or sys.stdout
        self.err = err or sys.stderr

    def header(self, title: str) -> None:
        self.out.write(f"{title}\n\n")

    def note(self, note: Note) -> None:
        self.out.write(note.title + "\n")
        for line in note.lines:
            self.out.write(line + "\n")
        self.out.write("\n")

    def line(self, text: str) -> None:
        self.out.write(text + "\n")

    def error(self, text: str) -> None:
        self.err.write(text + "\n")

    def footer(self, text: str) -> None:
        self.out.write(text + "\n")

    def flush(self) -> None:
        self.out.flush()


class RichRenderer(Renderer):
    """Panels at a terminal; the colour follows the kind of note."""

    _STYLES: ClassVar[dict[str, str]] = {"changes": "green", "warning": "yellow", "error": "red", "note": "cyan"}

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None, *, color: bool = True):
        super().__init__(out, err)
        from openclaw_cli.ui.console import rich_console

        self.console = rich_console(self.out, color=color)

    def header(self, title: str) -> None:
        self.console.print(f"[bold]{_escape(title)}[/bold]")
        self.console.print()

    def note(self, note: Note) -> None:
        from rich.panel import Panel
        from rich.text import Text

        width = max(40, min(100, self.console.width) - 4)
        lines = [part for line in note.lines for part in (line.split("\n") or [""])]
        body = Text("\n".join(wrap_line(line, width) for line in lines), no_wrap=True, overflow="ignore")
        style = self._STYLES.get(note.kind, "cyan")
        self.console.print(Panel(body, title=Text(note.title, style=f"bold {style}"),
                                 title_align="left", border_style=style, expand=False))

    def line(self, text: str) -> None:
        from rich.text import Text

        self.console.print(Text(text))

    def footer(self, text: str) -> None:
        from rich.text import Text

        self.console.print(Text(text, style="bold"))


def wrap_line(line: str, width: int) -> str:
    """Word-wrap one note line; continuation lines hang under the bullet's text. Paths and URLs
    are never split."""
    import textwrap

    if len(line) <= width:
        return line
    lead = len(line) - len(line.lstrip(" "))
    indent = " " * (lead + (2 if line.lstrip(" ").startswith("- ") else 0))
    return "\n".join(textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                   break_on_hyphens=False, drop_whitespace=True)) or line


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def make_renderer(out: TextIO | None = None, err: TextIO | None = None) -> Renderer:
    """Rich panels when stdout is a terminal, plain text otherwise."""
    from openclaw_cli.ui.console import color_enabled

    stream = out or sys.stdout
    if getattr(stream, "isatty", lambda: False)():
        return RichRenderer(out, err, color=color_enabled(stream))
    return Renderer(out, err)

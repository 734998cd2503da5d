"""roff man pages (section 1) for `openclaw` and each of its commands."""

from __future__ import annotations

import re

from openclaw_cli.cli.docsgen import docs
from openclaw_cli.cli.docsgen.helptext import Example, HelpText, parse
from openclaw_cli.cli.docsgen.model import Command, Option

MANUAL = "OpenClaw CLI Manual"
HEADER = '.\\" Generated from the CLI definition by scripts/gen-shell-files.py; do not edit.'


def roff_escape(text: str) -> str:
    """Plain text to roff: backslashes, hyphens (so options copy as typed), non-ASCII, `code` in bold."""
    out = text.replace("\\", "\\e").replace("-", "\\-")
    out = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in out)
    return re.sub(r"`([^`]+)`", r"\\fB\1\\fR", out)


def _text(text: str) -> str:
    """A text line that roff will not read as a request."""
    line = roff_escape(text)
    return "\\&" + line if line.startswith((".", "'")) else line


def _bold(text: str) -> str:
    return f"\\fB{roff_escape(text)}\\fR"


def _italic(text: str) -> str:
    return f"\\fI{roff_escape(text)}\\fR"


def has_page(command: Command) -> bool:
    """The root, groups, and commands with options or arguments of their own."""
    own = [o for o in command.options if o.key != "--help"]
    return not command.path or command.is_group or bool(own or command.arguments)


def pages(cli: Command) -> list[Command]:
    return [c for c in cli.walk() if has_page(c)]


def _option_tag(option: Option, sep: str = ", ") -> str:
    names = sep.join(_bold(n) for n in option.names)
    return f"{names} {_italic(option.metavar)}" if option.metavar is not None else names


def _synopsis_item(option: Option) -> str:
    names = "|".join(_bold(n) for n in option.names)
    value = f"\\ {_italic(option.metavar)}" if option.metavar is not None else ""
    return f"[{names}{value}]" + ("..." if option.multiple else "")


def _synopsis(command: Command) -> list[str]:
    lines = [".SH SYNOPSIS", f".B {roff_escape(command.command_line)}"]
    lines += [_synopsis_item(o) for o in command.options if o.key != "--help"]
    for arg in command.arguments:
        lines.append(_italic(arg.metavar) if arg.required else f"[{_italic(arg.metavar)}]")
    if command.subcommands:
        tail = f"{_italic('COMMAND')} [{_italic('ARGS')}]..."
        lines.append(f"[{tail}]" if command.runs_without_subcommand else tail)
    return lines


def _help_texts(command: Command) -> tuple[HelpText, HelpText, HelpText]:
    return parse(command.help), parse(command.epilog), parse(command.docstring)


def _examples(texts: tuple[HelpText, ...]) -> list[Example]:
    seen: dict[str, Example] = {}
    for text in texts:
        for example in text.examples:
            seen.setdefault(example.command, example)
    return list(seen.values())


def _name_line(command: Command) -> str:
    summary = command.summary.rstrip(".")
    if summary[:1].isupper() and not summary[1:2].isupper():
        summary = summary[0].lower() + summary[1:]
    return f"{roff_escape(command.page)} \\- {roff_escape(summary)}"


def _tp(tag: str, body: str) -> list[str]:
    return [".TP", tag, _text(body)] if body else [".TP", tag, "\\&"]


def _option_body(option: Option) -> str:
    body = option.help
    if option.default is not None and "default" not in body.lower():
        body = f"{body.rstrip('.')}. Default: {option.default}." if body else f"Default: {option.default}."
    values = option.values.choices if option.values and option.values.kind == "choices" else ()
    if values and not all(v in body for v in values):
        body = f"{body.rstrip('.')}. One of: {', '.join(values)}."
    if option.multiple:
        body = body if "repeatable" in body.lower() else f"{body.rstrip('.')}. May be repeated."
    if option.envvar:
        body = f"{body.rstrip('.')}. Also read from {option.envvar}."
    return body


def _see_also(command: Command, cli: Command, documented: set[str]) -> list[str]:
    if not command.path:
        names = [c.page for c in pages(cli) if c.path]
    else:
        parent = cli.find(*command.path[:-1])
        names = [cli.page] + ([parent.page] if parent.path else [])
        names += [c.page for c in command.subcommands if c.page in documented]
    return [".SH SEE ALSO", ", ".join(f"{_bold(n)}(1)" for n in names)]


def render_page(command: Command, cli: Command, version: str) -> str:
    documented = {c.page for c in pages(cli)}
    texts = _help_texts(command)
    own, epilog, _docstring = texts
    lines = [HEADER, f'.TH {roff_escape(command.page.upper())} 1 "" "openclaw_cli {version}" "{MANUAL}"',
             ".nh", ".ad l", ".SH NAME", _name_line(command)]
    lines += _synopsis(command)
    lines.append(".SH DESCRIPTION")
    paragraphs = [*own.paragraphs, *epilog.paragraphs, *docs.NOTES.get(command.path, ())]
    for i, paragraph in enumerate(paragraphs):
        lines += ([] if i == 0 else [".PP"]) + [_text(paragraph)]
    if command.subcommands:
        lines.append(".SH COMMANDS")
        for sub in command.subcommands:
            body = sub.summary
            if sub.page in documented:
                body = f"{body} See {sub.page}(1)."
            lines += _tp(_bold(sub.command_line), body)
    if command.arguments:
        lines.append(".SH ARGUMENTS")
        for arg in command.arguments:
            lines += _tp(_italic(arg.metavar), arg.help)
    lines.append(".SH OPTIONS")
    for option in command.options:
        lines += _tp(_option_tag(option), _option_body(option))
    if command.path:
        lines += [".PP", _text("Global options (--profile, --dev, --no-color, --log-level): see openclaw(1).")]
    lines.append(".SH EXIT STATUS")
    for code, meaning in docs.exit_status(command, epilog.exit_codes or own.exit_codes):
        lines += _tp(_bold(str(code)), meaning)
    environment = docs.environment(command)
    if environment:
        lines.append(".SH ENVIRONMENT")
        for entry in environment:
            lines += _tp(_bold(entry.name), entry.text)
    files = docs.files(command)
    if files:
        lines.append(".SH FILES")
        for entry in files:
            lines += _tp(_italic(entry.name), entry.text)
    examples = _examples(texts)
    if examples:
        lines.append(".SH EXAMPLES")
        for example in examples:
            if example.description:
                lines += _tp(_bold(example.command), example.description)
            else:
                lines += [".PP", _bold(example.command)]
    lines += _see_also(command, cli, documented)
    return "\n".join(lines) + "\n"


def render_all(cli: Command, version: str) -> dict[str, str]:
    """`{"openclaw-sessions-cleanup.1": text, ...}` for every page."""
    return {f"{c.page}.1": render_page(c, cli, version) for c in pages(cli)}

"""Help pages that read like a man page: `KEY` in the usage line and the argument list, not `{KEY}` or `KEY <str>`."""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand


class Command(TyperCommand):
    """A typer command whose arguments are shown by their metavar alone (pass as `cls=` to `app.command`)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in pieces]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append((param.metavar or (param.name or "").upper(), getattr(param, "help", None) or ""))
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def _columns(line: str) -> tuple[int, int]:
    """(indent of the line, start of its description column after a gap of 2+ spaces, or 0)."""
    lead = len(line) - len(line.lstrip(" "))
    gap = line.find("  ", lead)
    if gap <= lead:
        return lead, 0
    return lead, gap + len(line[gap:]) - len(line[gap:].lstrip(" "))


def fit_lines(text: str, width: int) -> str:
    """Lines of a help page wider than `width` (examples, exit codes: blocks click keeps unwrapped) wrapped
    under their description column, or, when that leaves too little room, with the description on lines of
    its own four columns in; no line of `--help` is wider than the page."""
    import textwrap

    def wrap(words: str, first: str, rest: str) -> list[str]:
        return textwrap.wrap(words, width, initial_indent=first, subsequent_indent=rest,
                             break_long_words=False, break_on_hyphens=False)

    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        lead, column = _columns(line)
        if column and width - column >= 28:
            out += wrap(line[lead:], " " * lead, " " * column)
        elif column:
            out += wrap(line[lead:column].rstrip(), " " * lead, " " * (lead + 4))
            out += wrap(line[column:], " " * (lead + 4), " " * (lead + 4))
        else:
            out += wrap(line[lead:], " " * lead, " " * (lead + 4))
    return "\n".join(out)


class _DeferredCoercion:
    """A parameter's coercion that builds typer's (pydantic) validator only for a value that needs it.

    An option left out (None) coerces to what typer gives it (None, or () for a repeatable one), and a
    plain `str` option given a `str` keeps it, exactly as typer's validator would: `--help`, and
    commands whose options are all strings, never import pydantic."""

    __slots__ = ("_descriptor", "_real")

    def __init__(self, descriptor: Any) -> None:
        self._descriptor = descriptor
        self._real: Any = None

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if self._real is None:
            if value is None:
                return () if param.multiple or param.nargs == -1 else None
            descriptor = self._descriptor
            if _kept_as_is(value, descriptor, param):
                return value
            from typer._coercion import build_runtime_param

            self._real = build_runtime_param(descriptor)
        return self._real.coerce(value, param=param, ctx=ctx)


def _kept_as_is(value: Any, descriptor: Any, param: Any) -> bool:
    """Whether typer's validator would return `value` unchanged: a `str` given to a plain `str` option,
    a flag's `bool`, or a number option's own default (within its bounds)."""
    info = descriptor.parameter_info
    if info.parser is not None or descriptor.is_file or param.nargs != 1 or param.multiple:
        return False
    annotation = descriptor.annotation
    if annotation is str or annotation is bool:
        return type(value) is annotation
    if annotation in (int, float) and type(value) is annotation and value is param.default:
        return ((info.min is None or value >= info.min) and (info.max is None or value <= info.max))
    return False


def defer_coercion(command: Any) -> None:
    """Give every typer parameter of `command` and its sub-commands a `_DeferredCoercion` (typer builds
    a pydantic validator for each option it processes, even one left out, which costs `--help` ~0.1 s)."""
    for param in getattr(command, "params", ()):
        _defer(param)
    if hasattr(command, "get_help_option"):  # made per context, on the first parse: deferred when made
        make_help_option = command.get_help_option

        def get_help_option(ctx: Any) -> Any:
            option = make_help_option(ctx)
            _defer(option)
            return option

        command.get_help_option = get_help_option
    for sub in getattr(command, "commands", {}).values():
        defer_coercion(sub)


def _defer(param: Any) -> None:
    if getattr(param, "_runtime_param", False) is None and hasattr(param, "type_descriptor"):
        param._runtime_param = _DeferredCoercion(param.type_descriptor)


def install_formatter() -> None:
    """Make every help page of this process fit its width (the one formatter typer's click uses)."""
    from typer._click import core, formatting

    class _Formatter(formatting.HelpFormatter):
        def write_text(self, text: str) -> None:
            start = len(self.buffer)
            super().write_text(text)
            written = "".join(self.buffer[start:])
            del self.buffer[start:]
            self.write(fit_lines(written, self.width))

    core.Context.formatter_class = _Formatter

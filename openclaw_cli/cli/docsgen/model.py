"""The command tree as plain data, read from the typer definition of the `openclaw` CLI."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

PROG = "openclaw"


@dataclass(frozen=True)
class ValueHint:
    """How a shell completes an option's value: a fixed list, files, or a dynamic source."""

    kind: str  # "choices", "file", "agent", "session-key", "profile" or "envvar"
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    """One option of a command, as `--help` shows it."""

    longs: tuple[str, ...]
    shorts: tuple[str, ...]
    metavar: str | None  # None for a flag
    help: str
    multiple: bool = False
    default: str | None = None  # the default worth telling, as text
    envvar: str | None = None
    values: ValueHint | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return self.shorts + self.longs

    @property
    def takes_value(self) -> bool:
        return self.metavar is not None

    @property
    def key(self) -> str:
        return (self.longs or self.shorts)[0]


@dataclass(frozen=True)
class Argument:
    """A positional argument."""

    name: str
    metavar: str
    help: str
    required: bool = True
    values: ValueHint | None = None


@dataclass(frozen=True)
class Command:
    """A command or command group, with its sub-commands in `--help` order."""

    path: tuple[str, ...]  # () for the root, ("sessions", "cleanup") for `openclaw sessions cleanup`
    help: str
    epilog: str
    docstring: str
    options: tuple[Option, ...]
    arguments: tuple[Argument, ...]
    subcommands: tuple[Command, ...]
    is_group: bool = False
    runs_without_subcommand: bool = False

    @property
    def name(self) -> str:
        return self.path[-1] if self.path else PROG

    @property
    def command_line(self) -> str:
        """`openclaw sessions cleanup`."""
        return " ".join((PROG, *self.path))

    @property
    def page(self) -> str:
        """The man page name: `openclaw-sessions-cleanup`."""
        return "-".join((PROG, *self.path))

    @property
    def summary(self) -> str:
        """The first paragraph of the help, on one line."""
        first = self.help.strip().split("\n\n", 1)[0]
        return " ".join(first.split())

    def walk(self) -> Iterator[Command]:
        """This command, then every sub-command, depth first."""
        yield self
        for sub in self.subcommands:
            yield from sub.walk()

    def find(self, *path: str) -> Command:
        node = self
        for name in path:
            node = next(sub for sub in node.subcommands if sub.name == name)
        return node


def _clean(text: str | None) -> str:
    """Help text without click's `\\b` no-rewrap markers, dedented, without trailing blanks."""
    if not text:
        return ""
    lines = [line for line in inspect.cleandoc(text).split("\n") if line.strip() != "\b"]
    return "\n".join(line.rstrip() for line in lines).strip("\n")


def _default_text(param: Any) -> str | None:
    if getattr(param, "is_flag", False) or param.default is None or not getattr(param, "show_default", False):
        return None
    if isinstance(param.show_default, str):
        return param.show_default
    value = param.default
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or None
    return str(value)


def _option(param: Any) -> Option:
    from openclaw_cli.cli.docsgen.values import hint_for

    names = [*param.opts, *param.secondary_opts]
    longs = tuple(sorted(n for n in names if n.startswith("--")))
    shorts = tuple(sorted(n for n in names if not n.startswith("--")))
    flag = bool(getattr(param, "is_flag", False))
    metavar = None if flag else (param.metavar or param.name.upper())
    envvar = param.envvar if isinstance(param.envvar, str) else None
    option = Option(longs=longs, shorts=shorts, metavar=metavar, help=_clean(getattr(param, "help", "")),
                    multiple=bool(param.multiple), default=_default_text(param), envvar=envvar)
    if flag:
        return option
    descriptor = getattr(param, "type_descriptor", None)
    return replace(option, values=hint_for(option, descriptor))


def _argument(param: Any) -> Argument:
    from openclaw_cli.cli.docsgen.values import argument_hint

    return Argument(name=param.name, metavar=param.metavar or param.name.upper(),
                    help=_clean(getattr(param, "help", "")), required=bool(param.required),
                    values=argument_hint(param.name))


def _command(cmd: Any, name: str, path: tuple[str, ...], parent: Any) -> Command:
    from typer._click import Context

    ctx = Context(cmd, info_name=name, parent=parent, **(cmd.context_settings or {}))
    options: list[Option] = []
    arguments: list[Argument] = []
    for param in cmd.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        if getattr(param, "param_type_name", "") == "argument":
            arguments.append(_argument(param))
        else:
            options.append(_option(param))
    subcommands: list[Command] = []
    commands = getattr(cmd, "commands", None)
    if commands is not None:
        for sub_name in cmd.list_commands(ctx):
            sub = commands[sub_name]
            if not sub.hidden:
                subcommands.append(_command(sub, sub_name, (*path, sub_name), ctx))
    callback = getattr(cmd, "callback", None)
    return Command(path=path, help=_clean(cmd.help), epilog=_clean(cmd.epilog),
                   docstring=_clean(inspect.getdoc(callback)) if callback is not None else "",
                   options=tuple(options), arguments=tuple(arguments), subcommands=tuple(subcommands),
                   is_group=commands is not None,
                   runs_without_subcommand=bool(getattr(cmd, "invoke_without_command", False)))


def load_cli(app: Any | None = None) -> Command:
    """The `openclaw` command tree (hidden commands and options left out)."""
    import typer

    if app is None:
        from openclaw_cli.cli.app import app as default_app

        app = default_app
    return _command(typer.main.get_command(app), PROG, (), None)

"""Global options wherever they are typed: `openclaw sessions --no-color` means `openclaw --no-color sessions`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

HOISTED = ("--no-color", "--log-level")
"""The root options accepted after a sub-command too (`--profile` and `--dev` are taken out before)."""


def _option(command: Any, name: str) -> Any | None:
    """The option of a (click) command spelled `name`, if it has one."""
    for param in command.params:
        names = (*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ()))
        if name in names and hasattr(param, "is_flag"):
            return param
    return None


def _takes_value(option: Any | None) -> bool:
    return option is not None and not option.is_flag and not option.count and option.nargs != 0


def hoist_global_options(root: Any, args: Sequence[str]) -> list[str]:
    """Move root options found after a sub-command to the front, as if typed before it.

    The command tree tells option values apart from options (`--label --no-color` keeps its value);
    a sub-command's own option of the same name is left alone, and nothing after `--` moves."""
    front: list[str] = []
    rest: list[str] = []
    command = root
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest += args[i:]
            break
        name = arg.split("=", 1)[0]
        if not arg.startswith("-") or arg == "-":
            if (sub := getattr(command, "commands", {}).get(arg)) is not None:
                command = sub
            rest.append(arg)
            i += 1
            continue
        own = _option(command, name)
        hoist = command is not root and own is None and name in HOISTED
        target = front if hoist else rest
        target.append(arg)
        if "=" not in arg and (_takes_value(own) or (hoist and _takes_value(_option(root, name)))):
            if i + 1 < len(args):
                target.append(args[i + 1])
            i += 1
        i += 1
    return front + rest

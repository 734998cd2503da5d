"""What an option's value or an argument completes to: choices from the code that validates them, files, agent ids, session keys."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openclaw_cli.cli.docsgen.model import Option, ValueHint
from openclaw_cli.ui.console import LOG_LEVELS


def _tokenizers() -> ValueHint:
    from openclaw_cli.context.tokenizer import TOKENIZERS

    return ValueHint("choices", tuple(TOKENIZERS))


def _summarizers() -> ValueHint:
    from openclaw_cli.commands.compact import SUMMARIZERS

    return ValueHint("choices", tuple(SUMMARIZERS))


def _severities() -> ValueHint:
    from openclaw_cli.doctor.model import SEVERITIES

    return ValueHint("choices", tuple(SEVERITIES))


def _check_ids() -> ValueHint:
    from openclaw_cli.doctor.registry import check_ids

    return ValueHint("choices", tuple(check_ids()))


def _fixed(kind: str, *choices: str) -> Callable[[], ValueHint]:
    return lambda: ValueHint(kind, choices)


# Options whose values are plain strings checked in code: where their values come from.
BY_OPTION: dict[str, Callable[[], ValueHint]] = {
    "--active-key": _fixed("session-key"),
    "--agent": _fixed("agent"),
    "--api-key-env": _fixed("envvar"),
    "--log-level": _fixed("choices", *LOG_LEVELS),
    "--only": _check_ids,
    "--output": _fixed("file"),
    "--profile": _fixed("profile"),
    "--session": _fixed("session-key"),
    "--severity-min": _severities,
    "--skip": _check_ids,
    "--store": _fixed("file"),
    "--summarizer": _summarizers,
    "--summary-file": _fixed("file"),
    "--tokenizer": _tokenizers,
}


# Positional arguments (by parameter name) whose values come from the store.
BY_ARGUMENT: dict[str, Callable[[], ValueHint]] = {
    "key": _fixed("session-key"),
}


def argument_hint(name: str) -> ValueHint | None:
    """What a positional argument completes to (a session KEY: the keys of the store), if anything."""
    return BY_ARGUMENT[name]() if name in BY_ARGUMENT else None


def hint_for(option: Option, descriptor: Any | None) -> ValueHint | None:
    """Choices declared on the parameter, else a path type, else the table above, else nothing."""
    choices = getattr(descriptor, "choices", None) if descriptor is not None else None
    if choices:
        return ValueHint("choices", tuple(str(getattr(c, "value", c)) for c in choices))
    if descriptor is not None and (getattr(descriptor, "is_path", False) or getattr(descriptor, "is_file", False)):
        return ValueHint("file")
    for name in option.longs:
        if name in BY_OPTION:
            return BY_OPTION[name]()
    return None

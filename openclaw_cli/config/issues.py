"""Pydantic's validation errors reported as OpenClaw's (zod's) config issues: messages, paths, order."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NoReturn

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from openclaw_cli.js.strings import js_number_to_string
from openclaw_cli.js.values import js_typeof


@dataclass
class ConfigIssue:
    """One problem found in the config: a dotted path ('' for the root) and a message."""

    path: str
    message: str
    unknown_keys: tuple[str, ...] = ()  # for an object's unknown keys: the keys, in the config's order
    variable: str = ""  # for a `${VAR}` that is not set: the variable's name
    segments: tuple | None = None  # the schema's path (keys, list indexes), for the issues the schema reports
    allowed: tuple = ()  # the values that would have been accepted, when they can be listed

    def format(self) -> str:
        return f"{self.path or '<root>'}: {self.message}"

    @property
    def snapshot_message(self) -> str:
        """The message of OpenClaw's config snapshot, which doctor's closing `Invalid config:` lines
        print: zod's own words for unknown keys (`Unrecognized key: "x"`), else the same message."""
        if not self.unknown_keys:
            return self.message
        quoted = ", ".join(f'"{key}"' for key in self.unknown_keys)  # zod quotes them as they are
        return f"Unrecognized key{'s' if len(self.unknown_keys) > 1 else ''}: {quoted}"


# Our own error types (pydantic's built-in ones keep their names). A zod issue either aborts
# (the value has the wrong shape: later checks of the same value and the refinements of the
# objects around it do not run) or continues (a failed check on a well-shaped value).
CHECK = "zod_check"  # a failed check with its own message (a refinement, a pattern, a bound)
VALUE = "zod_value"  # not one of the allowed literals; ctx: values
UNION = "zod_union"  # no branch of a union fits; ctx: values (None when they cannot be listed)
TYPE = "zod_type"  # the wrong kind of value, reported by our own validators

_CONTINUES = {CHECK}
_INVALID_INPUT = "Invalid input"


def aborts(error: Any) -> bool:
    """Whether a pydantic error (an `errors()` row) stops the checks that follow it, as in zod."""
    return error["type"] not in _CONTINUES


def check_error(message: str) -> PydanticCustomError:
    return PydanticCustomError(CHECK, message)


def type_error(expected: str | None = None) -> PydanticCustomError:
    """The wrong kind of value; `expected` names the kind (`int`) for the releases that say it."""
    return PydanticCustomError(TYPE, _INVALID_INPUT, {"expected": expected} if expected else None)


def value_error(values: tuple) -> PydanticCustomError:
    return PydanticCustomError(VALUE, _INVALID_INPUT, {"values": list(values)})


def union_error(values: list | None) -> PydanticCustomError:
    return PydanticCustomError(UNION, _INVALID_INPUT, {"values": values})


def _allowed_values(error: Any) -> list | None:
    """zod's list of the values that would have been accepted: [] when none, None when not listable."""
    kind = error["type"]
    if kind in (VALUE, UNION):
        return error["ctx"]["values"]
    if kind == "bool_type":
        return [True, False]
    # Every other wrong kind of value cannot be listed; a failed check or unknown key adds nothing.
    return [] if kind in (CHECK, "extra_forbidden") else None


def union_values(branches: list[list[Any]]) -> list | None:
    """The allowed values of a union none of whose branches fit (None unless every branch lists some)."""
    collected: list = []
    for branch in branches:
        branch_values: list = []
        for error in branch:
            values = _allowed_values(error)
            if values is None:
                return None
            branch_values += values
        if not branch_values:
            return None
        collected += branch_values
    return collected or None


def raise_errors(errors: list[Any]) -> NoReturn:
    """Raise `errors` (rows of `ValidationError.errors()` or new ones) again, as one ValidationError."""
    details = []
    for error in errors:
        kind = error["type"]
        if isinstance(kind, str) and kind.startswith("zod_"):
            kind = PydanticCustomError(kind, error["msg"], error.get("ctx"))
        detail = InitErrorDetails(type=kind, loc=tuple(error["loc"]), input=error.get("input"))
        if "ctx" in error and not isinstance(kind, PydanticCustomError):
            detail["ctx"] = error["ctx"]
        details.append(detail)
    raise ValidationError.from_exception_data("openclaw config", details)


def new_error(loc: tuple, error: PydanticCustomError, value: Any = None) -> dict:
    """An `errors()` row for one of our own errors, to pass to `raise_errors`."""
    return {"type": error.type, "msg": error.message(), "loc": loc, "input": value, "ctx": error.context}


def _js_label(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return js_number_to_string(value) if isinstance(value, (int, float)) else json.dumps(value)


def _message(error: Any) -> str:
    message = error["msg"] if error["type"] in (CHECK, VALUE, UNION, TYPE) else _INVALID_INPUT
    values = _allowed_values(error)
    if values and "(allowed:" not in message.lower():
        labels = list(dict.fromkeys(_js_label(v) for v in values))
        shown, hidden = labels[:12], len(labels) - 12
        message += " (allowed: " + ", ".join(shown) + (f", ... (+{hidden} more)" if hidden > 0 else "") + ")"
    return message


# 2026.8+ prints zod's own words for the kind of value expected and received, and for bounds.
_KINDS = {"string_type": "string", "bool_type": "boolean", "float_type": "number", "int_type": "number",
          "dict_type": "object", "model_type": "object", "model_attributes_type": "object", "list_type": "array"}
_BOUNDS = (("must be greater than ", "Too small", ">"), ("minimum: ", "Too small", ">="),
           ("maximum: ", "Too big", "<="))


def _received(value: Any) -> str:
    """zod's name for what it got: `typeof`, with null and arrays named apart."""
    if type(value) is object:  # a required key that is absent
        return "undefined"
    if value is None:
        return "null"
    return "array" if isinstance(value, list) else js_typeof(value)


def _message_sqlite_era(error: Any) -> str:
    """A message in OpenClaw 2026.9.6's words (zod 4's, with the allowed values after them)."""
    kind, ctx = error["type"], error.get("ctx") or {}
    expected = _KINDS.get(kind) or (ctx.get("expected") if kind == TYPE else None)
    if expected:
        suffix = " (allowed: true, false)" if kind == "bool_type" else ""
        return f"Invalid input: expected {expected}, received {_received(error.get('input'))}{suffix}"
    if kind == VALUE:
        from openclaw_cli.config.models96 import is_enum_path

        labels = list(dict.fromkeys(_js_label(v) for v in ctx["values"]))
        if len(labels) == 1:
            return f"Invalid input: expected {labels[0]} (allowed: {labels[0]})"
        if is_enum_path(tuple(error["loc"])):
            return "Invalid option: expected one of " + "|".join(labels)
    if kind == CHECK:
        for words, size, operator in _BOUNDS:
            if error["msg"].startswith(f"Invalid input ({words}"):
                limit = error["msg"][len(f"Invalid input ({words}"):-1]
                return f"{size}: expected number to be {operator}{limit} ({words}{limit})"
    return _message(error)


def config_issues(error: ValidationError, *, sqlite_era: bool = False) -> list[ConfigIssue]:
    """OpenClaw's issues for a failed validation, in its order (in 2026.9.6's words with `sqlite_era`).

    zod reports an object's unknown keys as one issue at the object's path; pydantic reports each
    key (after the object's fields, so they are adjacent): they become one issue here. A record's
    key that fails is reported at the key's path.
    """
    message = _message_sqlite_era if sqlite_era else _message
    issues: list[ConfigIssue] = []
    last_extra: tuple | None = None
    for row in error.errors():
        loc = tuple(row["loc"])
        if row["type"] == "extra_forbidden":
            if loc[:-1] == last_extra:
                issues[-1].unknown_keys += (str(loc[-1]),)
                continue
            last_extra, key, loc = loc[:-1], str(loc[-1]), loc[:-1]
            issues.append(ConfigIssue(".".join(str(p) for p in loc), message(row), (key,), segments=loc))
            continue
        last_extra = None
        if loc and loc[-1] == "[key]":
            loc = loc[:-1]
        issues.append(ConfigIssue(".".join(str(p) for p in loc), message(row), segments=loc,
                                  allowed=tuple(_allowed_values(row) or ())))
    if sqlite_era:
        for issue in issues:
            issue.message = issue.snapshot_message
    return issues

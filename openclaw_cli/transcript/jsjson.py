"""JSON parse/stringify with the exact byte output of JavaScript's JSON.parse + JSON.stringify."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from openclaw_cli.js.strings import JS_WHITESPACE, js_trim, utf16_len  # noqa: F401  (re-exported)
from openclaw_cli.js.strings import js_number_to_string as number_to_string

_MAX_SAFE = 2**53
_ARRAY_INDEX = re.compile(r"(?:0|[1-9][0-9]*)\Z")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonLineError(ValueError):
    """A line that JSON.parse would reject."""


def _reject_constant(name: str) -> Any:
    raise JsonLineError(f"invalid JSON token {name}")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def parse(text: str) -> Any:
    """JSON.parse: JSON whitespace around the value is allowed, NaN/Infinity are not."""
    try:
        return _DECODER.decode(text)
    except JsonLineError:
        raise
    except (ValueError, RecursionError) as exc:
        raise JsonLineError(str(exc)) from None


def _quote(value: str) -> str:
    out = json.dumps(value, ensure_ascii=False)
    if _LONE_SURROGATE.search(out):
        out = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
    return out


def ordered_keys(obj: dict) -> list[str]:
    """Own property order of a JS object: array-index keys ascending, then insertion order."""
    keys = list(obj.keys())
    index_keys = [k for k in keys if _ARRAY_INDEX.match(k) and int(k) < 4294967295]
    if not index_keys:
        return keys
    index_set = set(index_keys)
    return sorted(index_keys, key=int) + [k for k in keys if k not in index_set]


def _scalar(value: Any) -> str | None:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return "null"
        return number_to_string(value)
    return None


_UNDEFINED = object()


class Undefined:
    """Marker for a property JSON.stringify drops (JavaScript `undefined`)."""


UNDEFINED = Undefined()


def _stringify(value: Any, indent: str, current: str, out: list[str]) -> bool:
    scalar = _scalar(value)
    if scalar is not None:
        out.append(scalar)
        return True
    if isinstance(value, Undefined):
        return False
    if isinstance(value, dict):
        keys = ordered_keys(value)
        inner = current + indent
        parts_added = 0
        out.append("{")
        for key in keys:
            item = value[key]
            if isinstance(item, Undefined):
                continue
            if parts_added:
                out.append(",")
            if indent:
                out.append("\n" + inner)
            out.append(_quote(key))
            out.append(": " if indent else ":")
            _stringify(item, indent, inner, out)
            parts_added += 1
        if parts_added and indent:
            out.append("\n" + current)
        out.append("}")
        return True
    if isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return True
        inner = current + indent
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            if indent:
                out.append("\n" + inner)
            if not _stringify(item, indent, inner, out):
                out.append("null")
        if indent:
            out.append("\n" + current)
        out.append("]")
        return True
    raise TypeError(f"cannot serialize {type(value).__name__} as JSON")


def stringify(value: Any, indent: int = 0) -> str:
    """`JSON.stringify(value, null, indent)`; `UNDEFINED` values are dropped like `undefined`."""
    out: list[str] = []
    if not _stringify(value, " " * indent, "", out):
        return "undefined"
    return "".join(out)

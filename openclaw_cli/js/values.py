"""JavaScript value semantics the listing relies on: truthiness, `??`, ToNumber, toFixed, templates."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypeGuard

from openclaw_cli.js.strings import js_number_to_string, js_round, js_trim, js_trim_end

__all__ = [
    "UNDEFINED", "coalesce", "is_record", "js_round", "js_string", "js_to_fixed", "js_to_number", "js_trim",
    "js_trim_end", "js_typeof", "lower_or_empty", "opt_lower", "opt_str", "truthy",
]


class _Undefined:
    """JavaScript `undefined`: a field that is absent (JSON.stringify leaves it out); falsy."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Any = _Undefined()


def coalesce(*values: Any) -> Any:
    """`a ?? b ?? c`: the first value that is neither null nor undefined (else the last)."""
    for value in values:
        if value is not None and value is not UNDEFINED:
            return value
    return values[-1] if values else UNDEFINED


def is_record(value: Any) -> TypeGuard[dict[str, Any]]:
    """A JSON object (what OpenClaw's isRecord accepts from parsed JSON: not null, not an array)."""
    return isinstance(value, dict)


def truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON value (empty objects and arrays are truthy)."""
    if value is None or value is False or value is UNDEFINED:
        return False
    if value is True:
        return True
    if isinstance(value, (int, float)):
        return value != 0 and value == value
    if isinstance(value, str):
        return value != ""
    return True


def opt_str(value: Any) -> str | None:
    """normalizeOptionalString: a trimmed non-empty string, else None."""
    if not isinstance(value, str):
        return None
    return js_trim(value) or None


def opt_lower(value: Any) -> str | None:
    """normalizeOptionalLowercaseString."""
    text = opt_str(value)
    return text.lower() if text is not None else None


def lower_or_empty(value: Any) -> str:
    """normalizeLowercaseStringOrEmpty."""
    return opt_lower(value) or ""




def js_typeof(value: Any) -> str:
    """`typeof value` for a JSON value (null and arrays are "object"; `UNDEFINED` is "undefined")."""
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def js_string(value: Any) -> str:
    """`String(value)` / template-literal interpolation of a JSON value."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number_to_string(value)
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEFINED else js_string(v) for v in value)
    return "[object Object]"


def _string_to_number(text: str) -> float:
    trimmed = js_trim(text)
    if not trimmed:
        return 0.0
    lowered = trimmed.lower()
    try:
        if lowered.startswith(("0x", "0o", "0b")) and len(trimmed) > 2:
            return float(int(trimmed[2:], {"x": 16, "o": 8, "b": 2}[lowered[1]]))
    except ValueError:
        return math.nan
    if trimmed in ("Infinity", "+Infinity"):
        return math.inf
    if trimmed == "-Infinity":
        return -math.inf
    if not all(c in "0123456789+-.eE" for c in trimmed):
        return math.nan
    try:
        return float(trimmed)
    except ValueError:
        return math.nan


def js_to_number(value: Any) -> float:
    """ToNumber for a JSON value (objects become NaN, arrays go through their string form)."""
    if value is UNDEFINED:
        return math.nan
    if value is None or value is False:
        return 0.0
    if value is True:
        return 1.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        return _string_to_number(value)
    if isinstance(value, list):
        return _string_to_number(js_string(value))
    return math.nan


def js_to_fixed(value: float, digits: int) -> str:
    """Number.prototype.toFixed: exact decimal value, ties rounded away from zero."""
    if math.isnan(value):
        return "NaN"
    if abs(value) >= 1e21 or math.isinf(value):
        return js_number_to_string(value)
    if value == 0:
        value = 0.0  # -0 prints as 0
    quantum = Decimal(1).scaleb(-digits)
    text = format(Decimal(value).quantize(quantum, rounding=ROUND_HALF_UP), "f")
    return text


def object_at(parent: Any, key: str) -> dict[str, Any]:
    """`parent[key]` when both are JSON objects (dicts), else a fresh empty dict.

    The config and RPC payloads this tool reads are untrusted JSON: a section that is
    missing, `null` or of the wrong type reads as empty, as OpenClaw's optional chaining does.
    """
    if not isinstance(parent, dict):
        return {}
    value = parent.get(key)
    return value if isinstance(value, dict) else {}

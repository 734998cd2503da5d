"""JSON read and written exactly as JavaScript's JSON.parse and JSON.stringify do."""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any

import pydantic_core

__all__ = [
    "JSON_MAX_DEPTH_ERROR",
    "JS_WHITESPACE",
    "UNDEFINED",
    "JsonLineError",
    "canonicalize",
    "dumps_compact",
    "dumps_compact_bytes",
    "dumps_pretty",
    "dumps_pretty_bytes",
    "is_array_index",
    "js_number",
    "js_ordered",
    "js_trim",
    "js_utf8",
    "js_utf16_len",
    "loads",
    "ordered_keys",
    "parse",
    "stringify",
]

JSON_MAX_DEPTH_ERROR = "JSON nesting is too deep"

_TWO53 = 9007199254740992
_MAX_ARRAY_INDEX = 4294967294
SHARED_MIN_CHARS = 1024
"""With a `shared` dict, string values at least this long are kept once however often they occur."""

from openclaw_cli.js.strings import JS_WHITESPACE, js_number_to_string, js_trim  # noqa: E402  (re-exported)
from openclaw_cli.js.strings import utf16_len as js_utf16_len  # noqa: E402
from openclaw_cli.js.values import UNDEFINED  # noqa: E402  (re-exported)


def js_utf8(value: str) -> bytes:
    """The UTF-8 bytes Node writes for a JS string (lone surrogates become U+FFFD)."""
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:
        return _well_formed(value).encode("utf-8")


def _well_formed(value: str) -> str:
    """Join surrogate pairs held as two code points and replace lone surrogates by U+FFFD."""
    return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


# ---------------------------------------------------------------------------------------
# numbers


def js_number(value: float | int) -> float | int:
    """The canonical Python value for a JS number.

    Integral values below 1e21 (what JS prints without an exponent) are ints holding
    exactly the digits JS prints; everything else (fractions, +-1e21 and beyond,
    infinities) stays a float. -0 becomes 0 (JSON.stringify prints it as 0).
    """
    if type(value) is int:
        if -_TWO53 < value < _TWO53:
            return value
        try:
            value = float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    elif type(value) is not float:
        value = float(value)
    if value != value or value in (math.inf, -math.inf):
        return value
    if value.is_integer() and -1e21 < value < 1e21:
        if -_TWO53 < value < _TWO53:
            return int(value)
        return int(Decimal(repr(value)))
    return value


def _js_number_text(value: float | int) -> str:
    if type(value) is int and -_TWO53 < value < _TWO53:
        return str(value)
    value = js_number(value)
    if type(value) is int:
        return str(value)
    if value != value or value in (math.inf, -math.inf):
        return "null"
    return js_number_to_string(value)


# ---------------------------------------------------------------------------------------
# keys


def is_array_index(key: str) -> bool:
    """True for keys JS orders first: canonical integers "0".."4294967294"."""
    n = len(key)
    if n == 0 or n > 10 or not ("0" <= key < ":") or not key.isascii() or not key.isdigit():
        return False
    if n > 1 and key[0] == "0":
        return False
    return n < 10 or int(key) <= _MAX_ARRAY_INDEX


def js_ordered(obj: dict) -> dict:
    """`obj` with JS own-key order: array-index keys ascending first, then the rest.

    Returns `obj` itself when it has no array-index key.
    """
    index_keys = [k for k in obj if is_array_index(k)]
    if not index_keys:
        return obj
    index_keys.sort(key=int)
    out = {k: obj[k] for k in index_keys}
    for k, v in obj.items():
        if k not in out:
            out[k] = v
    return out


def ordered_keys(obj: dict) -> list[str]:
    """Own property order of a JS object: array-index keys ascending, then insertion order."""
    return list(js_ordered(obj))


# ---------------------------------------------------------------------------------------
# parsing


def _parse_float(text: str) -> float | int:
    return js_number(float(text))


def _parse_int(text: str) -> float | int:
    if len(text) < 16:
        return int(text)
    return js_number(float(text))


def _parse_constant(name: str) -> Any:
    raise ValueError(f"Unexpected token {name!r} in JSON")


def _object_pairs(pairs: list) -> dict:
    return js_ordered(dict(pairs))


def _slow_loads(text: str) -> Any:
    try:
        return json.loads(text, parse_float=_parse_float, parse_int=_parse_int,
                          parse_constant=_parse_constant, object_pairs_hook=_object_pairs)
    except RecursionError:
        raise ValueError(JSON_MAX_DEPTH_ERROR) from None


def _canon_obj(d: dict, shared: dict[str, str] | None = None) -> dict:
    """Canonicalise numbers in place; returns `d`, or a JS-ordered copy if keys need it. With `shared`,
    each string value of at least SHARED_MIN_CHARS becomes the first equal one `shared` has seen."""
    reorder = False
    for k, v in d.items():
        if "0" <= k < ":":
            reorder = True
        t = type(v)
        if t is str:
            if shared is not None and len(v) >= SHARED_MIN_CHARS:
                d[k] = shared.setdefault(v, v)
            continue
        if t is bool or v is None:
            continue
        if t is int:
            if -_TWO53 < v < _TWO53:
                continue
            d[k] = js_number(v)
        elif t is dict:
            n = _canon_obj(v, shared)
            if n is not v:
                d[k] = n
        elif t is list:
            _canon_arr(v, shared)
        elif t is float and v.is_integer():
            d[k] = js_number(v)
    return js_ordered(d) if reorder else d


def _canon_arr(a: list, shared: dict[str, str] | None = None) -> None:
    for i, v in enumerate(a):
        t = type(v)
        if t is str:
            if shared is not None and len(v) >= SHARED_MIN_CHARS:
                a[i] = shared.setdefault(v, v)
            continue
        if t is bool or v is None:
            continue
        if t is int:
            if -_TWO53 < v < _TWO53:
                continue
            a[i] = js_number(v)
        elif t is dict:
            n = _canon_obj(v, shared)
            if n is not v:
                a[i] = n
        elif t is list:
            _canon_arr(v, shared)
        elif t is float and v.is_integer():
            a[i] = js_number(v)


def canonicalize(value: Any, shared: dict[str, str] | None = None) -> Any:
    """Make a JSON-like value hold JS-canonical numbers and JS key order (in place where
    possible; returns the value to use). For values built in Python before dumps_*. With `shared`,
    long equal strings become one object (see _canon_obj)."""
    t = type(value)
    if t is dict:
        return _canon_obj(value, shared)
    if t is list:
        _canon_arr(value, shared)
        return value
    if t is float or t is int:
        return js_number(value)
    return value


def loads(data: str | bytes | bytearray | memoryview, shared: dict[str, str] | None = None) -> Any:
    """Parse like JSON.parse: JS numbers, JS key order, last duplicate wins in first place.

    Raises ValueError (json.JSONDecodeError for syntax errors) on invalid JSON.
    Bytes must be UTF-8; decode them yourself first to get Node's replacement behaviour.
    `shared` (optional) keeps long equal string values once, across calls that pass the same dict.
    """
    if isinstance(data, str):
        text = data
        try:
            raw: bytes | bytearray = data.encode("utf-8")
        except UnicodeEncodeError:
            return _slow_loads(text)
    else:
        raw, text = (bytes(data) if isinstance(data, memoryview) else data), None
    try:
        value = pydantic_core.from_json(raw, allow_inf_nan=False)
    except ValueError:
        if text is None:
            text = bytes(raw).decode("utf-8")
        return _slow_loads(text)
    try:
        return canonicalize(value, shared)
    except RecursionError:
        raise ValueError(JSON_MAX_DEPTH_ERROR) from None


class JsonLineError(ValueError):
    """A text that JSON.parse would reject."""


def parse(text: str) -> Any:
    """JSON.parse of one text (a transcript line): like `loads`, failing with JsonLineError."""
    try:
        return loads(text)
    except (ValueError, RecursionError) as exc:
        raise JsonLineError(str(exc)) from None


# ---------------------------------------------------------------------------------------
# stringify

_E6_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|(-?)([0-9])(?:\.([0-9]+))?e-6(?![0-9])')


def _e6_sub(m: re.Match) -> bytes:
    if m.group(2) is None:
        return m.group(0)
    return m.group(1) + b"0.00000" + m.group(2) + (m.group(3) or b"")


def _fix_e6(out: bytes, pretty: bool) -> bytes:
    """pydantic prints 1e-6 <= |x| < 1e-5 with an exponent; JS prints them in full."""
    if not pretty:
        return _E6_TOKEN.sub(_e6_sub, out)
    parts: list[bytes] = []
    pos = 0
    find = out.find
    while True:
        hit = find(b"e-6", pos)
        if hit < 0:
            break
        start = out.rfind(b"\n", 0, hit) + 1
        end = find(b"\n", hit)
        if end < 0:
            end = len(out)
        parts.append(out[pos:start])
        parts.append(_E6_TOKEN.sub(_e6_sub, out[start:end]))
        pos = end
    if not parts:
        return out
    parts.append(out[pos:])
    return b"".join(parts)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
            "\t": "\\t"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\ud800-\udfff]')
_SURROGATE_PAIR = re.compile(r"[\ud800-\udbff][\udc00-\udfff]")


def _escape_char(m: re.Match) -> str:
    ch = m.group(0)
    esc = _ESCAPES.get(ch)
    return esc if esc is not None else "\\u%04x" % ord(ch)


def _js_string(value: str) -> str:
    if max(value, default="") >= "\ud800" and _SURROGATE_PAIR.search(value):
        value = _SURROGATE_PAIR.sub(
            lambda m: m.group(0).encode("utf-16-le", "surrogatepass").decode("utf-16-le"), value)
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, value) + '"'


def _dump_object(value: dict, indent: str, level: int, out: list[str]) -> None:
    inner = "\n" + indent * (level + 1) if indent else ""
    sep = ": " if indent else ":"
    mark = len(out)
    out.append("{")
    for k, v in js_ordered(value).items():
        if v is UNDEFINED:
            continue
        if len(out) > mark + 1:
            out.append(",")
        out.append(inner)
        out.append(_js_string(str(k)))
        out.append(sep)
        _slow_dump(v, indent, level + 1, out)
    if len(out) == mark + 1:
        out.append("}")
        return
    if indent:
        out.append("\n" + indent * level)
    out.append("}")


def _dump_array(value: list | tuple, indent: str, level: int, out: list[str]) -> None:
    if not value:
        out.append("[]")
        return
    inner = "\n" + indent * (level + 1) if indent else ""
    out.append("[")
    for i, v in enumerate(value):
        if i:
            out.append(",")
        out.append(inner)
        _slow_dump(None if v is UNDEFINED else v, indent, level + 1, out)
    if indent:
        out.append("\n" + indent * level)
    out.append("]")


def _slow_dump(value: Any, indent: str, level: int, out: list[str]) -> None:
    """Pure-Python JSON.stringify: any JSON-like value, Python numbers printed as JS prints
    them, JS key order, UNDEFINED members left out (null in arrays)."""
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_js_string(value))
    elif isinstance(value, (int, float)):
        out.append(_js_number_text(value))
    elif isinstance(value, dict):
        _dump_object(value, indent, level, out)
    elif isinstance(value, (list, tuple)):
        _dump_array(value, indent, level, out)
    else:
        raise TypeError(f"not JSON-serialisable: {type(value).__name__}")


def _slow_bytes(value: Any, pretty: bool) -> bytes:
    out: list[str] = []
    _slow_dump(value, "  " if pretty else "", 0, out)
    return "".join(out).encode("utf-8")


def _fast_bytes(value: Any, pretty: bool) -> bytes | None:
    try:
        out = pydantic_core.to_json(value, indent=2 if pretty else None, inf_nan_mode="null")
    except (ValueError, TypeError, RecursionError):
        return None
    if b"e-6" in out:
        out = _fix_e6(out, pretty)
    return out


def _dump_bytes(value: Any, pretty: bool) -> bytes:
    out = _fast_bytes(value, pretty)
    if out is not None:
        return out
    if isinstance(value, dict) and value:
        # Only some members are troublesome (lone surrogates, deep nesting): keep the
        # fast encoder for the others.
        parts = []
        for k, v in value.items():
            chunk = _fast_bytes(v, pretty)
            if chunk is None:
                chunk = _slow_bytes(v, pretty)
            key = _fast_bytes(k, False) or _slow_bytes(k, False)
            if pretty:
                parts.append(b"  " + key + b": " + chunk.replace(b"\n", b"\n  "))
            else:
                parts.append(key + b":" + chunk)
        if pretty:
            return b"{\n" + b",\n".join(parts) + b"\n}"
        return b"{" + b",".join(parts) + b"}"
    try:
        return _slow_bytes(value, pretty)
    except RecursionError:
        raise ValueError(JSON_MAX_DEPTH_ERROR) from None


def dumps_pretty_bytes(value: Any) -> bytes:
    """UTF-8 of `JSON.stringify(value, null, 2)`.

    Numbers must be JS-canonical (ints for integral values, see js_number/canonicalize)
    and objects in JS key order; values from `loads` always are.
    """
    return _dump_bytes(value, True)


def dumps_compact_bytes(value: Any) -> bytes:
    """UTF-8 of `JSON.stringify(value)`."""
    return _dump_bytes(value, False)


def dumps_pretty(value: Any) -> str:
    """`JSON.stringify(value, null, 2)`."""
    return dumps_pretty_bytes(value).decode("utf-8")


def dumps_compact(value: Any) -> str:
    """`JSON.stringify(value)`."""
    return dumps_compact_bytes(value).decode("utf-8")


def stringify(value: Any, indent: int = 0) -> str:
    """`JSON.stringify(value, null, indent)` of any JSON-like value (numbers need not be
    canonical); UNDEFINED members are left out, an UNDEFINED value gives "undefined"."""
    if value is UNDEFINED:
        return "undefined"
    out: list[str] = []
    _slow_dump(value, " " * indent, 0, out)
    return "".join(out)

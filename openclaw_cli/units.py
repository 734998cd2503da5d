"""Duration and byte-size grammars used by OpenClaw settings, with the reference's error texts."""

from __future__ import annotations

import math
import re

# ECMAScript WhiteSpace + LineTerminator: what String.prototype.trim removes.
JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)

MAX_SAFE_INTEGER = 2**53 - 1

_DURATION_MS = {"ms": 1, "s": 1_000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
_BYTE_UNITS = {
    "b": 1,
    "k": 1024, "kb": 1024,
    "m": 1024**2, "mb": 1024**2,
    "g": 1024**3, "gb": 1024**3,
    "t": 1024**4, "tb": 1024**4,
}

_SINGLE_DURATION = re.compile(r"([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d)?")
_DURATION_SEGMENT = re.compile(r"([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d)")
_BYTE_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)([a-z]+)?")


def js_trim(value: str) -> str:
    """String.prototype.trim (Python's str.strip() uses a different whitespace set)."""
    return value.strip(JS_WHITESPACE)


def js_round(value: float) -> float:
    """Math.round: halves go up, towards +infinity."""
    if math.isnan(value) or math.isinf(value):
        return value
    floor = math.floor(value)
    return floor + 1 if value - floor >= 0.5 else floor


def js_number_string(value: int | float) -> str:
    """String(number) for a JSON number, in ECMAScript's shortest round-trip format."""
    if isinstance(value, bool):
        return "true" if value else "false"
    number = float(value) if not isinstance(value, int) or abs(value) > MAX_SAFE_INTEGER else value
    if isinstance(number, int):
        return str(number)
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    # repr() gives the shortest round-trip digits; re-place the decimal point the JS way.
    mantissa, _, exponent = repr(abs(number)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + (int(exponent) if exponent else 0)
    if whole == "0":
        significant = fraction.lstrip("0")
        point = -(len(fraction) - len(significant)) + (int(exponent) if exponent else 0)
        digits = significant
    digits = digits.rstrip("0") or "0"
    k, n = len(digits), point
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + text


def _quoted(raw: str) -> str:
    return f'"{raw}"' if js_trim(raw) else "empty value"


def _duration_error(raw: str, reason: str | None = None) -> ValueError:
    prefix = f"Invalid duration ({reason}): {_quoted(raw)}." if reason else f"Invalid duration: {_quoted(raw)}."
    return ValueError(f"{prefix} Use values like 500ms, 30s, 5m, 2h, or 1h30m.")


def _byte_error(raw: str, reason: str | None = None) -> ValueError:
    prefix = f"Invalid byte size ({reason}): {_quoted(raw)}." if reason else f"Invalid byte size: {_quoted(raw)}."
    return ValueError(f"{prefix} Use values like 512kb, 10mb, 1gb, or 500.")


def _safe_ms(raw: str, value: float) -> int:
    ms = js_round(value)
    if math.isinf(ms) or math.isnan(ms) or abs(ms) > MAX_SAFE_INTEGER:
        raise _duration_error(raw)
    return int(ms)


def parse_duration_ms(raw: str, default_unit: str | None = "ms") -> int:
    """Milliseconds for `500ms`, `30s`, `5m`, `2h`, `7d`, `1h30m`, or a bare number in `default_unit`."""
    text = js_trim(raw).lower() if isinstance(raw, str) else ""
    if not text:
        raise _duration_error(raw if isinstance(raw, str) else "", "empty")
    single = _SINGLE_DURATION.fullmatch(text)
    if single:
        value = float(single.group(1))
        if math.isinf(value):
            raise _duration_error(raw)
        unit = single.group(2) or default_unit or "ms"
        return _safe_ms(raw, value * _DURATION_MS[unit])
    total = 0.0
    consumed = 0
    for match in _DURATION_SEGMENT.finditer(text):
        if match.start() != consumed:
            raise _duration_error(raw, "each composite segment needs a unit")
        value = float(match.group(1))
        if math.isinf(value):
            raise _duration_error(raw)
        total += value * _DURATION_MS[match.group(2)]
        consumed += len(match.group(0))
    if consumed == 0 or consumed != len(text):
        raise _duration_error(raw)
    return _safe_ms(raw, total)


def parse_byte_size(raw: str, default_unit: str | None = "b") -> int:
    """Bytes for `512kb`, `10mb`, `1.5g`, … (binary units) or a bare number in `default_unit`."""
    text = js_trim(raw).lower() if isinstance(raw, str) else ""
    if not text:
        raise _byte_error(raw if isinstance(raw, str) else "", "empty")
    match = _BYTE_SIZE.fullmatch(text)
    if not match:
        raise _byte_error(raw)
    value = float(match.group(1))
    if math.isinf(value):
        raise _byte_error(raw)
    unit = (match.group(2) or default_unit or "b").lower()
    multiplier = _BYTE_UNITS.get(unit)
    if multiplier is None:
        raise _byte_error(raw, f'unknown unit "{unit}"')
    size = js_round(value * multiplier)
    if math.isinf(size) or math.isnan(size):
        raise _byte_error(raw)
    return int(size)

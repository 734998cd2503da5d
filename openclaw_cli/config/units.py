"""Duration and byte-size grammars used by OpenClaw settings, with OpenClaw's error texts."""

from __future__ import annotations

import math
import re

from openclaw_cli.js.strings import js_round, js_trim

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

"""JavaScript string arithmetic for /context: UTF-16 units, trimming, number and size formatting."""

from __future__ import annotations

import math

from openclaw_cli.js.strings import JS_WHITESPACE as JS_WS  # noqa: F401  (re-exported for callers)
from openclaw_cli.js.strings import from_units, js_trim, js_trim_end, to_units, utf16_len  # noqa: F401


def _high(ch: str) -> bool:
    return 0xD800 <= ord(ch) <= 0xDBFF


def _low(ch: str) -> bool:
    return 0xDC00 <= ord(ch) <= 0xDFFF


def truncate_utf16_safe(units: str, limit: int) -> str:
    """`truncateUtf16Safe`: cut to `limit` units without leaving a dangling high surrogate."""
    limit = max(0, math.floor(limit))
    if len(units) <= limit:
        return units
    if limit <= 0:
        return ""
    if _high(units[limit - 1]) and _low(units[limit]):
        limit -= 1
    return units[:limit]


def format_int(value: int | float) -> str:
    """`Intl.NumberFormat("en-US")` for the integers /context prints."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.3f}".rstrip("0").rstrip(".")


def estimate_tokens_from_chars(chars: int | float) -> int:
    """`estimateTokensFromChars`: ceil(max(0, chars) / 4)."""
    return math.ceil(max(0, chars) / 4)


def chars_and_tokens(chars: int | float) -> str:
    """`formatCharsAndTokens`: "38,412 chars (~9,603 tok)"."""
    return f"{format_int(chars)} chars (~{format_int(estimate_tokens_from_chars(chars))} tok)"

"""JavaScript string arithmetic for /context: UTF-16 units, trimming, number and size formatting."""

from __future__ import annotations

import math

JS_WS = (
    "\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def to_units(text: str) -> str:
    """The string with every astral character split into its two surrogate halves, so that
    Python's len() and slicing count UTF-16 code units exactly as JavaScript does."""
    if text.isascii() or all(ord(ch) <= 0xFFFF for ch in text):
        return text
    return "".join(_split(ch) for ch in text)


def _split(ch: str) -> str:
    cp = ord(ch)
    if cp <= 0xFFFF:
        return ch
    cp -= 0x10000
    return chr(0xD800 + (cp >> 10)) + chr(0xDC00 + (cp & 0x3FF))


def from_units(units: str) -> str:
    """Join surrogate pairs back into characters (lone halves become U+FFFD)."""
    if all(not 0xD800 <= ord(ch) <= 0xDFFF for ch in units):
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def utf16_len(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def js_trim_end(units: str) -> str:
    return units.rstrip(JS_WS)


def js_trim(units: str) -> str:
    return units.strip(JS_WS)


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

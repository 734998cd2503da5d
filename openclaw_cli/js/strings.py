"""JavaScript string semantics OpenClaw relies on: trim, UTF-16 lengths, padding, collation."""

from __future__ import annotations

import re
from functools import lru_cache

# ECMAScript WhiteSpace + LineTerminator (String.prototype.trim), which differs from str.strip().
JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(value: str) -> str:
    return value.strip(JS_WHITESPACE)


def js_trim_end(value: str) -> str:
    return value.rstrip(JS_WHITESPACE)


def js_round(value: float) -> float:
    """`Math.round`: halves go up, towards +infinity."""
    import math

    if math.isnan(value) or math.isinf(value):
        return value
    floor = math.floor(value)
    return floor + 1 if value - floor >= 0.5 else floor


def utf16_len(value: str) -> int:
    if value.isascii():
        return len(value)
    return len(value) + sum(1 for ch in value if ord(ch) > 0xFFFF)


def to_units(text: str) -> str:
    """The string with every astral character split into its two surrogate halves, so that
    len() and slicing count UTF-16 code units exactly as JavaScript does."""
    if text.isascii() or all(ord(ch) <= 0xFFFF for ch in text):
        return text
    return "".join(_split_astral(ch) for ch in text)


def _split_astral(ch: str) -> str:
    cp = ord(ch)
    if cp <= 0xFFFF:
        return ch
    cp -= 0x10000
    return chr(0xD800 + (cp >> 10)) + chr(0xDC00 + (cp & 0x3FF))


def from_units(units: str) -> str:
    """Join surrogate pairs back into characters (lone halves become U+FFFD, as Node prints them)."""
    if all(not 0xD800 <= ord(ch) <= 0xDFFF for ch in units):
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def utf16_slice(value: str, start: int, end: int | None = None) -> str:
    """`String.prototype.slice` on UTF-16 indices (negative indices count from the end)."""
    if value.isascii():
        return value[start:end]
    return from_units(to_units(value)[start:end])


def pad_end(value: str, width: int) -> str:
    n = utf16_len(value)
    return value if n >= width else value + " " * (width - n)


_SANITIZE_ANSI = re.compile(
    r"(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x1b\\|\x07|\x9c)"
    r"|\x1b\[[\x20-\x3f]*[\x40-\x7e]"
    r"|\x9b[\x20-\x3f]+[\x40-\x7e]"
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def sanitize_terminal_text(value: str) -> str:
    """Single-line terminal text: ANSI stripped, CR/LF/TAB shown escaped, other controls dropped."""
    text = _SANITIZE_ANSI.sub("", value)
    text = text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
    return _CONTROL.sub("", text)


@lru_cache(maxsize=1)
def _collator():
    import pyuca

    return pyuca.Collator()


# The primary weight of each ASCII character in the collation table (0: ignored, as controls are). No
# ASCII character starts a contraction with another ASCII one, each has one collation element, every
# weighted one has secondary weight 0x20 and tertiary 8 for A-Z, else 2: an ASCII string's key follows
# from this row without loading the table.
_ASCII_PRIMARY = (
    0, 0, 0, 0, 0, 0, 0, 0, 0, 513, 514, 515, 516, 517, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    521, 608, 780, 920, 7186, 921, 918, 773, 791, 792, 911, 1558, 546, 525, 631, 916, 7229, 7230, 7231, 7232,
    7233, 7234, 7235, 7236, 7237, 7238, 569, 564, 1562, 1563, 1564, 614, 910, 7239, 7264, 7290, 7311, 7338,
    7397, 7412, 7448, 7474, 7500, 7525, 7543, 7594, 7609, 7645, 7692, 7713, 7731, 7793, 7829, 7861, 7907, 7925,
    7935, 7947, 7969, 793, 917, 794, 1157, 523, 1154, 7239, 7264, 7290, 7311, 7338, 7397, 7412, 7448, 7474,
    7500, 7525, 7543, 7594, 7609, 7645, 7692, 7713, 7731, 7793, 7829, 7861, 7907, 7925, 7935, 7947, 7969, 795,
    1566, 796, 1568, 0,
)


def _ascii_sort_key(value: str) -> tuple[int, ...]:
    primary = [w for w in map(_ASCII_PRIMARY.__getitem__, map(ord, value)) if w]
    tertiary = [8 if "A" <= ch <= "Z" else 2 for ch in value if _ASCII_PRIMARY[ord(ch)]]
    return (*primary, 0, *([0x20] * len(primary)), 0, *tertiary, 0)


def locale_sort_key(value: str):
    """Sort key matching `String.prototype.localeCompare` (root collation) for ordinary text."""
    if value.isascii():
        return _ascii_sort_key(value)
    return _collator().sort_key(value)


def js_number_to_string(value: float | int) -> str:
    """`String(number)` as ECMAScript formats it (shortest round-trip digits)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) < 2**53:
            return str(value)
        value = float(value)
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    mantissa, _, exp = repr(abs(value)).partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    digits = (int_part + frac_part).lstrip("0")
    # position of the decimal point relative to the first significant digit
    point = len(int_part) + (int(exp) if exp else 0)
    if int_part == "0":
        stripped = frac_part.lstrip("0")
        point = -(len(frac_part) - len(stripped)) + (int(exp) if exp else 0)
        digits = stripped
    digits = digits.rstrip("0") or "0"
    k, n = len(digits), point
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + out

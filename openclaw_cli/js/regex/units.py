"""UTF-16 views of Python strings, as non-`u` JavaScript regexes see them."""

from __future__ import annotations

import re

# --------------------------------------------------------------------------------------------
# UTF-16 views. Non-`u` JavaScript regexes (and String.prototype.slice) work on UTF-16 code
# units; `u` regexes work on code points. "Unit form" holds an astral character as its two
# surrogate halves; "code point form" joins every valid surrogate pair.

ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _split_astral(m: re.Match) -> str:
    cp = ord(m.group()) - 0x10000
    return chr(0xD800 + (cp >> 10)) + chr(0xDC00 + (cp & 0x3FF))


def to_units(s: str) -> str:
    if s.isascii():
        return s
    return ASTRAL.sub(_split_astral, s)


def from_units(s: str) -> str:
    if s.isascii() or not _SURROGATE.search(s):
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")

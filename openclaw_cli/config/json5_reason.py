"""Why npm json5 2.2.3 (OpenClaw's parser) rejects a text: its `SyntaxError`, with its line and column."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from functools import cache

from openclaw_cli.config import json5_chars

# What json5 skips between tokens (besides the space separators of its table).
_BLANKS = frozenset("\t\v\f \u00a0\ufeff\n\r\u2028\u2029")
_LINE_ENDS = frozenset("\n\r\u2028\u2029")
_DIGITS = frozenset("0123456789")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
# How its message shows a character: these escaped, other controls as \xHH, the rest as they are.
_SHOWN = {"'": "\\'", '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
          "\t": "\\t", "\v": "\\v", "\0": "\\0", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_LITERALS = {"n": "ull", "t": "rue", "f": "alse", "I": "nfinity", "N": "aN"}
# A number's states: the characters that lead on (and where), and whether anything else is an
# error (True) or ends the number (False).
_NUMBER: dict[str, tuple[tuple[tuple[frozenset[str], str], ...], bool]] = {
    "zero": (((frozenset("."), "point"), (frozenset("eE"), "exponent"), (frozenset("xX"), "hex")), False),
    "integer": (((frozenset("."), "point"), (frozenset("eE"), "exponent"), (_DIGITS, "integer")), False),
    "leading point": (((_DIGITS, "fraction"),), True),
    "point": (((frozenset("eE"), "exponent"), (_DIGITS, "fraction")), False),
    "fraction": (((frozenset("eE"), "exponent"), (_DIGITS, "fraction")), False),
    "exponent": (((frozenset("+-"), "exponent sign"), (_DIGITS, "exponent digits")), True),
    "exponent sign": (((_DIGITS, "exponent digits"),), True),
    "exponent digits": (((_DIGITS, "exponent digits"),), False),
    "hex": (((_HEX_DIGITS, "hex digits"),), True),
    "hex digits": (((_HEX_DIGITS, "hex digits"),), False),
}


@cache
def _ranges(spec: str) -> tuple[list[int], list[int]]:
    starts: list[int] = []
    ends: list[int] = []
    for part in spec.split():
        low, _, high = part.partition("-")
        starts.append(int(low, 16))
        ends.append(int(high or low, 16))
    return starts, ends


def _member(spec: str, char: str) -> bool:
    starts, ends = _ranges(spec)
    index = bisect_right(starts, ord(char)) - 1
    return index >= 0 and ord(char) <= ends[index]


def _name_start(char: str) -> bool:
    return _member(json5_chars.ID_START_RANGES, char)


def _name_part(char: str) -> bool:
    return _member(json5_chars.ID_CONTINUE_RANGES, char)


def shown_char(char: str) -> str:
    """A character as json5's messages show it."""
    if char in _SHOWN:
        return _SHOWN[char]
    return f"\\x{ord(char):02x}" if char < " " else char


class _Stop(Exception):
    """json5 stopped here; the message is its own, without `JSON5: `."""


class _Cursor:
    """json5's reading position: lines end at `\\n` only, columns count UTF-16 units."""

    def __init__(self, text: str) -> None:
        self.text, self.pos, self.line, self.column = text, 0, 1, 0

    def peek(self) -> str | None:
        return self.text[self.pos] if self.pos < len(self.text) else None

    def read(self) -> str | None:
        char = self.peek()
        if char == "\n":
            self.line, self.column = self.line + 1, 0
        else:  # the end of the text counts as one column too
            self.column += 2 if char is not None and ord(char) > 0xFFFF else 1
        if char is not None:
            self.pos += 1
        return char

    def at(self) -> str:
        return f"at {self.line}:{self.column}"

    def refuse(self) -> _Stop:
        """json5 reads the offending character, then names it (or the end) where it now stands."""
        char = self.read()
        if char is None:
            return _Stop(f"invalid end of input {self.at()}")
        return _Stop(f"invalid character '{shown_char(char)}' {self.at()}")

    def take(self, allowed: frozenset[str]) -> str:
        char = self.peek()
        if char is None or char not in allowed:
            raise self.refuse()
        self.read()
        return char


def _hex_char(cur: _Cursor, count: int) -> str:
    return chr(int("".join(cur.take(_HEX_DIGITS) for _ in range(count)), 16))


def _escape(cur: _Cursor) -> None:
    char = cur.peek()
    if char is None or char in "123456789":
        raise cur.refuse()
    cur.read()
    if char == "0" and cur.peek() in _DIGITS:
        raise cur.refuse()
    if char in "xu":
        _hex_char(cur, 2 if char == "x" else 4)
    elif char == "\r" and cur.peek() == "\n":
        cur.read()


def _string(cur: _Cursor, quote: str) -> None:
    while True:
        char = cur.peek()
        if char is None or char in "\n\r":
            raise cur.refuse()
        cur.read()
        if char == quote:
            return
        if char == "\\":
            _escape(cur)


def _name_escape(cur: _Cursor, allowed: Callable[[str], bool]) -> None:
    if cur.peek() != "u":
        raise cur.refuse()
    cur.read()
    if not allowed(_hex_char(cur, 4)):
        raise _Stop(f"invalid identifier character at {cur.line}:{cur.column - 5}")


def _name(cur: _Cursor) -> str:
    while True:
        char = cur.peek()
        if char == "\\":
            cur.read()
            _name_escape(cur, _name_part)
        elif char is not None and _name_part(char):
            cur.read()
        else:
            return "name"


def _number(cur: _Cursor, state: str) -> str:
    while True:
        moves, strict = _NUMBER[state]
        char = cur.peek()
        following = next((target for chars, target in moves if char is not None and char in chars), None)
        if following is None:
            if strict:
                raise cur.refuse()
            return "value"
        cur.read()
        state = following


def _literal(cur: _Cursor, rest: str) -> str:
    for expected in rest:
        cur.take(frozenset(expected))
    return "value"


def _value(cur: _Cursor, char: str | None, signed: bool = False) -> str:
    """A value's token; after a sign, only a number, `Infinity` or `NaN`."""
    if char is not None and not signed:
        if char in "{[":
            cur.read()
            return char
        if char in "\"'":
            cur.read()
            _string(cur, char)
            return "value"
        if char in "-+":
            cur.read()
            return _value(cur, cur.peek(), signed=True)
    if char is not None and char in _LITERALS and (not signed or char in "IN"):
        cur.read()
        return _literal(cur, _LITERALS[char])
    if char is not None and (char == "." or char in _DIGITS):
        cur.read()
        return _number(cur, "leading point" if char == "." else "zero" if char == "0" else "integer")
    raise cur.refuse()


def _property_name(cur: _Cursor, char: str) -> str:
    if char == "}":
        cur.read()
        return char
    if char in "\"'":
        cur.read()
        _string(cur, char)
        return "name"
    if char != "\\" and not _name_start(char):
        raise cur.refuse()
    cur.read()
    if char == "\\":
        _name_escape(cur, _name_start)
    return _name(cur)


def _one_of(allowed: str) -> Callable[[_Cursor, str], str]:
    def punctuator(cur: _Cursor, char: str) -> str:
        if char not in allowed:
            raise cur.refuse()
        cur.read()
        return char
    return punctuator


def _item(cur: _Cursor, char: str) -> str:
    if char == "]":
        cur.read()
        return char
    return _value(cur, char)


# What each place in the document lexes (the text's start takes `{`, `[` or any value).
_LEXERS: dict[str, Callable[[_Cursor, str], str]] = {
    "start": _value,
    "before name": _property_name,
    "after name": _one_of(":"),
    "before value": _value,
    "after value": _one_of(",}"),
    "before item": _item,
    "after item": _one_of(",]"),
    "end": _one_of(""),
}


def _comment(cur: _Cursor) -> bool:
    """After `/`: a comment skipped; True when a line comment ran to the end of the text."""
    char = cur.peek()
    if char not in ("*", "/"):
        raise cur.refuse()
    cur.read()
    if char == "/":
        while True:
            char = cur.read()
            if char is None:
                return True
            if char in _LINE_ENDS:
                return False
    starred = False
    while True:
        if cur.peek() is None:
            raise cur.refuse()
        char = cur.read()
        if starred and char == "/":
            return False
        starred = char == "*"


def _token(cur: _Cursor, place: str) -> str:
    while True:
        char = cur.peek()
        if char is None:
            cur.read()
            return "eof"
        if char in _BLANKS or _member(json5_chars.SPACE_RANGES, char):
            cur.read()
        elif char == "/":
            cur.read()
            if _comment(cur):
                return "eof"
        else:
            return _LEXERS[place](cur, char)


def _walk(cur: _Cursor) -> None:
    place, open_ = "start", []
    while True:
        token = _token(cur, place)
        if token == "eof":
            if place != "end":
                raise _Stop(f"invalid end of input {cur.at()}")
            return
        if place in ("before name", "after name") and token != "}":
            place = "after name" if place == "before name" else "before value"
            continue
        if token in ("{", "["):
            open_.append(token)
            place = "before name" if token == "{" else "before item"
            continue
        if token == ",":
            place = "before name" if open_[-1] == "{" else "before item"
            continue
        if token in ("}", "]"):
            open_.pop()
        place = "end" if not open_ else "after value" if open_[-1] == "{" else "after item"


def json5_failure(text: str) -> str | None:
    """The message of npm json5's error when it rejects `text` (`JSON5: invalid character '@' at 2:12`),
    or None when it accepts it."""
    cur = _Cursor(text)
    try:
        _walk(cur)
    except _Stop as stop:
        return f"JSON5: {stop}"
    return None

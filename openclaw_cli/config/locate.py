"""The line of the config text where a value sits, found by its path as OpenClaw 2026.9.6 finds it.

A tolerant scan of the JSON5 text (comments, quoted or bare keys, trailing commas): object keys are
followed down the path (the last of duplicate keys wins), array elements counted; a path that
leaves the text (a key that is absent, a value from an `$include`d file) has no line.
"""

from __future__ import annotations

import re
from typing import Any

from openclaw_cli.js.strings import js_trim

_SPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")  # JS `\s`
_LINE_BREAK = "\n\r\u2028\u2029"


class _Scan:
    """A cursor over the text."""

    def __init__(self, raw: str, pos: int = 0):
        self.raw, self.pos = raw, pos

    def at(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.raw[index] if index < len(self.raw) else ""

    def done(self) -> bool:
        return self.pos >= len(self.raw)

    def skip_trivia(self) -> None:
        raw = self.raw
        while not self.done():
            char = raw[self.pos]
            if _SPACE.match(char):
                self.pos += 1
            elif char == "/" and self.at(1) == "/":
                self.pos += 2
                while not self.done() and raw[self.pos] not in _LINE_BREAK:
                    self.pos += 1
            elif char == "/" and self.at(1) == "*":
                close = raw.find("*/", self.pos + 2)
                self.pos = len(raw) if close < 0 else close + 2
            else:
                return

    def consume(self, expected: str) -> bool:
        self.skip_trivia()
        if self.at() != expected:
            return False
        self.pos += 1
        return True

    def skip_quoted(self) -> None:
        quote = self.raw[self.pos]
        self.pos += 1
        while not self.done():
            char = self.raw[self.pos]
            self.pos += 1
            if char == "\\":
                self.pos += 1
            elif char == quote:
                return

    def _bare_end(self) -> bool:
        char = self.at()
        return char == "/" and self.at(1) in ("/", "*")

    def read_key(self) -> str | None:
        self.skip_trivia()
        start, char = self.pos, self.at()
        if char in ('"', "'"):
            self.skip_quoted()
        else:
            while not self.done() and not _SPACE.match(self.at()) and self.at() != ":" and not self._bare_end():
                self.pos += 1
        if self.pos == start:
            return None
        token = self.raw[start:self.pos]
        from openclaw_cli.config.json5 import parse_json5

        try:
            if char in ('"', "'"):
                value = parse_json5(token)
                return value if isinstance(value, str) else None
            parsed = parse_json5("{" + token + ":null}")
        except ValueError:
            return None
        return next(iter(parsed), None) if isinstance(parsed, dict) else None

    def skip_value(self) -> None:
        self.skip_trivia()
        char = self.at()
        if char in ('"', "'"):
            self.skip_quoted()
            return
        if char in ("{", "["):
            close = "}" if char == "{" else "]"
            self.pos += 1
            while not self.done():
                self.skip_trivia()
                if self.at() == close:
                    self.pos += 1
                    return
                if char == "{" and (self.read_key() is None or not self.consume(":")):
                    return
                self.skip_value()
                self.skip_trivia()
                if self.at() == ",":
                    self.pos += 1
            return
        while not self.done() and self.at() not in ",}]" and not _SPACE.match(self.at()) and not self._bare_end():
            self.pos += 1


def _value_offset(scan: _Scan, segments: tuple, depth: int) -> int | None:
    segment, leaf = segments[depth], depth == len(segments) - 1
    if isinstance(segment, int):
        if not scan.consume("["):
            return None
        index = 0
        while not scan.done():
            scan.skip_trivia()
            if scan.at() == "]":
                return None
            if index == segment:
                return scan.pos if leaf else _value_offset(scan, segments, depth + 1)
            scan.skip_value()
            if not scan.consume(","):
                return None
            index += 1
        return None
    if not scan.consume("{"):
        return None
    found: int | None = None
    while not scan.done():
        scan.skip_trivia()
        if scan.at() == "}":
            return found
        key = scan.read_key()
        if key is None or not scan.consume(":"):
            return None
        scan.skip_trivia()
        start = scan.pos
        if key == segment:
            found = start if leaf else _value_offset(_Scan(scan.raw, start), segments, depth + 1)
        scan.pos = start
        scan.skip_value()
        scan.skip_trivia()
        if scan.at() != ",":
            return found
        scan.pos += 1
    return found


def _line_at(raw: str, offset: int) -> int:
    line, index = 1, 0
    while index < offset:
        char = raw[index]
        if char == "\r":
            line += 1
            if index + 1 < len(raw) and raw[index + 1] == "\n":
                index += 1
        elif char in "\n\u2028\u2029":
            line += 1
        index += 1
    return line


def value_line(raw: str, segments: tuple[Any, ...]) -> int | None:
    """The 1-based line where the value at `segments` starts in `raw` (None when it is not there)."""
    if not segments or not js_trim(raw):
        return None
    offset = _value_offset(_Scan(raw), tuple(segments), 0)
    return None if offset is None else _line_at(raw, offset)

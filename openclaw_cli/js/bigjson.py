"""A large JSON object read piece by piece, with equal long strings kept once (as JSON.parse reads it)."""

from __future__ import annotations

import hashlib
import re
from typing import Any, BinaryIO

from openclaw_cli.js import json as jsjson

PIECEWISE_MIN_BYTES = 16 * 1024 * 1024
"""Smaller texts are parsed in one go: holding them twice costs little."""
PIECE_BYTES = 4 * 1024 * 1024

_LEADING_WS = re.compile(rb"[ \t\r\n]*")
# A member of the top-level object as JSON.stringify(value, null, 2) writes it: a line that starts with
# two spaces and a key. A newline never occurs inside a JSON string, so such a line is structural.
_MEMBER_START = b'\n  "'
_JSON_WS = frozenset(b" \t\r\n")
_COMMA = ord(",")


def loads_object(data: bytes) -> Any:
    """`jsjson.loads(data)`, the same value and the same errors, in bounded extra memory for a large
    pretty-printed object: its members are parsed a few megabytes at a time, and where members are
    large, each long string that occurs again is the first occurrence's object. Anything else is
    parsed in one go."""
    if type(data) is not bytes or len(data) < PIECEWISE_MIN_BYTES:
        return jsjson.loads(data)
    start = _LEADING_WS.match(data).end()  # type: ignore[union-attr]  # matches the empty string at least
    if data[start:start + 1] != b"{":
        return jsjson.loads(data)
    try:
        reader = _PieceReader()
        reader.feed(data)
        return reader.finish()
    except ValueError:  # not pretty-printed as assumed, or invalid: the one-go parse says which
        return jsjson.loads(data)


def load_object_file(fh: BinaryIO, digest: bool) -> tuple[dict, int, bytes | None] | None:
    """A large pretty-printed object read from `fh` a piece at a time (the whole text is never held):
    (the value `loads_object` gives, the bytes read, their SHA-256 when `digest`). None when the text
    is not such an object or does not parse: then it is to be read whole, which says why."""
    sha = hashlib.sha256() if digest else None
    size = 0
    reader = _PieceReader()
    try:
        while block := fh.read(PIECE_BYTES):
            if sha is not None:
                sha.update(block)
            size += len(block)
            reader.feed(block)
        return reader.finish(), size, None if sha is None else sha.digest()
    except ValueError:
        return None


class _PieceReader:
    """The members of a pretty-printed object, parsed a piece of about PIECE_BYTES at a time as its text
    arrives (cut where a member line starts); equal long strings of all pieces kept once."""

    def __init__(self) -> None:
        self._buf = b""
        self._pos = 0  # where the unparsed members start in _buf
        self._opened = False  # the object's `{` has been read
        self._shared: dict[str, str] = {}
        self._out: dict = {}

    def feed(self, block: bytes) -> None:
        self._buf = bytes(memoryview(self._buf)[self._pos:]) + block if self._pos < len(self._buf) else block
        self._pos = 0
        if not self._opened:
            start = _LEADING_WS.match(self._buf).end()  # type: ignore[union-attr]
            if start == len(self._buf):
                self._pos = start  # only whitespace so far
                return
            if self._buf[start:start + 1] != b"{":
                raise ValueError("not an object")
            self._pos, self._opened = start + 1, True
        while (cut := self._buf.find(_MEMBER_START, self._pos + PIECE_BYTES)) >= 0:
            end = cut
            while self._buf[end - 1] in _JSON_WS:
                end -= 1
            if self._buf[end - 1] != _COMMA:
                raise ValueError("not a member boundary")
            self._parse(end - 1, b"}")
            self._pos = cut + 1

    def finish(self) -> dict:
        if not self._opened:
            raise ValueError("not an object")
        self._parse(len(self._buf), b"")
        return jsjson.js_ordered(self._out)

    def _parse(self, end: int, closing: bytes) -> None:
        text = bytearray(b"{")
        text += memoryview(self._buf)[self._pos:end]
        text += closing
        piece = jsjson.loads(text, self._shared)  # long strings kept once: skill prompts repeat per session
        if type(piece) is not dict:
            raise ValueError("not an object")
        self._out.update(piece)  # a later duplicate wins in the first one's place, as JSON.parse keeps it

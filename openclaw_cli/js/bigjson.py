"""A large JSON object read piece by piece, with equal long strings kept once (as JSON.parse reads it)."""

from __future__ import annotations

import re
from typing import Any

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
        return _loads_pieces(data, start + 1)
    except ValueError:  # not pretty-printed as assumed, or invalid: the one-go parse says which
        return jsjson.loads(data)


def _loads_pieces(data: bytes, begin: int) -> dict:
    shared: dict[str, str] = {}
    out: dict = {}
    view = memoryview(data)
    while True:
        cut = data.find(_MEMBER_START, begin + PIECE_BYTES)
        text = bytearray(b"{")
        if cut < 0:
            text += view[begin:]
        else:
            end = cut
            while data[end - 1] in _JSON_WS:
                end -= 1
            if data[end - 1] != _COMMA:
                raise ValueError("not a member boundary")
            text += view[begin:end - 1]
            text += b"}"
        piece = jsjson.loads(text, shared)  # long strings kept once: skill prompts repeat per session
        if type(piece) is not dict:
            raise ValueError("not an object")
        out.update(piece)  # a later duplicate wins in the first one's place, as JSON.parse keeps it
        if cut < 0:
            break
        begin = cut + 1
    return jsjson.js_ordered(out)

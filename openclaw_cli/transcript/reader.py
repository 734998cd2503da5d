"""Stream a JSONL transcript line by line in bounded memory, with byte offsets."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from openclaw_cli.js.strings import js_trim

CHUNK_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class RawLine:
    """One physical line: where it starts, its byte length (no terminator) and trimmed text."""

    offset: int
    length: int
    text: str


def iter_raw_lines(path: str | Path, *, split_cr: bool = False,
                   chunk_bytes: int = CHUNK_BYTES) -> Iterator[RawLine]:
    """Yield the non-blank lines of a file, trimmed as JavaScript trims.

    Lines end at `\\n`; with `split_cr` a lone `\\r` ends a line too (Node readline). Memory
    stays at one chunk plus the longest line. Invalid UTF-8 decodes to U+FFFD as Node does.
    """
    from openclaw_cli.ui import progress

    with open(path, "rb") as handle, progress.reading(f"Reading {Path(path).name}",
                                                      os.fstat(handle.fileno()).st_size) as advance:
        carry = b""
        carry_offset = 0
        while True:
            chunk = handle.read(chunk_bytes)
            if not chunk:
                break
            advance(len(chunk))
            data = carry + chunk if carry else chunk
            start = 0
            while True:
                end = data.find(b"\n", start)
                if end < 0:
                    break
                yield from _emit(data[start:end], carry_offset + start, split_cr)
                start = end + 1
            carry_offset += start
            carry = data[start:]
        if carry:
            yield from _emit(carry, carry_offset, split_cr)


def _emit(raw: bytes, offset: int, split_cr: bool) -> Iterator[RawLine]:
    if split_cr and b"\r" in raw:
        pos = 0
        for part in raw.split(b"\r"):
            yield from _emit(part, offset + pos, False)
            pos += len(part) + 1
        return
    text = js_trim(raw.decode("utf-8", "replace"))
    if text:
        yield RawLine(offset, len(raw), text)


def read_line_at(path: str | Path, offset: int, length: int) -> str:
    """The text of one line given its offset and byte length."""
    with open(path, "rb") as handle:
        handle.seek(offset)
        return handle.read(length).decode("utf-8", "replace")

"""A transcript's physical lines in bounded memory: numbers, offsets, UTF-8 validity, oversized lines."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

MAX_LINE_BYTES = 8 * 1024 * 1024  # a line longer than this is never held in memory
HEAD_BYTES = 4096  # what is kept of an oversized line (its type, id and parentId come first)
CHUNK_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class Line:
    """One physical line (1-based number); `data` is the line without `\\r?\\n`, or only its head
    when `oversized`."""

    number: int
    offset: int
    length: int
    data: bytes
    oversized: bool
    tail: bytes = b""  # the last HEAD_BYTES of an oversized line

    @property
    def blank(self) -> bool:
        return not self.oversized and not self.data.strip()


def iter_lines(path: str, *, max_bytes: int = MAX_LINE_BYTES, chunk_bytes: int = CHUNK_BYTES) -> Iterator[Line]:
    """Every line of the file, blank ones included, split at `\\n` (a `\\r` before it dropped)."""
    with open(path, "rb") as handle:
        number = 0
        offset = 0
        buf = bytearray()
        tail = b""
        size = 0  # bytes of the current line seen so far (buf holds at most max_bytes of them)
        while True:
            chunk = handle.read(chunk_bytes)
            if not chunk:
                break
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                piece = chunk[start:] if end < 0 else chunk[start:end]
                if size + len(piece) <= max_bytes:
                    buf += piece
                elif size <= max_bytes:
                    buf = buf[:HEAD_BYTES] if len(buf) >= HEAD_BYTES else buf + piece[:HEAD_BYTES - len(buf)]
                size += len(piece)
                if size > max_bytes:
                    tail = (tail + piece)[-HEAD_BYTES:]
                if end < 0:
                    break
                number += 1
                yield _line(number, offset, size, buf, max_bytes, tail)
                offset += size + 1
                buf = bytearray()
                tail = b""
                size = 0
                start = end + 1
        if size or buf:
            number += 1
            yield _line(number, offset, size, buf, max_bytes, tail)


def _line(number: int, offset: int, size: int, buf: bytearray, max_bytes: int, tail: bytes) -> Line:
    data = bytes(buf)
    length = size
    if size <= max_bytes and data.endswith(b"\r"):
        data = data[:-1]
        length -= 1
    if size > max_bytes:
        return Line(number, offset, length, data[:HEAD_BYTES], True, tail.rstrip(b"\r"))
    return Line(number, offset, length, data, False)

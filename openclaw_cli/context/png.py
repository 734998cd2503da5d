"""A small RGBA canvas with a 5x7 bitmap font, written out as PNG with zlib and struct only."""

from __future__ import annotations

import struct
import zlib

# 5x7 glyphs, one 5-bit row per entry (bit 4 = leftmost pixel). Lower case draws as upper case.
FONT: dict[str, tuple[int, ...]] = {
    "A": (14, 17, 17, 31, 17, 17, 17), "B": (30, 17, 17, 30, 17, 17, 30), "C": (14, 17, 16, 16, 16, 17, 14),
    "D": (30, 17, 17, 17, 17, 17, 30), "E": (31, 16, 16, 30, 16, 16, 31), "F": (31, 16, 16, 30, 16, 16, 16),
    "G": (14, 17, 16, 23, 17, 17, 15), "H": (17, 17, 17, 31, 17, 17, 17), "I": (14, 4, 4, 4, 4, 4, 14),
    "J": (7, 2, 2, 2, 2, 18, 12), "K": (17, 18, 20, 24, 20, 18, 17), "L": (16, 16, 16, 16, 16, 16, 31),
    "M": (17, 27, 21, 21, 17, 17, 17), "N": (17, 17, 25, 21, 19, 17, 17), "O": (14, 17, 17, 17, 17, 17, 14),
    "P": (30, 17, 17, 30, 16, 16, 16), "Q": (14, 17, 17, 17, 21, 18, 13), "R": (30, 17, 17, 30, 20, 18, 17),
    "S": (15, 16, 16, 14, 1, 1, 30), "T": (31, 4, 4, 4, 4, 4, 4), "U": (17, 17, 17, 17, 17, 17, 14),
    "V": (17, 17, 17, 17, 17, 10, 4), "W": (17, 17, 17, 21, 21, 21, 10), "X": (17, 17, 10, 4, 10, 17, 17),
    "Y": (17, 17, 10, 4, 4, 4, 4), "Z": (31, 1, 2, 4, 8, 16, 31),
    "0": (14, 17, 19, 21, 25, 17, 14), "1": (4, 12, 4, 4, 4, 4, 14), "2": (14, 17, 1, 2, 4, 8, 31),
    "3": (31, 2, 4, 2, 1, 17, 14), "4": (2, 6, 10, 18, 31, 2, 2), "5": (31, 16, 30, 1, 1, 17, 14),
    "6": (6, 8, 16, 30, 17, 17, 14), "7": (31, 1, 2, 4, 8, 8, 8), "8": (14, 17, 17, 14, 17, 17, 14),
    "9": (14, 17, 17, 15, 1, 2, 12),
    " ": (0, 0, 0, 0, 0, 0, 0), ".": (0, 0, 0, 0, 0, 12, 12), ",": (0, 0, 0, 0, 12, 4, 8),
    ":": (0, 12, 12, 0, 12, 12, 0), "-": (0, 0, 0, 31, 0, 0, 0), "_": (0, 0, 0, 0, 0, 0, 31),
    "/": (1, 1, 2, 4, 8, 16, 16), "(": (2, 4, 8, 8, 8, 4, 2), ")": (8, 4, 2, 2, 2, 4, 8),
    "~": (0, 0, 8, 21, 2, 0, 0), "+": (0, 4, 4, 31, 4, 4, 0), "%": (24, 25, 2, 4, 8, 19, 3),
    "!": (4, 4, 4, 4, 4, 0, 4), "?": (14, 17, 1, 2, 4, 0, 4), "'": (4, 4, 8, 0, 0, 0, 0),
    "=": (0, 0, 31, 0, 31, 0, 0), "<": (2, 4, 8, 16, 8, 4, 2), ">": (8, 4, 2, 1, 2, 4, 8),
    "[": (14, 8, 8, 8, 8, 8, 14), "]": (14, 2, 2, 2, 2, 2, 14), "#": (10, 10, 31, 10, 31, 10, 10),
    "*": (0, 4, 21, 14, 21, 4, 0), "|": (4, 4, 4, 4, 4, 4, 4), "…": (0, 0, 0, 0, 0, 0, 21),
}
GLYPH_W, GLYPH_H = 5, 7


class Canvas:
    """Width x height RGBA pixels, filled with `background`."""

    def __init__(self, width: int, height: int, background: tuple[int, int, int] = (255, 255, 255)):
        self.width, self.height = width, height
        self.pixels = bytearray(bytes((*background, 255)) * (width * height))

    def fill(self, x0: int, y0: int, x1: int, y1: int, color: tuple[int, int, int]) -> None:
        """Fill [x0, x1) x [y0, y1), clipped to the canvas."""
        x0, x1 = max(0, x0), min(self.width, x1)
        y0, y1 = max(0, y0), min(self.height, y1)
        if x1 <= x0 or y1 <= y0:
            return
        row = bytes((*color, 255)) * (x1 - x0)
        stride = self.width * 4
        for y in range(y0, y1):
            start = y * stride + x0 * 4
            self.pixels[start:start + len(row)] = row

    def pixel(self, x: int, y: int) -> tuple[int, int, int, int]:
        i = (y * self.width + x) * 4
        return tuple(self.pixels[i:i + 4])  # type: ignore[return-value]

    def text(self, x: int, y: int, text: str, color: tuple[int, int, int], scale: int = 1,
             max_width: int | None = None) -> int:
        """Draw `text` (upper-cased) with the 5x7 font; stops before `max_width`. Returns the width."""
        advance = (GLYPH_W + 1) * scale
        drawn = 0
        for ch in text.upper():
            if max_width is not None and drawn + GLYPH_W * scale > max_width:
                break
            rows = FONT.get(ch, FONT["?"])
            for r, bits in enumerate(rows):
                for c in range(GLYPH_W):
                    if bits & (1 << (GLYPH_W - 1 - c)):
                        px, py = x + drawn + c * scale, y + r * scale
                        self.fill(px, py, px + scale, py + scale, color)
            drawn += advance
        return drawn

    @staticmethod
    def text_width(text: str, scale: int = 1) -> int:
        return len(text) * (GLYPH_W + 1) * scale

    def to_png(self) -> bytes:
        stride = self.width * 4
        raw = b"".join(b"\x00" + bytes(self.pixels[y * stride:(y + 1) * stride]) for y in range(self.height))
        return encode_png(self.width, self.height, raw)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(width: int, height: int, filtered_rows: bytes) -> bytes:
    """A PNG of 8-bit RGBA pixels from rows that already carry their filter byte."""
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(filtered_rows, 6)) + _chunk(b"IEND", b""))


def decode_png(data: bytes) -> tuple[int, int, bytearray]:
    """Read back a PNG written by `encode_png` (RGBA, filter 0): (width, height, pixels)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, width, height, idat = 8, 0, 0, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 4
    pixels = bytearray()
    for y in range(height):
        row = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        if row[0] != 0:
            raise ValueError("only filter type 0 is supported")
        pixels += row[1:]
    return width, height, pixels

"""The treemap's typeface: Aileron Regular, the TrueType font Pillow ships, with its measures."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

FAMILY = "Aileron"


@lru_cache(maxsize=16)
def font(size: int) -> Any:
    """Pillow's bundled Aileron Regular at `size` pixels."""
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def font_bytes() -> bytes:
    """The TrueType file itself (embedded in the SVG so it draws with the same letters as the PNG)."""
    return bytes(font(12).font_bytes)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> float:
    """Advance width of `text` at `size` pixels."""
    return float(font(size).getlength(text))


def ascent(size: int) -> int:
    return int(font(size).getmetrics()[0])

"""The treemap scene written as SVG: the same boxes and text as the PNG, with the same font embedded."""

from __future__ import annotations

import base64
from html import escape

from openclaw_cli.context.font import FAMILY, font_bytes, text_width
from openclaw_cli.context.scene import Scene


def _rgb(c: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % c


def render(scene: Scene) -> str:
    """An SVG document of `scene`; tiles carry a tooltip and `data-leaf`, their labels the same `data-leaf`.
    Each text is given the length it has in the embedded font, so a viewer that falls back to another
    font keeps it the same width; a label is also clipped to its tile."""
    face = base64.b64encode(font_bytes()).decode("ascii")
    bg = _rgb(scene.background)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
             f'viewBox="0 0 {scene.width} {scene.height}" font-family="{FAMILY}, sans-serif">',
             f'<style>@font-face {{ font-family: "{FAMILY}"; src: url(data:font/ttf;base64,{face}) '
             'format("truetype"); }</style>',
             f'<rect width="{scene.width}" height="{scene.height}" fill="{bg}"/>']
    clipped = {text.tile for text in scene.texts if text.tile is not None}
    for index, box in enumerate(scene.boxes):
        if index in clipped:
            parts.append(f'<clipPath id="tile{index}"><rect x="{box.x:.2f}" y="{box.y:.2f}" width="{box.w:.2f}" '
                         f'height="{box.h:.2f}"/></clipPath>')
        if box.leaf is None:
            parts.append(f'<rect x="{box.x:.2f}" y="{box.y:.2f}" width="{box.w:.2f}" height="{box.h:.2f}" '
                         f'fill="{_rgb(box.fill)}"/>')
            continue
        parts.append(f'<rect class="tile" data-leaf="{escape(box.leaf)}" x="{box.x:.2f}" y="{box.y:.2f}" '
                     f'width="{box.w:.2f}" height="{box.h:.2f}" fill="{_rgb(box.fill)}" stroke="{bg}" '
                     f'stroke-width="1"><title>{escape(box.title)}</title></rect>')
    for text in scene.texts:
        leaf = f' class="label" data-leaf="{escape(text.leaf)}"' if text.leaf is not None else ""
        anchor = ' text-anchor="end"' if text.end else ""
        if text.tile is not None:
            anchor += f' clip-path="url(#tile{text.tile})"'
        length = text_width(text.text, text.size)
        parts.append(f'<text{leaf}{anchor} x="{text.x:.2f}" y="{text.y:.2f}" font-size="{text.size}" '
                     f'textLength="{length:.2f}" lengthAdjust="spacingAndGlyphs" '
                     f'fill="{_rgb(text.fill)}">{escape(text.text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"

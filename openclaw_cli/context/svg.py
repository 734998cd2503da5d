"""The treemap scene written as SVG: the same boxes and text as the PNG, with the same font embedded."""

from __future__ import annotations

import base64
from html import escape

from openclaw_cli.context.font import FAMILY, font_bytes
from openclaw_cli.context.scene import Scene


def _rgb(c: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % c


def render(scene: Scene) -> str:
    """An SVG document of `scene`; tiles carry a tooltip and `data-leaf`, their labels the same `data-leaf`."""
    face = base64.b64encode(font_bytes()).decode("ascii")
    bg = _rgb(scene.background)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
             f'viewBox="0 0 {scene.width} {scene.height}" font-family="{FAMILY}, sans-serif">',
             f'<style>@font-face {{ font-family: "{FAMILY}"; src: url(data:font/ttf;base64,{face}) '
             'format("truetype"); }</style>',
             f'<rect width="{scene.width}" height="{scene.height}" fill="{bg}"/>']
    for box in scene.boxes:
        if box.leaf is None:
            parts.append(f'<rect x="{box.x:.2f}" y="{box.y:.2f}" width="{box.w:.2f}" height="{box.h:.2f}" '
                         f'fill="{_rgb(box.fill)}"/>')
            continue
        parts.append(f'<rect class="tile" data-leaf="{escape(box.leaf)}" x="{box.x:.2f}" y="{box.y:.2f}" '
                     f'width="{box.w:.2f}" height="{box.h:.2f}" fill="{_rgb(box.fill)}" stroke="{bg}" '
                     f'stroke-width="1"><title>{escape(box.title)}</title></rect>')
    for text in scene.texts:
        leaf = f' class="label" data-leaf="{escape(text.leaf)}"' if text.leaf is not None else ""
        parts.append(f'<text{leaf} x="{text.x:.2f}" y="{text.y:.2f}" font-size="{text.size}" '
                     f'fill="{_rgb(text.fill)}">{escape(text.text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"

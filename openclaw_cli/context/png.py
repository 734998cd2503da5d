"""The treemap scene painted as a PNG with Pillow (tiles, legend swatches and Aileron text)."""

from __future__ import annotations

import io

from openclaw_cli.context.font import font
from openclaw_cli.context.scene import Scene


def _edges(x: float, y: float, w: float, h: float) -> tuple[int, int, int, int]:
    return round(x), round(y), round(x + w), round(y + h)


def render(scene: Scene) -> bytes:
    """PNG bytes of `scene`: tiles keep a one-pixel gap of background between them."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (scene.width, scene.height), scene.background)
    draw = ImageDraw.Draw(image)
    for box in scene.boxes:
        x0, y0, x1, y1 = _edges(box.x, box.y, box.w, box.h)
        inset = 1 if box.leaf is not None else 0
        if x1 - x0 - 2 * inset >= 1 and y1 - y0 - 2 * inset >= 1:
            draw.rectangle((x0 + inset, y0 + inset, x1 - 1 - inset, y1 - 1 - inset), fill=box.fill)
    for text in scene.texts:
        draw.text((text.x, text.y), text.text, fill=text.fill, font=font(text.size), anchor="rs" if text.end else "ls")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()

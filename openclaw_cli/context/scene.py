"""The treemap picture, drawn once as boxes and text: the PNG and the SVG both paint this scene."""

from __future__ import annotations

from dataclasses import dataclass, field

from openclaw_cli.context.font import text_width
from openclaw_cli.context.treemap import GROUP_COLORS, Group, Leaf, Rect, enlarged, layout
from openclaw_cli.context.units import estimate_tokens_from_chars, format_int

RGB = tuple[int, int, int]
WIDTH, HEIGHT = 1280, 860
MARGIN = 16
LEGEND_W = 300
AREA = Rect(MARGIN, 84, WIDTH - 3 * MARGIN - LEGEND_W, HEIGHT - 84 - 48)
BACKGROUND: RGB = (0x1E, 0x22, 0x2A)
INK: RGB = (0xF4, 0xF1, 0xEA)
MUTED: RGB = (0xA9, 0xB1, 0xBD)
DARK_INK: RGB = (0x1B, 0x1B, 0x1B)
PAD = 5
LABEL_SIZES = (15, 13, 11)  # the sizes a tile's name is tried at, largest first
MIN_LABEL = 10  # the smallest size a name is written at
MARKER_SIZE = 10
LEGEND_SIZE = 12
LEGEND_LINE = 17


@dataclass
class Box:
    x: float
    y: float
    w: float
    h: float
    fill: RGB
    title: str = ""
    leaf: str | None = None  # the leaf a treemap tile stands for (None: a legend swatch)


@dataclass
class Text:
    x: float
    y: float  # baseline
    text: str
    size: int
    fill: RGB
    leaf: str | None = None  # the tile this text labels
    end: bool = False  # x is where the text ends (right-aligned), not where it starts
    tile: int | None = None  # index in Scene.boxes of the tile the text sits in (it is clipped to it)


@dataclass
class Scene:
    width: int
    height: int
    background: RGB
    boxes: list[Box] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    unlabelled: list[tuple[str, str, int]] = field(default_factory=list)  # (marker or "", leaf, chars)


def group_color(name: str) -> RGB:
    return GROUP_COLORS.get(name, (0xB0, 0xB0, 0xB0))


def leaf_color(group: Group, index: int) -> RGB:
    """The group's colour, a shade darker for every other neighbour, so adjacent tiles part."""
    factor = 1.0 - 0.08 * (index % 4)
    r, g, b = (max(0, min(255, round(c * factor))) for c in group_color(group.name))
    return (r, g, b)


def ink_on(color: RGB) -> RGB:
    """Dark text on light tiles, light text on dark ones."""
    r, g, b = color
    return DARK_INK if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else INK


def placed_leaves(groups: list[Group], area: Rect = AREA) -> list[tuple[Group, Leaf, Rect, RGB]]:
    out = []
    counters: dict[str, int] = {}
    for group, leaf, rect in layout(groups, area):
        index = counters.get(group.name, 0)
        counters[group.name] = index + 1
        out.append((group, leaf, rect, leaf_color(group, index)))
    return out


def _wrapped(name: str, size: int, room: float) -> list[str] | None:
    """`name` broken after `_`, `-` or spaces into lines no wider than `room` at `size`; None if a piece
    is wider than that or there is no separator to break at."""
    pieces, start = [], 0
    for i, ch in enumerate(name[:-1]):
        if ch in "_- ":
            pieces.append(name[start:i + 1])
            start = i + 1
    pieces.append(name[start:])
    if len(pieces) < 2:
        return None
    lines = [""]
    for piece in pieces:
        if lines[-1] and text_width(lines[-1] + piece, size) > room:
            lines.append("")
        lines[-1] += piece
    lines = [line.rstrip() for line in lines]
    return lines if len(lines) > 1 and all(text_width(line, size) <= room for line in lines) else None


def _lines(parts: list[str], sizes: list[int], rect: Rect, ink: RGB, leaf: str) -> list[Text] | None:
    """`parts` stacked from the top-left of `rect` at `sizes`, or None when they do not all fit."""
    height = sum(size + 3 for size in sizes) + PAD
    if height > rect.h - PAD or any(text_width(p, z) > rect.w - 2 * PAD for p, z in zip(parts, sizes)):
        return None
    out: list[Text] = []
    y = rect.y + PAD
    for part, size in zip(parts, sizes):
        y += size + (3 if out else 0)
        out.append(Text(rect.x + PAD, y, part, size, ink, leaf))
    return out


def _tile_label(leaf: Leaf, rect: Rect, ink: RGB) -> list[Text]:
    """The largest label that fits, in this order of forms: name over value, name and value on one line,
    the name broken after separators over the value, the name alone, the broken name alone."""
    value, name = format_int(leaf.value), leaf.name
    room = rect.w - 2 * PAD

    def broken(size: int) -> list[str]:
        return _wrapped(name, size, room) or []

    forms = [
        [([name, value], [size, max(MIN_LABEL, size - 2)]) for size in LABEL_SIZES],
        [([f"{name} {value}"], [size]) for size in LABEL_SIZES],
        [([*broken(size), value], [size] * len(broken(size)) + [max(MIN_LABEL, size - 2)])
         for size in LABEL_SIZES if broken(size)],
        [([name], [size]) for size in (*LABEL_SIZES, MIN_LABEL)],
        [(broken(size), [size] * len(broken(size))) for size in (*LABEL_SIZES, MIN_LABEL) if broken(size)],
    ]
    for form in forms:
        for parts, sizes in form:
            found = _lines(parts, sizes, rect, ink, name)
            if found:
                return found
    return []


def _marker_fits(marker: str, rect: Rect) -> bool:
    return text_width(marker, MARKER_SIZE) <= rect.w - 4 and rect.h >= MARKER_SIZE + 4


def totals_line(tracked: int, cached: int | None, window: int | None) -> str:
    return (f"Tracked {format_int(tracked)} chars (~{format_int(estimate_tokens_from_chars(tracked))} tok)"
            + (f"  ·  actual cached context {format_int(cached)} tok" if cached is not None
               else "  ·  actual cached context unavailable")
            + (f"  ·  window {format_int(window)} tok" if window else "  ·  window unknown"))


def build(groups: list[Group], subtitle: str, cached: int | None, window: int | None) -> Scene:
    """The whole picture: title, tiles with their labels, the legend and the totals."""
    scene = Scene(WIDTH, HEIGHT, BACKGROUND)
    scene.texts.append(Text(MARGIN, 40, "Context treemap", 26, INK))
    scene.texts.append(Text(MARGIN, 66, subtitle, 15, MUTED))
    for group, leaf, rect, color in placed_leaves(groups):
        scene.boxes.append(Box(rect.x, rect.y, rect.w, rect.h, color,
                               f"{group.name}: {leaf.name}, {format_int(leaf.value)} chars", leaf.name))
        label = _tile_label(leaf, rect, ink_on(color))
        for text in label:
            text.tile = len(scene.boxes) - 1
        if label:
            scene.texts.extend(label)
            continue
        marker = str(len(scene.unlabelled) + 1)
        if _marker_fits(marker, rect):
            scene.texts.append(Text(rect.x + 2, rect.y + 2 + MARKER_SIZE, marker, MARKER_SIZE, ink_on(color),
                                    leaf.name, tile=len(scene.boxes) - 1))
            scene.unlabelled.append((marker, leaf.name, leaf.value))
        else:
            scene.unlabelled.append(("", leaf.name, leaf.value))
    _legend(scene, groups)
    tracked = sum(g.value for g in groups)
    scene.texts.append(Text(MARGIN, HEIGHT - 18, totals_line(tracked, cached, window), 15, INK))
    return scene


def _legend(scene: Scene, groups: list[Group]) -> None:
    x = WIDTH - MARGIN - LEGEND_W
    y = AREA.y + 14
    total = sum(g.value for g in groups) or 1
    lifted = enlarged(groups)
    bottom = AREA.y + AREA.h
    for group in sorted(groups, key=lambda g: -g.value):
        scene.boxes.append(Box(x, y - 11, 12, 12, group_color(group.name)))
        scene.texts.append(Text(x + 18, y, group.name, 15, INK))
        scene.texts.append(Text(x + LEGEND_W, y, f"{group.value / total * 100:.1f}%", 13, INK, end=True))
        y += 17
        detail = f"{format_int(group.value)} chars, {len(group.leaves)} part{'s' if len(group.leaves) != 1 else ''}"
        if group.name in lifted:
            detail += " (drawn larger)"
        scene.texts.append(Text(x + 18, y, detail, 12, MUTED))
        y += 22
    if not scene.unlabelled:
        return
    y += 6
    scene.texts.append(Text(x, y, "Not labelled in the map", 15, INK))
    y += LEGEND_LINE + 2
    color_of = {leaf.name: c for _g, leaf, _r, c in placed_leaves(groups)}
    rows = (bottom - y) // LEGEND_LINE
    rows = int(rows)
    shown = scene.unlabelled if len(scene.unlabelled) <= rows else scene.unlabelled[:max(0, rows - 1)]
    for marker, name, value in shown:
        scene.boxes.append(Box(x, y - 10, 10, 10, color_of.get(name, MUTED)))
        lead = f"{marker}  " if marker else ""
        value_text = format_int(value)
        room = LEGEND_W - 18 - text_width(value_text, LEGEND_SIZE) - 8
        scene.texts.append(Text(x + 16, y, _cut(lead + name, LEGEND_SIZE, room), LEGEND_SIZE, INK))
        scene.texts.append(Text(x + LEGEND_W, y, value_text, LEGEND_SIZE, MUTED, end=True))
        y += LEGEND_LINE
    rest = scene.unlabelled[len(shown):]
    if rest:
        scene.texts.append(Text(x + 16, y, f"… and {len(rest)} more ({format_int(sum(v for *_x, v in rest))} chars)",
                                LEGEND_SIZE, MUTED))


def _cut(text: str, size: int, room: float) -> str:
    if text_width(text, size) <= room:
        return text
    while text and text_width(text + "…", size) > room:
        text = text[:-1]
    return text + "…"

"""The treemap at a terminal: coloured blocks with labels fitted to the window, or, piped, a plain list."""

from __future__ import annotations

import re
from typing import Any

from openclaw_cli.context.scene import group_color, ink_on, placed_leaves
from openclaw_cli.context.treemap import Group, Rect, enlarged
from openclaw_cli.context.units import estimate_tokens_from_chars, format_int
from openclaw_cli.ui.fit import end_cut, pad, width_of

PLAIN_WIDTH = 80
SHADES = "▒░▓·╱"  # tile fill per group when colour is off


def map_rows(columns: int, lines: int | None) -> int:
    """Rows of blocks for a window `columns` wide (and `lines` tall when known)."""
    rows = max(8, min(32, round(columns / 3.5)))
    if lines and lines - 12 >= 8:
        rows = min(rows, lines - 12)
    return rows


def tiles(groups: list[Group], columns: int, rows: int) -> list[tuple[Group, str, int, int, int, int, int, tuple]]:
    """(group, leaf name, value, col0, row0, col1, row1, colour): the layout on a grid of cells, a cell
    counted twice as tall as wide; a leaf whose cells round to nothing has col1 <= col0 or row1 <= row0."""
    out = []
    for group, leaf, rect, color in placed_leaves(groups, Rect(0, 0, columns, rows * 2)):
        c0, c1 = round(rect.x), round(rect.x + rect.w)
        r0, r1 = round(rect.y / 2), round((rect.y + rect.h) / 2)
        out.append((group, leaf.name, leaf.value, c0, r0, c1, r1, color))
    return out


def draw(groups: list[Group], columns: int, rows: int, color: bool) -> tuple[list[Any], list[tuple[str, int]]]:
    """Rich Text lines of the map, and the (leaf, chars) left without a label."""
    from rich.style import Style
    from rich.text import Text

    grid: list[list[tuple[str, Style | None]]] = [[(" ", None)] * columns for _ in range(rows)]
    order = {g.name: i for i, g in enumerate(sorted(groups, key=lambda g: -g.value))}
    unlabelled: list[tuple[str, int]] = []
    owner: list[list[tuple[str, int] | None]] = [[None] * columns for _ in range(rows)]
    for group, name, value, c0, r0, c1, r1, _rgb in tiles(groups, columns, rows):
        if c1 <= c0 or r1 <= r0:
            unlabelled.append((name, value))
            continue
        shade = _free_shade(owner, group.name, c0, r0, c1, r1)
        for r in range(r0, r1):
            for c in range(c0, c1):
                owner[r][c] = (group.name, shade)
        rgb = _shaded(group_color(group.name), shade)
        style = Style(bgcolor=f"rgb({rgb[0]},{rgb[1]},{rgb[2]})", color=_hex(ink_on(rgb))) if color else None
        fill = " " if color else SHADES[order[group.name] % len(SHADES)]
        for r in range(r0, r1):
            for c in range(c0, c1):
                grid[r][c] = (fill, style)
        room, height = c1 - c0 - 1, r1 - r0
        if room < min(len(name), 3):
            unlabelled.append((name, value))
            continue
        shown = name_lines(name, room, height)
        if shown is None:
            shown = [end_cut(name, room)]
            unlabelled.append((name, value))
        for i, part in enumerate(shown):
            _put(grid, r0 + i, c0 + 1, part, style)
        if height > len(shown) and width_of(format_int(value)) <= room:
            _put(grid, r0 + len(shown), c0 + 1, format_int(value), style)
    lines: list[Any] = []
    for row in grid:
        text = Text(no_wrap=True, overflow="crop")
        run, run_style = "", row[0][1]
        for ch, style in row:  # one span per run of cells in the same style
            if style != run_style:
                text.append(run, run_style or "")
                run, run_style = "", style
            run += ch
        text.append(run, run_style or "")
        lines.append(text)
    return lines, unlabelled


def _free_shade(owner: list, group: str, c0: int, r0: int, c1: int, r1: int) -> int:
    """A shade (0-3) no neighbour of the same group already has, so touching tiles stay apart."""
    rows, columns = len(owner), len(owner[0])
    border = [(r, c) for c in range(c0, c1) for r in (r0 - 1, r1)] + [(r, c) for r in range(r0, r1) for c in (c0 - 1, c1)]
    taken = {owner[r][c][1] for r, c in border if 0 <= r < rows and 0 <= c < columns
             and owner[r][c] is not None and owner[r][c][0] == group}
    return next((shade for shade in range(4) if shade not in taken), 0)


def _shaded(rgb: tuple[int, int, int], shade: int) -> tuple[int, int, int]:
    r, g, b = (max(0, min(255, round(c * (1.0 - 0.1 * shade)))) for c in rgb)
    return (r, g, b)


def name_lines(name: str, room: int, height: int) -> list[str] | None:
    """`name` whole on at most `height` lines of `room` columns, on one line or broken after `_`, `-` or
    spaces (a separator at a line's end may hang past it); None when it does not fit."""
    if width_of(name) <= room:
        return [name]
    lines = [""]
    for piece in re.findall(r"[^_\- ]+[_\- ]*", name):
        if lines[-1] and width_of((lines[-1] + piece).rstrip("_- ")) > room:
            lines.append("")
        lines[-1] += piece
    lines = [line if width_of(line) <= room else line.rstrip("_- ") for line in lines]
    return lines if 1 < len(lines) <= height and all(width_of(line) <= room for line in lines) else None


def _hex(c: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % c


def _put(grid: list, row: int, col: int, text: str, style: object) -> None:
    for ch in text:  # a wide character takes two cells: the second is left empty
        cells = width_of(ch)
        if cells == 0 or col + cells > len(grid[row]):
            continue
        grid[row][col] = (ch, style)
        if cells == 2:
            grid[row][col + 1] = ("", style)
        col += cells


def legend(groups: list[Group], unlabelled: list[tuple[str, int]], columns: int, color: bool) -> list[object]:
    """Group totals with their colour, then the leaves the map could not name, wrapped to the window."""
    from rich.text import Text

    total = sum(g.value for g in groups) or 1
    lifted = enlarged(groups)
    order = sorted(groups, key=lambda g: -g.value)
    out: list[object] = []
    for i, group in enumerate(order):
        rgb = group_color(group.name)
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append("  " if color else SHADES[i % len(SHADES)] * 2, f"on {_hex(rgb)}" if color else "")
        line.append(f" {group.name}: {format_int(group.value)} chars "
                    f"(~{format_int(estimate_tokens_from_chars(group.value))} tok), {group.value / total * 100:.1f}%"
                    + (" (drawn larger)" if group.name in lifted else ""))
        line.truncate(columns, overflow="ellipsis")
        out.append(line)
    if unlabelled:
        words = [f"{name} {format_int(value)}" for name, value in unlabelled]
        out.extend(Text(line, no_wrap=True) for line in _wrap("Not named in full: ", words, columns))
    return out


def _wrap(lead: str, words: list[str], columns: int) -> list[str]:
    lines, line = [], lead
    for word in words:
        word = end_cut(word, columns - 2)
        piece = word if line == lead else ", " + word
        if width_of(line + piece) + 1 > columns and line != lead:
            lines.append(line + ",")
            line = "  " + word
        else:
            line += piece
    lines.append(line)
    return lines


def plain_list(groups: list[Group], width: int = PLAIN_WIDTH) -> list[str]:
    """Each group with its share, then its leaves largest first: name, chars, share; no line wider than `width`."""
    total = sum(g.value for g in groups) or 1
    out = []
    for group in sorted(groups, key=lambda g: -g.value):
        out.append(end_cut(f"{group.name}: {format_int(group.value)} chars "
                           f"(~{format_int(estimate_tokens_from_chars(group.value))} tok), "
                           f"{group.value / total * 100:.1f}%", width))
        for leaf in sorted(group.leaves, key=lambda item: -item.value):
            numbers = f"{format_int(leaf.value):>9} {leaf.value / total * 100:5.1f}%"
            room = width - 4 - len(numbers) - 1
            out.append(f"    {pad(end_cut(leaf.name, room), room)} {numbers}")
    return out

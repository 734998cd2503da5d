"""Text tables fitted to a terminal's width: display widths, middle and end cuts, column sizing."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from openclaw_cli.ui.width import clusters, text_width

ELLIPSIS = "…"


def terminal_columns(stream) -> int | None:
    """The width of the terminal `stream` writes to (COLUMNS first), None when it is not a terminal."""
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    return max(20, shutil.get_terminal_size((80, 24)).columns)


def width_of(text: str) -> int:
    """Columns the terminal gives `text` (wide characters take two, combining marks none)."""
    return text_width(text)


def _take(graphemes: Sequence[str], width: int) -> list[str]:
    out, used = [], 0
    for g in graphemes:
        w = text_width(g)
        if used + w > width:
            break
        out.append(g)
        used += w
    return out


def end_cut(text: str, width: int) -> str:
    """`text` when it fits in `width` columns, else its start and an ellipsis."""
    if width_of(text) <= width:
        return text
    if width <= 0:
        return ""
    return "".join(_take(clusters(text), width - 1)) + ELLIPSIS


def middle_cut(text: str, width: int) -> str:
    """`text` when it fits in `width` columns, else its start, an ellipsis and its end (both ends kept)."""
    if width_of(text) <= width:
        return text
    if width <= 1:
        return end_cut(text, width)
    graphemes = clusters(text)
    room = width - 1
    head = _take(graphemes, (room + 1) // 2)
    tail = _take(graphemes[::-1], room - sum(text_width(g) for g in head))[::-1]
    return "".join(head) + ELLIPSIS + "".join(tail)


def pad(text: str, width: int) -> str:
    """`text` and the spaces that make it `width` columns wide."""
    return text + " " * max(0, width - width_of(text))


Cut = Callable[[str, int], str]


@dataclass
class Column:
    """One column: its header, how a cell too wide is cut, and how far it may shrink before it goes."""

    header: str
    cut: Cut = end_cut
    minimum: int = 0  # the narrowest it gets; 0: never cut
    drop: int = 0  # drop order when the minimums do not fit (1 first); 0: never dropped
    shrink: int = 1  # shrink order: every column of a lower order is at its minimum before the next shrinks
    width: int = field(default=0, init=False)


def fit(columns: Sequence[Column], rows: Sequence[Sequence[str]], total: int, gap: int = 1) -> list[int]:
    """Indices of the columns shown; sets each column's width so that a line fits `total` columns.

    Columns take their widest cell; then the shrinkable ones give up columns (in their shrink
    order, down to their minimum), then columns are dropped in their drop order."""
    natural = [max([width_of(col.header), *(width_of(r[i]) for r in rows)]) for i, col in enumerate(columns)]
    for col, width in zip(columns, natural):
        col.width = width
    shown = list(range(len(columns)))

    def over() -> int:
        return sum(columns[i].width for i in shown) + gap * (len(shown) - 1) - total

    _shrink(columns, shown, over())
    for order in sorted({c.drop for c in columns if c.drop}):
        if over() <= 0:
            break
        shown = [i for i in shown if columns[i].drop != order]
        for i in shown:
            columns[i].width = natural[i]
        _shrink(columns, shown, over())
    return shown


def _shrink(columns: Sequence[Column], shown: list[int], excess: int) -> None:
    """Shrinkable columns give up one column at a time (in their shrink order, the widest first)
    until `excess` is gone."""
    for order in sorted({columns[i].shrink for i in shown}):
        while excess > 0:
            able = [i for i in shown if columns[i].shrink == order and columns[i].minimum
                    and columns[i].width > columns[i].minimum]
            if not able:
                break
            widest = max(able, key=lambda i: columns[i].width)
            columns[widest].width -= 1
            excess -= 1


def fitted_lines(columns: Sequence[Column], rows: Sequence[Sequence[str]], styles: Sequence[Sequence[str | None]],
                 total: int, style: Callable[[str, str], str], gap: int = 1) -> list[str]:
    """The header and one line per row, cells cut and padded to the fitted widths, styled, never wider
    than `total` columns. Control characters in cells are shown as escapes, never obeyed."""
    from openclaw_cli.ui.console import terminal_safe

    rows = [[terminal_safe(cell) for cell in row] for row in rows]
    shown = fit(columns, rows, total, gap)
    heading = [columns[i].header for i in shown]
    out = [style("heading", _join([end_cut(h, columns[i].width) for h, i in zip(heading, shown)],
                                  [columns[i].width for i in shown], gap, total))]
    for row, row_styles in zip(rows, styles):
        cells = []
        for i in shown:
            cells.append(columns[i].cut(row[i], columns[i].width))
        line = _join(cells, [columns[i].width for i in shown], gap, total, [row_styles[i] for i in shown], style)
        out.append(line)
    return out


def _join(cells: Sequence[str], widths: Sequence[int], gap: int, total: int,
          names: Sequence[str | None] | None = None, style: Callable[[str, str], str] | None = None) -> str:
    """Cells padded to their widths and joined; trailing blanks dropped; cut to `total` as a last resort."""
    last = max((i for i, c in enumerate(cells) if c), default=-1)
    parts: list[str] = []
    used = 0
    for i, cell in enumerate(cells[:last + 1]):
        room = total - used - (gap if parts else 0)
        if room <= 0:
            break
        text = end_cut(cell, min(widths[i], room))
        padding = "" if i == last else " " * max(0, min(widths[i], room) - width_of(text))
        name = names[i] if names else None
        shown = style(name, text) if name and style and text else text
        parts.append(shown + padding)
        used += (gap if len(parts) > 1 else 0) + width_of(text) + len(padding)
    return (" " * gap).join(parts)

"""OpenClaw 2026.9's box-drawn terminal table: column widths fitted to a width, cells wrapped at breaks."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from openclaw_cli.ui.width import clusters, text_width

DEFAULT_WIDTH = 120  # a table's width when stdout is not a terminal
MIN_WIDTH = 60
_BREAK_CHARS = frozenset(" /-_.")
_PLAIN = re.compile(r"[!-~](?:[ -~]*[!-~])?")
_TOKEN_START = re.compile(r"[\s(\"'`:=\[{,]")
_TOKEN_PUNCT = re.compile(r"[)\"'`:,;.\]}]")

Styler = Callable[[str | None, str], str]


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    flex: bool = False


def table_width(stream) -> int:
    """`getTerminalTableWidth`: the terminal's columns (at least 60), else 120."""
    try:
        if stream.isatty():
            return max(MIN_WIDTH, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, OSError, ValueError):
        pass
    return max(MIN_WIDTH, DEFAULT_WIDTH)


class _Wrap:
    """The state of one `wrapLine` pass."""

    def __init__(self, width: int):
        self.width = width
        self.lines: list[str] = []
        self.buf: list[str] = []
        self.visible = 0
        self.last_break: int | None = None
        self.line_out = False
        self.skip_lf = False

    def flush(self, break_at: int | None) -> None:
        left = list(self.buf) if break_at is None or break_at <= 0 else self.buf[:break_at]
        if self.visible > 0 or not self.line_out:
            self.lines.append("".join(left).rstrip())
            self.line_out = True
        del self.buf[:len(left)]
        self.visible = sum(text_width(t) for t in self.buf)
        self.last_break = None

    def accept(self, ch: str) -> None:
        if self.skip_lf and ch == "\n":
            self.skip_lf = False
            return
        if ch in ("\n", "\r", "\r\n"):
            self.skip_lf = ch == "\r"
            self.flush(len(self.buf))
            self.line_out = False
            return
        w = text_width(ch)
        if self.visible + w > self.width and self.visible > 0:
            self.flush(self.last_break)
            if self.visible + w > self.width and self.visible > 0:
                self.flush(None)
        if self.visible == 0 and ch == " ":
            return
        self.buf.append(ch)
        self.visible += w
        self.skip_lf = False
        if ch in _BREAK_CHARS:
            self.last_break = len(self.buf)


def wrap_cell(text: str, width: int) -> list[str]:
    """`wrapLine`: break before a word that would overflow, after a space, `/`, `-`, `_` or `.`;
    a run with no break is cut at the width; leading spaces of a wrapped line are dropped."""
    if width <= 0 or (len(text) <= width and _PLAIN.fullmatch(text)):
        return [text]
    graphemes = clusters(text)
    if not graphemes:
        return [text]
    state = _Wrap(width)
    for grapheme in graphemes:
        state.accept(grapheme.replace("\t", " "))
    if state.visible > 0:
        state.flush(len(state.buf))
    return state.lines or [""]


def replace_home(text: str, home: str | None, prefix: str = "~") -> str:
    """A whole home path (or a path under it) shown as `~`, as OpenClaw's tables show it."""
    if not home:
        return text
    out, cursor = [], 0
    while cursor < len(text):
        index = text.find(home, cursor)
        if index < 0:
            break
        end = index + len(home)
        before = text[index - 1] if index > 0 else None
        after = text[end] if end < len(text) else None
        punct_end = end
        while punct_end < len(text) and _TOKEN_PUNCT.match(text[punct_end]):
            punct_end += 1
        punct_ends = punct_end > end and (punct_end == len(text) or text[punct_end].isspace())
        starts = before is None or bool(_TOKEN_START.match(before))
        if starts and (after is None or after in "/\\" or punct_ends):
            out.append(text[cursor:index] + prefix)
        else:
            out.append(text[cursor:end])
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def _fit(widths: list[int], columns: Sequence[Column], minimums: list[int], width: int) -> None:
    over = sum(widths) + len(columns) + 1 - width
    flex = [i for i, c in enumerate(columns) if c.flex]
    rigid = [i for i, c in enumerate(columns) if not c.flex]
    for indices in (flex, rigid):
        while over > 0:
            widest = None
            for i in indices:
                if widths[i] > minimums[i] and (widest is None or widths[i] > widths[widest]):
                    widest = i
            if widest is None:
                break
            widths[widest] -= 1
            over -= 1
    extra = width - (sum(widths) + len(columns) + 1)
    while extra > 0 and flex:
        share = max(1, extra // len(flex))
        for i in flex:
            amount = min(share, extra)
            widths[i] += amount
            extra -= amount
            if extra <= 0:
                break


def render(columns: Sequence[Column], rows: Sequence[Mapping[str, tuple[str, str | None]]], *, width: int,
           style: Styler, home: str | None = None, home_prefix: str = "~") -> list[str]:
    """The table's lines. Each cell is (text, style name); the header cells take `heading`."""
    cells = [{k: (replace_home(t, home, home_prefix), s) for k, (t, s) in row.items()} for row in rows]
    header_w = [text_width(c.header) for c in columns]
    widths = [max(3, max([header_w[i]] + [text_width(r.get(c.key, ("", None))[0]) for r in cells]) + 2)
              for i, c in enumerate(columns)]
    _fit(widths, columns, [max(3, w + 2) for w in header_w], width)

    def line(left: str, mid: str, right: str) -> str:
        return left + mid.join("─" * w for w in widths) + right

    def row_lines(values: list[tuple[str, str | None]]) -> list[str]:
        wrapped = [wrap_cell(text, max(1, widths[i] - 2)) for i, (text, _s) in enumerate(values)]
        out = []
        for li in range(max(len(w) for w in wrapped)):
            parts = []
            for i, pieces in enumerate(wrapped):
                piece = pieces[li] if li < len(pieces) else ""
                inner = max(1, widths[i] - 2)
                pad = max(0, inner - text_width(piece))
                name = values[i][1]
                shown = style(name, piece) if piece and name else piece
                parts.append(f" {shown}{' ' * pad} ")
            out.append("│" + "│".join(parts) + "│")
        return out

    lines = [line("┌", "┬", "┐")]
    lines += row_lines([(c.header, "heading") for c in columns])
    lines.append(line("├", "┼", "┤"))
    for row in cells:
        lines += row_lines([row.get(c.key, ("", None)) for c in columns])
    lines.append(line("└", "┴", "┘"))
    return lines

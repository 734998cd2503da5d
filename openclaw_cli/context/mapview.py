"""`openclaw context map`: a treemap PNG (1280x860) or SVG, or a coloured proportional terminal view."""

from __future__ import annotations

import os
import shutil
import sys
from html import escape
from typing import TYPE_CHECKING, Any

from openclaw_cli.context.treemap import GROUP_COLORS, Group, Rect, groups_from_report, layout
from openclaw_cli.context.units import estimate_tokens_from_chars, format_int
from openclaw_cli.errors import CliError, UsageError
from openclaw_cli.ui.console import ansi_background

if TYPE_CHECKING:
    from openclaw_cli.context.view import Loaded

WIDTH, HEIGHT = 1280, 860
AREA = Rect(12, 78, WIDTH - 24, HEIGHT - 78 - 44)
BACKGROUND = (0x1E, 0x22, 0x2A)
INK = (0xF4, 0xF1, 0xEA)
DARK_INK = (0x1B, 0x1B, 0x1B)


def leaf_color(group: Group, index: int) -> tuple[int, int, int]:
    base = GROUP_COLORS.get(group.name, (0xB0, 0xB0, 0xB0))
    factor = 1.0 - 0.07 * (index % 5)
    return tuple(max(0, min(255, round(c * factor))) for c in base)  # type: ignore[return-value]


def _cached(loaded: Loaded) -> Any:
    from openclaw_cli.context.render import fresh_total_tokens

    return fresh_total_tokens(loaded.target.entry)


def caption(loaded: Loaded, groups: list[Group]) -> list[str]:
    tracked = sum(g.value for g in groups)
    cached = _cached(loaded)
    lines = ["Context treemap", f"Source: {loaded.report.get('source')}",
             f"Tracked: {format_int(tracked)} chars (~{format_int(estimate_tokens_from_chars(tracked))} tok)",
             f"Actual cached context: {format_int(cached)} tok" if cached is not None
             else "Actual cached context: unavailable"]
    if loaded.report.get("source") == "estimate":
        lines.append("Not included: the rendered system prompt and the live tool schemas (known only to a "
                     "running Gateway).")
    return lines


def placed_leaves(groups: list[Group]) -> list[tuple[Group, Any, Rect, tuple[int, int, int]]]:
    out = []
    counters: dict[str, int] = {}
    for group, leaf, rect in layout(groups, AREA):
        index = counters.get(group.name, 0)
        counters[group.name] = index + 1
        out.append((group, leaf, rect, leaf_color(group, index)))
    return out


def _box(rect: Rect) -> tuple[int, int, int, int]:
    return round(rect.x), round(rect.y), round(rect.x + rect.w), round(rect.y + rect.h)


def render_png(loaded: Loaded, groups: list[Group], window: int | None) -> bytes:
    from openclaw_cli.context.png import Canvas

    canvas = Canvas(WIDTH, HEIGHT, BACKGROUND)
    report = loaded.report
    canvas.text(12, 12, "CONTEXT TREEMAP", INK, scale=3)
    canvas.text(12, 48, f"{str(report.get('source')).upper()} / {report.get('provider') or '?'} / "
                        f"{report.get('model') or '?'}", INK, scale=2)
    for _group, leaf, rect, color in placed_leaves(groups):
        x0, y0, x1, y1 = _box(rect)
        canvas.fill(x0, y0, x1, y1, BACKGROUND)
        canvas.fill(x0 + 1, y0 + 1, x1 - 1, y1 - 1, color)
        label = f"{leaf.name} {format_int(leaf.value)}"
        room_w, room_h = x1 - x0 - 8, y1 - y0 - 8
        for text, scale in ((label, 2), (label, 1), (leaf.name, 1)):
            if room_w >= canvas.text_width(text, scale) - scale and room_h >= 7 * scale:
                canvas.text(x0 + 4, y0 + 4, text, DARK_INK, scale=scale)
                break
    tracked = sum(g.value for g in groups)
    cached = _cached(loaded)
    footer = (f"{format_int(tracked)} CHARS (~{format_int(estimate_tokens_from_chars(tracked))} TOK) / "
              + (f"ACTUAL CTX {format_int(cached)} TOK" if cached is not None else "ACTUAL CTX UNKNOWN") + " / "
              + (f"WINDOW {format_int(window)} TOK" if window else "WINDOW UNKNOWN"))
    canvas.text(12, HEIGHT - 30, footer, INK, scale=2)
    x = WIDTH - 12
    for name in reversed([g.name for g in sorted(groups, key=lambda g: -g.value)]):
        width = canvas.text_width(name, 2)
        x -= width + 22
        canvas.fill(x, 50, x + 12, 62, GROUP_COLORS.get(name, (176, 176, 176)))
        canvas.text(x + 17, 48, name, INK, scale=2)
    return canvas.to_png()


def render_svg(loaded: Loaded, groups: list[Group]) -> str:
    def rgb(c: tuple[int, int, int]) -> str:
        return "#%02x%02x%02x" % c

    report = loaded.report
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{rgb(BACKGROUND)}"/>',
             f'<text x="12" y="40" font-size="28" fill="{rgb(INK)}">Context treemap</text>',
             f'<text x="12" y="66" font-size="16" fill="{rgb(INK)}">{escape(str(report.get("source")))} / '
             f'{escape(str(report.get("provider") or "?"))} / {escape(str(report.get("model") or "?"))}</text>']
    for group, leaf, rect, color in placed_leaves(groups):
        tip = f"{group.name}: {leaf.name}, {format_int(leaf.value)} chars"
        parts.append(f'<g><title>{escape(tip)}</title><rect x="{rect.x:.2f}" y="{rect.y:.2f}" '
                     f'width="{rect.w:.2f}" height="{rect.h:.2f}" fill="{rgb(color)}" '
                     f'stroke="{rgb(BACKGROUND)}" stroke-width="1"/>')
        if rect.w > 60 and rect.h > 18:
            parts.append(f'<text x="{rect.x + 4:.2f}" y="{rect.y + 15:.2f}" font-size="12" '
                         f'fill="{rgb(DARK_INK)}">{escape(leaf.name)} {format_int(leaf.value)}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def terminal_view(groups: list[Group], color: bool, width: int) -> list[str]:
    """One stacked bar of the groups, then one bar per leaf, lengths proportional to characters."""
    total = sum(g.value for g in groups) or 1
    width = max(20, width)
    shades = "█▓▒░▚"
    ordered = sorted(groups, key=lambda g: -g.value)

    def paint(text: str, rgb: tuple[int, int, int], index: int) -> str:
        if color:
            return ansi_background(rgb, " " * len(text))
        return shades[index % len(shades)] * len(text)

    bar = ""
    used = 0
    for i, group in enumerate(ordered):
        cells = round(group.value / total * width) if i < len(ordered) - 1 else width - used
        used += cells
        bar += paint(" " * max(0, cells), GROUP_COLORS.get(group.name, (176, 176, 176)), i)
    lines = [bar, ""]
    label_width = min(28, max((len(leaf.name) for g in groups for leaf in g.leaves), default=4) + 2)
    bar_width = max(10, width - label_width - 30)
    for i, group in enumerate(ordered):
        share = group.value / total * 100
        lines.append(f"{paint('  ', GROUP_COLORS.get(group.name, (176, 176, 176)), i)} {group.name}: "
                     f"{format_int(group.value)} chars (~{format_int(estimate_tokens_from_chars(group.value))} tok), "
                     f"{share:.1f}%")
        for j, leaf in enumerate(sorted(group.leaves, key=lambda item: -item.value)):
            cells = max(1, round(leaf.value / total * bar_width))
            name = leaf.name if len(leaf.name) < label_width else leaf.name[:label_width - 2] + "…"
            lines.append(f"   {name.ljust(label_width)}{paint(' ' * cells, leaf_color(group, j), i)} "
                         f"{format_int(leaf.value)}")
    return lines


def check_output_name(output: str | None) -> None:
    """`--output` must name a .png or .svg file (bad usage otherwise)."""
    if output and not output.lower().endswith((".png", ".svg")):
        raise UsageError(f"--output must end in .png or .svg (got {output})")


def run_map(loaded: Loaded, output: str | None) -> None:
    from openclaw_cli.context.view import resolve_context_tokens
    from openclaw_cli.ui.console import color_enabled

    groups = groups_from_report(loaded.report)
    if not groups:
        raise CliError("Context treemap unavailable: nothing with a known size to draw for this session.")
    lines = caption(loaded, groups)
    if output:
        lower = output.lower()
        try:
            if lower.endswith(".svg"):
                with open(output, "w", encoding="utf-8") as handle:
                    handle.write(render_svg(loaded, groups))
            else:
                data = render_png(loaded, groups, resolve_context_tokens(loaded))
                with open(output, "wb") as handle:
                    handle.write(data)
        except OSError as exc:
            raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None
        lines.append(f"Wrote {os.path.abspath(output)}")
        sys.stdout.write("\n".join(lines) + "\n")
        return
    columns = shutil.get_terminal_size((100, 24)).columns
    view = terminal_view(groups, color_enabled(sys.stdout), min(columns, 120))
    sys.stdout.write("\n".join(lines + [""] + view) + "\n")


def rect_areas(groups: list[Group]) -> list[tuple[str, int, float]]:
    """(leaf name, value, pixel area) for tests and checks."""
    return [(leaf.name, leaf.value, rect.area) for _g, leaf, rect, _c in placed_leaves(groups)]



"""`openclaw context map`: a treemap PNG (1280x860) or SVG, a treemap drawn at the terminal, or a plain list."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING, Any

from openclaw_cli.context.scene import Scene, build
from openclaw_cli.context.treemap import Group, groups_from_report
from openclaw_cli.context.units import estimate_tokens_from_chars, format_int
from openclaw_cli.errors import CliError, UsageError

if TYPE_CHECKING:
    from openclaw_cli.context.view import Loaded


def _cached(loaded: Loaded) -> Any:
    from openclaw_cli.context.render import fresh_total_tokens

    return fresh_total_tokens(loaded.target.entry, sqlite_era=loaded.target.sqlite_path is not None)


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


def scene_of(loaded: Loaded, groups: list[Group]) -> Scene:
    """The picture both files are painted from."""
    from openclaw_cli.context.view import resolve_context_tokens

    report = loaded.report
    subtitle = f"{report.get('source')} · {report.get('provider') or '?'} · {report.get('model') or '?'}"
    return build(groups, subtitle, _cached(loaded), resolve_context_tokens(loaded))


def check_output_name(output: str | None) -> None:
    """`--output` must name a .png or .svg file (bad usage otherwise)."""
    if output and not output.lower().endswith((".png", ".svg")):
        raise UsageError(f"--output must end in .png or .svg (got {output})")


def _write(output: str, scene: Scene) -> None:
    try:
        if output.lower().endswith(".svg"):
            from openclaw_cli.context import svg

            with open(output, "w", encoding="utf-8") as handle:
                handle.write(svg.render(scene))
        else:
            from openclaw_cli.context import png

            data = png.render(scene)
            with open(output, "wb") as handle:
                handle.write(data)
    except OSError as exc:
        raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None


def _wrapped(lines: list[str], width: int) -> list[str]:
    return [part for line in lines for part in (textwrap.wrap(line, width) or [""])]


def run_map(loaded: Loaded, output: str | None) -> None:
    from openclaw_cli.ui.fit import terminal_columns

    groups = groups_from_report(loaded.report)
    if not groups:
        raise CliError("Context treemap unavailable: nothing with a known size to draw for this session.")
    lines = caption(loaded, groups)
    if output:
        _write(output, scene_of(loaded, groups))
        lines.append(f"Wrote {os.path.abspath(output)}")
        sys.stdout.write("\n".join(lines) + "\n")
        return
    columns = terminal_columns(sys.stdout)
    if columns is None:
        from openclaw_cli.context.termmap import PLAIN_WIDTH, plain_list

        sys.stdout.write("\n".join(_wrapped(lines, PLAIN_WIDTH) + [""] + plain_list(groups)) + "\n")
        return
    _draw_at_terminal(_wrapped(lines, columns), groups, columns)


def _draw_at_terminal(lines: list[str], groups: list[Group], columns: int) -> None:
    from rich.console import Console

    from openclaw_cli.context.termmap import draw, legend, map_rows
    from openclaw_cli.ui.console import color_enabled

    color = color_enabled(sys.stdout)
    size = shutil.get_terminal_size((columns, 0))
    blocks, unlabelled = draw(groups, columns, map_rows(columns, size.lines or None), color)
    console = Console(file=sys.stdout, width=columns, force_terminal=color, no_color=not color,
                      color_system="truecolor" if color else None, highlight=False, soft_wrap=False,
                      emoji=False, markup=False)
    for line in lines:
        console.print(line, overflow="crop", no_wrap=True)
    console.print()
    for block in [*blocks, "", *legend(groups, unlabelled, columns, color)]:
        console.print(block, overflow="crop", no_wrap=True)

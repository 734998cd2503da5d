"""`openclaw context map`: the treemap PNG/SVG and the terminal view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.context import REAL, copy_state, env_for, run_context

from openclaw_cli.context.png import Canvas, decode_png
from openclaw_cli.context.treemap import Rect, groups_from_report, squarify


@pytest.fixture
def state_env(tmp_path: Path) -> dict[str, str]:
    state = copy_state(tmp_path / "state")
    home = tmp_path / "home"
    home.mkdir()
    return env_for(home, state, state / "workspace")


def _report() -> dict:
    return json.loads((REAL / "context-json.json").read_text(encoding="utf-8"))["report"]


def test_squarify_areas_follow_the_values():
    values = [500, 300, 120, 60, 15, 5]
    rects = squarify(values, Rect(0, 0, 400, 300))
    assert sum(r.area for r in rects) == pytest.approx(400 * 300)
    for value, rect in zip(values, rects):
        assert rect.area == pytest.approx(value / sum(values) * 400 * 300)
        assert rect.x >= 0 and rect.x + rect.w <= 400 + 1e-6 and rect.y + rect.h <= 300 + 1e-6


def test_groups_match_the_reference_treemap_total():
    groups = groups_from_report(_report())
    assert [g.name for g in groups] == ["Current turn", "Workspace files", "System prompt", "Tool schemas", "Skills"]
    assert sum(g.value for g in groups) == 66318  # the detail reply's "Tracked prompt estimate"


def test_png_file_size_and_areas(state_env, tmp_path):
    out = tmp_path / "context.png"
    result = run_context(["map", "--offline", "--output", str(out)], state_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:4] == ["Context treemap", "Source: run", "Tracked: 66,318 chars (~16,580 tok)",
                                              "Actual cached context: 21,727 tok"]
    data = out.read_bytes()
    width, height, pixels = decode_png(data)
    assert (width, height) == (1280, 860)
    canvas = Canvas(width, height)
    canvas.pixels = pixels
    from openclaw_cli.context import mapview

    placed = mapview.placed_leaves(groups_from_report(_report()))
    total_value = sum(leaf.value for _g, leaf, _r, _c in placed)
    total_area = mapview.AREA.area
    checked = 0
    for _group, leaf, rect, color in placed:
        assert rect.area == pytest.approx(leaf.value / total_value * total_area, rel=1e-9)
        if rect.w > 30 and rect.h > 60:  # the centre is clear of the label
            cx, cy = int(rect.x + rect.w / 2), int(rect.y + rect.h / 2) + 10
            assert canvas.pixel(cx, cy)[:3] == color, leaf.name
            checked += 1
    assert checked >= 8
    # inside each big leaf's box, its colour covers the box minus the border and the label
    for _group, leaf, rect, color in placed:
        if rect.w < 100 or rect.h < 100:
            continue
        x0, y0, x1, y1 = round(rect.x), round(rect.y), round(rect.x + rect.w), round(rect.y + rect.h)
        painted = sum(1 for y in range(y0, y1) for x in range(x0, x1) if canvas.pixel(x, y)[:3] == color)
        assert painted == pytest.approx(rect.area, rel=0.08), leaf.name


def test_svg_output(state_env, tmp_path):
    out = tmp_path / "context.svg"
    result = run_context(["map", "--offline", "-o", str(out)], state_env)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert text.startswith("<svg") and text.count("<rect") == 1 + len(mapview_leaves())
    assert "AGENTS.md 7,195" in text


def mapview_leaves():
    from openclaw_cli.context import mapview

    return mapview.placed_leaves(groups_from_report(_report()))


def test_terminal_view_plain_and_coloured(state_env):
    plain = run_context(["map", "--offline"], state_env)
    assert plain.returncode == 0 and "\x1b[" not in plain.stdout
    assert "Tool schemas: 33,123 chars (~8,281 tok), 49.9%" in plain.stdout
    coloured = run_context(["map", "--offline"], {**state_env, "FORCE_COLOR": "1"})
    assert "\x1b[48;2;" in coloured.stdout


def test_bad_output_extension(state_env, tmp_path):
    result = run_context(["map", "--offline", "-o", str(tmp_path / "x.gif")], state_env)
    assert result.returncode == 2 and result.stderr.strip().endswith("x.gif)")
    assert "Traceback" not in result.stderr

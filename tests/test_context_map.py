"""`openclaw context map`: the treemap PNG/SVG and the terminal view."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers.cli import run_in_pty
from helpers.context import REAL, copy_state, env_for, run_context
from rich.cells import cell_len

from openclaw_cli.context import scene
from openclaw_cli.context.font import text_width
from openclaw_cli.context.termmap import plain_list
from openclaw_cli.context.treemap import MIN_GROUP_SHARE, Rect, enlarged, groups_from_report, squarify

SVG = "{http://www.w3.org/2000/svg}"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


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
    from PIL import Image

    out = tmp_path / "context.png"
    result = run_context(["map", "--offline", "--output", str(out)], state_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:4] == ["Context treemap", "Source: run", "Tracked: 66,318 chars (~16,580 tok)",
                                              "Actual cached context: 21,727 tok"]
    image = Image.open(out).convert("RGB")
    assert image.size == (1280, 860)
    groups = groups_from_report(_report())
    placed = scene.placed_leaves(groups)
    area = scene.AREA.area
    lifted = enlarged(groups)
    assert lifted == {"Current turn"}  # 114 of 66,318 chars: drawn at the minimum share, not as a sliver
    true_total = sum(leaf.value for group, leaf, _r, _c in placed if group.name not in lifted)
    shown_total = sum(rect.area for group, _leaf, rect, _c in placed if group.name not in lifted)
    for group, leaf, rect, _color in placed:
        if group.name in lifted:
            continue
        assert rect.area == pytest.approx(leaf.value / true_total * shown_total, rel=1e-9), leaf.name
    turn = [rect for group, _leaf, rect, _c in placed if group.name == "Current turn"]
    assert sum(r.area for r in turn) == pytest.approx(MIN_GROUP_SHARE * area)
    assert min(min(r.w, r.h) for r in turn) > 40
    # inside each big tile its colour covers the box less the border and the label
    for _group, leaf, rect, color in placed:
        if rect.w < 100 or rect.h < 100:
            continue
        x0, y0, x1, y1 = round(rect.x), round(rect.y), round(rect.x + rect.w), round(rect.y + rect.h)
        painted = sum(1 for y in range(y0, y1) for x in range(x0, x1) if image.getpixel((x, y)) == color)
        assert painted == pytest.approx(rect.area, rel=0.1), leaf.name
        label = sum(1 for y in range(y0 + 4, y0 + 24) for x in range(x0 + 4, x1 - 4) if image.getpixel((x, y)) != color)
        assert label > 20, f"{leaf.name} has no text in its top-left corner"


def _svg(state_env, tmp_path) -> ET.Element:
    out = tmp_path / "context.svg"
    result = run_context(["map", "--offline", "-o", str(out)], state_env)
    assert result.returncode == 0, result.stderr
    return ET.fromstring(out.read_text(encoding="utf-8"))


def _has_room(name: str, w: float, h: float) -> bool:
    """Room for the name on one line at the smallest label size, measured with the font itself."""
    from PIL import ImageFont

    return ImageFont.load_default(size=10).getlength(name) + 10 <= w and h >= 10 + 3 + 10


def test_svg_labels_every_tile_with_room_and_lists_the_rest_in_its_legend(state_env, tmp_path):
    root = _svg(state_env, tmp_path)
    tiles = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "tile"]
    assert len(tiles) == sum(len(g.leaves) for g in groups_from_report(_report())) == 61
    labels: dict[str, list[str]] = {}
    for e in root.iter(f"{SVG}text"):
        if e.get("class") == "label":
            labels.setdefault(e.get("data-leaf", ""), []).append(e.text or "")
    texts = [e.text or "" for e in root.iter(f"{SVG}text")]
    legend_start = texts.index("Not labelled in the map")
    legend = texts[legend_start + 1:]
    unlabelled = []
    for tile in tiles:
        name, w, h = tile.get("data-leaf", ""), float(tile.get("width", 0)), float(tile.get("height", 0))
        if _has_room(name, w, h):
            assert name in labels, f"{name} ({w:.0f}x{h:.0f}) has room but no label"
            assert name.replace("_", "").replace("-", "") in "".join(labels[name]).replace("_", "").replace("-", "")
        if name not in labels or (labels[name] and labels[name][0].isdigit() and len(labels[name]) == 1):
            unlabelled.append(name)
    assert unlabelled, "the fixture has tiles too small for their names"
    for name in unlabelled:
        assert any(line.endswith(name) for line in legend), f"{name} is neither labelled nor in the legend"
    assert "AGENTS.md" in labels and labels["AGENTS.md"] == ["AGENTS.md", "7,195"]
    # the SVG carries the PNG's legend and totals
    assert {"Tool schemas", "System prompt", "Workspace files", "Skills", "Current turn"} <= set(texts)
    assert "114 chars, 2 parts (drawn larger)" in texts
    assert any(t.startswith("Tracked 66,318 chars (~16,580 tok)") and "actual cached context 21,727 tok" in t
               for t in texts)
    assert "@font-face" in (root.find(f"{SVG}style").text or "")
    # a label stays inside its tile in a viewer that draws another font: it is clipped to the tile
    clips = {c.get("id"): c.find(f"{SVG}rect") for c in root.iter(f"{SVG}clipPath")}
    for e in root.iter(f"{SVG}text"):
        if e.get("class") == "label":
            clip = clips[e.get("clip-path", "")[len("url(#"):-1]]
            assert clip is not None and float(clip.get("x", 0)) <= float(e.get("x", 0)) < float(clip.get("x", 0)) + float(clip.get("width", 0))


def test_png_and_svg_are_painted_from_one_scene(state_env, tmp_path):
    from PIL import Image

    root = _svg(state_env, tmp_path)
    out = tmp_path / "context.png"
    assert run_context(["map", "--offline", "-o", str(out)], state_env).returncode == 0
    image = Image.open(out).convert("RGB")
    for tile in (e for e in root.iter(f"{SVG}rect") if e.get("class") == "tile"):
        x, y, w, h = (float(tile.get(k, 0)) for k in ("x", "y", "width", "height"))
        if w > 6 and h > 6:
            fill = tile.get("fill", "")
            assert image.getpixel((int(x + w - 3), int(y + h - 3))) == tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))


def test_a_large_session_keeps_the_legend_inside_the_picture():
    tools = [{"name": f"tool_number_{i}", "schemaChars": 40 + (i * 37) % 900} for i in range(300)]
    report = {**_report(), "tools": {"entries": tools}}
    groups = groups_from_report(report)
    picture = scene.build(groups, "run · x · y", None, None)
    assert len(picture.unlabelled) > 100
    for t in picture.texts:
        left = t.x - text_width(t.text, t.size) if t.end else t.x
        assert left >= 0 and left + text_width(t.text, t.size) <= scene.WIDTH - scene.MARGIN + 1 and 0 <= t.y <= scene.HEIGHT, t
    assert any(t.text.startswith("… and ") and t.text.endswith(" chars)") for t in picture.texts)


def test_piped_the_map_is_a_plain_list_within_80_columns(state_env):
    plain = run_context(["map", "--offline"], state_env)
    assert plain.returncode == 0 and "\x1b[" not in plain.stdout
    lines = plain.stdout.splitlines()
    assert "Tool schemas: 33,123 chars (~8,281 tok), 49.9%" in lines
    assert max(cell_len(line) for line in lines) <= 80
    cron = next(line for line in lines if line.strip().startswith("cron "))
    assert cron.split()[1:] == ["9,606", "14.5%"]
    long = {**_report(), "tools": {"entries": [{"name": "x" * 300, "schemaChars": 5}]}}
    assert max(cell_len(line) for line in plain_list(groups_from_report(long))) <= 80


def _pty_map(state_env, columns: int, color: bool) -> list[str]:
    env = {k: v for k, v in state_env.items() if k not in ("HOME", "PATH") and (color is False or k != "NO_COLOR")}
    return run_in_pty(["context", "map", "--offline"], Path(state_env["HOME"]), {**env, "COLUMNS": str(columns)}).splitlines()


@pytest.mark.parametrize("columns", [80, 200])
@pytest.mark.parametrize("color", [True, False])
def test_at_a_terminal_the_map_is_a_treemap_no_wider_than_the_window(state_env, columns, color):
    lines = _pty_map(state_env, columns, color)
    plain = [ANSI.sub("", line) for line in lines]
    assert max(cell_len(line) for line in plain) <= columns, "\n".join(plain)
    start = plain.index("") + 1
    block = plain[start:plain.index("", start)]
    assert len(block) >= 8 and all(cell_len(line) == columns for line in block)
    assert any("cron" in line for line in block) and any("9,606" in line for line in block)
    assert any("Base instructions" in line for line in block)
    assert any(line.endswith("Current turn: 114 chars (~29 tok), 0.2% (drawn larger)") for line in plain)
    if color:
        assert any("\x1b[" in line and "48;2;242;204;143" in line for line in lines)  # the Tool schemas colour
    else:
        assert not any("\x1b[" in line for line in lines)


def test_at_200_columns_more_tiles_are_named_than_at_80(state_env):
    def named(columns: int) -> int:
        text = "\n".join(ANSI.sub("", line) for line in _pty_map(state_env, columns, False))
        return sum(1 for g in groups_from_report(_report()) for leaf in g.leaves if leaf.name in text.split("Not named")[0])

    assert named(200) > named(80) >= 10


def test_bad_output_extension(state_env, tmp_path):
    result = run_context(["map", "--offline", "-o", str(tmp_path / "x.gif")], state_env)
    assert result.returncode == 2 and result.stderr.strip().endswith("x.gif)")
    assert "Traceback" not in result.stderr


def test_a_terminal_tile_breaks_a_long_name_after_a_separator_before_cutting_it():
    from openclaw_cli.context.termmap import name_lines

    assert name_lines("skill_workshop", 8, 3) == ["skill_", "workshop"]
    assert name_lines("sessions_spawn", 8, 3) == ["sessions", "spawn"]  # the separator hangs past the edge
    assert name_lines("node-inspect-debugger", 8, 3) == ["node-", "inspect-", "debugger"]
    assert name_lines("node-inspect-debugger", 8, 2) is None
    assert name_lines("BOOTSTRAP.md", 8, 3) is None  # no break inside a file name
    assert name_lines("cron", 8, 1) == ["cron"]

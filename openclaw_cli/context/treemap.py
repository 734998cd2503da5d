"""What fills the window as a treemap: groups and leaves from a report, and a squarified layout."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

GROUP_COLORS = {
    "Current turn": (0xE0, 0x7A, 0x5F),
    "Workspace files": (0x3D, 0x84, 0xA8),
    "System prompt": (0x81, 0xB2, 0x9A),
    "Tool schemas": (0xF2, 0xCC, 0x8F),
    "Skills": (0x9C, 0x89, 0xB8),
}


@dataclass
class Leaf:
    name: str
    value: int


@dataclass
class Group:
    name: str
    leaves: list[Leaf] = field(default_factory=list)

    @property
    def value(self) -> int:
        return sum(leaf.value for leaf in self.leaves)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def area(self) -> float:
        return self.w * self.h


def _num(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) else None


def groups_from_report(report: Mapping[str, Any]) -> list[Group]:
    """The 2026.7.1 map's groups (each kept only when its sum is > 0); unknown values are left out."""
    groups: list[Group] = []
    turn = report.get("currentTurn")
    if isinstance(turn, Mapping):
        g = Group("Room event" if turn.get("kind") == "room_event" else "Current turn",
                  [Leaf("Model prompt", _num(turn.get("promptChars")) or 0),
                   Leaf("Runtime context", _num(turn.get("runtimeContextChars")) or 0)])
        groups.append(g)
    files = report.get("injectedWorkspaceFiles") or []
    prompt = report.get("systemPrompt") or {}
    injected = sum(_num(f.get("injectedChars")) or 0 for f in files)
    leaves = [Leaf(str(f.get("name")), _num(f.get("injectedChars")) or 0) for f in files]
    project = _num(prompt.get("projectContextChars"))
    if project is not None:
        leaves.append(Leaf("Project context frame", max(0, project - injected)))
    groups.append(Group("Workspace files", leaves))
    skills = (report.get("skills") or {}).get("entries") or []
    non_project = _num(prompt.get("nonProjectContextChars"))
    if non_project is not None:
        skill_chars = sum(_num(s.get("blockChars")) or 0 for s in skills)
        groups.append(Group("System prompt", [Leaf("Base instructions", max(0, non_project - skill_chars))]))
    tools = (report.get("tools") or {}).get("entries") or []
    groups.append(Group("Tool schemas", [Leaf(str(t.get("name")), _num(t.get("schemaChars")) or 0) for t in tools]))
    groups.append(Group("Skills", [Leaf(str(s.get("name")), _num(s.get("blockChars")) or 0) for s in skills]))
    out = []
    for group in groups:
        group.leaves = [leaf for leaf in group.leaves if leaf.value > 0]
        if group.value > 0:
            out.append(group)
    return out


def _worst(row: Sequence[float], side: float) -> float:
    total = sum(row)
    if total <= 0 or side <= 0:
        return math.inf
    return max(max(side * side * r / (total * total), (total * total) / (side * side * r)) for r in row)


def squarify(values: Sequence[float], rect: Rect) -> list[Rect]:
    """Squarified treemap (Bruls et al.): one rectangle per value, in order, areas ∝ values."""
    total = sum(values)
    if total <= 0 or rect.area <= 0:
        return [Rect(rect.x, rect.y, 0, 0) for _ in values]
    scale = rect.area / total
    areas = [v * scale for v in values]
    out: list[Rect] = []
    x, y, w, h = rect.x, rect.y, rect.w, rect.h
    i = 0
    while i < len(areas):
        side = min(w, h)
        row = [areas[i]]
        j = i + 1
        while j < len(areas) and _worst(row + [areas[j]], side) <= _worst(row, side):
            row.append(areas[j])
            j += 1
        row_total = sum(row)
        if w >= h:  # lay the row out as a column on the left
            col_w = row_total / h if h else 0
            cy = y
            for a in row:
                rh = a / col_w if col_w else 0
                out.append(Rect(x, cy, col_w, rh))
                cy += rh
            x, w = x + col_w, w - col_w
        else:  # a row along the top
            row_h = row_total / w if w else 0
            cx = x
            for a in row:
                rw = a / row_h if row_h else 0
                out.append(Rect(cx, y, rw, row_h))
                cx += rw
            y, h = y + row_h, h - row_h
        i = j
    return out


MIN_GROUP_SHARE = 0.03  # a group smaller than this share of the area is drawn at it (and the legend says so)


def display_weights(groups: Sequence[Group], min_share: float = MIN_GROUP_SHARE) -> list[float]:
    """Each group's share of the drawing: its share of the total, or `min_share` when that is smaller."""
    total = sum(g.value for g in groups)
    if total <= 0:
        return [0.0 for _ in groups]
    small = [g.value / total < min_share for g in groups]
    if sum(small) * min_share >= 0.5:  # too many small groups to lift: draw true to size
        return [g.value / total for g in groups]
    rest = sum(g.value for g, s in zip(groups, small) if not s)
    room = 1.0 - sum(small) * min_share
    return [min_share if s else g.value / rest * room for g, s in zip(groups, small)]


def enlarged(groups: Sequence[Group], min_share: float = MIN_GROUP_SHARE) -> set[str]:
    """Names of the groups drawn larger than their true share."""
    total = sum(g.value for g in groups) or 1
    weights = display_weights(groups, min_share)
    return {g.name for g, w in zip(groups, weights) if w > g.value / total + 1e-12}


def layout(groups: Sequence[Group], rect: Rect,
           min_share: float = MIN_GROUP_SHARE) -> list[tuple[Group, Leaf, Rect]]:
    """Leaves placed inside their group's rectangle; groups and leaves sorted largest first. A group under
    `min_share` of the total gets that share of the area, so it is never a sliver."""
    ordered = sorted(groups, key=lambda g: -g.value)
    placed: list[tuple[Group, Leaf, Rect]] = []
    for group, grect in zip(ordered, squarify(display_weights(ordered, min_share), rect)):
        leaves = sorted(group.leaves, key=lambda item: -item.value)
        for leaf, lrect in zip(leaves, squarify([item.value for item in leaves], grect)):
            placed.append((group, leaf, lrect))
    return placed

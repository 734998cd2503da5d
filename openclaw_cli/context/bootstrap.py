"""Bootstrap limits and truncation as 2026.7.1 injects workspace files (generic and AGENTS.md digest)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openclaw_cli.context.units import (
    JS_WS,
    js_trim,
    js_trim_end,
    to_units,
    truncate_utf16_safe,
)

DEFAULT_MAX_CHARS = 20_000
DEFAULT_TOTAL_MAX_CHARS = 60_000
MIN_FILE_BUDGET = 64
MIN_TRIMMED_CONTENT = 16
HEAD_RATIO, TAIL_RATIO = 0.75, 0.25
AGENTS_HEAD, AGENTS_DIGEST, AGENTS_TAIL = 0.45, 0.35, 0.15
DIGEST_MAX_LINE = 240

_WS = "[" + re.escape(JS_WS) + "]"
_NWS = "[^" + re.escape(JS_WS) + "]"
_WORD = "A-Za-z0-9_\u017f\u212a"
_SHAPE = re.compile(rf"^(?:#{{1,6}}|{_WS}*[-*+]|{_WS}*[0-9]+[.)]){_WS}+{_NWS}")


def _words(words: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![{_WORD}])(?:{words})(?![{_WORD}])", re.IGNORECASE)


_POLICY = _words(r"AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|owner|"
                 r"security|secret|credential|test|validation|command|commit|push|github|pr")
_HIGH = _words(r"AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|security|"
               r"secret|credential")
_WS_RUN = re.compile(_WS + "+")
_LINE_SPLIT = re.compile(r"\r?\n")


@dataclass(frozen=True)
class BootstrapFile:
    """One workspace bootstrap file as loaded: `content` is None when it is missing."""

    name: str
    path: str
    content: str | None
    missing: bool


@dataclass(frozen=True)
class InjectedFile:
    """One context file as injected; `units` is its text in UTF-16 units (len = JS length)."""

    path: str
    units: str


@dataclass(frozen=True)
class Trimmed:
    units: str
    truncated: bool
    max_chars: int
    original_length: int


def _positive_floor(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not math.isfinite(value) or value <= 0:
        return None
    return math.floor(value)


def _agent_entry(cfg: Mapping[str, Any] | None, agent_id: str | None) -> Mapping[str, Any] | None:
    from openclaw_cli.config.agents import agent_entry

    return agent_entry(cfg, agent_id)


def _limit(cfg: Mapping[str, Any] | None, agent_id: str | None, key: str, default: int) -> int:
    entry = _agent_entry(cfg, agent_id)
    raw = entry.get(key) if entry is not None else None
    if raw is None and isinstance(cfg, Mapping):
        agents = cfg.get("agents")
        defaults = agents.get("defaults") if isinstance(agents, Mapping) else None
        raw = defaults.get(key) if isinstance(defaults, Mapping) else None
    value = _positive_floor(raw)
    return default if value is None else value


def resolve_max_chars(cfg: Mapping[str, Any] | None, agent_id: str | None) -> int:
    """`resolveBootstrapMaxChars`: the agent's value, else agents.defaults, else 20,000."""
    return _limit(cfg, agent_id, "bootstrapMaxChars", DEFAULT_MAX_CHARS)


def resolve_total_max_chars(cfg: Mapping[str, Any] | None, agent_id: str | None) -> int:
    """`resolveBootstrapTotalMaxChars`: the agent's value, else agents.defaults, else 60,000."""
    return _limit(cfg, agent_id, "bootstrapTotalMaxChars", DEFAULT_TOTAL_MAX_CHARS)


# -- AGENTS.md policy digest --------------------------------------------------------------

def _is_candidate(line: str) -> bool:
    return bool(_SHAPE.search(line) or _POLICY.search(line))


def _normalize_line(line: str) -> str:
    normalized = _WS_RUN.sub(" ", js_trim(line))
    if len(normalized) <= DIGEST_MAX_LINE:
        return normalized
    return truncate_utf16_safe(normalized, DIGEST_MAX_LINE - 1) + "…"


def policy_digest(units: str, budget: int) -> tuple[str, int]:
    """(digest text, omitted candidate lines) for an AGENTS.md within `budget` units."""
    if budget <= 0:
        return "", 0
    candidates = [(i, line) for i, line in enumerate(_normalize_line(raw) for raw in _LINE_SPLIT.split(units))
                  if line and _is_candidate(line)]
    selected: set[int] = set()
    used = 0

    def try_select(index: int, line: str) -> None:
        nonlocal used
        extra = (1 if selected else 0) + len(line)
        if used + extra <= budget:
            selected.add(index)
            used += extra

    for index, line in candidates:
        if _HIGH.search(line):
            try_select(index, line)
    for index, line in candidates:
        if index not in selected:
            try_select(index, line)
    lines = [line for index, line in candidates if index in selected]
    return "\n".join(lines), max(0, len(candidates) - len(lines))


def _trim_agents(trimmed: str, max_chars: int) -> Trimmed:
    n = len(trimmed)
    head = math.floor(max_chars * AGENTS_HEAD)
    tail = math.floor(max_chars * AGENTS_TAIL)
    budget = math.floor(max_chars * AGENTS_DIGEST)
    digest, omitted = policy_digest(trimmed, budget)

    def render() -> str:
        parts = [
            trimmed[:head],
            "[...truncated, read AGENTS.md for full content...]",
            "[Policy digest from AGENTS.md]" if digest else "",
            digest,
            f"[...{omitted} more policy lines omitted...]" if omitted > 0 else "",
            f"…(truncated AGENTS.md: kept {head}+policy {len(digest)}+{tail} chars of {n})…",
            trimmed[-tail:] if tail > 0 else "",
        ]
        return "\n".join(p for p in parts if p)

    rendered = render()
    while len(rendered) > max_chars and (tail > 0 or head > 1 or budget > 0):
        overflow = len(rendered) - max_chars
        if tail > 0:
            tail = max(0, tail - overflow)
        elif head > 1:
            head = max(1, head - overflow)
        else:
            budget = max(0, budget - overflow)
            digest, omitted = policy_digest(trimmed, budget)
        rendered = render()
    if len(rendered) > max_chars:
        rendered = truncate_utf16_safe(rendered, max_chars)
    return Trimmed(rendered, True, max_chars, n)


def _trim_generic(trimmed: str, name: str, max_chars: int) -> Trimmed:
    n = len(trimmed)
    name_units = to_units(name)

    def full(h: int, t: int) -> str:
        return (f"\n[...truncated, read {name_units} for full content...]\n"
                f"…(truncated {name_units}: kept {h}+{t} chars of {n})…\n")

    def compact(h: int, t: int) -> str:
        return f"[…truncated {h}+{t}/{n}]"

    def seps(h: int, t: int, marker: str) -> int:
        return (int(h > 0) + int(t > 0)) if "\n" in marker else 0

    template: Callable[[int, int], str] = (
        full if max_chars - len(full(0, 0)) - seps(1, 1, full(0, 0)) >= MIN_TRIMMED_CONTENT else compact)
    head = tail = 0
    marker = template(0, 0)
    for _ in range(3):
        budget = max(0, max_chars - len(marker) - seps(head, tail, marker))
        nh, nt = math.floor(budget * HEAD_RATIO), math.floor(budget * TAIL_RATIO)
        nm = template(nh, nt)
        if nh == head and nt == tail and len(nm) == len(marker):
            break
        head, tail, marker = nh, nt, nm
    length = head + tail + len(marker) + seps(head, tail, marker)
    while length > max_chars and (tail > 0 or head > 0):
        overflow = length - max_chars
        if tail > 0:
            tail = max(0, tail - overflow)
        else:
            head = max(0, head - overflow)
        marker = template(head, tail)
        length = head + tail + len(marker) + seps(head, tail, marker)
    if head == 0 and tail == 0 and n > 0:
        single = template(1, 0)
        if 1 + len(single) + seps(1, 0, single) <= max_chars:
            head, marker = 1, single
    parts = [trimmed[:head], marker, trimmed[-tail:] if tail > 0 else ""]
    joined = ("\n" if "\n" in marker else "").join(p for p in parts if p)
    if len(joined) > max_chars:
        joined = truncate_utf16_safe(joined, max_chars)
    return Trimmed(joined, True, max_chars, n)


def trim_content(content_units: str, name: str, max_chars: int) -> Trimmed:
    """`trimBootstrapContent` on UTF-16 units: as is when it fits, else head/marker/tail
    (AGENTS.md: head, policy digest, tail)."""
    trimmed = js_trim_end(content_units)
    if len(trimmed) <= max_chars:
        return Trimmed(trimmed, False, max_chars, len(trimmed))
    if name.lower() == "agents.md":
        return _trim_agents(trimmed, max_chars)
    return _trim_generic(trimmed, name, max_chars)


def clamp_to_budget(units: str, budget: int) -> str:
    """`clampToBudget`: keep, hard-cut (≤ 3), or cut to budget-1 and add an ellipsis."""
    if budget <= 0:
        return ""
    if len(units) <= budget:
        return units
    if budget <= 3:
        return truncate_utf16_safe(units, budget)
    return truncate_utf16_safe(units, budget - 1) + "…"


def build_context_files(files: Sequence[BootstrapFile], max_chars: int, total_max_chars: int | None,
                        warn: Callable[[str], None] | None = None) -> list[InjectedFile]:
    """`buildBootstrapContextFiles`: walk the files in order within the per-file and total budgets."""
    total = total_max_chars if total_max_chars is not None else max(max_chars, DEFAULT_TOTAL_MAX_CHARS)
    remaining = max(1, math.floor(total))
    result: list[InjectedFile] = []
    for file in files:
        if remaining <= 0:
            break
        path = js_trim(file.path) if isinstance(file.path, str) else ""
        if not path:
            if warn:
                warn(f'skipping bootstrap file "{file.name}" — missing or invalid "path" field')
            continue
        if file.missing:
            capped = clamp_to_budget(to_units(f"[MISSING] Expected at: {path}"), remaining)
            if not capped:
                break
            remaining = max(0, remaining - len(capped))
            result.append(InjectedFile(path, capped))
            continue
        if remaining < MIN_FILE_BUDGET:
            if warn:
                warn(f"remaining bootstrap budget is {remaining} chars (<{MIN_FILE_BUDGET}); "
                     "skipping additional bootstrap files")
            break
        file_max = max(1, min(max_chars, remaining))
        trimmed = trim_content(to_units(file.content or ""), file.name, file_max)
        within = clamp_to_budget(trimmed.units, remaining)
        if not within:
            continue
        if warn and (trimmed.truncated or len(within) < len(trimmed.units)):
            warn(f"workspace bootstrap file {file.name} is {trimmed.original_length} chars "
                 f"(limit {trimmed.max_chars}); truncating in injected context")
        remaining = max(0, remaining - len(within))
        result.append(InjectedFile(path, within))
    return result

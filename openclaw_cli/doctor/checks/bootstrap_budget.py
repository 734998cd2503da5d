"""How much of each workspace bootstrap file is injected into context (UTF-16 lengths, 2026.7.1)."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field

from openclaw_cli.jsstr import utf16_len, utf16_slice

DEFAULT_MAX_CHARS = 20_000
DEFAULT_TOTAL_MAX_CHARS = 60_000
NEAR_LIMIT_RATIO = 0.85
MIN_FILE_BUDGET = 64
MIN_TRIMMED_CONTENT = 16
MAX_FILE_BYTES = 2 * 1024 * 1024
FILE_NAMES = ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md")
MEMORY_FILE = "MEMORY.md"
_JS_WS = ("\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
          "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")


def trim_end(text: str) -> str:
    return text.rstrip(_JS_WS)


def truncate(text: str, limit: int) -> str:
    """truncateUtf16Safe: at most `limit` UTF-16 units, never ending on a lone high surrogate."""
    if utf16_len(text) <= limit:
        return text
    out = utf16_slice(text, 0, max(0, int(limit)))
    if out and 0xD800 <= ord(out[-1]) <= 0xDBFF:
        out = out[:-1]
    return out


@dataclass
class BootstrapFile:
    name: str
    path: str
    content: str | None = None
    missing: bool = False


def load_files(workspace: str, *, include_heartbeat: bool = True, setup_complete: bool = False) -> list[BootstrapFile]:
    out: list[BootstrapFile] = []
    names = list(FILE_NAMES)
    try:
        if MEMORY_FILE in os.listdir(workspace):
            names.append(MEMORY_FILE)
    except OSError:
        pass
    real_root = os.path.realpath(workspace)
    for name in names:
        if name == "HEARTBEAT.md" and not include_heartbeat:
            continue
        if name == "BOOTSTRAP.md" and setup_complete:
            continue
        path = os.path.join(workspace, name)
        out.append(_read(name, path, real_root))
    return out


def _read(name: str, path: str, real_root: str) -> BootstrapFile:
    try:
        real = os.path.realpath(path, strict=True)
        if not (real == real_root or real.startswith(real_root + os.sep)) or not os.path.isfile(real):
            return BootstrapFile(name, path, missing=True)
        if os.path.getsize(real) > MAX_FILE_BYTES:
            return BootstrapFile(name, path, missing=True)
        with open(real, "rb") as handle:
            return BootstrapFile(name, path, handle.read().decode("utf-8", "replace"))
    except OSError:
        return BootstrapFile(name, path, missing=True)


_DIGEST_CANDIDATE = re.compile(r"^(?:#{1,6}|\s*[-*+]|\s*\d+[.)])\s+\S")
_DIGEST_WORDS = re.compile(r"\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|owner|"
                           r"security|secret|credential|test|validation|command|commit|push|github|pr)\b", re.I)
_DIGEST_HIGH = re.compile(r"\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|security|"
                          r"secret|credential)\b", re.I)


def _digest_line(line: str) -> str:
    normalized = re.sub(r"\s+", " ", line.strip(_JS_WS))
    if utf16_len(normalized) <= 240:
        return normalized
    return truncate(normalized, 239) + "…"


def policy_digest(content: str, budget: int) -> tuple[str, int]:
    if budget <= 0:
        return "", 0
    candidates = [(i, _digest_line(line)) for i, line in enumerate(re.split(r"\r?\n", content))]
    candidates = [(i, line) for i, line in candidates
                  if line and (_DIGEST_CANDIDATE.search(line) or _DIGEST_WORDS.search(line))]
    selected: set[int] = set()
    used = 0

    def take(index: int, line: str) -> None:
        nonlocal used
        sep = 1 if selected else 0
        if used + sep + utf16_len(line) > budget:
            return
        selected.add(index)
        used += sep + utf16_len(line)

    for index, line in candidates:
        if _DIGEST_HIGH.search(line):
            take(index, line)
    for index, line in candidates:
        if index not in selected:
            take(index, line)
    lines = [line for index, line in candidates if index in selected]
    return "\n".join(lines), max(0, len(candidates) - len(lines))


def _trim_agents(content: str, max_chars: int) -> tuple[str, bool]:
    trimmed = trim_end(content)
    total = utf16_len(trimmed)
    if total <= max_chars:
        return trimmed, False
    head = math.floor(max_chars * 0.45)
    tail = math.floor(max_chars * 0.15)
    budget = math.floor(max_chars * 0.35)
    digest, omitted = policy_digest(trimmed, budget)

    def render() -> str:
        parts = [utf16_slice(trimmed, 0, head), "[...truncated, read AGENTS.md for full content...]",
                 "[Policy digest from AGENTS.md]" if digest else "", digest,
                 f"[...{omitted} more policy lines omitted...]" if omitted > 0 else "",
                 f"…(truncated AGENTS.md: kept {head}+policy {utf16_len(digest)}+{tail} chars of {total})…",
                 utf16_slice(trimmed, -tail) if tail > 0 else ""]
        return "\n".join(p for p in parts if p)

    rendered = render()
    while utf16_len(rendered) > max_chars and (tail > 0 or head > 1 or budget > 0):
        overflow = utf16_len(rendered) - max_chars
        if tail > 0:
            tail = max(0, tail - overflow)
        elif head > 1:
            head = max(1, head - overflow)
        else:
            budget = max(0, budget - overflow)
            digest, omitted = policy_digest(trimmed, budget)
        rendered = render()
    return (truncate(rendered, max_chars) if utf16_len(rendered) > max_chars else rendered), True


def trim_content(content: str, name: str, max_chars: int) -> tuple[str, bool]:
    trimmed = trim_end(content)
    total = utf16_len(trimmed)
    if total <= max_chars:
        return trimmed, False
    if name.lower() == "agents.md":
        return _trim_agents(content, max_chars)

    def full_marker(h: int, t: int) -> str:
        return "\n".join(["", f"[...truncated, read {name} for full content...]",
                          f"…(truncated {name}: kept {h}+{t} chars of {total})…", ""])

    def compact_marker(h: int, t: int) -> str:
        return f"[…truncated {h}+{t}/{total}]"

    def sep(h: int, t: int, marker: str) -> int:
        return (int(h > 0) + int(t > 0)) if "\n" in marker else 0

    probe = full_marker(0, 0)
    template = full_marker if max_chars - utf16_len(probe) - sep(1, 1, probe) >= MIN_TRIMMED_CONTENT else compact_marker
    head = tail = 0
    marker = template(0, 0)
    for _ in range(3):
        budget = max(0, max_chars - utf16_len(marker) - sep(head, tail, marker))
        nh, nt = math.floor(budget * 0.75), math.floor(budget * 0.25)
        nm = template(nh, nt)
        if nh == head and nt == tail and utf16_len(nm) == utf16_len(marker):
            break
        head, tail, marker = nh, nt, nm
    length = head + tail + utf16_len(marker) + sep(head, tail, marker)
    while length > max_chars and (tail > 0 or head > 0):
        overflow = length - max_chars
        if tail > 0:
            tail = max(0, tail - overflow)
        else:
            head = max(0, head - overflow)
        marker = template(head, tail)
        length = head + tail + utf16_len(marker) + sep(head, tail, marker)
    if head == 0 and tail == 0 and total > 0:
        single = template(1, 0)
        if 1 + utf16_len(single) + sep(1, 0, single) <= max_chars:
            head, marker = 1, single
    parts = [utf16_slice(trimmed, 0, head), marker, utf16_slice(trimmed, -tail) if tail > 0 else ""]
    joined = ("\n" if "\n" in marker else "").join(p for p in parts if p)
    return (truncate(joined, max_chars) if utf16_len(joined) > max_chars else joined), True


def _clamp(content: str, budget: int) -> str:
    if budget <= 0:
        return ""
    if utf16_len(content) <= budget:
        return content
    if budget <= 3:
        return truncate(content, budget)
    return truncate(content, budget - 1) + "…"


def injected_lengths(files: list[BootstrapFile], max_chars: int, total_max: int) -> dict[str, int]:
    """Injected UTF-16 length per file path (files left out are absent)."""
    remaining = max(1, math.floor(total_max))
    out: dict[str, int] = {}
    for f in files:
        if remaining <= 0:
            break
        if f.missing:
            text = _clamp(f"[MISSING] Expected at: {f.path}", remaining)
            if not text:
                break
            remaining = max(0, remaining - utf16_len(text))
            out.setdefault(f.path, utf16_len(text))
            continue
        if remaining < MIN_FILE_BUDGET:
            break
        trimmed, _ = trim_content(f.content or "", f.name, max(1, min(max_chars, remaining)))
        within = _clamp(trimmed, remaining)
        if not within:
            continue
        remaining = max(0, remaining - utf16_len(within))
        out.setdefault(f.path, utf16_len(within))
    return out


@dataclass
class FileStat:
    name: str
    path: str
    missing: bool
    raw_chars: int
    injected_chars: int
    truncated: bool
    near_limit: bool = False
    causes: list[str] = field(default_factory=list)


@dataclass
class Analysis:
    files: list[FileStat]
    total_near_limit: bool
    raw_chars: int
    injected_chars: int
    max_chars: int
    total_max: int

    @property
    def truncated(self) -> list[FileStat]:
        return [f for f in self.files if f.truncated]

    @property
    def near_limit(self) -> list[FileStat]:
        return [f for f in self.files if f.near_limit]


def analyze(files: list[BootstrapFile], max_chars: int, total_max: int) -> Analysis:
    injected = injected_lengths(files, max_chars, total_max)
    stats = []
    for f in files:
        raw = 0 if f.missing else utf16_len(trim_end(f.content or ""))
        inj = injected.get(f.path, 0)
        stats.append(FileStat(f.name, f.path, f.missing, raw, inj, not f.missing and inj < raw))
    present = [s for s in stats if not s.missing]
    raw_total = sum(s.raw_chars for s in present)
    inj_total = sum(s.injected_chars for s in present)
    total_near = inj_total >= math.ceil(total_max * NEAR_LIMIT_RATIO)
    total_over = inj_total >= total_max
    for s in present:
        s.near_limit = s.raw_chars >= math.ceil(max_chars * NEAR_LIMIT_RATIO)
        if s.truncated:
            if s.raw_chars > max_chars:
                s.causes.append("per-file-limit")
            if total_over:
                s.causes.append("total-limit")
    return Analysis(stats, total_near, raw_total, inj_total, max_chars, total_max)

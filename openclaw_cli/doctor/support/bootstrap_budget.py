"""How much of each workspace bootstrap file is injected into context (UTF-16 lengths, 2026.7.1)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

from openclaw_cli.context.bootstrap import BootstrapFile, build_context_files
from openclaw_cli.js.strings import js_trim_end, utf16_len

DEFAULT_MAX_CHARS = 20_000
DEFAULT_TOTAL_MAX_CHARS = 60_000
NEAR_LIMIT_RATIO = 0.85
MAX_FILE_BYTES = 2 * 1024 * 1024
FILE_NAMES = ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md")
MEMORY_FILE = "MEMORY.md"


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
            return BootstrapFile(name, path, None, True)
        if os.path.getsize(real) > MAX_FILE_BYTES:
            return BootstrapFile(name, path, None, True)
        with open(real, "rb") as handle:
            return BootstrapFile(name, path, handle.read().decode("utf-8", "replace"), False)
    except OSError:
        return BootstrapFile(name, path, None, True)


def injected_lengths(files: list[BootstrapFile], max_chars: int, total_max: int) -> dict[str, int]:
    """Injected UTF-16 length per file path (files left out are absent), as context injects them."""
    out: dict[str, int] = {}
    for injected in build_context_files(files, max_chars, total_max):
        out.setdefault(injected.path, len(injected.units))
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
        raw = 0 if f.missing else utf16_len(js_trim_end(f.content or ""))
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

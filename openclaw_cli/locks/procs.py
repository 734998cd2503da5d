"""Is a process alive, a zombie, recycled? (/proc on Linux), as OpenClaw's lock checks ask."""

from __future__ import annotations

import os
import re

_STATE = re.compile(r"^State:\s+(\S)", re.MULTILINE)


def _valid(pid) -> bool:
    return isinstance(pid, int) and not isinstance(pid, bool) and pid > 0


def is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8", errors="replace") as handle:
            match = _STATE.search(handle.read())
    except OSError:
        return False
    return match is not None and match.group(1) == "Z"


def pid_alive(pid) -> bool:
    """Signal 0 succeeds (no permission counts as not alive) and it is not a zombie."""
    if not _valid(pid):
        return False
    try:
        os.kill(pid, 0)
    except (OSError, OverflowError):
        return False
    return not is_zombie(pid)


def pid_definitely_dead(pid) -> bool:
    """Invalid, gone (ESRCH) or a zombie; a process we may not signal is not dead."""
    if not _valid(pid):
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):
        return False
    return is_zombie(pid)


def process_start_time(pid: int) -> int | None:
    """Field 22 of /proc/<pid>/stat (clock ticks since boot), used to spot a recycled pid."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return None
    end = text.rfind(")")
    if end < 0:
        return None
    fields = text[end + 1:].split()
    try:
        value = int(fields[19])
    except (IndexError, ValueError):
        return None
    return value if value >= 0 else None


def process_args(pid: int) -> list[str] | None:
    """The process's command line, or None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            raw = handle.read().decode("utf-8", "replace")
    except OSError:
        return None
    return [part.strip() for part in raw.split("\0") if part.strip()]


_ENTRY_POINTS = ("dist/index.js", "dist/entry.js", "scripts/run-node.mjs", "src/entry.ts", "src/index.ts")


def looks_like_openclaw(args: list[str]) -> bool:
    """Whether a command line looks like an OpenClaw session owner (gateway, agent or CLI)."""
    normalized = [a.strip().replace("\\", "/").lower() for a in args if a.strip()]
    if not normalized:
        return False
    exe = re.sub(r"\.(bat|cmd|exe)$", "", normalized[0])
    if exe == "openclaw" or exe.endswith(("/openclaw", "/openclaw-gateway")):
        return True
    if any(a in ("openclaw", "openclaw.mjs") or a.endswith(("/openclaw", "/openclaw.mjs"))
           for a in normalized):
        return True
    has_command = any(a in ("gateway", "agent") for a in normalized)
    return has_command and any(a.endswith(entry) for a in normalized for entry in _ENTRY_POINTS)

"""`core/doctor/disk-space`: free space on the partition that holds the state folder."""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/disk-space"
CRITICAL_BYTES = 100 * 1024 * 1024
WARNING_BYTES = 500 * 1024 * 1024
_LABELS = ("B", "KB", "MB", "GB")


def format_bytes(size: float) -> str:
    """Binary units up to GB: whole bytes, KB and MB floored, GB with one decimal."""
    from openclaw_cli.js.values import js_to_fixed

    if size < 0 or not math.isfinite(size):
        return "unknown"
    value, unit = float(size), 0
    while value >= 1024 and unit < len(_LABELS) - 1:
        value /= 1024
        unit += 1
    if unit == 0:
        return f"{int(value) if value.is_integer() else value} B"
    if unit in (1, 2):
        value = math.floor(value)
    return f"{js_to_fixed(value, 1 if unit == 3 else 0)} {_LABELS[unit]}"


def available_bytes(path: str) -> int | None:
    """Free bytes for unprivileged writers on the volume of `path` (its nearest existing folder)."""
    current = os.path.abspath(path)
    while not os.path.exists(current):
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
    try:
        stats = os.statvfs(current if os.path.isdir(current) else os.path.dirname(current))
    except OSError:
        return None
    return stats.f_frsize * stats.f_bavail


def disk_warnings(free: int, shown_state: str) -> list[str]:
    size = format_bytes(free)
    if free < CRITICAL_BYTES:
        return [f"- CRITICAL: only {size} free on the partition containing {shown_state}.",
                "- Config writes, session transcripts, and log rotation may fail silently.",
                "- Free up disk space immediately to avoid data loss."]
    if free < WARNING_BYTES:
        return [f"- Low disk space: {size} free on the partition containing {shown_state}.",
                "- Consider freeing space to prevent future config/session write failures."]
    return []


class DiskSpaceCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Disk space", "Free space on the partition that holds the state folder.",
                         default_enabled=False)

    def _warnings(self, ctx: DoctorContext) -> tuple[int, list[str]]:
        free = available_bytes(ctx.state_dir)
        return (0, []) if free is None else (free, disk_warnings(free, ctx.display(ctx.state_dir)))

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        free, warnings = self._warnings(ctx)
        if not warnings:
            return []
        first, *details = (line.removeprefix("- ") for line in warnings)
        return [Finding(CHECK_ID, "warning", first, ctx.state_dir, " ".join(details), format_bytes(free),
                        "critical-free-space" if free < CRITICAL_BYTES else "low-free-space")]

    def run(self, ctx: DoctorContext, report: Report) -> None:
        _free, warnings = self._warnings(ctx)
        if warnings:
            report.note("Disk space", ["\n".join(warnings)], check_id=self.id, findings=self.detect(ctx),
                        kind="warning")

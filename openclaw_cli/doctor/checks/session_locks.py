"""`core/doctor/session-locks`: session write-lock files, staleness reasons and safe removal."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.locks.session_lock import LockSettings, inspect_lock, resolve_stale_ms

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/session-locks"


@dataclass
class LockInfo:
    """One lock file as the check reports it (`cleanStaleLockFiles`'s lock info)."""

    path: str
    pid: int | None
    pid_alive: bool
    age_ms: int | None
    reasons: list[str] = field(default_factory=list)
    removable: bool = False
    removed: bool = False
    report_only: bool = False

    @property
    def stale(self) -> bool:
        return bool(self.reasons)


def _lock_info(path: str, settings: LockSettings, now_ms: int) -> LockInfo | None:
    state = inspect_lock(path, settings, now=now_ms)
    if state is None:
        return None
    return LockInfo(path, state.pid, state.alive, state.age_ms, state.reasons,
                    removable=state.removable(settings.stale_ms), report_only=state.report_only)


def scan_locks(ctx: DoctorContext, *, remove: bool = False) -> list[LockInfo]:
    from openclaw_cli.doctor.support.sessionfiles import list_agent_session_dirs
    from openclaw_cli.js.strings import locale_sort_key

    # doctor's scan judges age by staleMs only; a holder's maxHoldMs is for a waiting writer
    settings = LockSettings(stale_ms=resolve_stale_ms(ctx.cfg, ctx.env), respect_max_hold=False)
    now_ms = int(time.time() * 1000)
    locks: list[LockInfo] = []
    for sessions_dir in list_agent_session_dirs(ctx.state_dir):
        try:
            names = sorted((e.name for e in os.scandir(sessions_dir) if e.name.endswith(".jsonl.lock")),
                           key=locale_sort_key)
        except OSError:
            continue
        for name in names:
            info = _lock_info(os.path.join(sessions_dir, name), settings, now_ms)
            if info is None:
                continue
            if remove and info.removable:
                try:
                    os.remove(info.path)
                    info.removed = True
                except FileNotFoundError:
                    info.removed = True
                except OSError:
                    pass
            locks.append(info)
    return sorted(locks, key=lambda lock: locale_sort_key(lock.path))


def format_age(age_ms: int | None) -> str:
    if age_ms is None:
        return "unknown"
    seconds = int(age_ms // 1000)
    if seconds < 60:
        return f"{seconds}s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes}m{seconds % 60}s"
    return f"{minutes // 60}h{minutes % 60}m"


def lock_line(ctx: DoctorContext, lock: LockInfo) -> str:
    pid = "pid=missing" if lock.pid is None else f"pid={lock.pid} ({'alive' if lock.pid_alive else 'dead'})"
    stale = f"stale=yes ({', '.join(lock.reasons) or 'unknown'})" if lock.stale else "stale=no"
    removed = " [removed]" if lock.removed else ""
    return f"- {ctx.display(lock.path)} {pid} age={format_age(lock.age_ms)} {stale}{removed}"


def lock_finding(ctx: DoctorContext, lock: LockInfo) -> Finding:
    if lock.removable:
        hint = 'Run "openclaw doctor --fix" to remove this stale lock file automatically.'
    elif lock.report_only:
        hint = "OpenClaw is preserving this live owned lock; inspect the owning process if it appears stuck."
    else:
        hint = 'Run "openclaw doctor --fix" after the cleanup grace period if this stale lock remains.'
    reasons = ", ".join(lock.reasons) or "unknown"
    return Finding(CHECK_ID, "warning", f"Stale session lock file: {ctx.display(lock.path)} ({reasons})", lock.path,
                   hint)


class SessionLocksCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Session locks", "Stale session write-lock files.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        return [lock_finding(ctx, lock) for lock in scan_locks(ctx) if lock.stale]

    def run(self, ctx: DoctorContext, report: Report) -> None:
        repair = ctx.should_repair
        locks = scan_locks(ctx, remove=repair)
        if not locks:
            return
        stale = sum(1 for lock in locks if lock.stale)
        removed = sum(1 for lock in locks if lock.removed)
        lines = [f"- Found {len(locks)} session lock file{'' if len(locks) == 1 else 's'}.",
                 *(lock_line(ctx, lock) for lock in locks)]
        if stale and not repair:
            lines.append(f"- {stale} lock file{' is' if stale == 1 else 's are'} stale.")
            lines.append('- Run "openclaw doctor --fix" to remove stale lock files automatically.')
            if any(lock.removable for lock in locks):
                report.pending_fix = True
        if repair and removed:
            lines.append(f"- Removed {removed} stale session lock file{'' if removed == 1 else 's'}.")
        report.note("Session locks", lines, check_id=self.id, kind="warning" if stale else "note",
                    findings=[lock_finding(ctx, lock) for lock in locks if lock.stale])
        if removed:
            report.changed.extend(lock_line(ctx, lock) for lock in locks if lock.removed)

"""`core/doctor/session-locks`: session write-lock files, staleness reasons and safe removal."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.js.values import object_at
from openclaw_cli.locks.procs import looks_like_openclaw as is_openclaw_argv
from openclaw_cli.locks.procs import pid_alive, process_args, process_start_time

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/session-locks"
DEFAULT_STALE_MS = 30 * 60 * 1000
ORPHAN_PAYLOAD_GRACE_MS = 30_000
REPORT_ONLY = frozenset({"too-old", "hold-exceeded"})
_MAX_SAFE = 2**53 - 1


@dataclass
class LockInfo:
    path: str
    pid: int | None
    pid_alive: bool
    age_ms: int | None
    reasons: list[str] = field(default_factory=list)
    removable: bool = False
    removed: bool = False

    @property
    def stale(self) -> bool:
        return bool(self.reasons)

    @property
    def report_only(self) -> bool:
        return bool(self.reasons) and all(r in REPORT_ONLY for r in self.reasons)


def _lock_number(value) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def resolve_stale_ms(cfg: dict, env) -> int:
    raw = (env.get("OPENCLAW_SESSION_WRITE_LOCK_STALE_MS") or "").strip()
    if re.fullmatch(r"\d+", raw):
        value = int(raw)
        if 0 < value <= _MAX_SAFE:
            return value
    session = object_at(cfg, "session")
    lock = object_at(session, "writeLock")
    configured = lock.get("staleMs")
    if (isinstance(configured, (int, float)) and not isinstance(configured, bool) and configured > 0
            and float(configured).is_integer() and configured <= _MAX_SAFE):
        return int(configured)
    return DEFAULT_STALE_MS


def inspect_lock(path: str, stale_ms: int, now_ms: int) -> LockInfo:
    from openclaw_cli.js.dates import parse_iso_ms as parse_ms

    payload = None
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            parsed = json.loads(handle.read())
        payload = parsed if isinstance(parsed, dict) else None
    except (OSError, ValueError):
        payload = None
    payload = payload or {}
    pid = _lock_number(payload.get("pid"))
    pid = pid if pid and pid > 0 else None
    alive = pid_alive(pid) if pid is not None else False
    created = payload.get("createdAt") if isinstance(payload.get("createdAt"), str) else None
    created_ms = parse_ms(created) if created else None
    age = max(0, now_ms - created_ms) if created_ms is not None else None
    stored_start = _lock_number(payload.get("starttime"))
    recycled = False
    if alive and pid is not None and stored_start is not None:
        current = process_start_time(pid)
        recycled = current is not None and current != stored_start
    reasons: list[str] = []
    if pid is None:
        reasons.append("missing-pid")
    elif not alive:
        reasons.append("dead-pid")
    elif recycled:
        reasons.append("recycled-pid")
    if age is None:
        reasons.append("invalid-createdAt")
    elif age > stale_ms:
        reasons.append("too-old")
    if pid is not None and alive and not recycled and pid != os.getpid():
        args = process_args(pid)
        if args and not is_openclaw_argv(args):
            reasons.append("non-openclaw-owner")
    info = LockInfo(path, pid, alive, age, reasons)
    info.removable = _removable(info, stale_ms, now_ms)
    return info


def _removable(info: LockInfo, stale_ms: int, now_ms: int) -> bool:
    if not info.stale or info.report_only:
        return False
    if not all(r in ("missing-pid", "invalid-createdAt") for r in info.reasons):
        return True
    try:
        mtime_ms = os.stat(info.path).st_mtime * 1000
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return max(0, now_ms - mtime_ms) > min(stale_ms, ORPHAN_PAYLOAD_GRACE_MS)


def scan_locks(ctx: DoctorContext, *, remove: bool = False) -> list[LockInfo]:
    from openclaw_cli.doctor.support.sessionfiles import list_agent_session_dirs
    from openclaw_cli.js.strings import locale_sort_key

    stale_ms = resolve_stale_ms(ctx.cfg, ctx.env)
    now_ms = int(time.time() * 1000)
    locks: list[LockInfo] = []
    for sessions_dir in list_agent_session_dirs(ctx.state_dir):
        try:
            names = sorted((e.name for e in os.scandir(sessions_dir) if e.name.endswith(".jsonl.lock")),
                           key=locale_sort_key)
        except OSError:
            continue
        for name in names:
            info = inspect_lock(os.path.join(sessions_dir, name), stale_ms, now_ms)
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

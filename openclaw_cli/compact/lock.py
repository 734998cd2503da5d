"""The transcript write lock `<transcript>.lock`: inspect, honour and take it as OpenClaw does."""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openclaw_cli.compact.clock import iso_timestamp, now_ms
from openclaw_cli.errors import CliError, LockBusyError
from openclaw_cli.locks.procs import looks_like_openclaw as is_openclaw_argv
from openclaw_cli.locks.procs import pid_alive, process_args, process_start_time
from openclaw_cli.js import json as jsjson
from openclaw_cli.transcript.messages import parse_timestamp_ms

DEFAULT_STALE_MS = 30 * 60 * 1000
DEFAULT_MAX_HOLD_MS = 5 * 60 * 1000
ORPHAN_PAYLOAD_GRACE_MS = 30 * 1000
REPORT_ONLY_REASONS = frozenset({"too-old", "hold-exceeded"})
MTIME_FALLBACK_REASONS = frozenset({"missing-pid", "invalid-createdAt"})


def lock_path_for(transcript: str | Path) -> Path:
    """`<realpath(dir)>/<name>.lock`."""
    transcript = Path(os.path.abspath(transcript))
    try:
        directory = Path(os.path.realpath(transcript.parent))
    except OSError:
        directory = transcript.parent
    return directory / f"{transcript.name}.lock"


def _read_lock_text(path: Path) -> str:
    """The lock file's text (bytes that are not UTF-8 read as U+FFFD, so any content compares)."""
    return path.read_bytes().decode("utf-8", "replace")


def _valid_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass
class LockState:
    """One look at an existing lock file."""

    path: Path
    raw: str | None
    payload: dict[str, Any] | None
    pid: int | None
    alive: bool
    created_at: str | None
    age_ms: int | None
    reasons: list[str] = field(default_factory=list)
    mtime_age_ms: int | None = None

    @property
    def stale(self) -> bool:
        return bool(self.reasons)

    def owner(self) -> str:
        parts = [f"pid={self.pid}", f"alive={'true' if self.alive else 'false'}"] if self.pid else ["owner=unknown"]
        if self.age_ms is not None:
            parts.append(f"ageMs={self.age_ms}")
        return " ".join(parts)

    def reclaimable(self, grace_ms: int = ORPHAN_PAYLOAD_GRACE_MS, stale_ms: int = DEFAULT_STALE_MS) -> bool:
        """Stale enough to stop honouring it (OpenClaw's `shouldReclaim`)."""
        if not self.stale:
            return False
        if set(self.reasons) <= MTIME_FALLBACK_REASONS:
            return self.mtime_age_ms is None or self.mtime_age_ms > min(stale_ms, grace_ms)
        return True

    def removable(self, grace_ms: int = ORPHAN_PAYLOAD_GRACE_MS, stale_ms: int = DEFAULT_STALE_MS) -> bool:
        """Stale in a way that allows deleting the file (`shouldRemoveContendedLockFile`)."""
        if not self.reclaimable(grace_ms, stale_ms):
            return False
        return not set(self.reasons) <= REPORT_ONLY_REASONS


def inspect_lock(path: str | Path, *, stale_ms: int = DEFAULT_STALE_MS, now: int | None = None) -> LockState | None:
    """Read and judge a lock file; None when there is none."""
    path = Path(path)
    now = now_ms() if now is None else now
    try:
        raw = _read_lock_text(path)
        mtime_ms = int(path.stat().st_mtime * 1000)
    except FileNotFoundError:
        return None
    except OSError:
        raw, mtime_ms = None, None
    payload: dict[str, Any] | None = None
    if raw is not None:
        with contextlib.suppress(ValueError):
            parsed = json.loads(raw)
            payload = parsed if isinstance(parsed, dict) else {}
    pid = payload.get("pid") if payload else None
    pid = pid if _valid_int(pid) and pid > 0 else None
    alive = pid_alive(pid) if pid else False
    created_at = payload.get("createdAt") if payload and isinstance(payload.get("createdAt"), str) else None
    created_ms = parse_timestamp_ms(created_at) if created_at else None
    age = max(0, now - created_ms) if created_ms is not None else None
    reasons: list[str] = []
    if pid is None:
        reasons.append("missing-pid")
    elif not alive:
        reasons.append("dead-pid")
    else:
        stored = payload.get("starttime") if payload else None
        if _valid_int(stored):
            current = process_start_time(pid)
            if current is not None and current != stored:
                reasons.append("recycled-pid")
    if age is None:
        reasons.append("invalid-createdAt")
    elif age > stale_ms:
        reasons.append("too-old")
    max_hold = payload.get("maxHoldMs") if payload else None
    if _valid_int(max_hold) and max_hold > 0 and age is not None and age > max_hold:
        reasons.append("hold-exceeded")
    if pid and alive and "recycled-pid" not in reasons and pid != os.getpid():
        args = process_args(pid)
        if args and any(a.strip() for a in args) and not is_openclaw_argv(args):
            reasons.append("non-openclaw-owner")
    return LockState(path=path, raw=raw, payload=payload, pid=pid, alive=alive, created_at=created_at,
                     age_ms=age, reasons=reasons,
                     mtime_age_ms=max(0, now - mtime_ms) if mtime_ms is not None else None)


def _remove_if_unchanged(state: LockState) -> bool:
    """Delete a stale lock unless it changed since it was judged (False then: look again).
    Raises CliError when it can be neither read nor deleted."""
    try:
        current = _read_lock_text(state.path)
    except FileNotFoundError:
        return True
    except OSError as exc:
        raise CliError(f"cannot read the stale transcript lock {state.path}: {exc.strerror or exc} "
                       "(nothing was changed)") from None
    if current != state.raw:
        return False
    try:
        state.path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise CliError(f"cannot remove the stale transcript lock {state.path}: {exc.strerror or exc} "
                       "(nothing was changed)") from None
    return True


@dataclass
class TranscriptLock:
    """A held lock; release() removes the file if it is still ours."""

    path: Path
    raw: str
    stale_removed: list[str] = field(default_factory=list)

    def release(self) -> None:
        with contextlib.suppress(OSError):
            if _read_lock_text(self.path) == self.raw:
                self.path.unlink()

    def __enter__(self) -> TranscriptLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def check_transcript_lock(transcript: str | Path, *, stale_ms: int = DEFAULT_STALE_MS) -> LockState | None:
    """Raise LockBusyError while a live holder has the lock; return the (stale) state otherwise."""
    state = inspect_lock(lock_path_for(transcript), stale_ms=stale_ms)
    if state is None:
        return None
    if not state.reclaimable(stale_ms=stale_ms):
        raise LockBusyError(
            f"session file locked: {state.owner()} {state.path} "
            f"(held by process {state.pid}; retry when it has finished)" if state.pid else
            f"session file locked: {state.owner()} {state.path}")
    if not state.removable(stale_ms=stale_ms):
        raise LockBusyError(
            f"session file lock stale ({', '.join(state.reasons)}): {state.owner()} {state.path} "
            f"(process {state.pid} still runs; stop it or remove the lock file)")
    return state


def acquire_transcript_lock(transcript: str | Path, *, stale_ms: int = DEFAULT_STALE_MS,
                            max_hold_ms: int = DEFAULT_MAX_HOLD_MS, timeout_ms: int = 0) -> TranscriptLock:
    """Take `<transcript>.lock` (refusing a live holder, clearing a stale lock as OpenClaw does)."""
    path = lock_path_for(transcript)
    deadline = time.monotonic() + timeout_ms / 1000
    removed: list[str] = []
    while True:
        payload: dict[str, Any] = {"pid": os.getpid(), "createdAt": iso_timestamp(), "maxHoldMs": max_hold_ms}
        start = process_start_time(os.getpid())
        if start is not None:
            payload["starttime"] = start
        raw = jsjson.stringify(payload, 2) + "\n"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            if path.is_dir():
                raise CliError(f"the transcript lock {path} is a folder; move it aside (nothing was changed)") \
                    from None
            try:
                state = check_transcript_lock(transcript, stale_ms=stale_ms)
            except LockBusyError:
                if time.monotonic() < deadline:
                    time.sleep(0.1)
                    continue
                raise
            if state is not None and _remove_if_unchanged(state):
                removed.append(", ".join(state.reasons))
            continue
        except OSError as exc:
            raise CliError(f"cannot create the transcript lock {path}: {exc.strerror or exc} "
                           "(nothing was changed)") from None
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(raw)
        return TranscriptLock(path=path, raw=raw, stale_removed=removed)

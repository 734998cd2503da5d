"""The session write lock `<transcript>.lock` (`agents/session-write-lock`): settings, inspection, taking it."""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openclaw_cli.errors import CliError, LockBusyError
from openclaw_cli.js.values import object_at
from openclaw_cli.locks.procs import looks_like_openclaw, pid_alive, process_args, process_start_time

DEFAULT_STALE_MS = 30 * 60 * 1000
DEFAULT_MAX_HOLD_MS = 5 * 60 * 1000
TIMEOUT_GRACE_MS = 120 * 1000
MAX_TIMER_TIMEOUT_MS = 2_147_000_000
ORPHAN_PAYLOAD_GRACE_MS = 30 * 1000
STALE_MS_ENV = "OPENCLAW_SESSION_WRITE_LOCK_STALE_MS"
MAX_HOLD_MS_ENV = "OPENCLAW_SESSION_WRITE_LOCK_MAX_HOLD_MS"
REPORT_ONLY_REASONS = frozenset({"too-old", "hold-exceeded"})
MTIME_FALLBACK_REASONS = frozenset({"missing-pid", "invalid-createdAt"})
_MAX_SAFE = 2**53 - 1


# -- settings ------------------------------------------------------------------------------


def _positive_ms(value: Any) -> int | None:
    """`parsePositiveMs`: a positive safe integer (a JSON number), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        return None
    return int(value) if 0 < value <= _MAX_SAFE else None


def _env_ms(env: Mapping[str, str], name: str) -> int | None:
    """`readPositiveMsEnv`: digits only (surrounding blanks allowed), positive and safe."""
    raw = (env.get(name) or "").strip()
    return _positive_ms(int(raw)) if re.fullmatch(r"\d+", raw) else None


def _setting_ms(cfg: Mapping[str, Any] | None, env: Mapping[str, str], key: str, env_name: str,
                fallback: int) -> int:
    """`resolveSessionWriteLockMs`: the variable, else `session.writeLock.<key>`, else the fallback."""
    from_env = _env_ms(env, env_name)
    if from_env is not None:
        return from_env
    from_config = _positive_ms(object_at(object_at(cfg, "session"), "writeLock").get(key))
    return from_config if from_config is not None else fallback


def resolve_stale_ms(cfg: Mapping[str, Any] | None, env: Mapping[str, str]) -> int:
    """When a lock counts as too old: `$OPENCLAW_SESSION_WRITE_LOCK_STALE_MS`, `session.writeLock.staleMs`, 30 min."""
    return _setting_ms(cfg, env, "staleMs", STALE_MS_ENV, DEFAULT_STALE_MS)


def compaction_max_hold_ms(cfg: Mapping[str, Any] | None, env: Mapping[str, str]) -> int:
    """The `maxHoldMs` a compaction writes: the variable, `session.writeLock.maxHoldMs`, else the
    compaction timeout (`agents.defaults.compaction.timeoutSeconds`, 180 s) plus 2 min, at least 5 min."""
    seconds = object_at(object_at(object_at(cfg, "agents"), "defaults"), "compaction").get("timeoutSeconds")
    timeout_ms = 180_000
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and math.isfinite(seconds) \
            and seconds > 0 and math.floor(seconds) * 1000 > 0:
        timeout_ms = min(math.floor(seconds) * 1000, MAX_TIMER_TIMEOUT_MS)
    fallback = min(MAX_TIMER_TIMEOUT_MS, max(DEFAULT_MAX_HOLD_MS, timeout_ms + TIMEOUT_GRACE_MS))
    return _setting_ms(cfg, env, "maxHoldMs", MAX_HOLD_MS_ENV, fallback)


@dataclass(frozen=True)
class LockSettings:
    """How a command judges and writes the lock."""

    stale_ms: int = DEFAULT_STALE_MS
    max_hold_ms: int = DEFAULT_MAX_HOLD_MS
    respect_max_hold: bool = True  # a waiting writer honours the holder's maxHoldMs; doctor's scan does not


def compaction_lock_settings(cfg: Mapping[str, Any] | None, env: Mapping[str, str]) -> LockSettings:
    """The settings the Gateway's compaction takes the lock with."""
    return LockSettings(stale_ms=resolve_stale_ms(cfg, env), max_hold_ms=compaction_max_hold_ms(cfg, env))


# -- inspection ----------------------------------------------------------------------------


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


def _lock_number(value: Any) -> int | None:
    """`isValidLockNumber`: a non-negative integer (5.0 counts, as in JavaScript)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        return None
    return int(value) if value >= 0 else None


@dataclass
class LockState:
    """One look at an existing lock file."""

    path: Path
    raw: str | None
    pid: int | None
    alive: bool
    age_ms: int | None
    reasons: list[str] = field(default_factory=list)
    mtime_age_ms: int | None = None

    @property
    def stale(self) -> bool:
        return bool(self.reasons)

    @property
    def report_only(self) -> bool:
        """Stale only by age: OpenClaw reports the lock but keeps it (the holder still runs)."""
        return self.stale and set(self.reasons) <= REPORT_ONLY_REASONS

    def owner(self) -> str:
        parts = [f"pid={self.pid}", f"alive={'true' if self.alive else 'false'}"] if self.pid else ["owner=unknown"]
        if self.age_ms is not None:
            parts.append(f"ageMs={self.age_ms}")
        return " ".join(parts)

    def _past_grace(self, stale_ms: int) -> bool:
        """A lock without a usable payload counts once its file is older than the grace period."""
        if not set(self.reasons) <= MTIME_FALLBACK_REASONS:
            return True
        return self.mtime_age_ms is None or self.mtime_age_ms > min(stale_ms, ORPHAN_PAYLOAD_GRACE_MS)

    def reclaimable(self, stale_ms: int = DEFAULT_STALE_MS) -> bool:
        """Stale enough to stop honouring it (`shouldReportContendedLockStale`)."""
        return self.stale and self._past_grace(stale_ms)

    def removable(self, stale_ms: int = DEFAULT_STALE_MS) -> bool:
        """Stale in a way that allows deleting the file (`shouldRemoveContendedLockFile`)."""
        return self.stale and not self.report_only and self._past_grace(stale_ms)


def _payload(raw: str | None) -> dict[str, Any]:
    if raw is None:
        return {}
    with contextlib.suppress(ValueError):
        parsed = json.loads(raw)
        if isinstance(parsed, dict):
            return parsed
    return {}


def _reasons(payload: Mapping[str, Any], pid: int | None, alive: bool, age: int | None,
             settings: LockSettings) -> list[str]:
    """`inspectLockPayload` plus the non-OpenClaw owner rule."""
    reasons: list[str] = []
    recycled = False
    if pid is None:
        reasons.append("missing-pid")
    elif not alive:
        reasons.append("dead-pid")
    else:
        stored = _lock_number(payload.get("starttime"))
        current = process_start_time(pid) if stored is not None else None
        recycled = current is not None and current != stored
        if recycled:
            reasons.append("recycled-pid")
    if age is None:
        reasons.append("invalid-createdAt")
    elif age > settings.stale_ms:
        reasons.append("too-old")
    max_hold = _lock_number(payload.get("maxHoldMs"))
    if settings.respect_max_hold and max_hold and age is not None and age > max_hold:
        reasons.append("hold-exceeded")
    if pid is not None and alive and not recycled and pid != os.getpid():
        args = process_args(pid)
        if args and any(a.strip() for a in args) and not looks_like_openclaw(args):
            reasons.append("non-openclaw-owner")
    return reasons


def inspect_lock(path: str | Path, settings: LockSettings | None = None, *, now: int | None = None) -> LockState | None:
    """Read and judge a lock file; None when there is none."""
    from openclaw_cli.js.dates import parse_iso_ms

    settings = settings or LockSettings()
    path = Path(path)
    now = int(time.time() * 1000) if now is None else now
    raw: str | None
    mtime_ms: int | None
    try:
        raw = _read_lock_text(path)
    except FileNotFoundError:
        return None
    except OSError:
        raw = None
    try:
        mtime_ms = int(path.stat().st_mtime * 1000)
    except FileNotFoundError:
        return None
    except OSError:
        mtime_ms = None
    payload = _payload(raw)
    pid = _lock_number(payload.get("pid")) or None
    alive = pid_alive(pid) if pid else False
    created = payload.get("createdAt")
    created_ms = parse_iso_ms(created) if isinstance(created, str) and created else None
    age = max(0, now - int(created_ms)) if created_ms is not None else None
    return LockState(path=path, raw=raw, pid=pid, alive=alive, age_ms=age,
                     reasons=_reasons(payload, pid, alive, age, settings),
                     mtime_age_ms=max(0, now - mtime_ms) if mtime_ms is not None else None)


# -- taking it -----------------------------------------------------------------------------


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


def check_transcript_lock(transcript: str | Path, settings: LockSettings | None = None) -> LockState | None:
    """Raise LockBusyError while a live holder has the lock; return the (stale) state otherwise."""
    settings = settings or LockSettings()
    state = inspect_lock(lock_path_for(transcript), settings)
    if state is None:
        return None
    if not state.reclaimable(settings.stale_ms):
        raise LockBusyError(
            f"session file locked: {state.owner()} {state.path} "
            f"(held by process {state.pid}; retry when it has finished)" if state.pid else
            f"session file locked: {state.owner()} {state.path}")
    if not state.removable(settings.stale_ms):
        raise LockBusyError(
            f"session file lock stale ({', '.join(state.reasons)}): {state.owner()} {state.path} "
            f"(process {state.pid} still runs; stop it or remove the lock file)")
    return state


def _new_payload(max_hold_ms: int) -> str:
    from openclaw_cli.compact.clock import iso_timestamp
    from openclaw_cli.js.json import stringify

    payload: dict[str, Any] = {"pid": os.getpid(), "createdAt": iso_timestamp(), "maxHoldMs": max_hold_ms}
    start = process_start_time(os.getpid())
    if start is not None:
        payload["starttime"] = start
    return stringify(payload, 2) + "\n"


def acquire_transcript_lock(transcript: str | Path, settings: LockSettings | None = None, *,
                            timeout_ms: int = 0) -> TranscriptLock:
    """Take `<transcript>.lock` (refusing a live holder, clearing a stale lock as OpenClaw does)."""
    settings = settings or LockSettings()
    path = lock_path_for(transcript)
    deadline = time.monotonic() + timeout_ms / 1000
    removed: list[str] = []
    while True:
        raw = _new_payload(settings.max_hold_ms)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            if path.is_dir():
                raise CliError(f"the transcript lock {path} is a folder; move it aside (nothing was changed)") \
                    from None
            try:
                state = check_transcript_lock(transcript, settings)
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

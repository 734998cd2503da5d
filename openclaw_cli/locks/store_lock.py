"""`<store>.lock`: the store lock older OpenClaw builds used, so overlapping runs exclude each other."""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass

from openclaw_cli.errors import CliError, LockBusyError
from openclaw_cli.locks.procs import pid_definitely_dead

STALE_AFTER_S = 30.0
# A lock is created empty and its pid written at once; one still without a pid this long after
# its last change was left by a process killed in between (kill -9, power loss).
UNWRITTEN_STALE_AFTER_S = 2.0
POLL_S = 0.025
DEFAULT_WAIT_S = 10.0
HEARTBEAT_S = 5.0


def lock_path_for(store_path: str) -> str:
    return f"{store_path}.lock"


@dataclass
class Holder:
    pid: int | None
    started_at: int | None
    age_s: float


def read_holder(path: str) -> Holder | None:
    """Who holds the lock (pid, start time, age of the file), or None when there is no lock."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    pid = started = None
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.loads(fh.read(4096) or "{}")
        if isinstance(data, dict):
            pid = data.get("pid") if isinstance(data.get("pid"), int) else None
            started = data.get("startedAt") if isinstance(data.get("startedAt"), (int, float)) else None
    except (OSError, ValueError):
        pass
    return Holder(pid, int(started) if started is not None else None, max(0.0, time.time() - st.st_mtime))


def is_stale(holder: Holder) -> bool:
    """Stale after 30 s without a refresh (the old builds' rule), when its process is gone, or
    when it still names no process 2 s after it was made (its maker died before writing it)."""
    if holder.age_s > STALE_AFTER_S:
        return True
    if holder.pid is None and holder.age_s > UNWRITTEN_STALE_AFTER_S:
        return True
    return holder.pid is not None and pid_definitely_dead(holder.pid)


def describe(holder: Holder) -> str:
    who = f"process {holder.pid}" if holder.pid is not None else "another process"
    since = ""
    if holder.started_at is not None:
        since = f", started {max(0, int(time.time() - holder.started_at / 1000))} s ago"
    return f"{who}{since}"


class StoreLock:
    """Held from before the store is read until the last file change; refreshed while held."""

    def __init__(self, store_path: str, wait_s: float = DEFAULT_WAIT_S):
        self.store_path = store_path
        self.path = lock_path_for(store_path)
        self.wait_s = wait_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._held = False

    @property
    def name(self) -> str:
        return os.path.basename(self.path)

    def acquire(self) -> StoreLock:
        from contextlib import ExitStack

        with ExitStack() as waiting:
            self._acquire(waiting)
        self._thread = threading.Thread(target=self._refresh, name="store-lock", daemon=True)
        self._thread.start()
        return self

    def _acquire(self, waiting) -> None:
        """Create the lock file, removing a stale one; while a live run holds it, wait (with a spinner
        at a terminal) up to `wait_s`, then fail with LockBusyError."""
        self._make_folder()
        deadline = time.monotonic() + self.wait_s
        spinning = False
        while True:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                if os.path.isdir(self.path):
                    raise CliError(f"the store lock {self.path} is a folder; move it aside "
                                   "(nothing was changed)") from None
                holder = read_holder(self.path)
                if holder is None:
                    continue
                if is_stale(holder):
                    try:
                        os.unlink(self.path)
                    except FileNotFoundError:
                        pass
                    except OSError as exc:
                        raise CliError(f"cannot remove the stale store lock {self.path}: "
                                       f"{exc.strerror or exc} (nothing was changed)") from None
                    continue
                if not spinning:
                    from openclaw_cli.ui import progress

                    waiting.enter_context(progress.waiting(f"Waiting for the store lock ({describe(holder)})"))
                    spinning = True
                if time.monotonic() >= deadline:
                    raise LockBusyError(
                        f"session store {self.store_path} is locked by {describe(holder)} "
                        f"(lock file {self.path}); another maintenance run is in progress",
                        hint="Try again later; a lock left by a crashed run is ignored after "
                             f"{int(STALE_AFTER_S)} s") from None
                time.sleep(POLL_S)
                continue
            except OSError as exc:
                raise CliError(f"cannot create the store lock {self.path}: {exc.strerror or exc} "
                               "(nothing was changed)") from None
            try:
                os.write(fd, json.dumps({"pid": os.getpid(),
                                         "startedAt": int(time.time() * 1000)}).encode())
            finally:
                os.close(fd)
            self._held = True
            return

    def _make_folder(self) -> None:
        """The store's folder, created when missing (a fresh install's first applying run)."""
        folder = os.path.dirname(self.path) or "."
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            why = "a file is in the way" if isinstance(exc, (FileExistsError, NotADirectoryError)) else \
                exc.strerror or str(exc)
            raise CliError(f"cannot create the sessions folder {folder}: {why} (nothing was changed)") from None

    def _refresh(self) -> None:
        while not self._stop.wait(HEARTBEAT_S):
            try:
                os.utime(self.path)
            except OSError:
                return

    def release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)
        if self._held:
            holder = read_holder(self.path)
            if holder is not None and holder.pid == os.getpid():
                try:
                    os.unlink(self.path)
                except OSError:
                    pass
            self._held = False

    def __enter__(self) -> StoreLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()

"""Progress on long work at a terminal (rich on stderr); silent for pipes, --json and --quiet."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import contextmanager

MIN_ITEMS = 2000  # below this the work is too quick to be worth a bar

_enabled = False


def enable(on: bool) -> None:
    """Turn progress on for this run; it still only shows when stderr is a terminal."""
    global _enabled
    _enabled = bool(on) and sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


def is_enabled() -> bool:
    return _enabled


@contextmanager
def task(description: str, total: int | None):
    """Yields `advance(n=1)`; a no-op unless enabled and the work is large."""
    if not _enabled or (total is not None and total < MIN_ITEMS):
        yield _noop
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=_console(), transient=True) as bar:
        tid = bar.add_task(description, total=total)
        pending = [0]

        def advance(n: int = 1) -> None:
            pending[0] += n
            if pending[0] >= 500:
                bar.advance(tid, pending[0])
                pending[0] = 0

        yield advance
        bar.advance(tid, pending[0])


MIN_BYTES = 32 << 20  # a file read below this size takes well under a second


@contextmanager
def reading(description: str, total_bytes: int):
    """Yields `advance(n_bytes)` for reading a large file; a no-op unless enabled and the file is large."""
    if not _enabled or total_bytes < MIN_BYTES:
        yield _noop
        return
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TimeRemainingColumn(),
                  console=_console(), transient=True) as bar:
        tid = bar.add_task(description, total=total_bytes)
        yield lambda n=1: bar.advance(tid, n)


@contextmanager
def waiting(description: str):
    """A spinner while waiting for something outside our control (a lock); a no-op unless enabled."""
    if not _enabled:
        yield
        return
    with _console().status(description):
        yield


def _console():
    """The rich console of progress output: stderr, coloured as ui/console decides for it."""
    from openclaw_cli.ui.console import color_enabled, rich_console

    return rich_console(sys.stderr, color=color_enabled(sys.stderr))


def _noop(n: int = 1) -> None:
    return None


Advance = Callable[[int], None]

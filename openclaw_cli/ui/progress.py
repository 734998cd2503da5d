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
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from openclaw_cli.ui.console import color_enabled

    console = Console(stderr=True, no_color=not color_enabled(sys.stderr))
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        tid = bar.add_task(description, total=total)
        pending = [0]

        def advance(n: int = 1) -> None:
            pending[0] += n
            if pending[0] >= 500:
                bar.advance(tid, pending[0])
                pending[0] = 0

        yield advance
        bar.advance(tid, pending[0])


def _noop(n: int = 1) -> None:
    return None


Advance = Callable[[int], None]

"""Cyclic garbage collection paused while a step builds many objects that all live on after it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No collection inside: parsing a store or building its rows makes no cycles to free, and each
    collection would walk every object made so far again. Collection resumes as it was after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

"""Cyclic garbage collection paused while a step builds many objects that all live on after it, and those
objects kept out of later collections."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No collection inside: parsing a store or building its rows makes no cycles to free, and each
    collection would walk every object made so far again. Collection resumes as it was after, on the
    objects made from then on: what exists now is frozen (gc.freeze), so no later collection walks the
    store again (its objects are still freed as soon as nothing refers to them)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()

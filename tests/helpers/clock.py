"""Recorded fixtures moved to today: store times shifted relative to now, a session reset that never fires."""

from __future__ import annotations

import time
from typing import Any

# Session entry fields (at any depth) that hold an epoch-ms moment of the recording.
TIME_FIELDS = frozenset({"updatedAt", "sessionStartedAt", "lastInteractionAt", "startedAt", "endedAt",
                         "generatedAt", "createdAt"})
# The Gateway starts a fresh session at the daily boundary (04:00 local) or after `idleMinutes`;
# an idle window of ten years lets no boundary fall inside a test run, whatever the date.
NO_RESET = {"mode": "idle", "idleMinutes": 10 * 365 * 24 * 60}


def now_ms() -> int:
    return int(time.time() * 1000)


# Recorded fixtures are moved to this one moment, so that two copies made a few ms apart (the
# Gateway's and ours in a differential test) hold the same bytes.
RUN_START_MS = now_ms()


def _shift(value: Any, delta_ms: int, key: str = "") -> Any:
    if isinstance(value, dict):
        if key == "skillsSnapshot" and isinstance(value.get("version"), int):
            value["version"] += delta_ms  # the Date.now() of the Gateway run that built it
        for name, child in value.items():
            value[name] = _shift(child, delta_ms, name)
        return value
    if isinstance(value, list):
        return [_shift(child, delta_ms, key) for child in value]
    if key in TIME_FIELDS and isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value + delta_ms
    return value


def recorded_at(store: dict[str, Any]) -> int:
    """The moment a recorded store was last written: its newest `updatedAt`."""
    return max(entry["updatedAt"] for entry in store.values()
               if isinstance(entry, dict) and isinstance(entry.get("updatedAt"), int))


def shift_entry(entry: dict[str, Any], delta_ms: int) -> dict[str, Any]:
    """Every moment recorded in one session entry moved by `delta_ms` (in place; returned)."""
    return _shift(entry, delta_ms)


def shift_to_run_start(recorded: dict[str, Any]) -> int:
    """The shift (ms) that moves a recorded store's last write to RUN_START_MS."""
    return RUN_START_MS - recorded_at(recorded)


def shift_store(store: dict[str, Any]) -> int:
    """Move every recorded moment of every entry so that the newest `updatedAt` is RUN_START_MS
    (in place); the entries keep their ages relative to each other. Returns the shift in ms."""
    delta = shift_to_run_start(store)
    for entry in store.values():
        if isinstance(entry, dict):
            shift_entry(entry, delta)
    return delta


def pin_session_reset(config: dict[str, Any]) -> dict[str, Any]:
    """`session.reset` set to NO_RESET unless the config sets a reset itself (in place; returned)."""
    session = config.setdefault("session", {})
    session.setdefault("reset", dict(NO_RESET))
    return config

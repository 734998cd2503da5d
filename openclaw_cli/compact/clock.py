"""Time stamps in the formats OpenClaw writes (`toISOString`, archive file stamps)."""

from __future__ import annotations

import time
from datetime import datetime, timezone


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def iso_timestamp(ms: int | None = None) -> str:
    """`new Date(ms).toISOString()`: UTC with milliseconds and a `Z`."""
    ms = now_ms() if ms is None else ms
    moment = datetime.fromtimestamp(ms // 1000, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms % 1000:03d}Z"


def archive_stamp(ms: int | None = None) -> str:
    """The `.bak.<stamp>` suffix: the ISO time with `:` replaced by `-`."""
    return iso_timestamp(ms).replace(":", "-")

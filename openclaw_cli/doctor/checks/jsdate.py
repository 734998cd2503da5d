"""`Date.parse` for the ISO-8601 forms OpenClaw writes (other forms read as invalid)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

_ISO = re.compile(
    r"^([+-]\d{6}|\d{4})(?:-(\d{2})(?:-(\d{2}))?)?"
    r"(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$")


def parse_ms(text: str) -> int | None:
    """Epoch milliseconds, or None where JavaScript would give NaN."""
    m = _ISO.match(text.strip()) if isinstance(text, str) else None
    if not m:
        return None
    year, month, day, hour, minute, second, frac, zone = m.groups()
    try:
        base = datetime(int(year), int(month or 1), int(day or 1), tzinfo=timezone.utc)
    except ValueError:
        return None
    h, mi, s = int(hour or 0), int(minute or 0), int(second or 0)
    if h > 24 or mi > 59 or s > 59 or (h == 24 and (mi or s or (frac and int(frac)))):
        return None
    ms = int((frac or "0")[:3].ljust(3, "0"))
    value = base + timedelta(hours=h, minutes=mi, seconds=s, milliseconds=ms)
    if hour is not None and zone is None:
        value = value.replace(tzinfo=None).astimezone(timezone.utc)  # local time, as JS does
    elif zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        value -= sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    return int(value.timestamp() * 1000)

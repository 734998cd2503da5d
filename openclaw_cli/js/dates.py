"""`Date.parse` for ISO-8601 date-time strings, with V8's leniencies (other forms read as invalid)."""

from __future__ import annotations

import re
import time

_ISO = re.compile(
    r"([+-]\d{6}|\d{4})(?:-(\d{2})(?:-(\d{2}))?)?"
    r"(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?([Zz]|[+-]\d{2}:\d{2})?)?\Z", re.ASCII)


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (day may run past the month's end)."""
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    mp = (month + 9) % 12
    doy = (153 * mp + 2) // 5 + day - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def parse_iso_ms(text) -> int | None:
    """Epoch milliseconds, or None where JavaScript gives NaN.

    Date-only forms are UTC, date-times without an offset are local time; a day up to 31 runs
    over into the next month and 24:00:00 is the end of the day, as in V8.
    """
    if not isinstance(text, str):
        return None
    m = _ISO.match(text)
    if not m:
        return None
    year_s, month_s, day_s, hour_s, minute_s, second_s, frac_s, zone = m.groups()
    if year_s == "-000000":
        return None
    year = int(year_s)
    month = int(month_s) if month_s else 1
    day = int(day_s) if day_s else 1
    hour = int(hour_s) if hour_s else 0
    minute = int(minute_s) if minute_s else 0
    second = int(second_s) if second_s else 0
    ms = int(frac_s[:3].ljust(3, "0")) if frac_s else 0
    if not (1 <= month <= 12 and 1 <= day <= 31 and minute <= 59 and second <= 59):
        return None
    if hour > 24 or (hour == 24 and (minute or second or ms)):
        return None
    value = ((days_from_civil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms
    if zone and zone not in ("Z", "z"):
        sign = 1 if zone[0] == "+" else -1
        value -= sign * (int(zone[1:3]) * 60 + int(zone[4:6])) * 60_000
    elif hour_s is not None and zone is None:
        value -= _local_offset_ms(value)
    if abs(value) > 8.64e15:
        return None
    return value


def _local_offset_ms(local_ms: int) -> int:
    """The local zone's UTC offset at a wall-clock time (as the C library knows it)."""
    seconds = local_ms // 1000
    try:
        as_utc = time.gmtime(seconds)
        guess = time.mktime(as_utc[:8] + (-1,))
    except (OverflowError, ValueError, OSError):
        return 0
    return int(seconds - guess) * 1000

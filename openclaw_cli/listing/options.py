"""`--active` and `--limit` parsing with OpenClaw's strict integer rules and messages."""

from __future__ import annotations

import re

from openclaw_cli.config.units import MAX_SAFE_INTEGER
from openclaw_cli.errors import UsageError
from openclaw_cli.js.strings import js_trim

DEFAULT_LIMIT = 100
ACTIVE_ERROR = "--active must be a positive number of minutes, for example --active 30."
LIMIT_ERROR = '--limit must be a positive integer or "all", for example --limit 25.'

_SIGNED_INT = re.compile(r"[+-]?[0-9]+")
_DIGITS = re.compile(r"[0-9]+")


def parse_strict_positive_integer(value: str | None) -> int | None:
    """parseStrictPositiveInteger: an optionally signed decimal string that is a safe integer > 0."""
    if not isinstance(value, str):
        return None
    text = js_trim(value)
    if not text or not _SIGNED_INT.fullmatch(text):
        return None
    number = int(text)
    if abs(number) > MAX_SAFE_INTEGER or number <= 0:
        return None
    return number


def parse_active_minutes(value: str | None) -> int | None:
    """None when `--active` is not given; raises UsageError (exit 2) for a bad value."""
    if value is None:
        return None
    minutes = parse_strict_positive_integer(value)
    if minutes is None:
        raise UsageError(ACTIVE_ERROR)
    return minutes


def parse_limit(value: str | None) -> int | None:
    """The row limit: 100 by default, None for `all`; raises UsageError (exit 2) for a bad value."""
    if value is None:
        return DEFAULT_LIMIT
    text = js_trim(value)
    if text.lower() == "all":
        return None
    limit = parse_strict_positive_integer(text) if _DIGITS.fullmatch(text) else None
    if limit is None:
        raise UsageError(LIMIT_ERROR)
    return limit

"""`session.maintenance` resolved with OpenClaw 2026.7.1's defaults and fallbacks."""

from __future__ import annotations

import math
from dataclasses import dataclass

from openclaw_cli.js.strings import js_number_to_string, js_trim

DEFAULT_PRUNE_AFTER_MS = 30 * 86_400_000
MODEL_RUN_PRUNE_AFTER_MS = 86_400_000
DEFAULT_MAX_ENTRIES = 500
HIGH_WATER_RATIO = 0.8


@dataclass(frozen=True)
class MaintenanceSettings:
    mode: str
    prune_after_ms: int
    max_entries: int
    model_run_prune_after_ms: int
    reset_archive_retention_ms: int | None
    max_disk_bytes: int | None
    high_water_bytes: int | None


def _stringified(value) -> str | None:
    """normalizeStringifiedOptionalString: strings trimmed, numbers/booleans via String()."""
    if isinstance(value, str):
        return js_trim(value) or None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_trim(js_number_to_string(value)) or None
    return None


def _duration(raw, fallback: int) -> int:
    from openclaw_cli.config.units import parse_duration_ms

    text = _stringified(raw)
    if not text:
        return fallback
    try:
        return parse_duration_ms(text, default_unit="d")
    except ValueError:
        return fallback


def _bytes(raw) -> int | None:
    from openclaw_cli.config.units import parse_byte_size

    text = _stringified(raw)
    if not text:
        return None
    try:
        return parse_byte_size(text, default_unit="b")
    except ValueError:
        return None


def _default_high_water(max_bytes: int) -> int:
    if max_bytes <= 0:
        return 0
    return max(1, min(max_bytes, math.floor(max_bytes * HIGH_WATER_RATIO)))


def resolve_maintenance(section) -> MaintenanceSettings:
    """Settings from the config's `session.maintenance` object (None or missing → defaults)."""
    m = section if isinstance(section, dict) else {}
    raw_prune = m.get("pruneAfter")
    if raw_prune is None:
        raw_prune = m.get("pruneDays")
    prune_after = _duration(raw_prune, DEFAULT_PRUNE_AFTER_MS)
    reset_raw = m.get("resetArchiveRetention")
    reset_ms = None if reset_raw is False else _duration(reset_raw, prune_after)
    max_bytes = _bytes(m.get("maxDiskBytes"))
    high_water: int | None = None
    if max_bytes is not None:
        explicit = _bytes(m.get("highWaterBytes")) if _stringified(m.get("highWaterBytes")) else None
        high_water = min(explicit, max_bytes) if explicit is not None else _default_high_water(max_bytes)
    mode = m.get("mode")
    max_entries = m.get("maxEntries")
    return MaintenanceSettings(
        mode=mode if mode is not None else "enforce",
        prune_after_ms=prune_after,
        max_entries=max_entries if max_entries is not None else DEFAULT_MAX_ENTRIES,
        model_run_prune_after_ms=MODEL_RUN_PRUNE_AFTER_MS,
        reset_archive_retention_ms=reset_ms,
        max_disk_bytes=max_bytes,
        high_water_bytes=high_water,
    )


def entry_high_water(max_entries) -> int:
    """Runtime batching threshold; the CLI always caps straight to maxEntries."""
    if not isinstance(max_entries, int) or isinstance(max_entries, bool) or max_entries <= 0:
        return 1
    if max_entries <= 49:
        return max_entries + 1
    return max_entries + max(25, math.ceil(max_entries * 0.1))


# OpenClaw 2026.9.6 (the SQLite era): new keys, new defaults, the disk budget on by default.
DEFAULT_MAX_ENTRIES_2026_9 = 5000
DEFAULT_ARCHIVE_DASHBOARD_AFTER_MS = 7 * 86_400_000
DEFAULT_MAX_DISK_BYTES_2026_9 = 10 * 1024 ** 3


@dataclass(frozen=True)
class SqliteEraSettings:
    """`session.maintenance` as OpenClaw 2026.9.6 resolves it."""

    mode: str
    prune_after_ms: int
    archive_dashboard_after_ms: int | None
    max_entries: int
    model_run_prune_after_ms: int
    preserve_recent_ms: int | None
    max_disk_bytes: int | None
    high_water_bytes: int | None


def _archive_dashboard_after(raw) -> int | None:
    if raw is False or (raw == 0 and not isinstance(raw, bool)):
        return None
    parsed = _duration(raw, DEFAULT_ARCHIVE_DASHBOARD_AFTER_MS)
    return parsed if parsed > 0 else None


def _preserve_recent(raw) -> int | None:
    from openclaw_cli.config.units import parse_duration_ms

    if raw is False or raw is None:
        return None
    try:
        return parse_duration_ms(_stringified(raw) or "", default_unit="d")
    except ValueError:
        return None


def _max_disk_bytes_2026_9(raw) -> int | None:
    if raw is False:
        return None
    if not _stringified(raw):
        return DEFAULT_MAX_DISK_BYTES_2026_9
    parsed = _bytes(raw)
    return parsed if parsed is not None and parsed > 0 else None


def _high_water_2026_9(raw, max_bytes: int | None) -> int | None:
    if max_bytes is None:
        return None
    default = _default_high_water(max_bytes)
    if not _stringified(raw):
        return default
    parsed = _bytes(raw)
    if parsed is None:
        return default
    return min(parsed, max_bytes) if parsed > 0 else default


def resolve_maintenance_sqlite_era(section) -> SqliteEraSettings:
    """2026.9.6's settings: `pruneAfter` archives (30d), `archiveDashboardAfter` (7d),
    `maxEntries` 5000, `preserveRecent` (off), `maxDiskBytes` 10gb unless false or 0."""
    m = section if isinstance(section, dict) else {}
    max_bytes = _max_disk_bytes_2026_9(m.get("maxDiskBytes"))
    mode = m.get("mode")
    max_entries = m.get("maxEntries")
    return SqliteEraSettings(
        mode=mode if mode is not None else "enforce",
        prune_after_ms=_duration(m.get("pruneAfter"), DEFAULT_PRUNE_AFTER_MS),
        archive_dashboard_after_ms=_archive_dashboard_after(m.get("archiveDashboardAfter")),
        max_entries=max_entries if max_entries is not None else DEFAULT_MAX_ENTRIES_2026_9,
        model_run_prune_after_ms=MODEL_RUN_PRUNE_AFTER_MS,
        preserve_recent_ms=_preserve_recent(m.get("preserveRecent")),
        max_disk_bytes=max_bytes,
        high_water_bytes=_high_water_2026_9(m.get("highWaterBytes"), max_bytes),
    )

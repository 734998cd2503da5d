"""Config keys the schema does not know (the paths OpenClaw's validator rejects as unrecognized)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def unknown_key_paths(cfg: Any, env: Mapping[str, str] | None = None) -> list[tuple[str | int, ...]]:
    """Paths of unrecognized keys, children before the parent's own extras (validator order), by
    the schema of the release the config belongs to (a SQLite-era config keeps 2026.9.6's keys)."""
    from openclaw_cli.config.era import config_era
    from openclaw_cli.config.schema import unknown_key_paths as schema_unknown_key_paths

    return schema_unknown_key_paths(cfg, config_era(cfg, env))


def dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path)

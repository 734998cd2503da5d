"""Config keys the schema does not know (the paths OpenClaw's validator rejects as unrecognized)."""

from __future__ import annotations

from typing import Any


def unknown_key_paths(cfg: Any) -> list[tuple[str | int, ...]]:
    """Paths of unrecognized keys, children before the parent's own extras (validator order)."""
    from openclaw_cli.config.schema import unknown_key_paths as schema_unknown_key_paths

    return schema_unknown_key_paths(cfg)


def dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path)

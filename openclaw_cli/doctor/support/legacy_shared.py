"""Helpers shared by the legacy-config rules and migrations (JavaScript object semantics)."""

from __future__ import annotations

import copy
from typing import Any

from openclaw_cli.js.values import UNDEFINED as MISSING

BLOCKED_KEYS = frozenset({"__proto__", "prototype", "constructor"})


def rec(value: Any) -> dict | None:
    return value if isinstance(value, dict) else None


def list_at(parent: dict, key: str) -> list:
    """`parent[key]` when it is an array, else a fresh empty list."""
    value = parent.get(key)
    return value if isinstance(value, list) else []


def str_at(parent: dict, key: str) -> str:
    """`parent[key]` when it is a string, else ''."""
    value = parent.get(key)
    return value if isinstance(value, str) else ""


def ensure(root: dict, key: str) -> dict:
    current = root.get(key)
    if isinstance(current, dict):
        return current
    root[key] = {}
    return root[key]


def merge_missing(target: dict, source: dict) -> None:
    for key, value in source.items():
        if key in BLOCKED_KEYS:
            continue
        existing = target.get(key)
        if key not in target:
            target[key] = value
        elif isinstance(existing, dict) and isinstance(value, dict):
            merge_missing(existing, value)


def cleanup_empty(parent: dict, key: str) -> None:
    value = parent.get(key)
    if isinstance(value, dict) and not value:
        del parent[key]


def clone(value: Any) -> Any:
    return copy.deepcopy(value)


def get_path(root: Any, path: tuple[str, ...]) -> Any:
    """`undefined` is returned as the sentinel MISSING."""
    cursor = root
    for key in path:
        if not isinstance(cursor, dict) or key not in cursor:
            return MISSING
        cursor = cursor[key]
    return cursor

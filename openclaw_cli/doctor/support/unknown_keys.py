"""Config keys the schema does not know (the paths OpenClaw's validator rejects as unrecognized)."""

from __future__ import annotations

from typing import Any


def unknown_key_paths(cfg: Any) -> list[tuple[str | int, ...]]:
    """Paths of unrecognized keys, children before the parent's own extras (validator order)."""
    from openclaw_cli.config import schema as cfgmod

    out: list[tuple[str | int, ...]] = []
    _walk(cfgmod._ROOT, cfg, (), out, cfgmod)
    return out


def _walk(schema: Any, value: Any, path: tuple, out: list, m: Any) -> None:
    if isinstance(schema, m._Obj):
        if not isinstance(value, dict):
            return
        for key, child in schema.shape.items():
            if key in value:
                _walk(child, value[key], (*path, key), out, m)
        extra = [k for k in value if k not in schema.shape]
        if schema.catchall is not None:
            for key in extra:
                _walk(schema.catchall, value[key], (*path, key), out, m)
        elif schema.strict:
            out.extend((*path, key) for key in extra)
    elif isinstance(schema, m._Rec):
        if isinstance(value, dict):
            for key, item in value.items():
                _walk(schema.value, item, (*path, key), out, m)
    elif isinstance(schema, m._Arr):
        if isinstance(value, list):
            for index, item in enumerate(value):
                _walk(schema.item, item, (*path, index), out, m)
    elif isinstance(schema, m._Tagged):
        if isinstance(value, dict) and isinstance(value.get(schema.key), str):
            option = schema.options.get(value[schema.key])
            if option is not None:
                _walk(option, value, path, out, m)
    elif isinstance(schema, m._Union):
        objects = [o for o in schema.options if isinstance(o, m._Obj)]
        if isinstance(value, dict) and len(objects) == 1:
            _walk(objects[0], value, path, out, m)


def dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path)

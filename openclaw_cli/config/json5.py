"""`openclaw.json` text as OpenClaw parses it: JSON.parse first, then JSON5, with JS number precision."""

from __future__ import annotations

import json
import re
from typing import Any

from openclaw_cli.config.units import MAX_SAFE_INTEGER


def js_numbers(value: Any) -> Any:
    """Give integers the precision of a JS number (above 2**53 they become floats)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value) if abs(value) > MAX_SAFE_INTEGER else value
    if isinstance(value, dict):
        return {k: js_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [js_numbers(v) for v in value]
    return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"invalid JSON constant {name}")


_POSITION = re.compile(r"^<string>:(\d+) (.*) at column (\d+)$", re.S)


def parse_json5(raw: str, source: str | None = None) -> Any:
    """JSON.parse first, then JSON5 (comments, trailing commas, unquoted keys…). Raises ValueError,
    whose message names `source` (the file) with the line and column: `<file>:2:1: Unexpected end of input`."""
    try:
        return js_numbers(json.loads(raw, parse_constant=_reject_constant))
    except (ValueError, RecursionError):
        pass
    import json5

    try:
        return js_numbers(json5.loads(raw))
    except Exception as exc:  # json5 raises ValueError subclasses, and others on odd input
        text = str(exc) or exc.__class__.__name__
        where = _POSITION.match(text)
        if where and source:
            text = f"{source}:{where.group(1)}:{where.group(3)}: {where.group(2)}"
        elif source:
            text = f"{source}: {text}"
        raise ValueError(text) from None


def read_text(path: str) -> str:
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8", errors="replace")

"""`openclaw.json` text as OpenClaw parses it: JSON.parse first, then JSON5, with JS number precision."""

from __future__ import annotations

import json
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


def parse_json5(raw: str) -> Any:
    """JSON.parse first, then JSON5 (comments, trailing commas, unquoted keys…). Raises ValueError."""
    try:
        return js_numbers(json.loads(raw, parse_constant=_reject_constant))
    except (ValueError, RecursionError):
        pass
    import json5

    try:
        return js_numbers(json5.loads(raw))
    except Exception as exc:  # json5 raises ValueError subclasses, and others on odd input
        raise ValueError(str(exc) or exc.__class__.__name__) from None


def read_text(path: str) -> str:
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8", errors="replace")

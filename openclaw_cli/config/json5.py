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


class Json5Error(ValueError):
    """npm json5's SyntaxError: `str()` is `String(err)` (`SyntaxError: JSON5: …`), `message` its message."""

    def __init__(self, message: str) -> None:
        super().__init__(f"SyntaxError: {message}")
        self.message = message


def parse_json5(raw: str) -> Any:
    """JSON.parse first, then JSON5 (comments, trailing commas, unquoted keys…). Raises Json5Error
    for text npm json5 rejects (`SyntaxError: JSON5: invalid character '@' at 2:12`), ValueError
    for the rare text it accepts that the Python package cannot read."""
    try:
        return js_numbers(json.loads(raw, parse_constant=_reject_constant))
    except (ValueError, RecursionError):
        pass
    from openclaw_cli.config.json5_reason import json5_failure

    failure = json5_failure(raw)
    if failure is not None:
        raise Json5Error(failure)
    import json5

    try:
        return js_numbers(json5.loads(raw))
    except RecursionError:  # npm json5 accepts it; the Python package recurses
        raise ValueError("nested too deeply for our JSON5 parser") from None
    except Exception as exc:  # npm json5 accepts it; the Python package does not
        raise ValueError(f"our JSON5 parser could not read it: {exc or exc.__class__.__name__}") from None


def read_text(path: str) -> str:
    with open(path, "rb") as handle:
        return handle.read().decode("utf-8", errors="replace")

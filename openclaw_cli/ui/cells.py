"""Session table cells shared by `sessions` listings and the cleanup plan (key, age, model, flags)."""

from __future__ import annotations

from collections.abc import Mapping

from openclaw_cli.js.strings import pad_end, utf16_len, utf16_slice
from openclaw_cli.js.values import js_string
from openclaw_cli.js.values import truthy as js_truthy

KEY_PAD = 26
AGE_PAD = 9
MODEL_PAD = 14


def format_time_ago(duration_ms: float) -> str:
    """`formatTimeAgo`: just now, Nm ago, Nh ago (under 48 h), Nd ago."""
    if duration_ms is None or duration_ms != duration_ms or duration_ms < 0:
        return "unknown"
    seconds = _js_round(duration_ms / 1000)
    minutes = _js_round(seconds / 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes}m ago"
    hours = _js_round(minutes / 60)
    if hours < 48:
        return f"{hours}h ago"
    return f"{_js_round(hours / 24)}d ago"


def _js_round(x: float) -> int:
    """`Math.round`: halves round towards +∞."""
    import math

    return math.floor(x + 0.5)


def key_cell(key: str) -> str:
    label = key
    if utf16_len(key) > KEY_PAD:
        label = f"{utf16_slice(key, 0, 16)}...{utf16_slice(key, -6)}"
    return pad_end(label, KEY_PAD)


def age_text(updated_at: float | None, now_ms: float) -> str:
    """`12m ago`, `3d ago`, or `unknown` without an update time."""
    return format_time_ago(now_ms - updated_at) if updated_at else "unknown"


def age_cell(updated_at: float | None, now_ms: float) -> str:
    return pad_end(age_text(updated_at, now_ms), AGE_PAD)


def model_text(model: str | None) -> str:
    return model if model is not None else "unknown"


def model_cell(model: str | None) -> str:
    return pad_end(model_text(model), MODEL_PAD)


_FLAG_FIELDS = (
    ("thinkingLevel", "think:"),
    ("verboseLevel", "verbose:"),
    ("traceLevel", "trace:"),
    ("reasoningLevel", "reasoning:"),
    ("elevatedLevel", "elev:"),
    ("responseUsage", "usage:"),
    ("groupActivation", "activation:"),
)


def flags_cell(entry: Mapping, policy_key: str | None = None) -> str:
    parts = [f"{prefix}{js_string(entry.get(field))}" for field, prefix in _FLAG_FIELDS
             if js_truthy(entry.get(field))]
    if js_truthy(entry.get("systemSent")):
        parts.append("system")
    if js_truthy(entry.get("abortedLastRun")):
        parts.append("aborted")
    if policy_key:
        parts.append(f"policy:{policy_key}")
    if js_truthy(entry.get("sessionId")):
        parts.append(f"id:{js_string(entry.get('sessionId'))}")
    return " ".join(parts)


def display_model(cfg: Mapping, key: str, entry: Mapping, *, runtime_cfg: Mapping | None = None) -> str:
    """The model id a session table shows for an entry (override, stored model, or the default).

    `runtime_cfg` is the config as OpenClaw sees it at run time (`listing.runtime_view`);
    pass it when rendering many rows so it is computed once.
    """
    from openclaw_cli.listing.model_ref import display_model_ref
    from openclaw_cli.listing.runtime_config import runtime_view

    view = runtime_cfg if runtime_cfg is not None else runtime_view(cfg)
    return display_model_ref(view, key, entry).model

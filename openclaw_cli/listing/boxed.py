"""The text table of `openclaw sessions` for a SQLite-era store, as OpenClaw 2026.9.6 draws it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openclaw_cli.js.strings import js_trim, sanitize_terminal_text
from openclaw_cli.js.values import js_round, js_string, js_to_fixed, truthy
from openclaw_cli.listing.context_tokens import ContextDefaults
from openclaw_cli.listing.rows import SessionRow
from openclaw_cli.ui import boxtable
from openclaw_cli.ui.cells import format_time_ago
from openclaw_cli.ui.width import clusters

_FLAG_FIELDS = (
    ("thinkingLevel", "think:"), ("verboseLevel", "verbose:"), ("traceLevel", "trace:"),
    ("reasoningLevel", "reasoning:"), ("elevatedLevel", "elev:"), ("responseUsage", "usage:"),
    ("groupActivation", "activation:"),
)
_KIND_STYLES = {"group": "accentBright", "global": "warn", "direct": "accent"}


def token_count(value: float) -> str:
    """`formatTokenCount`: 950, 12.3k below 10k, 123k, then 1.2m."""
    safe = max(0.0, float(value))
    if safe < 1000:
        return js_string(js_round(safe))
    if safe < 1_000_000:
        thousands = js_to_fixed(safe / 1000, 0 if safe >= 10_000 else 1)
        if float(thousands) < 1000:
            return f"{thousands}k"
    return f"{js_to_fixed(safe / 1_000_000, 1)}m"


def tokens_cell(row: SessionRow, context_tokens: Any) -> tuple[str, str | None]:
    ctx = token_count(context_tokens) if truthy(context_tokens) else "?"
    total = row.total_tokens()
    if total is None:
        return f"unknown/{ctx} (?%)", "muted"
    fresh = row.fresh_total()
    pct = min(999, js_round(fresh / context_tokens * 100)) if truthy(context_tokens) and fresh is not None else None
    label = f"{token_count(total)}/{ctx} ({'?' if pct is None else js_string(pct)}%)"
    if pct is None:
        return label, None
    return label, "error" if pct >= 95 else "warn" if pct >= 80 else "success" if pct >= 60 else "muted"


def _actor_label(actor: Mapping) -> str:
    for name in ("label", "id"):
        value = actor.get(name)
        if isinstance(value, str) and js_trim(value):
            return js_trim(value)
    return js_string(actor.get("type"))


def flags_cell(row: SessionRow) -> str:
    return entry_flags(row.entry, row.policy_key)


def entry_flags(entry: Mapping, policy_key: str | None = None) -> str:
    """`formatSessionFlagsCell` (2026.9.6): levels, system/aborted, visibility, owner, participants,
    policy, id."""
    parts = [f"{prefix}{js_string(entry.get(name))}" for name, prefix in _FLAG_FIELDS if truthy(entry.get(name))]
    if truthy(entry.get("systemSent")):
        parts.append("system")
    if truthy(entry.get("abortedLastRun")):
        parts.append("aborted")
    visibility = entry.get("visibility")
    visibility = "shared" if visibility is None else visibility
    if truthy(visibility):
        parts.append(f"visibility:{js_string(visibility)}")
    owner = entry.get("owner")
    actor = owner.get("actor") if isinstance(owner, Mapping) else None
    actor = actor if isinstance(actor, Mapping) else entry.get("createdActor")
    if isinstance(actor, Mapping):
        parts.append(f"owner:{_actor_label(actor)}")
    participants = entry.get("participants")
    listed = participants[:4] if isinstance(participants, list) else []
    names = []
    for item in listed:
        item = item if isinstance(item, Mapping) else {}
        label = item.get("label")
        found = item.get("identity")
        identity: Mapping = found if isinstance(found, Mapping) else {}
        names.append(js_trim(label) if isinstance(label, str) and js_trim(label)
                     else f"{js_string(identity.get('type'))}:{js_string(identity.get('id'))}")
    if names:
        count = entry.get("participantCount")
        rest = max(0, (count if isinstance(count, int) and not isinstance(count, bool) else len(names)) - len(names))
        parts.append("participants:" + ",".join(names) + (f",+{rest}" if rest > 0 else ""))
    if policy_key:
        parts.append(f"policy:{policy_key}")
    if truthy(entry.get("sessionId")):
        parts.append(f"id:{js_string(entry.get('sessionId'))}")
    return sanitize_terminal_text(" ".join(parts))


def key_label(key: str) -> str:
    """`truncateSessionKey`: more than 26 characters → the first 16, `...`, the last 6."""
    label = sanitize_terminal_text(key)
    chars = clusters(label)
    return label if len(chars) <= 26 else "".join(chars[:16]) + "..." + "".join(chars[-6:])


def table_lines(rows: list[SessionRow], now_ms: float, context: ContextDefaults, show_agent: bool,
                style: boxtable.Styler, width: int, home: str | None, home_prefix: str = "~") -> list[str]:
    columns = ([boxtable.Column("agent", "Agent")] if show_agent else []) + [
        boxtable.Column("kind", "Kind"), boxtable.Column("key", "Key"), boxtable.Column("age", "Age"),
        boxtable.Column("model", "Model"), boxtable.Column("runtime", "Runtime"),
        boxtable.Column("tokens", "Tokens (ctx %)"), boxtable.Column("flags", "Flags", flex=True)]
    cells = []
    for row in rows:
        model = row.model_ref.model
        updated = row.updated_at
        flags = flags_cell(row)
        cells.append({
            "agent": (sanitize_terminal_text(row.agent_id), "accentBright"),
            "kind": (row.kind, _KIND_STYLES.get(row.kind, "muted")),
            "key": (key_label(row.key), "accent"),
            "age": (format_time_ago(now_ms - updated) if updated else "unknown", "muted"),
            "model": (sanitize_terminal_text(model if model is not None else "unknown"), "info"),
            "runtime": (sanitize_terminal_text(row.runtime_label), "info"),
            "tokens": tokens_cell(row, context.of_row(row)),
            "flags": (flags, "muted" if flags else None),
        })
    lines = boxtable.render(columns, cells, width=width, style=style, home=home, home_prefix=home_prefix)
    return [line.rstrip() for line in lines]

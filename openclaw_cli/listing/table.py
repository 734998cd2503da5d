"""The text form of `openclaw sessions`: header lines and the fixed-width session table."""

from __future__ import annotations

import math
from typing import Any

from openclaw_cli.js.strings import js_number_to_string, pad_end
from openclaw_cli.js.values import js_round, js_to_fixed, js_to_number, js_trim_end, truthy
from openclaw_cli.listing.context_tokens import ContextDefaults
from openclaw_cli.listing.rows import SessionRow
from openclaw_cli.ui import cells as display
from openclaw_cli.ui.console import Style

AGENT_PAD = 10
KIND_PAD = 11
RUNTIME_PAD = 18
TOKENS_PAD = 20



def format_k_tokens(value: Any) -> str:
    """`12.3k` below 10k, `123k` from 10k on (JavaScript toFixed rounding)."""
    number = js_to_number(value)
    return f"{js_to_fixed(number / 1000, 0 if number >= 10_000 else 1)}k"


def _js_divide(a: float, b: float) -> float:
    if b != 0:
        return a / b
    if a == 0 or math.isnan(a) or math.isnan(b):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _pct(total: float, context_tokens: Any) -> float | None:
    """`Math.min(999, Math.round(total / contextTokens * 100))`, None without a context size."""
    if not truthy(context_tokens):
        return None
    rounded = js_round(_js_divide(float(total), js_to_number(context_tokens)) * 100)
    return rounded if math.isnan(rounded) else min(999, rounded)


def _pct_style(pct: float | None) -> str | None:
    if pct is None:
        return None
    if pct >= 95:
        return "error"
    if pct >= 80:
        return "warn"
    if pct >= 60:
        return "success"
    return "muted"


def tokens_text(total: float | None, context_tokens: Any) -> tuple[str, str | None]:
    """`Tokens (ctx %)`: `12k/200k (6%)`, or `unknown/200k (?%)` without a usable total; and its style."""
    ctx_label = format_k_tokens(context_tokens) if truthy(context_tokens) else "?"
    if total is None:
        return f"unknown/{ctx_label} (?%)", "muted"
    pct = _pct(total, context_tokens)
    pct_text = "?" if pct is None else js_number_to_string(pct)
    return f"{format_k_tokens(total)}/{ctx_label} ({pct_text}%)", _pct_style(pct)


def tokens_cell(total: float | None, context_tokens: Any, style: Style) -> str:
    text, name = tokens_text(total, context_tokens)
    padded = pad_end(text, TOKENS_PAD)
    return style(name, padded) if name else padded


_KIND_STYLES = {"group": "accentBright", "global": "warn", "direct": "accent"}


def header_line(show_agent: bool) -> str:
    cells = ["Agent".ljust(AGENT_PAD)] if show_agent else []
    cells += ["Kind".ljust(KIND_PAD), "Key".ljust(display.KEY_PAD), "Age".ljust(display.AGE_PAD),
              "Model".ljust(display.MODEL_PAD), "Runtime".ljust(RUNTIME_PAD), "Tokens (ctx %)".ljust(TOKENS_PAD),
              "Flags"]
    return " ".join(cells)


def row_line(row: SessionRow, now_ms: float, context: ContextDefaults, show_agent: bool, style: Style) -> str:
    model = row.model_ref.model
    context_tokens = context.of_row(row)
    cells = [style("accentBright", pad_end(row.agent_id, AGENT_PAD))] if show_agent else []
    flags = display.flags_cell(row.entry, row.policy_key)
    cells += [
        style(_KIND_STYLES.get(row.kind, "muted"), pad_end(row.kind, KIND_PAD)),
        style("accent", display.key_cell(row.key)),
        style("muted", display.age_cell(row.updated_at, now_ms)),
        style("info", display.model_cell(model)),
        style("info", pad_end(row.runtime_label, RUNTIME_PAD)),
        tokens_cell(row.total_tokens(), context_tokens, style),
        style("muted", flags) if flags else "",
    ]
    return js_trim_end(" ".join(cells))


def fitted_table_lines(rows: list[SessionRow], now_ms: float, context: ContextDefaults, show_agent: bool,
                       style: Style, width: int) -> list[str]:
    """The table at a terminal `width` columns wide: flags, then runtime and model cut at the end
    before keys are cut (in the middle, both ends kept); the flags, then the runtime, then the model
    left out when even the cut columns do not fit."""
    from openclaw_cli.ui import fit

    columns = ([fit.Column("Agent", minimum=5, shrink=3)] if show_agent else []) + [
        fit.Column("Kind"), fit.Column("Key", fit.middle_cut, minimum=12, shrink=3), fit.Column("Age"),
        fit.Column("Model", minimum=8, drop=3, shrink=2), fit.Column("Runtime", minimum=8, drop=2, shrink=2),
        fit.Column("Tokens (ctx %)"), fit.Column("Flags", minimum=8, drop=1)]
    cells: list[list[str]] = []
    names: list[list[str | None]] = []
    for row in rows:
        model = row.model_ref.model
        tokens, tokens_style = tokens_text(row.total_tokens(), context.of_row(row))
        cells.append(([row.agent_id] if show_agent else []) + [
            row.kind, row.key, display.age_text(row.updated_at, now_ms), display.model_text(model),
            row.runtime_label, tokens, display.flags_cell(row.entry, row.policy_key)])
        agent_style: list[str | None] = ["accentBright"] if show_agent else []
        names.append(agent_style + [_KIND_STYLES.get(row.kind, "muted"), "accent", "muted", "info", "info",
                                    tokens_style, "muted"])
    return fit.fitted_lines(columns, cells, names, width, style)


def table_lines(rows: list[SessionRow], now_ms: float, context: ContextDefaults, show_agent: bool,
                style: Style) -> list[str]:
    return [style("heading", header_line(show_agent)),
            *(row_line(row, now_ms, context, show_agent, style) for row in rows)]

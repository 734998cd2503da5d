"""The text of a SQLite-era dry run, as OpenClaw 2026.9.6 prints it: counts, a box-drawn table, labels."""

from __future__ import annotations

from collections.abc import Mapping

from openclaw_cli.maintenance.render import artifact_and_budget_lines, label_summary_lines
from openclaw_cli.maintenance.sqlite_plan import SqlitePreview
from openclaw_cli.ui import boxtable

KEPT_ACTIONS = frozenset(("keep", "archive-dashboard", "archive-cap", "archive-age"))
ACTION_STYLES = {"keep": "muted", "archive-dashboard": "warn", "archive-cap": "warn", "archive-age": "warn",
                 "prune-missing": "error", "prune-model-run": "warn", "prune-stale": "warn",
                 "retire-dm-scope": "warn", "cap-overflow": "accentBright"}


def count_lines(s: Mapping, show_agent: bool) -> list[str]:
    out = [f"Agent: {s['agentId']}"] if show_agent else []
    out += [f"Session store: {s['storePath']}", f"Maintenance mode: {s['mode']}",
            f"Entries: {s['beforeCount']} -> {s['afterCount']} (remove {s['beforeCount'] - s['afterCount']})",
            f"Would prune missing transcripts: {s['missing']}",
            f"Would retire stale direct DM sessions: {s['dmScopeRetired']}",
            f"Would prune stale model-run probes: {s['modelRunPruned']}",
            f"Would archive inactive sessions: {s['archived']}",
            f"Would archive cap overflow: {s['capArchived']}",
            f"Would prune stale: {s['pruned']}", f"Would cap overflow: {s['capped']}"]
    return out + artifact_and_budget_lines(s)


def action_rows(preview: SqlitePreview) -> list[tuple[str, dict, str]]:
    """Every row as read, newest `updatedAt` first (ties in store order), with its action."""
    store = preview.before
    ordered = sorted(store, key=lambda k: -(store[k].get("updatedAt") or 0))
    return [(k, store[k], preview.action(k)) for k in ordered]


def dry_run_lines(cfg: Mapping, preview: SqlitePreview, now_ms: float, show_agent: bool, *,
                  style: boxtable.Styler, width: int, home: str | None, home_prefix: str = "~") -> list[str]:
    from openclaw_cli.js.strings import sanitize_terminal_text
    from openclaw_cli.listing.boxed import entry_flags, key_label
    from openclaw_cli.listing.model_ref import display_model_ref
    from openclaw_cli.listing.runtime_config import runtime_view
    from openclaw_cli.ui.cells import format_time_ago

    out = count_lines(preview.summary, show_agent)
    rows = action_rows(preview)
    if not rows:
        return out
    view = runtime_view(cfg)
    columns = [boxtable.Column("action", "Action"), boxtable.Column("key", "Key"), boxtable.Column("age", "Age"),
               boxtable.Column("model", "Model"), boxtable.Column("flags", "Flags", flex=True)]
    cells = []
    for key, entry, action in rows:
        updated = entry.get("updatedAt")
        flags = entry_flags(entry)
        cells.append({
            "action": (action, ACTION_STYLES.get(action, "error")),
            "key": (key_label(key), "accent"),
            "age": (format_time_ago(now_ms - updated) if updated else "unknown", "muted"),
            "model": (sanitize_terminal_text(display_model_ref(view, key, entry).model or "unknown"), "info"),
            "flags": (flags, "muted" if flags else None),
        })
    table = boxtable.render(columns, cells, width=width, style=style, home=home, home_prefix=home_prefix)
    out += ["", "Planned session actions:", *(line.rstrip() for line in table)]
    return out + label_summary_lines(rows, kept=KEPT_ACTIONS)

"""Text reports of `sessions cleanup`: the dry-run plan and the applied summaries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openclaw_cli.js.strings import (
    js_trim,
    js_trim_end,
    locale_sort_key,
    pad_end,
    sanitize_terminal_text,
    utf16_len,
)
from openclaw_cli.maintenance import explain
from openclaw_cli.maintenance.plan import Preview
from openclaw_cli.ui import cells as display
from openclaw_cli.ui import fit
from openclaw_cli.ui.console import Style, plain_style

ACTION_PAD = 19
PER_ACTION = 10  # rows of each action a terminal shows by default


@dataclass(frozen=True)
class Screen:
    """The terminal a dry-run plan is fitted to: its width, and how many rows of each action it shows
    (None: every row)."""

    width: int
    per_action: int | None = PER_ACTION


ACTION_STYLES = {
    "keep": "muted",
    "repair-session-file": "accent",
    "prune-missing": "error",
    "prune-model-run": "warn",
    "prune-stale": "warn",
    "retire-dm-scope": "warn",
    "cap-overflow": "accent",
}


def dry_run_lines(cfg: Mapping, preview: Preview, now_ms: int, show_agent: bool,
                  style: Style = plain_style, screen: Screen | None = None) -> list[str]:
    """OpenClaw's dry-run report; with the plan's reasons recorded (`--explain`), a Reason column
    and the kept-entries summary. On a `screen` (a terminal), the table fits its width and a long
    plan is summarised."""
    s = preview.summary
    out: list[str] = []
    if show_agent:
        out.append(f"Agent: {s['agentId']}")
    store_line = f"Session store: {s['storePath']}"
    out.append(store_line if screen is None else fit.middle_cut(store_line, screen.width))
    out.append(f"Maintenance mode: {s['mode']}")
    out.append(f"Entries: {s['beforeCount']} -> {s['afterCount']} (remove {s['beforeCount'] - s['afterCount']})")
    out.append(f"Would repair sessionFile metadata: {s['repaired']}")
    out.append(f"Would prune missing transcripts: {s['missing']}")
    out.append(f"Would retire stale direct DM sessions: {s['dmScopeRetired']}")
    out.append(f"Would prune stale model-run probes: {s['modelRunPruned']}")
    out.append(f"Would prune stale: {s['pruned']}")
    out.append(f"Would cap overflow: {s['capped']}")
    out.extend(artifact_and_budget_lines(s))
    rows = action_rows(preview)
    if screen is not None:
        out = [line for text in out for line in fit_text(text, screen.width)]
        return out + (screen_plan_lines(cfg, preview, rows, now_ms, style, screen) if rows else [])
    if not rows:
        return out
    why = preview.why
    flags_of = {key: display.flags_cell(entry) for key, entry, _a in rows}
    flags_width = max([5, *(utf16_len(f) for f in flags_of.values())])
    out.append("")
    out.append("Planned session actions:")
    columns = [pad_end("Action", ACTION_PAD), pad_end("Key", 26), pad_end("Age", 9), pad_end("Model", 14)]
    columns += [pad_end("Flags", flags_width), "Reason"] if why else ["Flags"]
    out.append(style("heading", " ".join(columns)))
    from openclaw_cli.listing.runtime_config import runtime_view

    runtime_cfg = runtime_view(cfg)
    for key, entry, action in rows:
        cells = [
            style(ACTION_STYLES.get(action, "error"), pad_end(action, ACTION_PAD)),
            style("key", display.key_cell(key)),
            style("muted", display.age_cell(entry.get("updatedAt"), now_ms)),
            style("info", display.model_cell(display.display_model(cfg, key, entry, runtime_cfg=runtime_cfg))),
        ]
        flags = flags_of[key]
        if why:
            cells.append(style("muted", pad_end(flags, flags_width)))
            cells.append(why.reason(key, action))
        else:
            cells.append(style("muted", flags) if flags else "")
        out.append(js_trim_end(" ".join(cells)))
    out.extend(label_summary_lines(rows))
    if why:
        out.extend(explain.protection_lines(why.protections(k for k, _e, a in rows if a == "keep")))
    return out


def screen_plan_lines(cfg: Mapping, preview: Preview, rows: list[tuple[str, dict, str]], now_ms: int,
                      style: Style, screen: Screen) -> list[str]:
    """The planned actions at a terminal: the table fitted to its width; a plan with more rows of
    an action than the screen shows gets its counts per action first, then the first rows of each."""
    from openclaw_cli.listing.runtime_config import runtime_view

    counts = Counter(action for _k, _e, action in rows)
    limit = screen.per_action
    summarised = limit is not None and max(counts.values()) > limit
    out = ["", "Planned session actions:"]
    shown = rows
    if summarised:
        assert limit is not None
        out[-1] = f"Planned session actions: {len(rows):,}"
        width = max(len(a) for a in counts)
        digits = max(len(f"{n:,}") for n in counts.values())
        out += [f"  {style(ACTION_STYLES.get(a, 'error'), a.ljust(width))}  {n:>{digits},}" for a, n in counts.items()]
        out += ["", f"The first {limit} of each action:"]
        shown = [row for action in counts for row in [r for r in rows if r[2] == action][:limit]]
    why = preview.why
    runtime_cfg = runtime_view(cfg)
    columns = [fit.Column("Action"), fit.Column("Key", fit.middle_cut, minimum=12, shrink=3), fit.Column("Age"),
               fit.Column("Model", minimum=8, drop=3, shrink=2), fit.Column("Flags", minimum=8, drop=1)]
    if why:
        columns.append(fit.Column("Reason", minimum=20, drop=2))
    cells: list[list[str]] = []
    names: list[list[str | None]] = []
    for key, entry, action in shown:
        model = display.display_model(cfg, key, entry, runtime_cfg=runtime_cfg)
        cells.append([action, key, display.age_text(entry.get("updatedAt"), now_ms), display.model_text(model),
                      display.flags_cell(entry)] + ([why.reason(key, action)] if why else []))
        names.append([ACTION_STYLES.get(action, "error"), "key", "muted", "info", "muted", None])
    out += fit.fitted_lines(columns, cells, names, screen.width, style)
    if summarised:
        out.extend(fit_text(f"Showing {len(shown):,} of {len(rows):,} rows (--all: every row, "
                            "--limit N: the first N of each action).", screen.width))
    out.extend(label_summary_lines(rows, screen))
    if why:
        out.extend(line for text in explain.protection_lines(why.protections(k for k, _e, a in rows if a == "keep"))
                   for line in fit_text(text, screen.width))
    return out


def fit_text(text: str, width: int) -> list[str]:
    """A line of prose wrapped to `width` columns, continuation lines indented two more spaces."""
    import textwrap

    if fit.width_of(text) <= width:
        return [text]
    indent = " " * (len(text) - len(text.lstrip()))
    return textwrap.wrap(text.lstrip(), width, initial_indent=indent, subsequent_indent=indent + "  ")


def explain_json(preview: Preview, now_ms: int) -> dict:
    """`explain` (every store key once, newest first) and `artifacts` for a store's JSON summary."""
    why = preview.why
    assert why is not None  # only asked with --explain
    return explain_fields(why, action_rows(preview), now_ms, preview.mtimes)


def explain_fields(why: explain.Explain, rows: list[tuple[str, dict, str]], now_ms: int,
                   mtimes: dict[str, float]) -> dict:
    return {"explain": [{"key": key, "action": action, "reason": why.reason(key, action)} for key, _e, action in rows],
            "artifacts": explain.artifacts_json(why, now_ms, mtimes)}


def applied_explain(plan) -> tuple[dict, list[str]]:
    """An applying run's `explain`/`artifacts` fields and its text: each entry's action and rule, newest
    first, then what kept the rest."""
    why = plan.why
    store = plan.before_store
    ordered = sorted(store, key=lambda k: -(store[k].get("updatedAt") or 0))
    rows = [(k, store[k], plan.actions.get(k, "keep")) for k in ordered]
    lines = ["", "Session actions:"] if rows else []
    lines += [f"{pad_end(action, ACTION_PAD)} {display.key_cell(key)} {why.reason(key, action)}"
              for key, _e, action in rows]
    lines += explain.protection_lines(why.protections(k for k, _e, a in rows if a == "keep"))
    return explain_fields(why, rows, plan.now_ms, plan.mtimes), lines


def action_rows(preview: Preview) -> list[tuple[str, dict, str]]:
    """Every entry of the store as loaded, newest first, with its planned action."""
    store = preview.before_store
    ordered = sorted(store, key=lambda k: -(store[k].get("updatedAt") or 0))
    return [(k, store[k], preview.action(k)) for k in ordered]


def artifact_and_budget_lines(s: Mapping) -> list[str]:
    """The dry run's unreferenced-artifact and disk-budget lines of a store summary."""
    out: list[str] = []
    if s["unreferencedArtifacts"]["scannedFiles"]:
        out.append(f"Would prune unreferenced artifacts: {s['unreferencedArtifacts']['removedFiles']}")
    disk = s["diskBudget"]
    if disk:
        out.append(f"Would enforce disk budget: {disk['totalBytesBefore']} -> {disk['totalBytesAfter']} bytes "
                   f"(files {disk['removedFiles']}, entries {disk['removedEntries']})")
    return out


KEPT_ACTIONS = frozenset(("keep", "repair-session-file"))


def label_summary_lines(rows: list[tuple[str, dict, str]], screen: Screen | None = None,
                        kept: frozenset[str] = KEPT_ACTIONS) -> list[str]:
    """"Summary by Label": kept and pruned entries per label (sorted as `localeCompare` does); `kept`
    names the actions that keep a row. On a `screen`, labels are cut to its width and a long list
    shows the labels with the most entries, as many as rows of an action."""
    by_label: dict[str, list[int]] = {}
    for _key, entry, action in rows:
        raw = entry.get("label")
        label = sanitize_terminal_text(js_trim(raw) if isinstance(raw, str) else "") or "(unlabeled)"
        counts = by_label.setdefault(label, [0, 0])
        counts[0 if action in kept else 1] += 1
    if not by_label:
        return []
    labels = sorted(by_label, key=locale_sort_key)
    out = ["", "Summary by Label:"]
    if screen is None:
        width = max(utf16_len(label) for label in labels)
        out += [f"{pad_end(label, width)}  {by_label[label][0]} kept, {by_label[label][1]} pruned" for label in labels]
    else:
        out += _screen_label_lines(labels, by_label, screen)
    total_kept = sum(c[0] for c in by_label.values())
    total_pruned = sum(c[1] for c in by_label.values())
    out.append(f"Total: {total_kept} kept, {total_pruned} pruned")
    return out


def _screen_label_lines(labels: list[str], by_label: dict[str, list[int]], screen: Screen) -> list[str]:
    shown = labels
    limit = screen.per_action
    if limit is not None and len(labels) > limit:
        most = set(sorted(labels, key=lambda label: -sum(by_label[label]))[:limit])
        shown = [label for label in labels if label in most]
    tails = {label: f"  {by_label[label][0]} kept, {by_label[label][1]} pruned" for label in shown}
    width = min(max(fit.width_of(label) for label in shown),
                max(8, screen.width - max(len(t) for t in tails.values())))
    out = [fit.pad(fit.end_cut(label, width), width) + tails[label] for label in shown]
    if len(shown) < len(labels):
        out += fit_text(f"(the {len(shown)} labels with the most entries of {len(labels):,}; "
                        "--all shows every label)", screen.width)
    return out


def applied_lines(summaries: Sequence[Mapping]) -> list[str]:
    out: list[str] = []
    for i, s in enumerate(summaries):
        if i > 0:
            out.append("")
        if len(summaries) > 1:
            out.append(f"Agent: {s.get('agentId')}")
        out.append(f"Session store: {s.get('storePath')}")
        applied = s.get("appliedCount")
        out.append(f"Applied maintenance. Current entries: {applied if applied is not None else 0}")
        removed = (s.get("unreferencedArtifacts") or {}).get("removedFiles")
        if removed:
            out.append(f"Pruned unreferenced artifacts: {removed}")
    return out


REMOVAL_REASONS = (("pruned", "stale"), ("capped", "over maxEntries"), ("missing", "missing transcript"),
                   ("dmScopeRetired", "retired DM scope"), ("modelRunPruned", "model-run probe"))


def applied_totals_line(summaries: Sequence[Mapping], done: Sequence) -> str:
    """One line after an applying run at a terminal: entries removed by reason, files, bytes freed.

    `done` holds the effects carried out (renames archive a transcript, deletions free its bytes)."""
    from humanfriendly import format_size

    reasons: dict[str, int] = {}
    for s in summaries:
        for key, label in REMOVAL_REASONS:
            reasons[label] = reasons.get(label, 0) + int(s.get(key) or 0)
        budget = s.get("diskBudget") or {}
        reasons["disk budget"] = reasons.get("disk budget", 0) + int(budget.get("removedEntries") or 0)
    removed = sum(reasons.values())
    why = ", ".join(f"{n:,} {label}" for label, n in reasons.items() if n)
    archived = sum(1 for e in done if e.kind == "rename")
    deleted = [e for e in done if e.kind == "delete"]
    entries = f"removed {removed:,} {'entry' if removed == 1 else 'entries'}" + (f" ({why})" if why else "")
    return (f"Done: {entries}, archived {archived:,} {'file' if archived == 1 else 'files'}, "
            f"deleted {len(deleted):,} {'file' if len(deleted) == 1 else 'files'}, "
            f"freed {format_size(sum(e.size for e in deleted))}.")

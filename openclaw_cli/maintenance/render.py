"""Text reports of `sessions cleanup`: the dry-run plan and the applied summaries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
from openclaw_cli.ui.console import Style, plain_style

ACTION_PAD = 19



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
                  style: Style = plain_style) -> list[str]:
    """OpenClaw's dry-run report; with the plan's reasons recorded (`--explain`), a Reason column
    and the kept-entries summary."""
    s = preview.summary
    out: list[str] = []
    if show_agent:
        out.append(f"Agent: {s['agentId']}")
    out.append(f"Session store: {s['storePath']}")
    out.append(f"Maintenance mode: {s['mode']}")
    out.append(f"Entries: {s['beforeCount']} -> {s['afterCount']} (remove {s['beforeCount'] - s['afterCount']})")
    out.append(f"Would repair sessionFile metadata: {s['repaired']}")
    out.append(f"Would prune missing transcripts: {s['missing']}")
    out.append(f"Would retire stale direct DM sessions: {s['dmScopeRetired']}")
    out.append(f"Would prune stale model-run probes: {s['modelRunPruned']}")
    out.append(f"Would prune stale: {s['pruned']}")
    out.append(f"Would cap overflow: {s['capped']}")
    if s["unreferencedArtifacts"]["scannedFiles"]:
        out.append(f"Would prune unreferenced artifacts: {s['unreferencedArtifacts']['removedFiles']}")
    disk = s["diskBudget"]
    if disk:
        out.append(f"Would enforce disk budget: {disk['totalBytesBefore']} -> {disk['totalBytesAfter']} bytes "
                   f"(files {disk['removedFiles']}, entries {disk['removedEntries']})")
    rows = action_rows(preview)
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


KEPT_ACTIONS = frozenset(("keep", "repair-session-file"))


def label_summary_lines(rows: list[tuple[str, dict, str]], kept: frozenset[str] = KEPT_ACTIONS) -> list[str]:
    """"Summary by Label": per label (sorted as `localeCompare` does), rows kept and pruned; `kept`
    names the actions that keep a row."""
    by_label: dict[str, list[int]] = {}
    for _key, entry, action in rows:
        raw = entry.get("label")
        label = sanitize_terminal_text(js_trim(raw) if isinstance(raw, str) else "") or "(unlabeled)"
        counts = by_label.setdefault(label, [0, 0])
        counts[0 if action in kept else 1] += 1
    if not by_label:
        return []
    labels = sorted(by_label, key=locale_sort_key)
    width = max(utf16_len(label) for label in labels)
    out = ["", "Summary by Label:"]
    for label in labels:
        n_kept, n_pruned = by_label[label]
        out.append(f"{pad_end(label, width)}  {n_kept} kept, {n_pruned} pruned")
    total_kept = sum(c[0] for c in by_label.values())
    total_pruned = sum(c[1] for c in by_label.values())
    out.append(f"Total: {total_kept} kept, {total_pruned} pruned")
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

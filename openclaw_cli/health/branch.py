"""The active branch of a scanned transcript, its model-context part, and the toolCall/toolResult pairing."""

from __future__ import annotations

from dataclasses import dataclass, field

from openclaw_cli.health.scan import Record, Scan
from openclaw_cli.js.values import UNDEFINED

FAILED_STOP_REASONS = frozenset({"error", "aborted"})


def _tree_row(record: Record) -> dict:
    if record.leaf is not None:
        return record.leaf
    row: dict = {"type": record.type, "id": record.id}
    if record.parent is not UNDEFINED:
        row["parentId"] = record.parent
    if record.side:
        row["appendMode"] = "side"
    return row


def active_branch(scan: Scan) -> list[Record]:
    """Root to leaf, as the session manager selects it (leaf controls honoured, cycles give [])."""
    from openclaw_cli.transcript.tree import scan_tree, select_path

    entries = [r for r in scan.entries() if r.id is not None]
    rows = [_tree_row(r) for r in entries]
    tree = scan_tree(rows)
    by_row = {id(row): rec for row, rec in zip(rows, entries)}
    return [by_row[id(node.entry)] for node in select_path(tree, tree.leaf_id)]


def context_part(path: list[Record]) -> list[Record]:
    """The entries `buildSessionContext` turns into the model's messages: after the latest
    compaction, its kept entries and what follows it."""
    comp = next((i for i in range(len(path) - 1, -1, -1) if path[i].type == "compaction"), -1)
    if comp < 0:
        return path
    kept = path[comp].first_kept
    start = next((i for i in range(comp) if path[i].id == kept), comp)
    return path[start:comp] + path[comp + 1:]


@dataclass
class Pairing:
    """Calls without results (`missing`, per assistant, in call order), failed turns' unanswered
    calls, and results without a call (`orphans`, `duplicate` when the call was answered before)."""

    missing: list[tuple[Record, str, str | None]] = field(default_factory=list)
    failed: list[tuple[Record, str, str | None]] = field(default_factory=list)
    orphans: list[tuple[Record, bool]] = field(default_factory=list)


def pair_tools(messages: list[Record]) -> Pairing:
    """What `repairToolUseResultPairing` finds in the context's messages: a result must follow
    an assistant turn that made the call (anywhere later; each call answered once); a toolResult
    without any id takes the one call of the last assistant turn when its tool name agrees."""
    result = Pairing()
    calls: dict[str, Record] = {}
    answered: set[str] = set()
    last_calls: tuple[tuple[str, str | None], ...] = ()
    for rec in messages:
        if rec.type != "message":
            continue
        if rec.role == "assistant" and rec.tool_calls:
            for call_id, _name in rec.tool_calls:
                calls.setdefault(call_id, rec)
            last_calls = rec.tool_calls
            continue
        if rec.role != "toolResult":
            continue
        rid = rec.result_id
        if rid is None and len(last_calls) == 1:
            rid = last_calls[0][0]
        if rid is not None and rid in calls and rid not in answered:
            answered.add(rid)
            continue
        result.orphans.append((rec, rid is not None and rid in answered))
    for rec in {id(r): r for r in calls.values()}.values():
        for call_id, name in rec.tool_calls:
            if call_id in answered or calls[call_id] is not rec:
                continue
            target = result.failed if rec.stop_reason in FAILED_STOP_REASONS else result.missing
            target.append((rec, call_id, name))
    return result

"""`sessions repair KEY`: the Gateway's load-time transcript hygiene written to the file (or, with --dry-run, the diff)."""

from __future__ import annotations

import os
from typing import Any


def resolve_transcript(cfg: dict, env: Any, key: str, agent: str | None) -> tuple[str, str, str]:
    """(canonical key, store path, transcript path) of KEY; CliError when there is none."""
    from openclaw_cli.commands.sessions_verify import select_stores
    from openclaw_cli.errors import CliError
    from openclaw_cli.health import targets
    from openclaw_cli.store.sessions_json import load_store

    agent_id, store_path, canonical = select_stores(cfg, env, key=key, agent=agent, all_agents=False)[0]
    entries = load_store(store_path).store
    if canonical not in entries:
        raise CliError(f"unknown session {canonical} in {store_path}")
    sessions = targets.collect(agent_id, store_path, entries)
    found = targets.find_key(sessions, canonical)
    if found is None:
        missing = next((p for k, p in sessions.missing if k == canonical), None)
        raise CliError(f"session {canonical} has no transcript" + (f" ({missing} does not exist)" if missing else ""))
    return canonical, store_path, found.path


def _lines(key: str, plan: Any, dry_run: bool, result: Any) -> list[str]:
    out = [f"Session: {key}", f"Transcript: {plan.path}"]
    if plan.empty:
        out.append("Nothing to repair: the Gateway reads this transcript as it is.")
    else:
        head = "Would change" if dry_run else "Changed"
        out.append(f"{head}: {_count(plan.changes, 'add')} added, {_count(plan.changes, 'change')} changed, "
                   f"{_count(plan.changes, 'drop')} dropped, {_count(plan.changes, 'reject')} rejected")
        marks = {"add": "+", "change": "~", "drop": "-", "reject": "!"}
        for c in plan.changes:
            where = f"line {c.line}" if c.action != "add" else f"after line {c.line}"
            entry = f" entry {c.entry_id}" if c.entry_id else ""
            out.append(f"{marks[c.action]} {where}{entry}: {c.reason}")
    for f in plan.unrepaired:
        where = f"line {f.line}" if f.line is not None else "file"
        out.append(f"  not repaired ({where}, {f.code}): {f.message}")
    if result is not None:
        out.append(f"Original kept as: {result.backup}")
        if result.rejected:
            out.append(f"Malformed lines moved to: {result.rejected}")
    elif dry_run and not plan.empty:
        out.append("Dry run: nothing was written.")
    return out


def _count(changes: list, action: str) -> int:
    return sum(1 for c in changes if c.action == action)


def run_repair_command(*, key: str, agent: str | None, dry_run: bool, json_out: bool) -> int:
    from openclaw_cli.compact.clock import now_ms
    from openclaw_cli.config.load import load_config
    from openclaw_cli.errors import UsageError
    from openclaw_cli.health.repair import apply_repair, plan_repair
    from openclaw_cli.locks.session_lock import acquire_transcript_lock, compaction_lock_settings
    from openclaw_cli.ui import console as output

    if not key.strip():
        raise UsageError("KEY must not be empty")
    env = os.environ
    cfg = load_config(env).data
    canonical, _store, path = resolve_transcript(cfg, env, key, agent)
    stamp = now_ms()
    result = None
    if dry_run:
        plan = plan_repair(path, stamp)
    else:
        with acquire_transcript_lock(path, compaction_lock_settings(cfg, env)):
            plan = plan_repair(path, stamp)
            if not plan.empty:
                result = apply_repair(plan, stamp)
    if json_out:
        output.print_json({"key": canonical, "path": path, "dryRun": dry_run, "repaired": result is not None,
                           "changes": [c.to_json() for c in plan.changes],
                           "unrepaired": [f.to_json() for f in plan.unrepaired],
                           "backup": result.backup if result else None,
                           "rejected": result.rejected if result else None})
    else:
        output.print_console_lines(_lines(canonical, plan, dry_run, result), cfg)
    return 0

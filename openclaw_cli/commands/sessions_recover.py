"""`sessions recover`: orphan transcripts put back into sessions.json (never while a Gateway owns the store)."""

from __future__ import annotations

import os
from typing import Any

from openclaw_cli.errors import CliError


def refuse_while_gateway_runs(cfg: dict, env: Any) -> None:
    """A Gateway listening on this machine's Gateway port owns the store (2026.7.1 has no RPC that
    attaches a transcript), so nothing is written beside it."""
    from openclaw_cli.gateway.discovery import is_listening, resolve_port

    url = f"ws://127.0.0.1:{resolve_port(cfg, env)}"
    if is_listening(url) is not False:
        raise CliError(f"a Gateway is running at {url}: it owns sessions.json, and it offers no way to attach "
                       "a transcript; nothing was changed",
                       hint="stop the Gateway (openclaw gateway stop), run `openclaw sessions recover`, then start it")


def run_recover_command(*, agent: str | None, all_agents: bool, dry_run: bool, json_out: bool,
                        wait_s: float = 10.0) -> int:
    from openclaw_cli.config.agents import resolve_session_store_targets
    from openclaw_cli.config.load import load_config
    from openclaw_cli.health.recover import plan_recover
    from openclaw_cli.locks.store_lock import StoreLock
    from openclaw_cli.store.sessions_json import load_store, save_store
    from openclaw_cli.ui import console as output

    env = os.environ
    cfg = load_config(env).data
    stores = resolve_session_store_targets(cfg, agent=agent, all_agents=all_agents, env=env)
    if not dry_run:
        refuse_while_gateway_runs(cfg, env)
    reports = []
    for target in stores:
        if dry_run or not os.path.isdir(os.path.dirname(target.store_path)):
            loaded = load_store(target.store_path)
            found, skipped = plan_recover(target.agent_id, target.store_path, dict(loaded.store))
        else:
            with StoreLock(target.store_path, wait_s):
                loaded = load_store(target.store_path)
                found, skipped = plan_recover(target.agent_id, target.store_path, dict(loaded.store))
                if found:
                    store = loaded.store
                    for item in found:
                        store[item.key] = item.entry()
                    save_store(target.store_path, store, durable=True)
        reports.append((target, found, skipped))
    if json_out:
        output.print_json({"dryRun": dry_run, "stores": [
            {"agentId": t.agent_id, "storePath": t.store_path, "recovered": [r.to_json() for r in f],
             "skipped": [s.to_json() for s in s_]} for t, f, s_ in reports]})
        return 0
    lines: list[str] = []
    for target, found, skipped in reports:
        lines.append(f"Session store: {target.store_path}")
        verb = "Would recover" if dry_run else "Recovered"
        lines.append(f"{verb}: {len(found)} transcript{'s' if len(found) != 1 else ''}")
        for r in found:
            where = {"trajectory": "trajectory sidecar", "fallback": "no evidence of its key"}.get(
                r.source, r.source.replace("backup:", ""))
            label = f"  label {r.label!r}" if r.label else ""
            lines.append(f"  {r.key}  {os.path.basename(r.path)}  (key from {where}){label}")
        for s in skipped:
            lines.append(f"  skipped {os.path.basename(s.path)}: {s.reason}")
    if dry_run:
        lines.append("Dry run: nothing was written.")
    output.print_console_lines(lines, cfg)
    return 0

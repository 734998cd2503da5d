"""Glue for `sessions cleanup`: choose Gateway or local, then print JSON or the text report."""

from __future__ import annotations

import sys

from openclaw_cli.commands.cleanup import CleanupRequest, run_cleanup
from openclaw_cli.maintenance.plan import CleanupOptions


def run_cleanup_command(*, active_key, agent, all_agents, dry_run, enforce, fix_dm_scope, fix_missing,
                        json_out, store, quiet) -> None:
    from openclaw_cli import output
    from openclaw_cli.maintenance import render

    req = CleanupRequest(
        options=CleanupOptions(dry_run=dry_run, enforce=enforce, active_key=active_key or None,
                               fix_missing=fix_missing, fix_dm_scope=fix_dm_scope),
        store=store, agent=agent, all_agents=all_agents, json=json_out)
    outcome = run_cleanup(req)
    if quiet:
        return
    if json_out:
        output.print_json(outcome.json_value())
        return
    if dry_run:
        style = output.ansi_style if output.color_enabled(sys.stdout) else render._plain
        lines: list[str] = []
        for i, preview in enumerate(outcome.previews):
            if i > 0:
                lines.append("")
            lines.extend(render.dry_run_lines(outcome.cfg, preview, outcome.now_ms,
                                              show_agent=len(outcome.previews) > 1, style=style))
        output.print_lines(lines)
        return
    output.print_lines(render.applied_lines(outcome.summaries))

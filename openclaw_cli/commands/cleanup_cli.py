"""Glue for `sessions cleanup`: choose Gateway or local, then print JSON or the text report."""

from __future__ import annotations

import sys

from openclaw_cli.commands.cleanup import CleanupRequest, run_cleanup
from openclaw_cli.maintenance.plan import CleanupOptions


def run_cleanup_command(*, active_key, agent, all_agents, dry_run, enforce, fix_dm_scope, fix_missing,
                        json_out, store, quiet, gateway=None, lock_wait_s: float = 10.0,
                        allow_empty_store: bool = False) -> None:
    import os

    from openclaw_cli.ui import console as output, progress
    from openclaw_cli.commands.delegate import GatewayOptions, cleanup_via_gateway
    from openclaw_cli.maintenance import render

    progress.enable(not (json_out or quiet))
    if not store and not dry_run:
        params = {"agent": agent, "allAgents": bool(all_agents), "enforce": bool(enforce),
                  "activeKey": active_key, "fixMissing": bool(fix_missing), "fixDmScope": bool(fix_dm_scope)}
        result = cleanup_via_gateway(params, os.environ, gateway or GatewayOptions())
        if result is not None:
            if quiet:
                return
            if json_out:
                output.print_json(result)
                return
            summaries = result.get("stores") if isinstance(result, dict) and "stores" in result else [result]
            output.print_console_lines(render.applied_lines(summaries), _config_or_none())
            return

    req = CleanupRequest(
        options=CleanupOptions(dry_run=dry_run, enforce=enforce, active_key=active_key or None,
                               fix_missing=fix_missing, fix_dm_scope=fix_dm_scope,
                               allow_empty_store=allow_empty_store),
        store=store, agent=agent, all_agents=all_agents, json=json_out, lock_wait_s=lock_wait_s)
    outcome = run_cleanup(req)
    if quiet:
        return
    _print_logs(outcome.logs, json_out, outcome.cfg)
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
        output.print_console_lines(lines, outcome.cfg)
        _print_warnings(outcome.previews, outcome.cfg)
        return
    output.print_console_lines(render.applied_lines(outcome.summaries), outcome.cfg)


def _config_or_none():
    from openclaw_cli.config.load import load_config

    try:
        return load_config().data
    except Exception:  # noqa: BLE001 - redaction falls back to the default patterns
        return None


def _print_warnings(previews, cfg=None) -> None:
    """The dry run's warnings (a lost index), one `warning:` line each on stderr."""
    from openclaw_cli.ui import console as output

    for preview in previews:
        for item in preview.summary.get("warnings", ()):
            sys.stderr.write(f"warning: {output.console_lines([item['message']], cfg)[0]}\n")


def _print_logs(logs, json_out: bool, cfg=None) -> None:
    """Maintenance log lines as OpenClaw prints them: info on stdout (stderr with --json),
    warnings on stderr; redacted like every console line."""
    from openclaw_cli.ui import console as output

    for level, message in logs:
        message = output.console_lines([message], cfg)[0]
        stream = sys.stderr if (json_out or level != "info") else sys.stdout
        text = f"[sessions/store] {message}"
        if output.color_enabled(stream):
            tag = output.ansi_style("error", "[sessions/store]")
            text = f"{tag} {output.ansi_style('accent' if level == 'info' else 'warn', message)}"
        stream.write(text + "\n")

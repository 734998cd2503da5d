"""`sessions disk`: what fills each session folder, by cleanup's families, and what cleanup would free."""

from __future__ import annotations

import os
import sys
import time

from openclaw_cli.errors import UsageError

DEFAULT_TOP = 10


def parse_top(raw: str | None) -> int:
    """`--top N`: a whole number of sessions, 0 for none."""
    if raw is None:
        return DEFAULT_TOP
    text = raw.strip()
    if not text.isdigit():
        raise UsageError(f"--top must be a whole number of sessions (got {raw!r})")
    return int(text)


def run_disk_command(*, agent: str | None, all_agents: bool, store: str | None, json_out: bool,
                     top: str | None) -> None:
    """Measure every selected store's folder (files only, never the Gateway) and print it."""
    from openclaw_cli.config.agents import check_explicit_store, resolve_session_store_targets
    from openclaw_cli.config.load import load_config
    from openclaw_cli.js.values import object_at
    from openclaw_cli.maintenance import disk, folder_scan
    from openclaw_cli.maintenance.settings import resolve_maintenance
    from openclaw_cli.ui import console as output

    count = parse_top(top)
    env = os.environ
    cfg = load_config(env).data
    settings = resolve_maintenance(object_at(cfg, "session").get("maintenance"))
    targets = resolve_session_store_targets(cfg, store=store, agent=agent, all_agents=all_agents, env=env)
    from openclaw_cli.store import era

    found = [era.detect(cfg, t, env) for t in targets]
    if store and not found[0].in_sqlite:
        check_explicit_store(targets[0].store_path)
    for t, f in zip(targets, found):  # a large folder is listed while its store is read
        if not f.in_sqlite:
            folder_scan.start(os.path.dirname(t.store_path), t.store_path)
    try:
        usages, now_ms = _measure_all(cfg, settings, targets, found, count, env)
    finally:
        folder_scan.discard()
    if json_out:
        output.print_json({"agents": [disk.usage_json(u, now_ms) for u in usages]})
        return
    from openclaw_cli.maintenance import disk_render

    if sys.stdout.isatty():
        disk_render.print_rich(usages, now_ms, sys.stdout, color=output.color_enabled(sys.stdout))
        return
    output.print_console_lines(disk_render.plain_lines(usages, now_ms), cfg)


def _measure_all(cfg, settings, targets, found, count: int, env) -> tuple[list, int]:
    """Each store's usage, and the time they were measured at; every store parses before any is measured."""
    from openclaw_cli.config.paths import resolve_required_home
    from openclaw_cli.js.values import object_at
    from openclaw_cli.maintenance import disk
    from openclaw_cli.maintenance.plan import Target
    from openclaw_cli.maintenance.settings import resolve_maintenance_sqlite_era
    from openclaw_cli.store.sessions_json import load_store

    loaded = [(t, None if f.in_sqlite else load_store(t.store_path)) for t, f in zip(targets, found)]
    now_ms = int(time.time() * 1000)
    home = resolve_required_home(env)
    sqlite_settings = None
    usages = []
    for (t, s), f in zip(loaded, found):
        if s is None:
            if sqlite_settings is None:
                sqlite_settings = resolve_maintenance_sqlite_era(object_at(cfg, "session").get("maintenance"))
            from openclaw_cli.maintenance.sqlite_plan import sessions_dir

            # The folder and databases 2026.9.6's dry run measures for the agent (a shared folder's every one).
            usages.append(disk.measure_sqlite(disk.SqliteDiskRequest(
                f.agent_id, f.sqlite_path, sessions_dir(t.store_path), sqlite_settings, count,
                store_path=t.store_path, db_agent_id=f.db_agent_id)))
        else:
            usages.append(disk.measure(disk.DiskRequest(cfg=cfg, target=Target(t.agent_id, t.store_path), loaded=s,
                                                        settings=settings, env=env, now_ms=now_ms, home=home,
                                                        top=count)))
    return usages, now_ms

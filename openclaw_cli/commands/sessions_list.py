"""`openclaw sessions` / `sessions list`: the stored sessions of one or more agents, as a table or JSON."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping


def _load_entries(path: str) -> Mapping:
    """The normalised store. Unlike OpenClaw (which lists it as empty), a store that does not
    parse or cannot be read stops the listing with the error `sessions cleanup` gives."""
    from openclaw_cli.store.sessions_json import load_store

    return load_store(path).store


def _read_store(cfg: Mapping, target, env: Mapping[str, str],
                sqlite_state: bool) -> tuple[str, bool, list[tuple[str, Mapping]]]:
    """The store's display path, whether it is an agent database, and its (key, entry) pairs: the
    database when the agent has one with sessions (as OpenClaw 2026.8+ reads it), else sessions.json.
    On a SQLite-era state an agent with neither is the database it would have, empty (as 2026.9.6
    lists it)."""
    from openclaw_cli.listing.rows import iter_entries
    from openclaw_cli.store import era

    found = era.detect(cfg, target, env)
    if found.era == era.NONE and sqlite_state:
        return found.sqlite_path, True, []
    if not found.in_sqlite:
        return target.store_path, False, list(iter_entries(_load_entries(target.store_path)))
    from openclaw_cli.store.sqlite.connection import open_agent_db
    from openclaw_cli.store.sqlite.entries import read_entries
    from openclaw_cli.ui import console as output

    if found.era == era.BOTH:
        output.note(f"agent {found.agent_id} has both {found.sqlite_path} and {found.sessions_json} "
                    "(a migration not finished); listing the database, as OpenClaw does")
    with open_agent_db(found.sqlite_path, found.db_agent_id) as db:
        return found.sqlite_path, True, list(read_entries(db, listing=True))


def _style():
    from openclaw_cli.ui import console as output

    if not output.color_enabled(sys.stdout):
        return output.plain_style

    def style(name: str, text: str) -> str:
        return output.ansi_style("accent" if name == "accentBright" else name, text)

    return style


def run_list_command(*, agent: str | None, all_agents: bool, json_out: bool, store: str | None,
                     active: str | None, limit: str | None, own_read: bool = False) -> None:
    """`openclaw sessions [list]`; `own_read` reads the config as 2026.9.6's bare `sessions` does (config/load.py)."""
    from openclaw_cli.gcpause import paused

    with paused():  # the config, the stores, their rows and the output all live until the end
        _list_sessions(agent=agent, all_agents=all_agents, json_out=json_out, store=store, active=active,
                       limit=limit, own_read=own_read)


def _list_sessions(*, agent: str | None, all_agents: bool, json_out: bool, store: str | None,
                   active: str | None, limit: str | None, own_read: bool) -> None:
    from openclaw_cli.config.agents import check_explicit_store, resolve_session_store_targets
    from openclaw_cli.config.load import load_config
    from openclaw_cli.listing.acp import load_acp_sessions
    from openclaw_cli.listing.context_tokens import ContextDefaults
    from openclaw_cli.listing.model_ref import default_model_ref
    from openclaw_cli.listing.options import parse_active_minutes, parse_limit
    from openclaw_cli.listing.rows import RowBuilder, is_active, json_row, select_newest
    from openclaw_cli.listing.runtime_config import runtime_view
    from openclaw_cli.ui import console as output

    env = os.environ
    raw_cfg = load_config(env, own_read=own_read).data
    cfg = runtime_view(raw_cfg)
    context = ContextDefaults(cfg, default_model_ref(cfg, None).model)
    targets = resolve_session_store_targets(raw_cfg, store=store, agent=agent, all_agents=all_agents, env=env)
    if store:
        from openclaw_cli.store import era

        # A sessions.json path names its agent database in the SQLite era (as OpenClaw 2026.8+ maps it).
        if not era.detect(raw_cfg, targets[0], env).in_sqlite:
            check_explicit_store(targets[0].store_path)
    active_minutes = parse_active_minutes(active)
    row_limit = parse_limit(limit)

    now_ms = int(time.time() * 1000)
    builder = RowBuilder(cfg, load_acp_sessions(env))
    rows = []
    shown_paths = []
    any_sqlite = False
    from openclaw_cli.config.era import SQLITE_ERA, config_era

    sqlite_state = config_era(raw_cfg, env) == SQLITE_ERA
    for target in targets:
        path, sqlite_era, entries = _read_store(raw_cfg, target, env, sqlite_state)
        shown_paths.append(path)
        any_sqlite = any_sqlite or sqlite_era
        for key, entry in entries:
            if is_active(entry, now_ms, active_minutes):
                rows.append(builder.build(key, entry, target.agent_id, sqlite_era=sqlite_era))
    total = len(rows)
    shown = select_newest(rows, row_limit)
    has_more = len(shown) < total
    aggregate = all_agents or len(targets) > 1

    if json_out:
        doc: dict = {"path": None if aggregate else shown_paths[0]}
        if aggregate:
            doc["stores"] = [{"agentId": t.agent_id, "path": p} for t, p in zip(targets, shown_paths)]
        if all_agents:
            doc["allAgents"] = True
        doc.update(count=len(shown), totalCount=total, limitApplied=row_limit, hasMore=has_more,
                   activeMinutes=active_minutes)
        output.print_json_ending_in_list(doc, "sessions", (json_row(r, now_ms, context) for r in shown))
        return

    from openclaw_cli.listing.table import fitted_table_lines, table_lines
    from openclaw_cli.ui.fit import middle_cut, terminal_columns

    style = _style()
    columns = terminal_columns(sys.stdout)  # None when piped: OpenClaw's text as it is

    def info(text: str) -> str:
        return style("info", text if columns is None else middle_cut(text, columns))

    if len(targets) == 1 and not all_agents:
        lines = [info(f"Session store: {shown_paths[0]}")]
    else:
        ids = ", ".join(t.agent_id for t in targets)
        lines = [info(f"Session stores: {len(targets)} ({ids})")]
    if has_more and row_limit is not None:
        lines.append(info(f"Sessions listed: {len(shown)} of {total} (limit {row_limit})"))
    else:
        lines.append(info(f"Sessions listed: {len(shown)}"))
    if active_minutes:
        lines.append(info(f"Filtered to last {active_minutes} minute(s)"))
    if not shown:
        lines.append("No sessions found.")
    elif any_sqlite:
        lines.extend(_boxed_lines(shown, now_ms, context, aggregate, style, env))
    elif columns is None:
        lines.extend(table_lines(shown, now_ms, context, aggregate, style))
    else:
        lines.extend(fitted_table_lines(shown, now_ms, context, aggregate, style, columns))
    output.print_lines(lines)


def _boxed_lines(rows, now_ms, context, show_agent: bool, style, env: Mapping[str, str]) -> list[str]:
    """2026.9.6's box-drawn table, as wide as the terminal (120 columns when piped)."""
    from openclaw_cli.config.paths import resolve_effective_home
    from openclaw_cli.listing.boxed import table_lines as boxed_table_lines
    from openclaw_cli.ui.boxtable import table_width

    home_prefix = "$OPENCLAW_HOME" if (env.get("OPENCLAW_HOME") or "").strip() else "~"
    return boxed_table_lines(rows, now_ms, context, show_agent, lambda name, text: style(name, text) if name else text,
                             table_width(sys.stdout), resolve_effective_home(env), home_prefix)

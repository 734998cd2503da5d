"""`openclaw sessions export`: SQLite-era transcripts written out as file-era JSONL files."""

from __future__ import annotations

import os

from openclaw_cli.errors import CliError, UsageError


def run_export_command(*, key: str | None, all_sessions: bool, agent: str | None, output: str | None,
                       force: bool, json_out: bool) -> None:
    from openclaw_cli.config.agents import resolve_session_store_targets
    from openclaw_cli.config.load import load_config
    from openclaw_cli.context.target import resolve_session_key
    from openclaw_cli.store import era
    from openclaw_cli.store.keys import parse_agent_key
    from openclaw_cli.store.sqlite.connection import open_agent_db
    from openclaw_cli.store.sqlite.entries import read_entries
    from openclaw_cli.store.sqlite.export import collect, write_all

    if bool(key) == all_sessions:
        raise UsageError("give a session KEY or --all (not both)")
    env = os.environ
    cfg = load_config(env).data
    if key and not agent:
        parsed = parse_agent_key(key.strip().lower())
        agent = parsed[0] if parsed else None
    target = resolve_session_store_targets(cfg, agent=agent, env=env)[0]
    found = era.detect(cfg, target, env)
    if not found.in_sqlite:
        where = found.sessions_json if found.era == era.FILES else "no database and no sessions.json"
        raise CliError(f"agent {found.agent_id} has no SQLite session store ({where}); "
                       "file-era transcripts are JSONL already, beside sessions.json")
    out_dir = os.path.abspath(output or os.getcwd())
    if not os.path.isdir(out_dir):
        raise CliError(f"{out_dir} is not a folder")
    with open_agent_db(found.sqlite_path, found.db_agent_id) as db:
        entries = read_entries(db)
        if all_sessions:
            chosen = entries
        else:
            wanted = resolve_session_key(cfg, found.agent_id, key)
            chosen = [(k, e) for k, e in entries if k == wanted]
            if not chosen:
                raise CliError(f"unknown session {wanted} in {found.sqlite_path}")
        exports = collect(db, found.agent_id, chosen, out_dir)
    write_all(exports, overwrite=force)
    _report(exports, json_out)


def _report(exports, json_out: bool) -> None:
    from openclaw_cli.ui import console as output

    if json_out:
        output.print_json({"exported": [
            {"agentId": e.agent_id, "key": e.key, "sessionId": e.session_id, "path": e.path,
             "events": len(e.events), "compressedEvents": e.compressed, "cold": e.cold} for e in exports]})
        return
    lines = [f"Exported {e.key}: {len(e.events)} events "
             f"({'from its cold-storage archive' if e.cold else f'{e.compressed} stored compressed'}) -> {e.path}"
             for e in exports]
    output.print_lines(lines or ["No sessions to export."])

"""`sessions cleanup`: through a running Gateway, else preview or plan-and-apply each store here; report."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field, replace
from typing import Any

from openclaw_cli.commands.gateway import Fallback, GatewayOptions, route
from openclaw_cli.js.values import object_at
from openclaw_cli.maintenance.plan import CleanupOptions, Target


def run_cleanup_command(*, active_key, agent, all_agents, dry_run, enforce, fix_dm_scope, fix_missing,
                        json_out, store, quiet, gateway=None, lock_wait_s: float = 10.0,
                        allow_empty_store: bool = False, explain: bool = False,
                        per_action: int | None = None, show_all: bool = False) -> None:
    """Choose the Gateway or the local files, then print JSON or the text report."""
    from openclaw_cli.ui import console as output
    from openclaw_cli.ui import progress

    progress.enable(not (json_out or quiet))
    # The reasons: with --explain, and for the text plan at a terminal.
    record_reasons = explain or (bool(dry_run) and not json_out and not quiet and sys.stdout.isatty())
    # --store (an explicit offline repair) and --dry-run (a preview) never ask the Gateway.
    gateway = replace(gateway or GatewayOptions(), offline=bool(store) or bool(dry_run))
    if route(gateway, Fallback.UNREACHABLE) == "delegate":
        params = {"agent": agent, "allAgents": bool(all_agents), "enforce": bool(enforce),
                  "activeKey": active_key, "fixMissing": bool(fix_missing), "fixDmScope": bool(fix_dm_scope)}
        result = cleanup_via_gateway(params, os.environ, gateway)
        if result is not None:
            from openclaw_cli.maintenance import render

            if explain:
                output.note("--explain: the Gateway ran this cleanup and reports no reasons; "
                            "`sessions cleanup --dry-run --explain` shows them")
            if not quiet and json_out:
                output.print_json(result)
            elif not quiet:
                summaries = result["stores"] if isinstance(result, dict) and "stores" in result else [result]
                output.print_console_lines(render.applied_lines(summaries), _config_or_none())
            _raise_partial_error(result)
            return

    if dry_run and sqlite_dry_run(active_key=active_key or None, agent=agent, all_agents=all_agents,
                                  fix_dm_scope=fix_dm_scope, fix_missing=fix_missing, json_out=json_out,
                                  store=store, quiet=quiet, explain=explain, enforce=enforce):
        return
    req = CleanupRequest(
        options=CleanupOptions(dry_run=dry_run, enforce=enforce, active_key=active_key or None,
                               fix_missing=fix_missing, fix_dm_scope=fix_dm_scope,
                               allow_empty_store=allow_empty_store, explain=record_reasons),
        store=store, agent=agent, all_agents=all_agents, json=json_out, lock_wait_s=lock_wait_s)
    outcome = run_cleanup(req)
    if quiet:
        return
    _print_logs(outcome.logs, json_out, outcome.cfg)
    if json_out:
        if explain:
            from openclaw_cli.maintenance import render

            for preview in outcome.previews:
                preview.summary.update(render.explain_json(preview, outcome.now_ms))
        output.print_json(outcome.json_value())
        return
    from openclaw_cli.maintenance import render

    if dry_run:
        from openclaw_cli.ui.fit import terminal_columns

        style = output.ansi_style if output.color_enabled(sys.stdout) else output.plain_style
        columns = terminal_columns(sys.stdout)  # None when piped: OpenClaw's text as it is
        screen = None if columns is None else render.Screen(
            columns, None if show_all else (per_action or render.PER_ACTION))
        lines: list[str] = []
        for i, preview in enumerate(outcome.previews):
            if i > 0:
                lines.append("")
            lines.extend(render.dry_run_lines(outcome.cfg, preview, outcome.now_ms,
                                              show_agent=len(outcome.previews) > 1, style=style, screen=screen))
        output.print_console_lines(lines, outcome.cfg)
        _print_warnings(outcome.previews, outcome.cfg)
        return
    lines = render.applied_lines(outcome.summaries)
    for extra in outcome.explained:
        lines += extra
    if sys.stdout.isatty():
        lines += ["", render.applied_totals_line(outcome.summaries, outcome.done)]
    output.print_console_lines(lines, outcome.cfg)


def _none_made(cfg: Mapping[str, Any], found: list, env: Mapping[str, str]) -> bool:
    """No selected agent has a store yet, on a SQLite-era state: 2026.9.6 plans the databases they
    would have, empty (as `sessions` lists them)."""
    from openclaw_cli.config.era import SQLITE_ERA, config_era
    from openclaw_cli.store import era

    return all(agent_store.era == era.NONE for agent_store in found) and config_era(cfg, env) == SQLITE_ERA


def sqlite_dry_run(*, active_key, agent, all_agents, fix_dm_scope, fix_missing, json_out, store, quiet,
                   explain, enforce) -> bool:
    """The dry run of agents that keep their sessions in SQLite (OpenClaw 2026.8+), or have none yet on a
    SQLite-era state: 2026.9.6's plan, read-only. False (nothing done) otherwise: a file-era agent goes
    the usual way (its own choice of stores prints 2026.9.6's notes on them), and a mix is refused there."""
    from openclaw_cli.config.agents import resolve_session_store_targets
    from openclaw_cli.config.load import load_config
    from openclaw_cli.config.targets96 import print_notes
    from openclaw_cli.errors import AgentDbRefusedError, StoreError
    from openclaw_cli.store import era

    env = os.environ
    cfg = load_config(env).data
    notes: list[str] = []
    targets = resolve_session_store_targets(cfg, store=store, agent=agent, all_agents=all_agents, env=env, notes=notes)
    found = [era.detect(cfg, target, env) for target in targets]
    if not any(agent_store.in_sqlite for agent_store in found) and not _none_made(cfg, found, env):
        return False
    print_notes(notes)
    files = [agent_store.agent_id for agent_store in found if agent_store.era == era.FILES]
    if files:
        from openclaw_cli.errors import CliError

        in_db = [agent_store.agent_id for agent_store in found if agent_store.in_sqlite]
        who = f"agent {in_db[0]} keeps its" if len(in_db) == 1 else f"agents {', '.join(in_db)} keep their"
        raise CliError(f"{who} sessions in SQLite (OpenClaw 2026.8+) and {', '.join(files)} "
                       "in sessions.json; one dry run reads one kind",
                       hint="run it for each agent (--agent ID)")
    from openclaw_cli.maintenance import sqlite_plan
    from openclaw_cli.maintenance.settings import resolve_maintenance_sqlite_era
    from openclaw_cli.ui import console as output

    settings = resolve_maintenance_sqlite_era(object_at(object_at(cfg, "session"), "maintenance") or None)
    mode = "enforce" if enforce else settings.mode
    opts = sqlite_plan.Options(active_key=active_key, fix_missing=bool(fix_missing), fix_dm_scope=bool(fix_dm_scope))
    previews = []
    now_ms = int(time.time() * 1000)
    try:
        for target, agent_store in zip(targets, found):
            now_ms = int(time.time() * 1000)
            previews.append(sqlite_plan.preview_agent(cfg=cfg, agent_id=agent_store.agent_id,
                                                      db_agent_id=agent_store.db_agent_id,
                                                      db_path=agent_store.sqlite_path, store_path=target.store_path,
                                                      settings=settings, mode=mode, opts=opts, now_ms=now_ms))
    except AgentDbRefusedError as err:
        if json_out:
            raise  # 2026.9.6's failure document and lines
        raise StoreError(err.message) from None  # its text dry run prints the reason alone
    if quiet:
        return True
    if explain:
        output.note("--explain: a SQLite-era plan reports no reasons yet")
    if json_out:
        summaries = [p.summary for p in previews]
        output.print_json(summaries[0] if len(summaries) == 1 else
                          {"allAgents": True, "mode": mode, "dryRun": True, "stores": summaries})
        return True
    output.print_console_lines(_sqlite_lines(cfg, previews, now_ms, env), cfg, sqlite_era=True)
    return True


def _sqlite_lines(cfg, previews, now_ms: int, env) -> list[str]:
    from openclaw_cli.config.paths import resolve_effective_home
    from openclaw_cli.maintenance.sqlite_render import dry_run_lines
    from openclaw_cli.ui import console as output
    from openclaw_cli.ui.boxtable import table_width

    plain = not output.color_enabled(sys.stdout)

    def style(name, text: str) -> str:
        if plain or not name:
            return text
        return output.ansi_style("accent" if name == "accentBright" else name, text)

    home_prefix = "$OPENCLAW_HOME" if (env.get("OPENCLAW_HOME") or "").strip() else "~"
    lines: list[str] = []
    for i, preview in enumerate(previews):
        if i > 0:
            lines.append("")
        lines += dry_run_lines(cfg, preview, now_ms, len(previews) > 1, style=style, width=table_width(sys.stdout),
                               home=resolve_effective_home(env), home_prefix=home_prefix)
    return lines


def cleanup_via_gateway(params: dict, env: MutableMapping[str, str], opts: GatewayOptions) -> dict | None:
    """`sessions.cleanup` on the Gateway; None when no Gateway runs (nothing listening).

    Anything that answers but refuses is an error: writing locally would race the Gateway,
    which owns the store while it runs.
    """
    from openclaw_cli.config.load import load_config
    from openclaw_cli.gateway import GatewayRequestError, GatewayUnavailable
    from openclaw_cli.gateway.rpc import OFFLINE_REPAIR_HINT, connection_if_running, sessions_cleanup

    cfg = load_config(env).data
    connection = connection_if_running(
        "sessions.cleanup", env, cfg=cfg, action="cleanup", url=opts.url, port=opts.port, token=opts.token,
        password=opts.password, offline_hint="use --store <path> for an explicit offline repair")
    if connection is None:
        return None
    try:
        kwargs = {} if opts.timeout_ms is None else {"timeout_ms": opts.timeout_ms}
        return sessions_cleanup(params, connection=connection, offline_hint=OFFLINE_REPAIR_HINT, **kwargs)
    except GatewayUnavailable as exc:
        if route(opts, Fallback.UNREACHABLE, connection=connection, error=exc) == "local":
            return None
        raise
    except GatewayRequestError as exc:
        # 2026.8+: an --all-agents run that failed at one store answers with what it did before.
        if exc.method == "sessions.cleanup" and is_partial_result(exc.details):
            return exc.details
        raise


def is_partial_result(value: object) -> bool:
    """A `sessions.cleanup` refusal carrying the summaries of the stores done before the failing one."""
    if not isinstance(value, dict) or not isinstance(value.get("partialError"), dict):
        return False
    error = value["partialError"]
    return (value.get("allAgents") is True and value.get("mode") in ("enforce", "warn")
            and isinstance(value.get("dryRun"), bool) and isinstance(value.get("stores"), list)
            and all(isinstance(s, dict) for s in value["stores"])
            and isinstance(error.get("failingAgentId"), str) and isinstance(error.get("failingStorePath"), str)
            and isinstance(error.get("message"), str) and isinstance(error.get("lifecycleCommitted"), bool))


def _raise_partial_error(result: object) -> None:
    """After printing what the Gateway did: the store it failed at, as one error line (exit 1)."""
    from openclaw_cli.errors import CliError

    if isinstance(result, dict) and is_partial_result(result):
        error = result["partialError"]
        raise CliError(f"the Gateway stopped the cleanup at agent {error['failingAgentId']} "
                       f"({error['failingStorePath']}): {error['message']}")


@dataclass
class CleanupRequest:
    options: CleanupOptions
    store: str | None = None
    agent: str | None = None
    all_agents: bool = False
    json: bool = False
    lock_wait_s: float = 10.0


@dataclass
class CleanupOutcome:
    mode: str
    dry_run: bool
    previews: list  # list[Preview]
    summaries: list[dict]
    cfg: Mapping
    now_ms: int
    logs: list[tuple[str, str]] = field(default_factory=list)  # (level, message) in run order
    explained: list[list[str]] = field(default_factory=list)  # with --explain: each applied store's reasons
    done: list = field(default_factory=list)  # the effects carried out (list[Effect]), every store

    def json_value(self) -> dict:
        """A single summary bare; several (or none) wrapped as OpenClaw wraps them."""
        summaries = [p.summary for p in self.previews] if self.dry_run else self.summaries
        if len(summaries) == 1:
            return summaries[0]
        return {"allAgents": True, "mode": self.mode, "dryRun": self.dry_run, "stores": summaries}


def resolve_targets(cfg: Mapping, req: CleanupRequest, env: Mapping[str, str]) -> list[Target]:
    from openclaw_cli.config.agents import check_explicit_store, resolve_session_store_targets

    found = resolve_session_store_targets(cfg, store=req.store, agent=req.agent, all_agents=req.all_agents,
                                          env=env)
    from openclaw_cli.store.era import refuse_sqlite

    refuse_sqlite(cfg, found, "sessions cleanup", env,
                  change=None if req.options.dry_run else "apply session maintenance",
                  flag="--store" if req.store else None)
    if req.store:
        check_explicit_store(found[0].store_path)
    return [Target(t.agent_id, t.store_path) for t in found]


def run_cleanup(req: CleanupRequest, env: MutableMapping[str, str] | None = None) -> CleanupOutcome:
    """Local cleanup of every selected store (the Gateway path is chosen by the caller)."""
    from openclaw_cli.config.load import load_config
    from openclaw_cli.maintenance import folder_scan
    from openclaw_cli.maintenance.settings import resolve_maintenance
    from openclaw_cli.store.sessions_json import load_store

    env = os.environ if env is None else env
    cfg = load_config(env).data
    session = object_at(cfg, "session")
    settings = resolve_maintenance(session.get("maintenance"))
    mode = "enforce" if req.options.enforce else settings.mode
    targets = resolve_targets(cfg, req, env)
    outcome = CleanupOutcome(mode, req.options.dry_run, [], [], cfg, 0, [])
    locks = [] if req.options.dry_run else _lock_all(targets, req.lock_wait_s)
    try:
        for target in targets:  # a large folder is listed while its store is read
            folder_scan.start(os.path.dirname(target.store_path), target.store_path)
        # Read (and validate) every store before changing any of them.
        loaded = [(t, load_store(t.store_path)) for t in targets]
        lock_paths = [lock.path for lock in locks]
        if not req.options.dry_run and not req.options.allow_empty_store:
            # A lost index anywhere stops the run before any store is changed.
            for target, store in loaded:
                if not store.store:
                    _refuse_lost_index(_plan(cfg, target, store, settings, mode, req.options, env,
                                             int(time.time() * 1000), lock_paths), store, req.options)
        for target, store in loaded:
            now_ms = int(time.time() * 1000)
            outcome.now_ms = now_ms
            if req.options.dry_run:
                outcome.previews.append(_preview(cfg, target, store, settings, mode, req.options, env, now_ms))
            else:
                outcome.summaries.append(_apply(cfg, target, store, settings, mode, req.options, env, now_ms,
                                                outcome, lock_paths))
    finally:
        folder_scan.discard()
        for lock in reversed(locks):
            lock.release()
    return outcome


def _lock_all(targets: list[Target], wait_s: float) -> list:
    """Lock every store (in path order, so two runs never wait on each other crosswise)."""
    from openclaw_cli.locks.store_lock import StoreLock

    locks: list = []
    try:
        for path in sorted({t.store_path for t in targets}):
            locks.append(StoreLock(path, wait_s).acquire())
    except BaseException:
        for lock in reversed(locks):
            lock.release()
        raise
    return locks


def _preview(cfg, target, loaded, settings, mode, opts, env, now_ms):
    from openclaw_cli.maintenance import lostindex
    from openclaw_cli.maintenance.fsview import FsView
    from openclaw_cli.maintenance.plan import preview_store

    view = FsView.open(os.path.dirname(target.store_path))
    preview = preview_store(cfg=cfg, target=target, before=loaded.store, view=view, settings=settings,
                            mode=mode, opts=opts, env=env, now_ms=now_ms)
    if preview.lost_index_transcripts and not opts.allow_empty_store:
        # Only in this situation: otherwise the summary stays exactly OpenClaw's.
        preview.summary["warnings"] = [lostindex.warning_json(target.store_path, loaded.exists,
                                                              preview.lost_index_transcripts)]
    return preview


def _plan(cfg, target, loaded, settings, mode, opts, env, now_ms, lock_paths: list[str]):
    from openclaw_cli.config.paths import resolve_required_home
    from openclaw_cli.maintenance.apply import ApplyRequest, plan_apply
    from openclaw_cli.maintenance.fsview import FsView

    # Our own lock files (several stores may share a folder) are invisible to every count.
    folder = os.path.dirname(target.store_path)
    ours = frozenset(os.path.basename(p) for p in lock_paths if os.path.dirname(p) == folder)
    view = FsView.open(folder, ignore=ours)
    return plan_apply(ApplyRequest(cfg=cfg, target=target, loaded=loaded, view=view, settings=settings,
                                   mode=mode, opts=opts, env=env, now_ms=now_ms,
                                   home=resolve_required_home(env)))


def _refuse_lost_index(plan, loaded, opts: CleanupOptions) -> None:
    """Stop (exit 1, nothing changed) when the plan sweeps the transcripts of a store with no entries."""
    from openclaw_cli.errors import StoreError
    from openclaw_cli.maintenance import lostindex

    if plan.lost_index_transcripts and not opts.allow_empty_store:
        raise StoreError(lostindex.refusal(plan.target.store_path, loaded.exists, plan.lost_index_transcripts))


def _apply(cfg, target, loaded, settings, mode, opts, env, now_ms, outcome: CleanupOutcome,
           lock_paths: list[str]) -> dict:
    from openclaw_cli.maintenance.execute import execute

    plan = _plan(cfg, target, loaded, settings, mode, opts, env, now_ms, lock_paths)
    _refuse_lost_index(plan, loaded, opts)
    outcome.done.extend(execute(plan).done)
    outcome.logs.extend(plan.logs)
    if plan.why is not None:
        from openclaw_cli.maintenance import render

        fields, lines = render.applied_explain(plan)
        outcome.explained.append(lines)
        return {**plan.summary, **fields}
    return plan.summary


def _config_or_none():
    from openclaw_cli.config.load import load_config

    try:
        return load_config().data
    except Exception:
        return None


def _print_warnings(previews, cfg=None) -> None:
    """The dry run's warnings (a lost index), one `warning:` line each on stderr."""
    from openclaw_cli.ui import console as output

    for preview in previews:
        for item in preview.summary.get("warnings", ()):
            output.warn(output.console_lines([item['message']], cfg)[0])


def _print_logs(logs, json_out: bool, cfg=None) -> None:
    """Maintenance log lines as OpenClaw prints them: info on stdout (stderr with --json),
    warnings on stderr; redacted like every console line."""
    from openclaw_cli.ui import console as output

    threshold = output.log_level()
    for level, message in logs:
        if (level == "info" and threshold in ("warn", "error")) or (level == "warn" and threshold == "error"):
            continue  # as OpenClaw's console logger: --log-level warn or error hides them
        message = output.console_lines([message], cfg)[0]
        stream = sys.stderr if (json_out or level != "info") else sys.stdout
        text = f"[sessions/store] {message}"
        if output.color_enabled(stream):
            tag = output.ansi_style("error", "[sessions/store]")
            text = f"{tag} {output.ansi_style('accent' if level == 'info' else 'warn', message)}"
        stream.write(text + "\n")

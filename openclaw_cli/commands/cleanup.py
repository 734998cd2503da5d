"""`sessions cleanup`: resolve targets, preview or plan-and-apply each store, report."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass

from openclaw_cli.maintenance.plan import CleanupOptions, Target


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
    logs: list[tuple[str, str]] = None  # type: ignore[assignment]  (level, message) in run order

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
    if req.store:
        check_explicit_store(found[0].store_path)
    return [Target(t.agent_id, t.store_path) for t in found]


def run_cleanup(req: CleanupRequest, env: Mapping[str, str] | None = None) -> CleanupOutcome:
    """Local cleanup of every selected store (the Gateway path is chosen by the caller)."""
    from openclaw_cli.config.load import load_config
    from openclaw_cli.maintenance.settings import resolve_maintenance
    from openclaw_cli.store.sessions_json import load_store

    env = os.environ if env is None else env
    cfg = load_config(env).data
    session = cfg.get("session") if isinstance(cfg.get("session"), dict) else {}
    settings = resolve_maintenance(session.get("maintenance"))
    mode = "enforce" if req.options.enforce else settings.mode
    targets = resolve_targets(cfg, req, env)
    outcome = CleanupOutcome(mode, req.options.dry_run, [], [], cfg, 0, [])
    locks = [] if req.options.dry_run else _lock_all(targets, req.lock_wait_s)
    try:
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
                                                outcome.logs, lock_paths))
    finally:
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
    from openclaw_cli.maintenance.apply import plan_apply
    from openclaw_cli.maintenance.fsview import FsView
    from openclaw_cli.config.paths import resolve_required_home

    # Our own lock files (several stores may share a folder) are invisible to every count.
    folder = os.path.dirname(target.store_path)
    ours = frozenset(os.path.basename(p) for p in lock_paths if os.path.dirname(p) == folder)
    view = FsView.open(folder, ignore=ours)
    return plan_apply(cfg=cfg, target=target, loaded=loaded, view=view, settings=settings, mode=mode,
                      opts=opts, env=env, now_ms=now_ms, home=resolve_required_home(env))


def _refuse_lost_index(plan, loaded, opts: CleanupOptions) -> None:
    """Stop (exit 1, nothing changed) when the plan sweeps the transcripts of a store with no entries."""
    from openclaw_cli.errors import StoreError
    from openclaw_cli.maintenance import lostindex

    if plan.lost_index_transcripts and not opts.allow_empty_store:
        raise StoreError(lostindex.refusal(plan.target.store_path, loaded.exists, plan.lost_index_transcripts))


def _apply(cfg, target, loaded, settings, mode, opts, env, now_ms, logs, lock_paths: list[str]) -> dict:
    from openclaw_cli.maintenance.execute import execute

    plan = _plan(cfg, target, loaded, settings, mode, opts, env, now_ms, lock_paths)
    _refuse_lost_index(plan, loaded, opts)
    execute(plan)
    logs.extend(plan.logs)
    return plan.summary

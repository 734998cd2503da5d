"""Carry out an ApplyPlan: the new store first (durably), then renames and deletions, re-checked."""

from __future__ import annotations

import os
import stat as stat_mod
from dataclasses import dataclass, field

from openclaw_cli.errors import CliError
from openclaw_cli.js import paths as jspath
from openclaw_cli.maintenance.apply import ApplyPlan
from openclaw_cli.maintenance.fsview import Effect


@dataclass
class ExecutionReport:
    done: list[Effect] = field(default_factory=list)
    skipped: list[tuple[Effect, str]] = field(default_factory=list)


def fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def execute(plan: ApplyPlan) -> ExecutionReport:
    from openclaw_cli.store import sessions_json as store_mod
    from openclaw_cli.store.promptblobs import ensure_prompt_blobs

    report = ExecutionReport()
    store_path = plan.target.store_path
    store_dir = os.path.dirname(store_path)

    def durable_write(path, data, **kwargs):
        kwargs["durable"] = True
        store_mod.write_file_atomic(path, data, **kwargs)

    def write_blobs() -> None:
        ensure_prompt_blobs(plan.projection.prompt_blobs, store_path, durable_write)

    try:
        if plan.write_store:
            assert plan.projection.fingerprint is not None  # plan_apply measured the text it writes
            text = store_mod.store_text(plan.store, store_path, plan.projection.fingerprint)
            store_mod.write_store_text_atomic(store_path, text, durable=True, before_rename=write_blobs)
        else:
            write_blobs()
    except OSError as exc:
        raise CliError(f"could not write the session store {store_path}: {exc.strerror or exc}; "
                       "nothing was changed (the previous store is intact)") from None
    real_dir = jspath.realpath_or_none(store_dir) or store_dir
    effects = plan.effects
    from openclaw_cli.ui import console, progress

    with progress.task(f"Applying {len(effects)} file changes", len(effects)) as advance:
        failure = _run_effects(effects, real_dir, report, advance)
    if report.done:
        fsync_dir(real_dir)
    for effect, why in report.skipped:
        if why != "already gone":
            console.stderr_line(f"skipped {effect.kind} of {effect.path}: {why}")
    if failure is not None:
        effect, why = failure
        raise CliError(
            f"cleanup stopped: could not {effect.kind} {effect.path}: {why}. The session store was "
            f"saved; {len(report.done)} of {len(effects)} file changes were made, the rest were not "
            "(run the same command again once the problem is fixed)")
    return report


def _run_effects(effects: list[Effect], real_dir: str, report: ExecutionReport,
                 advance) -> tuple[Effect, str] | None:
    """Renames and deletions in plan order; stops at the first failure that is not a vanished file."""
    for effect in effects:
        advance()
        problem = _check(effect, real_dir)
        if problem:
            report.skipped.append((effect, problem))
            continue
        try:
            if effect.kind == "rename":
                assert effect.target is not None  # FsView.plan_rename always names the destination
                os.rename(effect.path, effect.target)
            elif effect.kind == "delete":
                os.unlink(effect.path)
        except FileNotFoundError:
            report.skipped.append((effect, "already gone"))
            continue
        except OSError as exc:
            return effect, exc.strerror or str(exc)
        report.done.append(effect)
    return None


def _check(effect: Effect, real_dir: str) -> str | None:
    """Refuse effects outside the store folder, on symlinked targets, or on files changed since planning."""
    for p in (effect.path, effect.target):
        if p is not None and not jspath.contains(real_dir, p):
            return "outside the store folder"
    try:
        st = os.lstat(effect.path)
    except FileNotFoundError:
        return "already gone"
    except OSError as exc:
        return exc.strerror or str(exc)
    if effect.kind == "rename":
        # Archiving renames a transcript (a directory in its place moves too, as OpenClaw
        # does); a symlink is never renamed.
        if not (stat_mod.S_ISREG(st.st_mode) or stat_mod.S_ISDIR(st.st_mode)):
            return "not a regular file"
        if effect.target and os.path.lexists(effect.target):
            return "archive name already taken"
    if stat_mod.S_ISREG(st.st_mode) and (st.st_size != effect.size or st.st_mtime_ns != effect.mtime_ns):
        return "changed since the plan was made"
    return None

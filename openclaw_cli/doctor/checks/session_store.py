"""`core/doctor/session-store`: unparseable store, over maxEntries or maxDiskBytes (missing and orphan
transcripts are rows of state integrity)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/session-store"


def folder_bytes(sessions_dir: str) -> int:
    """Regular files directly in the folder plus prompt blobs under skills-prompts/sha256/<hh>/."""
    total = 0
    try:
        entries = list(os.scandir(sessions_dir))
    except OSError:
        return 0
    for entry in entries:
        try:
            if entry.is_file(follow_symlinks=False):
                total += entry.stat(follow_symlinks=False).st_size
        except OSError:
            continue
    blob_root = os.path.join(sessions_dir, "skills-prompts", "sha256")
    try:
        prefixes = [e.path for e in os.scandir(blob_root) if e.is_dir(follow_symlinks=False) and len(e.name) == 2]
    except OSError:
        prefixes = []
    for prefix in prefixes:
        try:
            total += sum(e.stat(follow_symlinks=False).st_size for e in os.scandir(prefix)
                         if e.is_file(follow_symlinks=False))
        except OSError:
            continue
    return total


def _targets(ctx: DoctorContext):
    """Stores of the configured agents; with --deep also every `<state>/agents/*/sessions` store."""
    from openclaw_cli.config.agents import Target, normalize_agent_id, resolve_session_store_targets

    try:
        targets = resolve_session_store_targets(ctx.cfg, all_agents=True, env=ctx.env, notes=[])
    except Exception:
        targets = []
    if ctx.options.deep:
        from openclaw_cli.doctor.support.sessionfiles import list_agent_session_dirs

        known = {t.store_path for t in targets}
        for folder in list_agent_session_dirs(ctx.state_dir):
            store = os.path.join(folder, "sessions.json")
            if store not in known:
                targets.append(Target(normalize_agent_id(os.path.basename(os.path.dirname(folder))), store))
    return targets


def _sqlite_finding(ctx: DoctorContext, target) -> Finding | None:
    """An agent whose sessions are in its SQLite database (OpenClaw 2026.8+): said here, checked by
    core/doctor/session-sqlite and core/doctor/session-sqlite-migration."""
    from openclaw_cli.store import era

    found = era.detect(ctx.cfg, target, ctx.env)
    if not found.in_sqlite:
        return None
    also = f" (a sessions.json is left beside it: {found.sessions_json})" if found.era == era.BOTH else ""
    return Finding(CHECK_ID, "info",
                   f"Agent {found.agent_id} keeps its sessions in SQLite (OpenClaw 2026.8+){also}; doctor checks "
                   "that database as OpenClaw's database, not as sessions.json.", found.sqlite_path,
                   "Run `openclaw sessions --agent " + found.agent_id + "` to list them.")


def _cmd(store: str, *flags: str) -> str:
    return " ".join(["openclaw sessions cleanup", f'--store "{store}"', *flags])


class SessionStoreCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Session store",
                         "sessions.json parses and stays within maxEntries and maxDiskBytes.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        from openclaw_cli.doctor.support.sessionfiles import read_store
        from openclaw_cli.maintenance.settings import resolve_maintenance

        session = object_at(ctx.cfg, "session")
        settings = resolve_maintenance(session.get("maintenance"))
        out: list[Finding] = []
        for target in _targets(ctx):
            sqlite = _sqlite_finding(ctx, target)
            if sqlite is not None:
                out.append(sqlite)
                continue
            store = os.path.abspath(target.store_path)
            view = read_store(store)
            if not view.exists:
                continue
            if view.corrupt:
                out.append(Finding(CHECK_ID, "error",
                                   f"Session store does not parse ({view.error or 'invalid JSON'}); OpenClaw reads "
                                   "it as empty and its next write replaces it.", store,
                                   "Restore it from a backup or move it aside, then check it with "
                                   f"`{_cmd(store, '--dry-run')}`."))
                continue
            count = sum(1 for _ in view.items())
            max_entries = settings.max_entries
            if isinstance(max_entries, int) and not isinstance(max_entries, bool) and max_entries >= 0 \
                    and count > max_entries:
                out.append(Finding(CHECK_ID, "warning",
                                   f"Session store has {count} entries, above session.maintenance.maxEntries "
                                   f"({max_entries}).", store,
                                   f"Run `{_cmd(store, '--enforce')}` to cap it (preview with --dry-run)."))
            if settings.max_disk_bytes is not None and settings.max_disk_bytes > 0:
                used = folder_bytes(os.path.dirname(store))
                if used > settings.max_disk_bytes:
                    out.append(Finding(CHECK_ID, "warning",
                                       f"Sessions folder uses {used} bytes, above session.maintenance.maxDiskBytes "
                                       f"({settings.max_disk_bytes}).", store,
                                       f"Run `{_cmd(store, '--enforce')}` to bring it under the disk budget "
                                       "(preview with --dry-run)."))
        return out

    def run(self, ctx: DoctorContext, report: Report) -> None:
        from openclaw_cli.doctor.support.notes import report_findings

        findings = self.detect(ctx)
        if not findings:
            return
        report_findings(ctx, report, "Session store", self.id, findings)
        for f in findings:
            if f.severity == "warning" and f.path:
                report.step(_cmd(f.path, "--dry-run"))

"""The `State integrity` note of a doctor run, with its permission, folder and archive repairs."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Finding
from openclaw_cli.doctor.support import fsutil
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.checks.state_integrity import StateIntegrityCheck
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report
    from openclaw_cli.doctor.support.sessionfiles import StoreView

MAX_RECENT = 5


def _storage_rows(ctx: DoctorContext, rows: _Rows, shown_state: str) -> None:
    from openclaw_cli.doctor.checks.state_integrity import storage_finding
    from openclaw_cli.doctor.support.storage import detect_storage, escape_controls

    for issue in detect_storage(ctx.state_dir, ctx.home):
        finding = storage_finding(issue)
        if issue.kind == "cloud":
            rows.warn("\n".join([
                f"- State directory is under macOS cloud-synced storage ({shown_state}; {issue.storage}).",
                "- This can cause slow I/O and sync/lock races for sessions and credentials.",
                "- Prefer a local non-synced state dir (for example: ~/.openclaw).",
                "  Set locally: OPENCLAW_STATE_DIR=~/.openclaw openclaw doctor"]), finding)
        elif issue.kind == "sd":
            mount = "/" if issue.mount_point == "/" else ctx.display(issue.mount_point)
            rows.warn("\n".join([
                f"- State directory appears to be on SD/eMMC storage ({shown_state}; device "
                f"{escape_controls(issue.source)}, fs {escape_controls(issue.fs_type)}, mount "
                f"{escape_controls(mount)}).",
                "- SD/eMMC media can be slower for random I/O and wear faster under session/log churn.",
                "- For better startup and state durability, prefer SSD/NVMe (or USB SSD on Raspberry Pi) "
                "for OPENCLAW_STATE_DIR."]), finding)
        else:
            mount = "/" if issue.mount_point == "/" else escape_controls(ctx.display(issue.mount_point))
            rows.warn("\n".join([
                f"- State directory is on a volatile filesystem ({shown_state}; fs "
                f"{escape_controls(issue.fs_type)}, mount {mount}).",
                "- Sessions, credentials, config, and SQLite state (including WAL/journal sidecars) will be "
                "lost on reboot.",
                "- Move OPENCLAW_STATE_DIR to a persistent filesystem to avoid data loss."]), finding)


def _other_state_dirs(state_dir: str) -> list[str]:
    import sys

    roots = ["/Users"] if sys.platform == "darwin" else ["/home"] if sys.platform.startswith("linux") else []
    found = []
    resolved = os.path.abspath(state_dir)
    for root in roots:
        try:
            entries = list(os.scandir(root))
        except OSError:
            continue
        for entry in entries:
            try:
                if not entry.is_dir(follow_symlinks=False) or entry.name.startswith("."):
                    continue
            except OSError:
                continue
            candidate = os.path.abspath(os.path.join(root, entry.name, ".openclaw"))
            if candidate != resolved and fsutil.exists_dir(candidate):
                found.append(candidate)
    return found


def orphan_agent_dirs(ctx: DoctorContext) -> list[tuple[str, str]]:
    """(dir name, normalised id) of `<state>/agents/<d>/agent` folders no configured agent owns."""
    from openclaw_cli.config.agents import list_agent_ids, normalize_agent_id
    from openclaw_cli.config.paths import resolve_user_path
    from openclaw_cli.js.strings import locale_sort_key

    configured = {normalize_agent_id(ctx.default_agent_id)}
    agents_cfg = object_at(ctx.cfg, "agents")
    if isinstance(agents_cfg.get("list"), list) and agents_cfg["list"]:
        configured.update(list_agent_ids(ctx.cfg))
    root = os.path.join(ctx.state_dir, "agents")
    override = (ctx.env.get("OPENCLAW_AGENT_DIR") or "").strip() or (ctx.env.get("PI_CODING_AGENT_DIR") or "").strip()
    compat = (resolve_user_path(override, ctx.env) if override
              else os.path.join(ctx.state_dir, "agents", "main", "agent"))
    compat_real = fsutil.realpath_or_none(compat)
    out = []
    try:
        entries = [e for e in os.scandir(root) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    for entry in entries:
        nested = os.path.join(root, entry.name, "agent")
        if not fsutil.exists_dir(nested):
            continue
        nested_real = fsutil.realpath_or_none(nested)
        if compat_real is not None and nested_real == compat_real:
            continue
        agent_id = normalize_agent_id(entry.name)
        if agent_id not in configured:
            out.append((entry.name, agent_id))
            continue
        if entry.name == agent_id:
            continue
        normal_real = fsutil.realpath_or_none(os.path.join(root, agent_id, "agent"))
        if nested_real is None or nested_real != normal_real:
            out.append((entry.name, agent_id))
    out.sort(key=lambda p: (locale_sort_key(p[1]), locale_sort_key(p[0])))
    return out


def _preview(items: list[str], limit: int = 3) -> str:
    shown = items[:limit]
    rest = len(items) - len(shown)
    return ", ".join(shown) + (f", and {rest} more" if rest > 0 else "")


def main_session_key(cfg: dict) -> str:
    from openclaw_cli.config.agents import normalize_agent_id

    session = object_at(cfg, "session")
    if session.get("scope") == "global":
        return "global"
    agents = object_at(cfg, "agents")
    raw_list = agents.get("list")
    entries = [a for a in raw_list if isinstance(a, dict)] if isinstance(raw_list, list) else []
    chosen = next((a.get("id") for a in entries if a.get("default")), None)
    if chosen is None and entries:
        chosen = entries[0].get("id")
    main_key = session.get("mainKey")
    main_key = main_key.strip().lower() if isinstance(main_key, str) else ""
    return f"agent:{normalize_agent_id(chosen if isinstance(chosen, str) else None)}:{main_key or 'main'}"


def is_slash_routing_key(key: str) -> bool:
    import re

    from openclaw_cli.store.keys import parse_agent_key

    raw = key.strip().lower()
    if not raw:
        return False
    parsed = parse_agent_key(raw)
    scoped = parsed[1] if parsed else raw
    return re.match(r"^[^:]+:slash:[^:]+(?:$|:)", scoped) is not None


@dataclass
class _Rows:
    """The lines of the `State integrity` note and of its `Doctor changes`, filled row family by row family.

    Every problem row comes with its lint finding (`warn`); `more` adds a line that belongs to the row
    before it (a hint, a reason), so the human note and `--lint` list the same problems."""

    warnings: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def warn(self, line: str, finding: Finding) -> None:
        self.warnings.append(line)
        self.findings.append(finding)

    def more(self, line: str) -> None:
        self.warnings.append(line)

    def attempt(self, action: Callable[[], object], done: str, failed: str) -> bool:
        """Run one repair: `done` joins the changes, or `failed: <error>` the warnings."""
        try:
            action()
        except OSError as exc:
            self.warnings.append(f"{failed}: {exc}")
            return False
        self.changes.append(done)
        return True


def state_rows(ctx: DoctorContext, report: Report | None = None) -> _Rows:
    """Every row of the `State integrity` note (repairing as the prompter allows); without a
    report (lint) the next steps are dropped."""
    from openclaw_cli.doctor.report import Renderer
    from openclaw_cli.doctor.report import Report as _Report
    from openclaw_cli.doctor.support.sessionfiles import read_store

    report = report or _Report(Renderer())
    rows = _Rows()
    shown_state = ctx.display(ctx.state_dir)
    _storage_rows(ctx, rows, shown_state)
    exists = _state_dir_rows(ctx, rows, shown_state)
    _config_file_rows(ctx, rows)
    if exists:
        _runtime_dir_rows(ctx, rows)
    _other_state_rows(ctx, rows, shown_state)
    store_path = ctx.store_path()
    view = read_store(store_path)
    _session_store_rows(ctx, report, rows, view, os.path.abspath(store_path))
    _orphan_transcript_rows(ctx, report, rows, view)
    return rows


def run_state_integrity(check: StateIntegrityCheck, ctx: DoctorContext, report: Report) -> None:
    rows = state_rows(ctx, report)
    if rows.warnings:
        report.note("State integrity", rows.warnings, check_id=check.id, findings=rows.findings)
        if not ctx.should_repair and any(_fixable(w) for w in rows.warnings):
            report.pending_fix = True
    if rows.changes:
        report.changes(rows.changes, check_id=check.id)


def _state_dir_rows(ctx: DoctorContext, rows: _Rows, shown_state: str) -> bool:
    """The state folder: missing (create it), not writable, too open. True when it exists."""
    p = ctx.prompter
    state = ctx.state_dir
    exists = fsutil.exists_dir(state)
    if not exists:
        rows.warn(f"- CRITICAL: state directory missing ({shown_state}). Sessions, credentials, logs, "
                  "and config are stored there.",
                  _finding("error", "State directory is missing. Sessions, credentials, logs, and config are "
                                    "stored there.", state, "Run `openclaw doctor --fix` to create the state "
                                                            "directory."))
        gateway = object_at(ctx.cfg, "gateway")
        if gateway.get("mode") == "remote":
            rows.more("- Gateway is in remote mode; run doctor on the remote host where the gateway runs.")
        if p.confirm_runtime_repair(f"Create {shown_state} now?", False):
            exists = rows.attempt(lambda: os.makedirs(state, exist_ok=True), f"- Created {shown_state}",
                                  f"- Failed to create {shown_state}")
    if exists and not fsutil.can_write(state):
        _unwritable_rows(ctx, rows, state, f"- State directory not writable ({shown_state}).",
                         shown_state, f"- Repaired permissions on {shown_state}", shown_state,
                         ("State directory is not writable.",
                          "Run `openclaw doctor --fix` to repair state directory permissions."))
    if exists and fsutil.mode_too_open(state):
        rows.warn(f"- State directory permissions are too open ({shown_state}). Recommend chmod 700.",
                  _finding("warning", "State directory permissions are too open. Recommend chmod 700.", state,
                           "Run `openclaw doctor --fix` to tighten state directory permissions."))
        if p.confirm_runtime_repair(f"Tighten permissions on {shown_state} to 700?", True):
            rows.attempt(lambda: os.chmod(state, 0o700), f"- Tightened permissions on {shown_state} to 700",
                         f"- Failed to read {shown_state} permissions")
    return exists


def _unwritable_rows(ctx: DoctorContext, rows: _Rows, path: str, line: str, name: str, done: str,
                     shown: str, lint: tuple[str, str]) -> None:
    """A folder we cannot write: the warning, a permission hint, and the repair (owner rwx added)."""
    hint = fsutil.dir_permission_hint(path)
    rows.warn(line, _finding("error", lint[0] + (f" {hint}" if hint else ""), path, lint[1]))
    if hint:
        rows.more(f"  {hint}")
    if ctx.prompter.confirm_runtime_repair(f"Repair permissions on {name}?", True):
        rows.attempt(lambda: os.chmod(path, (os.stat(path).st_mode & 0o777) | 0o700), done,
                     f"- Failed to repair {shown}")


def _config_file_rows(ctx: DoctorContext, rows: _Rows) -> None:
    """A config file that others can read (tighten it to 600)."""
    config = ctx.config_path
    if not (fsutil.exists_file(config) and fsutil.mode_too_open(config)):
        return
    shown = ctx.display(config)
    rows.warn(f"- Config file is group/world readable ({shown}). Recommend chmod 600.",
              _finding("warning", "Config file is group/world readable. Recommend chmod 600.", config,
                       "Run `openclaw doctor --fix` to tighten config file permissions."))
    if ctx.prompter.confirm_runtime_repair(f"Tighten permissions on {shown} to 600?", True):
        rows.attempt(lambda: os.chmod(config, 0o600), f"- Tightened permissions on {shown} to 600",
                     f"- Failed to read config permissions ({shown})")


def _runtime_dir_rows(ctx: DoctorContext, rows: _Rows) -> None:
    """The OAuth folder and the runtime folders under the state folder: missing or not writable."""
    from openclaw_cli.doctor.checks.state_integrity import oauth_dir, oauth_required, runtime_dirs

    if not oauth_required(ctx) and not fsutil.exists_dir(oauth_dir(ctx)):
        rows.warn(f"- OAuth dir not present ({ctx.display(oauth_dir(ctx))}). Skipping create because no "
                  "WhatsApp/pairing channel config is active.",
                  _finding("info", "OAuth dir not present. Skipping create because no WhatsApp/pairing channel "
                                   "config is active.", oauth_dir(ctx)))
    for rd in runtime_dirs(ctx):
        shown = ctx.display(rd.path)
        if not fsutil.exists_dir(rd.path):
            rows.warn(f"- CRITICAL: {rd.label} missing ({shown}).",
                      _finding("error", f"{rd.label} is missing.", rd.path,
                               "Run `openclaw doctor --fix` to create missing runtime state directories."))
            if ctx.prompter.confirm_runtime_repair(f"Create {rd.label} at {shown}?", True):
                rows.attempt(partial(os.makedirs, rd.path, exist_ok=True), f"- Created {rd.label}: {shown}",
                             f"- Failed to create {shown}")
            continue
        if not fsutil.can_write(rd.path):
            _unwritable_rows(ctx, rows, rd.path, f"- {rd.label} not writable ({shown}).", rd.label,
                             f"- Repaired permissions on {rd.label}: {shown}", shown,
                             (f"{rd.label} is not writable.",
                              "Run `openclaw doctor --fix` to repair runtime state directory permissions."))


def _other_state_rows(ctx: DoctorContext, rows: _Rows, shown_state: str) -> None:
    """Other state folders on this machine, and agent folders no agents.list entry names."""
    state = ctx.state_dir
    extra: list[str] = []
    default_state = os.path.join(ctx.home, ".openclaw")
    if os.path.abspath(state) != os.path.abspath(default_state) and fsutil.exists_dir(default_state):
        extra.append(default_state)
    for other in _other_state_dirs(state):
        if other not in extra:
            extra.append(other)
    if extra:
        rows.warn("\n".join(["- Multiple state directories detected. This can split session history.",
                             *[f"  - {ctx.display(d)}" for d in extra],
                             f"  Active state dir: {shown_state}"]),
                  _finding("warning", "Multiple state directories detected. This can split session history: "
                                      + ", ".join(ctx.display(d) for d in extra) + ".", state,
                           "Keep one state directory; set OPENCLAW_STATE_DIR to the one in use."))
    orphans = orphan_agent_dirs(ctx)
    if orphans:
        labels = [name if name == agent_id else f"{name} (id {agent_id})" for name, agent_id in orphans]
        count = fsutil.count_label(len(orphans), 'agent directory', 'agent directories')
        rows.warn("\n".join([
            f"- Found {count} on disk without a matching agents.list entry.",
            "  These agents can still have sessions/auth state on disk, but config-driven routing, identity, and "
            "model selection will ignore them.",
            f"  Examples: {_preview(labels)}",
            "  Restore the missing agents.list entries or remove stale dirs after confirming they are no longer "
            f"needed: {ctx.display(os.path.join(state, 'agents'))}"]),
            _finding("warning", f"Found {count} on disk without a matching agents.list entry: "
                                f"{_preview(labels)}.", os.path.join(state, "agents"),
                     "Restore the missing agents.list entries or remove the stale agent directories."))


def _session_store_rows(ctx: DoctorContext, report: Report, rows: _Rows, view: StoreView,
                        abs_store: str) -> None:
    """Recent sessions without transcripts, wedged subagents, a missing or empty main transcript."""
    entries = list(view.items())
    if not entries:
        return
    ordered = sorted(entries, key=lambda kv: -_updated_at(kv[1]))
    recent = [kv for kv in ordered[:MAX_RECENT] if not is_slash_routing_key(kv[0])]
    missing = [kv for kv in recent if kv[1].get("sessionId")
               and not fsutil.exists_file(view.transcript_path(kv[1]) or "")]
    if missing:
        rows.warn("\n".join([
            f"- {len(missing)}/{len(recent)} recent sessions are missing transcripts.",
            f'  Verify sessions in store: openclaw sessions --store "{abs_store}"',
            f'  Preview cleanup impact: openclaw sessions cleanup --store "{abs_store}" --dry-run --fix-missing',
            f'  Prune missing entries: openclaw sessions cleanup --store "{abs_store}" --enforce --fix-missing']),
            _finding("warning", f"{len(missing)}/{len(recent)} recent sessions are missing transcripts.", abs_store,
                     f'Run `openclaw sessions cleanup --store "{abs_store}" --enforce --fix-missing` to prune them '
                     "(preview with --dry-run --fix-missing)."))
        report.step(f'openclaw sessions cleanup --store "{abs_store}" --dry-run --fix-missing')
    _wedged_subagents(ctx, entries, abs_store, rows)
    _route_state_rows(ctx, view, abs_store, rows)
    main_key = main_session_key(ctx.cfg)
    main = view.entries.get(main_key)
    has_main = isinstance(main, dict) and bool(main.get("sessionId"))
    transcript = view.transcript_path(main) if isinstance(main, dict) and has_main else None
    moved = has_main and _heartbeat_main_rows(ctx, rows, view, abs_store, main_key, transcript)
    _heartbeat_target_rows(ctx, rows)
    if not has_main or moved:
        return
    if transcript and not fsutil.exists_file(transcript):
        rows.warn(f"- Main session transcript missing ({ctx.display(transcript)}). History will appear to reset.",
                  _finding("warning", "Main session transcript missing. History will appear to reset.", transcript))
    elif transcript:
        lines = fsutil.count_jsonl_lines(transcript)
        if lines <= 1:
            text = f"Main session transcript has only {lines} line. Session history may not be appending."
            rows.warn(f"- {text}", _finding("warning", text, transcript))


def _heartbeat_main_rows(ctx: DoctorContext, rows: _Rows, view: StoreView, abs_store: str, main_key: str,
                         transcript: str | None) -> bool:
    """A main session holding only heartbeat turns; True when the repair moved it away."""
    from openclaw_cli.doctor.support import heartbeat_main as hb

    found = hb.candidate(view.entries.get(main_key), transcript)
    if found is None:
        return False
    recovered = hb.recovery_key(main_key, view.entries, ctx.now_ms)
    if recovered is None:
        text = f"Main session {main_key} appears heartbeat-owned, but doctor could not choose a safe recovery key."
        rows.warn(f"- {text}", _finding("warning", text, abs_store))
        return False
    text = f"Main session {main_key} appears to be a heartbeat-owned session ({found.describe()})."
    rows.warn(f"- {text}\n  Doctor can move it to {recovered} and let the next interactive launch create a fresh "
              "main session.", _finding("warning", text, abs_store,
                                         "Run `openclaw doctor --fix` to move it to a heartbeat-recovered key; the next "
                                         "interactive launch creates a fresh main session."))
    if not ctx.prompter.confirm_runtime_repair(f"Move heartbeat-owned main session {main_key} to {recovered} and "
                                               "clear stale TUI restore pointers?", True):
        return False
    if hb.move_entry(abs_store, main_key, recovered, transcript) is None:
        rows.more(f"- Main session {main_key} changed before repair could move it.")
        return False
    cleared = hb.clear_tui_pointers(ctx.state_dir, main_key)
    rows.changes.append(f"- Moved heartbeat-owned main session {main_key} to {recovered}.")
    if cleared:
        rows.changes.append(f"- Cleared {fsutil.count_label(cleared, 'stale TUI last-session pointer')} for "
                            f"{main_key}.")
    return True


def _route_state_rows(ctx: DoctorContext, view: StoreView, store_path: str, rows: _Rows) -> None:
    """Plugin-owned routing state outside the configured route: cleared per owner on request;
    explicit model overrides are listed for review."""
    from openclaw_cli.doctor.support import route_state

    repairs, reviews = route_state.scan_store(ctx.cfg, view.entries)
    by_owner: dict[str, list[route_state.Repair]] = {}
    for repair in repairs:
        by_owner.setdefault(repair.owner.label, []).append(repair)
    for label, found in by_owner.items():
        count = fsutil.count_label(len(found), "session")
        text = f"Found stale {label} session routing state in {count} outside the current configured model/runtime route."
        rows.warn("\n".join([f"- {text}", "  This can keep later message-channel runs pinned to an old runtime/provider "
                             "after defaults move elsewhere.",
                             f"  Examples: {', '.join(r.example() for r in found[:3])}"]),
                  _finding("warning", text, store_path, "Run `openclaw doctor --fix` to clear it."))
        if ctx.prompter.confirm_runtime_repair(f"Clear stale {label} session routing state for {count}?", True):
            repaired = route_state.clear_stale(store_path, found, ctx.now_ms)
            if repaired:
                rows.changes.append(f"- Cleared stale {label} session routing state for "
                                    f"{fsutil.count_label(repaired, 'session')}.")
    reviewed: dict[str, list[route_state.Review]] = {}
    for review in reviews:
        reviewed.setdefault(review.owner.label, []).append(review)
    for label, hits in reviewed.items():
        text = (f"Found explicit {label} model overrides in {fsutil.count_label(len(hits), 'session')} outside the "
                "current configured route.")
        rows.warn("\n".join([f"- {text}", "  Doctor leaves explicit or legacy user selections untouched; switch them "
                             "with /model or reset the session if that provider is no longer intended.",
                             f"  Examples: {', '.join(h.message for h in hits[:3])}"]),
                  _finding("info", text, store_path, "Switch them with /model, or reset the session if that provider "
                                                     "is no longer intended."))


def _heartbeat_target_rows(ctx: DoctorContext, rows: _Rows) -> None:
    """Agents whose heartbeat pins a session their store has no entry for (no repair)."""
    from openclaw_cli.doctor.support.heartbeat_target import HINT, pinned_sessions

    for pinned in pinned_sessions(ctx.cfg, ctx.store_path):
        rows.warn(pinned.lines(), _finding("warning", pinned.text, pinned.config_path, HINT))


def _orphan_transcript_rows(ctx: DoctorContext, report: Report, rows: _Rows, view: StoreView) -> None:
    """Transcripts sessions.json no longer names (archived on request; never without a usable index)."""
    from openclaw_cli.doctor.support.sessionfiles import (
        lost_index_message,
        orphan_transcripts,
        skipped_orphans_message,
    )

    sessions_dir = ctx.sessions_dir()
    if not fsutil.exists_dir(sessions_dir) or _orphans_suppressed(ctx):
        return
    orphan_paths = orphan_transcripts(view, sessions_dir)
    if orphan_paths and view.corrupt:
        # Without a usable index nothing tells an orphan from live history: no finding, no prompt.
        text = skipped_orphans_message(len(orphan_paths), ctx.display(sessions_dir))
        rows.warn(f"- {text}", _finding("info", text, sessions_dir,
                                        "Restore sessions.json from a backup; its transcripts stay untouched."))
        return
    if not orphan_paths:
        return
    if not any(True for _ in view.items()):
        # A store with no entries beside transcripts is a lost index: they are its history, not orphans.
        text = lost_index_message(len(orphan_paths), ctx.display(sessions_dir))
        rows.warn(f"- {text}", _finding("info", text, sessions_dir,
                                        "Run `openclaw sessions recover` to put them back into sessions.json."))
        report.step("openclaw sessions recover --dry-run (which transcripts would be put back into sessions.json)")
        return
    label = fsutil.count_label(len(orphan_paths), "orphan transcript file")
    shown_dir = ctx.display(sessions_dir)
    rows.warn("\n".join([
        f"- Found {label} in {shown_dir}.",
        "  These .jsonl files are no longer referenced by sessions.json, so they are not part of any active "
        "session history.",
        "  Doctor can archive them safely by renaming each file to *.deleted.<timestamp>.",
        f"  Examples: {_preview([os.path.basename(x) for x in orphan_paths])}"]),
        _finding("warning", f"Found {label} in {shown_dir}, no longer referenced by sessions.json.", sessions_dir,
                 "Run `openclaw doctor` at a terminal to archive them as *.deleted.<timestamp>."))
    question = f"Archive {label} in {shown_dir}? This only renames them to *.deleted.<timestamp>."
    if ctx.prompter.confirm_runtime_repair(question, False, requires_interactive=True):
        from openclaw_cli.store.artifacts import format_archive_timestamp

        stamp = format_archive_timestamp(ctx.now_ms)
        archived = 0
        for path in orphan_paths:
            try:
                os.rename(path, f"{path}.deleted.{stamp}")
                archived += 1
            except OSError as exc:
                rows.more(f"- Failed to archive orphan transcript {ctx.display(path)}: {exc}")
        if archived:
            rows.changes.append(f"- Archived {fsutil.count_label(archived, 'orphan transcript file')} in "
                                f"{shown_dir} as .deleted timestamped backups.")
    elif not ctx.prompter.mode.can_prompt:
        report.step("openclaw doctor (at a terminal, without --non-interactive, to archive the orphan "
                    "transcripts)")


def is_wedged(entry: dict) -> bool:
    recovery = entry.get("subagentRecovery")
    wedged = recovery.get("wedgedAt") if isinstance(recovery, dict) else None
    return isinstance(wedged, (int, float)) and not isinstance(wedged, bool) and wedged > 0 and wedged != float("inf")


def _wedged_reason(entry: dict) -> str:
    reason = (entry.get("subagentRecovery") or {}).get("wedgedReason")
    return reason.strip() if isinstance(reason, str) and reason.strip() else \
        "subagent orphan recovery is tombstoned for this session"


def _wedged_subagents(ctx: DoctorContext, entries: list, store_path: str, rows: _Rows) -> None:
    """Entries whose automatic restart recovery was tombstoned; the repair clears a stale abort flag."""
    wedged = [(key, entry) for key, entry in entries if is_wedged(entry)]
    if not wedged:
        return
    label = fsutil.count_label(len(wedged), "wedged subagent session")
    rows.warn("\n".join([
        f"- Found {label} with automatic restart recovery tombstoned.",
        "  OpenClaw will not auto-resume these child sessions on restart; reconcile their task records instead.",
        f"  Examples: {', '.join(key for key, _ in wedged[:3])}",
        "  Fix: openclaw tasks maintenance --apply"]),
        _finding("warning", f"Found {label} with automatic restart recovery tombstoned.", store_path,
                 "openclaw tasks maintenance --apply"))
    if ctx.prompter.confirm_runtime_repair(f"Clear stale aborted recovery flags for {label}?", True):
        repaired = _clear_aborted_flags(store_path, [key for key, _ in wedged], ctx.now_ms)
        if repaired:
            rows.changes.append(f"- Cleared aborted restart-recovery flags for "
                           f"{fsutil.count_label(repaired, 'wedged subagent session')}.")
    reasons = list(dict.fromkeys(_wedged_reason(entry) for _, entry in wedged))[:2]
    if reasons:
        rows.more("\n".join(f"  Reason: {reason}" for reason in reasons))


def _clear_aborted_flags(store_path: str, keys: list[str], now_ms: int) -> int:
    """Re-read the store, set `abortedLastRun: false` on wedged entries that still abort, save."""
    from openclaw_cli.errors import StoreError
    from openclaw_cli.store.sessions_json import load_store, save_store

    try:
        loaded = load_store(store_path)
    except StoreError:
        return 0
    repaired = 0
    for key in keys:
        entry = loaded.store.get(key)
        if isinstance(entry, dict) and is_wedged(entry) and entry.get("abortedLastRun") is True:
            entry["abortedLastRun"] = False
            entry["updatedAt"] = now_ms
            repaired += 1
    if repaired:
        save_store(store_path, loaded.store, durable=True)
    return repaired


def _fixable(line: str) -> bool:
    return ("Recommend chmod" in line or "CRITICAL:" in line or "not writable" in line)


def _updated_at(entry: dict) -> float:
    value = entry.get("updatedAt")
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _orphans_suppressed(ctx: DoctorContext) -> bool:
    """A QMD memory backend that indexes sessions owns those files."""
    memory = object_at(ctx.cfg, "memory")
    if memory.get("backend") != "qmd":
        return False
    qmd = object_at(memory, "qmd")
    sessions = object_at(qmd, "sessions")
    return sessions.get("enabled") is True


def _finding(severity: str, message: str, path: str, fix_hint: str | None = None) -> Finding:
    from openclaw_cli.doctor.checks.state_integrity import CHECK_ID

    return Finding(CHECK_ID, severity, message, path, fix_hint)

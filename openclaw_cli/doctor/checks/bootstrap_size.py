"""`core/doctor/bootstrap-size`: bootstrap files over or near the per-file and total limits."""

from __future__ import annotations

import json
import math
import os
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report
    from openclaw_cli.doctor.support.bootstrap_budget import Analysis

CHECK_ID = "core/doctor/bootstrap-size"
PER_FILE_TIP = ("Reduce the file size or tune `agents.list[].bootstrapMaxChars` for this agent, or "
                "`agents.defaults.bootstrapMaxChars` as fallback, for per-file limits.")


def _limit(value, default: int) -> int:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0:
        return math.floor(value)
    return default


def _setup_complete(workspace: str) -> bool:
    for path in (os.path.join(workspace, "openclaw-workspace-state.json"),
                 os.path.join(workspace, ".openclaw", "workspace-state.json")):
        try:
            with open(path, encoding="utf-8") as handle:
                state = json.load(handle)
        except (OSError, ValueError):
            continue
        done = state.get("setupCompletedAt") if isinstance(state, dict) else None
        return isinstance(done, str) and bool(done.strip())
    return False


def _heartbeat_included(cfg: dict, agent_id: str) -> bool:
    from openclaw_cli.config.agents import normalize_agent_id
    from openclaw_cli.config.units import parse_duration_ms
    from openclaw_cli.doctor.support.legacy_shared import list_at
    from openclaw_cli.doctor.support.workspace import agent_entry

    agents = object_at(cfg, "agents")
    with_heartbeat = [e for e in list_at(agents, "list") if isinstance(e, dict) and e.get("heartbeat")]
    if with_heartbeat and not any(normalize_agent_id(e.get("id") if isinstance(e.get("id"), str) else None)
                                  == agent_id for e in with_heartbeat):
        return False
    defaults = object_at(agents, "defaults")
    heartbeat = dict(defaults.get("heartbeat") or {}) if isinstance(defaults.get("heartbeat"), dict) else {}
    override = (agent_entry(cfg, agent_id) or {}).get("heartbeat")
    if isinstance(override, dict):
        heartbeat.update(override)
    if heartbeat.get("includeSystemPromptSection") is False:
        return False
    every = heartbeat.get("every", "30m")
    every = every.strip() if isinstance(every, str) else ("" if every is None else str(every))
    if not every:
        return False
    try:
        return parse_duration_ms(every, "m") > 0
    except ValueError:
        return False


def analyze(ctx: DoctorContext) -> tuple[Analysis, str]:
    from openclaw_cli.doctor.support import bootstrap_budget as budget
    from openclaw_cli.doctor.support.workspace import agent_setting, workspace_dir

    agent = ctx.default_agent_id
    workspace = workspace_dir(ctx)
    max_chars = _limit(agent_setting(ctx.cfg, agent, "bootstrapMaxChars"), budget.DEFAULT_MAX_CHARS)
    total_max = _limit(agent_setting(ctx.cfg, agent, "bootstrapTotalMaxChars"), budget.DEFAULT_TOTAL_MAX_CHARS)
    files = budget.load_files(workspace, include_heartbeat=_heartbeat_included(ctx.cfg, agent),
                              setup_complete=_setup_complete(workspace))
    return budget.analyze(files, max_chars, total_max), workspace


def _int(value: int) -> str:
    return f"{max(0, math.floor(value)):,}"


def _pct(num: float, den: float) -> str:
    if den <= 0:
        return "0%"
    return f"{min(100, max(0, math.floor(num / den * 100 + 0.5)))}%"


class BootstrapSizeCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Bootstrap file size", "Workspace bootstrap files fit the injection limits.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        analysis, workspace = analyze(ctx)
        out = []
        for f in analysis.truncated:
            out.append(Finding(CHECK_ID, "warning", f"{f.name} exceeds bootstrap limits and will be truncated.", f.path,
                               "Reduce the file size or tune `agents.list[].bootstrapMaxChars` / "
                               "`bootstrapTotalMaxChars` for this agent, or the corresponding `agents.defaults.*` "
                               "fallback."))
        for f in analysis.near_limit:
            if not f.truncated:
                out.append(Finding(CHECK_ID, "info", f"{f.name} is near the configured bootstrap file limit.", f.path,
                                   PER_FILE_TIP))
        if analysis.total_near_limit:
            out.append(Finding(CHECK_ID, "warning" if analysis.truncated else "info",
                               "Total bootstrap context is near the configured total limit.", workspace,
                               "Reduce bootstrap file sizes or tune `agents.list[].bootstrapTotalMaxChars` for this "
                               "agent, or `agents.defaults.bootstrapTotalMaxChars` as fallback."))
        return out

    def run(self, ctx: DoctorContext, report: Report) -> None:
        a, _workspace = analyze(ctx)
        truncated, near = a.truncated, a.near_limit
        if not truncated and not near and not a.total_near_limit:
            return
        lines = []
        if truncated:
            lines.append("Workspace bootstrap files exceed limits and will be truncated:")
            for f in truncated:
                causes = ", ".join("max/file" if c == "per-file-limit" else "max/total" for c in f.causes) or "unknown"
                lines.append(f"- {f.name}: {_int(f.raw_chars)} raw / {_int(f.injected_chars)} injected "
                             f"({_pct(max(0, f.raw_chars - f.injected_chars), f.raw_chars)} truncated; {causes})")
        else:
            lines.append("Workspace bootstrap files are near configured limits:")
        for f in near:
            if not f.truncated:
                lines.append(f"- {f.name}: {_int(f.raw_chars)} chars ({_pct(f.raw_chars, a.max_chars)} of max/file "
                             f"{_int(a.max_chars)})")
        lines.append(f"Total bootstrap injected chars: {_int(a.injected_chars)} "
                     f"({_pct(a.injected_chars, a.total_max)} of max/total {_int(a.total_max)}).")
        lines.append(f"Total bootstrap raw chars (before truncation): {_int(a.raw_chars)}.")
        per_file = any("per-file-limit" in f.causes for f in truncated) or bool(near)
        total = any("total-limit" in f.causes for f in truncated) or a.total_near_limit
        if per_file or total:
            lines.append("")
        if per_file:
            lines.append("- Tip: tune `agents.list[].bootstrapMaxChars` for this agent, or "
                         "`agents.defaults.bootstrapMaxChars` as fallback, for per-file limits.")
        if total:
            lines.append("- Tip: tune `agents.list[].bootstrapTotalMaxChars` for this agent, or "
                         "`agents.defaults.bootstrapTotalMaxChars` as fallback, for total-budget limits.")
        report.note("Bootstrap file size", lines, check_id=self.id, findings=self.detect(ctx),
                    kind="warning" if truncated else "note")

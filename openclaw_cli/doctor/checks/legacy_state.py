"""`core/doctor/legacy-state`: pre-multi-agent `<state>/sessions` and `<state>/agent` (reported only)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.doctor.support.fsutil import exists_dir, exists_file

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/legacy-state"
FIX_HINT = "Run `openclaw doctor --fix` to migrate legacy state."
NOT_MIGRATED = ("This tool reports legacy state but does not move it; starting the OpenClaw Gateway (or "
                "OpenClaw's own `openclaw doctor`) migrates it.")


def preview(ctx: DoctorContext) -> list[str]:
    from openclaw_cli.config.agents import normalize_agent_id

    state = ctx.state_dir
    agent = normalize_agent_id(ctx.default_agent_id)
    lines: list[str] = []
    legacy_sessions = os.path.join(state, "sessions")
    has_sessions = exists_file(os.path.join(legacy_sessions, "sessions.json"))
    if not has_sessions:
        try:
            has_sessions = any(e.is_file(follow_symlinks=False) and e.name.endswith(".jsonl")
                               for e in os.scandir(legacy_sessions))
        except OSError:
            has_sessions = False
    if has_sessions:
        lines.append(f"Sessions: {legacy_sessions} → {os.path.join(state, 'agents', agent, 'sessions')}")
    legacy_agent = os.path.join(state, "agent")
    if exists_dir(legacy_agent):
        lines.append(f"Agent dir: {legacy_agent} → {os.path.join(state, 'agents', agent, 'agent')}")
    return lines


def legacy_state_dir_in_use(ctx: DoctorContext) -> str | None:
    from openclaw_cli.config.paths import LEGACY_STATE_DIRNAMES

    if (ctx.env.get("OPENCLAW_STATE_DIR") or "").strip():
        return None
    if os.path.basename(ctx.state_dir) in LEGACY_STATE_DIRNAMES:
        return ctx.state_dir
    return None


class LegacyStateCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Legacy state detected", "Legacy session and agent folders have been migrated.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        return [Finding(CHECK_ID, "warning", line, ctx.state_dir, FIX_HINT) for line in preview(ctx)]

    def run(self, ctx: DoctorContext, report: Report) -> None:
        lines = [f"- {line}" for line in preview(ctx)]
        legacy_dir = legacy_state_dir_in_use(ctx)
        if legacy_dir:
            lines.insert(0, f"- State dir: {ctx.display(legacy_dir)} is a legacy location "
                            f"(current: {ctx.display(os.path.join(ctx.home, '.openclaw'))}).")
        if not lines:
            return
        lines.append(f"- {NOT_MIGRATED}")
        report.note("Legacy state detected", lines, check_id=self.id, findings=self.detect(ctx), kind="warning")

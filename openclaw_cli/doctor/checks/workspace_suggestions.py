"""`core/doctor/workspace-suggestions`: no memory system, or no git backup, in the workspace."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/workspace-suggestions"
MEMORY_PROMPT = "\n".join([
    "Memory system not found in workspace.",
    "Paste this into your agent:",
    "",
    "Install the memory system by applying:",
    "https://github.com/openclaw/openclaw/commit/9ffea23f31ca1df5183b25668f8f814bee0fb34e",
    "https://github.com/openclaw/openclaw/commit/7d1fee70e76f2f634f1b41fca927ee663914183a"])
BACKUP_TIP = "\n".join([
    "- Tip: back up the workspace in a private git repo (GitHub or GitLab).",
    "- Keep ~/.openclaw out of git; it contains credentials and session history.",
    "- Details: /concepts/agent-workspace#git-backup-recommended"])


def suggest_memory(workspace: str) -> bool:
    try:
        if "MEMORY.md" in os.listdir(workspace) and os.path.isfile(os.path.join(workspace, "MEMORY.md")):
            return False
    except OSError:
        pass
    try:
        with open(os.path.join(workspace, "AGENTS.md"), encoding="utf-8", errors="replace") as handle:
            if re.search(r"\bMEMORY\.md\b", handle.read()):
                return False
    except OSError:
        pass
    return True


def notes(workspace: str) -> list[str]:
    out = []
    if os.path.isdir(workspace) and not os.path.exists(os.path.join(workspace, ".git")):
        out.append(BACKUP_TIP)
    if suggest_memory(workspace):
        out.append(MEMORY_PROMPT)
    return out


def _finding(text: str) -> Finding:
    lines = text.split("\n")
    first = lines[0][2:].strip() if lines[0].startswith("- ") else lines[0].strip()
    rest = "\n".join(lines[1:])
    return Finding(CHECK_ID, "info", first, fix_hint=rest or None)


class WorkspaceSuggestionsCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Workspace", "Workspace memory system and git backup suggestions.",
                         severity="info", default_enabled=False)

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        from openclaw_cli.doctor.support.workspace import workspace_dir

        return [_finding(text) for text in notes(workspace_dir(ctx))]

    def run(self, ctx: DoctorContext, report: Report) -> None:
        from openclaw_cli.doctor.support.workspace import workspace_dir

        if not ctx.options.workspace_suggestions:
            return
        for text in notes(workspace_dir(ctx)):
            report.note("Workspace", text.split("\n"), check_id=self.id, findings=[_finding(text)])

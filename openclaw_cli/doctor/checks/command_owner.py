"""`core/doctor/command-owner`: no `commands.ownerAllowFrom`, so owner-only commands have no sender."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/command-owner"
EXAMPLE = "openclaw config set commands.ownerAllowFrom '[\"telegram:123456789\"]'"


def has_owner(cfg: dict) -> bool:
    from openclaw_cli.js.strings import js_number_to_string, js_trim

    commands = object_at(cfg, "commands")
    owners = commands.get("ownerAllowFrom")
    if not isinstance(owners, list):
        return False
    for entry in owners:
        if entry is None:
            continue
        if isinstance(entry, bool):
            text = "true" if entry else "false"
        elif isinstance(entry, (int, float)):
            text = js_number_to_string(entry)
        elif isinstance(entry, str):
            text = entry
        else:
            text = "x"  # objects stringify to a non-empty string
        if js_trim(text):
            return True
    return False


class CommandOwnerCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Command owner", "An owner account is configured for owner-only commands.",
                         severity="info")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        if has_owner(ctx.cfg):
            return []
        return [Finding(CHECK_ID, "info", "No command owner is configured. Owner-only commands (/diagnostics, "
                                          "/export-trajectory, /config, exec approvals) have no allowed sender.",
                        "commands.ownerAllowFrom",
                        f"Set commands.ownerAllowFrom to your channel user id, e.g. `{EXAMPLE}`.")]

    def run(self, ctx: DoctorContext, report: Report) -> None:
        findings = self.detect(ctx)
        if not findings:
            return
        report.note("Command owner", [
            "No command owner is configured.",
            "A command owner is the human operator account allowed to run owner-only commands and approve "
            "dangerous actions, including /diagnostics, /export-trajectory, /config, and exec approvals.",
            "DM pairing only lets someone talk to the bot; it does not make that sender the owner for privileged "
            "commands.",
            "Fix: set commands.ownerAllowFrom to your channel user id, for example",
            EXAMPLE,
            "Restart the gateway after changing this if it is already running."], check_id=self.id,
            findings=findings)

"""`core/doctor/state-integrity`: state folder location, permissions and runtime folders."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/state-integrity"


def oauth_dir(ctx: DoctorContext) -> str:
    from openclaw_cli.config.paths import resolve_user_path

    override = (ctx.env.get("OPENCLAW_OAUTH_DIR") or "").strip()
    return resolve_user_path(override, ctx.env) if override else os.path.join(ctx.state_dir, "credentials")


def _pairing(value) -> bool:
    if not isinstance(value, dict):
        return False
    if str(value.get("dmPolicy") or "").strip().lower() == "pairing":
        return True
    dm = value.get("dm")
    if isinstance(dm, dict) and str(dm.get("policy") or "").strip().lower() == "pairing":
        return True
    accounts = value.get("accounts")
    return isinstance(accounts, dict) and any(_pairing(a) for a in accounts.values())


def oauth_required(ctx: DoctorContext) -> bool:
    if (ctx.env.get("OPENCLAW_OAUTH_DIR") or "").strip():
        return True
    channels = ctx.cfg.get("channels")
    if not isinstance(channels, dict):
        return False
    return any(_pairing(v) for k, v in channels.items() if k not in ("defaults", "modelByChannel"))


@dataclass
class RuntimeDir:
    path: str
    label: str


def runtime_dirs(ctx: DoctorContext) -> list[RuntimeDir]:
    """Sessions dir, session store dir (same path: one entry, store label), OAuth dir if required."""
    found: dict[str, str] = {}
    found[ctx.sessions_dir()] = "Sessions dir"
    found[os.path.dirname(ctx.store_path())] = "Session store dir"
    if oauth_required(ctx):
        found[oauth_dir(ctx)] = "OAuth dir"
    return [RuntimeDir(p, label) for p, label in found.items()]


class StateIntegrityCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "State integrity",
                         "State folder location, permissions, runtime folders and transcripts.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        """One finding per row of the human note (the same rows, built without repairs)."""
        from dataclasses import replace

        from openclaw_cli.doctor.prompter import Prompter, resolve_repair_mode
        from openclaw_cli.doctor.support.state_human import state_rows

        read_only = Prompter(resolve_repair_mode(non_interactive=True))
        return state_rows(replace(ctx, prompter=read_only)).findings

    # -- doctor ----------------------------------------------------------------------------

    def run(self, ctx: DoctorContext, report: Report) -> None:
        from openclaw_cli.doctor.support.state_human import run_state_integrity

        run_state_integrity(self, ctx, report)


def storage_finding(issue) -> Finding:
    if issue.kind == "cloud":
        return Finding(CHECK_ID, "warning", f"State directory is under macOS cloud-synced storage ({issue.storage}), "
                                            "which can cause slow I/O and sync races.", issue.path,
                       "Move OPENCLAW_STATE_DIR to local non-synced storage such as ~/.openclaw.")
    if issue.kind == "sd":
        return Finding(CHECK_ID, "warning", f"State directory appears to be on SD/eMMC storage ({issue.source}, "
                                            f"{issue.fs_type}), which can hurt startup and durability.", issue.path,
                       "Move OPENCLAW_STATE_DIR to SSD/NVMe-backed storage.", issue.mount_point)
    return Finding(CHECK_ID, "warning", f"State directory is on volatile {issue.fs_type} storage and may disappear "
                                        "on reboot.", issue.path,
                   "Move OPENCLAW_STATE_DIR to persistent local storage.", issue.mount_point)

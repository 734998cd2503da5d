"""`core/doctor/security`: plaintext credentials, Gateway exposure, heartbeat and exec approval notes."""

from __future__ import annotations

import ipaddress
import os
from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.doctor.support.legacy_shared import list_at, str_at
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/security"
BIND_MODES = ("auto", "lan", "loopback", "custom", "tailnet")


def plaintext_lines(cfg: dict) -> list[str]:
    from openclaw_cli.doctor.support.secret_targets import plaintext_secret_paths

    paths = plaintext_secret_paths(cfg)
    if not paths:
        return []
    sample = paths[:5]
    extra = len(paths) - len(sample)
    shown = ", ".join(sample) + (f" (+{extra} more)" if extra > 0 else "")
    return ["- WARNING: openclaw.json contains plaintext secret-bearing config fields.",
            f"  Paths: {shown}",
            "  Agents or workspace tools that can read config files may see these API keys/tokens.",
            "  Migrate them to SecretRefs with openclaw secrets configure or openclaw secrets apply, then verify "
            "with openclaw secrets audit --check."]


def _bind_host(bind: str, custom: str | None) -> str | None:
    """The address the Gateway would bind; None when it cannot be known offline (tailnet, auto)."""
    if bind == "loopback":
        return "127.0.0.1"
    if bind == "lan":
        return "0.0.0.0"
    if bind == "custom":
        host = (custom or "").strip()
        try:
            ipaddress.IPv4Address(host)
            return host
        except ValueError:
            return "0.0.0.0"
    if bind in ("tailnet", "auto"):
        return None
    return "0.0.0.0"


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host.strip().lower() == "localhost"


def exposure_lines(ctx: DoctorContext) -> list[str]:
    from openclaw_cli.doctor.checks.gateway_config import resolve_auth
    from openclaw_cli.gateway.secretrefs import is_configured

    cfg = ctx.cfg
    gateway = object_at(cfg, "gateway")
    bind = gateway.get("bind") if gateway.get("bind") is not None else "loopback"
    custom = gateway.get("customBindHost") if isinstance(gateway.get("customBindHost"), str) else None
    host = _bind_host(bind if bind in BIND_MODES else "__other__", custom)
    if host is None or _loopback(host):
        return []
    auth = object_at(gateway, "auth")
    mode, token = resolve_auth(cfg, ctx.env)
    password = (ctx.env.get("OPENCLAW_GATEWAY_PASSWORD") or "").strip() or (
        str_at(auth, "password").strip())
    has_token = bool(token) or is_configured(auth.get("token"), cfg)
    has_password = bool(password) or is_configured(auth.get("password"), cfg)
    shared = (mode == "token" and has_token) or (mode == "password" and has_password)
    descriptor = f'"{bind}" ({host})'
    safer = ["  Safer remote access: keep bind loopback and use Tailscale Serve/Funnel or an SSH tunnel.",
             "  Example tunnel: ssh -N -L 18789:127.0.0.1:18789 user@gateway-host",
             "  Docs: https://docs.openclaw.ai/gateway/remote"]
    if shared:
        return [f"- WARNING: Gateway bound to {descriptor} (network-accessible).",
                "  Ensure your auth credentials are strong and not exposed.", *safer]
    if mode == "password":
        fix = ["  Fix: openclaw configure to set a password",
               "  Or switch to token: openclaw config set gateway.auth.mode token"]
    else:
        fix = ["  Fix: openclaw doctor --fix to generate a token",
               "  Or set token directly: openclaw config set gateway.auth.mode token"]
    return [f"- CRITICAL: Gateway bound to {descriptor} without authentication.",
            "  Anyone on your network (or internet if port-forwarded) can fully control your agent.",
            "  Fix: openclaw config set gateway.bind loopback", *safer, *fix]


def heartbeat_lines(cfg: dict) -> list[str]:
    out: list[str] = []

    def check(label: str, heartbeat, hint: str) -> None:
        if not isinstance(heartbeat, dict) or heartbeat.get("target") in (None, "none"):
            return
        if "directPolicy" in heartbeat and heartbeat["directPolicy"] is not None:
            return
        out.append(f"- {label}: heartbeat delivery is configured while {hint} is unset.")
        out.append('  Heartbeat now allows direct/DM targets by default. Set it explicitly to "allow" or "block" '
                   "to pin upgrade behavior.")

    agents = object_at(cfg, "agents")
    defaults = object_at(agents, "defaults")
    check("Heartbeat defaults", defaults.get("heartbeat"), "agents.defaults.heartbeat.directPolicy")
    for agent in list_at(agents, "list"):
        if isinstance(agent, dict):
            check(f'Heartbeat agent "{agent.get("id")}"', agent.get("heartbeat"),
                  f'heartbeat.directPolicy for agent "{agent.get("id")}"')
    return out


def security_warnings(ctx: DoctorContext) -> list[str]:
    """Warning blocks in the order of the Security note; each string may span lines."""
    cfg = ctx.cfg
    lines: list[str] = []
    approvals = object_at(cfg, "approvals")
    exec_cfg = object_at(approvals, "exec")
    if exec_cfg.get("enabled") is False:
        override = (ctx.env.get("OPENCLAW_STATE_DIR") or "").strip()
        approvals_path = (os.path.join(ctx.state_dir, "exec-approvals.json") if override
                          else "~/.openclaw/exec-approvals.json")
        lines += ["- Note: approvals.exec.enabled=false disables approval forwarding only.",
                  f"  Host exec gating still comes from {approvals_path}.",
                  "  Check local policy with: openclaw approvals get --gateway"]
    lines += heartbeat_lines(cfg)
    lines += plaintext_lines(cfg)
    lines += exposure_lines(ctx)
    return lines


class SecurityCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Security", "Plaintext credentials in the config and Gateway exposure.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        out = []
        for line in security_warnings(ctx):
            first = line.split("\n")[0]
            message = (first[2:] if first.startswith("- ") else first).strip()
            out.append(Finding(CHECK_ID, "error" if "CRITICAL" in line else "warning", message))
        return out

    def run(self, ctx: DoctorContext, report: Report) -> None:
        lines = security_warnings(ctx) or ["- No channel security warnings detected."]
        lines.append("- Run: openclaw security audit --deep")
        critical = any("CRITICAL" in line for line in lines)
        findings = self.detect(ctx)
        report.note("Security", lines, check_id=self.id, findings=findings,
                    kind="error" if critical else ("warning" if findings else "note"))

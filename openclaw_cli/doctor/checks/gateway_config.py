"""`core/doctor/gateway-config` and `gateway-auth`: gateway.mode, auth mode, token (48-hex generation)."""

from __future__ import annotations

import os
import secrets as pysecrets
from typing import TYPE_CHECKING, Any

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CONFIG_ID = "core/doctor/gateway-config"
AUTH_ID = "core/doctor/gateway-auth"


def _gateway(cfg: dict) -> dict:
    return object_at(cfg, "gateway")


def _auth(cfg: dict) -> dict:
    gateway = _gateway(cfg)
    return object_at(gateway, "auth")


def doctor_mode(cfg: dict) -> str:
    return "remote" if _gateway(cfg).get("mode") == "remote" else "local"


def ambiguous_auth_mode(cfg: dict) -> bool:
    from openclaw_cli.gateway.secretrefs import is_configured

    auth = _gateway(cfg).get("auth")
    if not isinstance(auth, dict):
        return False
    if isinstance(auth.get("mode"), str) and auth["mode"].strip():
        return False
    return is_configured(auth.get("token"), cfg) and is_configured(auth.get("password"), cfg)


def _plain(value: Any, cfg: dict) -> str | None:
    from openclaw_cli.gateway.secretrefs import coerce_secret_ref

    if coerce_secret_ref(value, cfg) is not None or not isinstance(value, str):
        return None
    return value.strip() or None


def resolve_auth(cfg: dict, env) -> tuple[str, str | None]:
    """(mode, token) as the Gateway would pick them: explicit mode, else password, else token."""
    auth = _auth(cfg)
    token = _plain(auth.get("token"), cfg) or (env.get("OPENCLAW_GATEWAY_TOKEN") or "").strip() or None
    password = _plain(auth.get("password"), cfg) or (env.get("OPENCLAW_GATEWAY_PASSWORD") or "").strip() or None
    mode = auth.get("mode") if isinstance(auth.get("mode"), str) and auth.get("mode") else None
    if mode is None:
        mode = "password" if password else "token"
    return mode, token


def token_problem(ctx: DoctorContext) -> Finding | None:
    """The gateway-auth finding, or None when the local Gateway has a usable credential."""
    from openclaw_cli.gateway.secretrefs import SecretRefUnresolvable, coerce_secret_ref, resolve_secret_ref

    cfg = ctx.cfg
    if doctor_mode(cfg) != "local":
        return None
    ref = coerce_secret_ref(_auth(cfg).get("token"), cfg)
    mode, token = resolve_auth(cfg, ctx.env)
    if mode in ("password", "none", "trusted-proxy"):
        return None
    if mode == "token" and token and ref is None:
        return None
    if ref is not None:
        if ref.source == "exec":
            return None  # exec resolvers are not run by doctor
        try:
            value = resolve_secret_ref(ref, cfg, ctx.env)
        except SecretRefUnresolvable as exc:
            message = f"Gateway token SecretRef could not be resolved: {exc}"
        else:
            if isinstance(value, str) and value.strip():
                ctx.note_secret(value)
                return None
            message = "Gateway token is managed via SecretRef and is currently unavailable."
        return Finding(AUTH_ID, "warning", message, "gateway.auth.token",
                       "Resolve or rotate the external secret source, then rerun doctor.")
    if token:
        return None
    return Finding(AUTH_ID, "warning", "Gateway auth is off or missing a token.", "gateway.auth",
                   "Run `openclaw doctor --fix --generate-gateway-token` to generate a token.")


def generate_token() -> str:
    """24 random bytes as 48 lowercase hex characters."""
    return pysecrets.token_hex(24)


class GatewayConfigCheck(Check):
    def __init__(self) -> None:
        super().__init__(CONFIG_ID, "Gateway", "gateway.mode is set and gateway auth is unambiguous.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        out = []
        if not _gateway(ctx.cfg).get("mode"):
            out.append(Finding(CONFIG_ID, "warning", "gateway.mode is unset; gateway start will be blocked.",
                               "gateway.mode", "Run `openclaw configure` and set Gateway mode (local/remote), or "
                                               "`openclaw config set gateway.mode local`."))
        if doctor_mode(ctx.cfg) != "remote" and ambiguous_auth_mode(ctx.cfg):
            out.append(Finding(CONFIG_ID, "warning",
                               "gateway.auth.token and gateway.auth.password are both configured while "
                               "gateway.auth.mode is unset; auth selection is ambiguous.", "gateway.auth.mode",
                               "Set an explicit mode: `openclaw config set gateway.auth.mode token` or "
                               "`... password`."))
        return out

    def run(self, ctx: DoctorContext, report: Report) -> None:
        findings = self.detect(ctx)
        if not _gateway(ctx.cfg).get("mode"):
            lines = ["gateway.mode is unset; gateway start will be blocked.",
                     "Fix: run openclaw configure and set Gateway mode (local/remote).",
                     "Or set directly: openclaw config set gateway.mode local"]
            if not os.path.exists(ctx.config_path):
                lines.append("Missing config: run openclaw setup first.")
            report.note("Gateway", lines, check_id=self.id, findings=[f for f in findings if f.path == "gateway.mode"],
                        kind="warning")
            report.step("openclaw config set gateway.mode local")
        if doctor_mode(ctx.cfg) == "local" and ambiguous_auth_mode(ctx.cfg):
            report.note("Gateway auth", [
                "gateway.auth.token and gateway.auth.password are both configured while gateway.auth.mode is unset.",
                "Set an explicit mode to avoid ambiguous auth selection and startup/runtime failures.",
                "Set token mode: openclaw config set gateway.auth.mode token",
                "Set password mode: openclaw config set gateway.auth.mode password"],
                check_id=self.id, findings=[f for f in findings if f.path == "gateway.auth.mode"], kind="warning")


class GatewayAuthCheck(Check):
    def __init__(self) -> None:
        super().__init__(AUTH_ID, "Gateway auth", "The local Gateway has a usable token or another auth mode.")

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        if not ctx.doc.source_valid:  # as in the doctor run: no token advice on a config that does not validate
            return []
        found = token_problem(ctx)
        return [found] if found else []

    def run(self, ctx: DoctorContext, report: Report) -> None:
        if not ctx.doc.source_valid:
            return
        found = token_problem(ctx)
        if found is None:
            return
        if found.path == "gateway.auth.token":
            report.note("Gateway auth", [found.message,
                                         "Doctor will not overwrite gateway.auth.token with a plaintext value.",
                                         found.fix_hint or ""], check_id=self.id, findings=[found], kind="warning")
            return
        report.note("Gateway auth", ["Gateway auth is off or missing a token. Token auth is now the recommended "
                                     "default (including loopback)."], check_id=self.id, findings=[found],
                    kind="warning")
        if ctx.options.generate_gateway_token:
            accepted = True
        elif ctx.options.non_interactive_flag:
            accepted = False
        else:
            accepted = ctx.prompter.confirm("Generate and configure a gateway token now?", True)
        if not accepted:
            report.step("openclaw doctor --fix --generate-gateway-token")
            report.pending_fix = True
            return
        if not ctx.doc.parsed:
            report.note("Gateway auth", ["Config file does not parse; the generated token was not stored."],
                        check_id=self.id, kind="error")
            return
        token = generate_token()
        ctx.secrets.add(token)
        raw = ctx.doc.edit_raw()
        gateway = object_at(raw, "gateway")
        auth = object_at(gateway, "auth")
        auth["mode"] = "token"
        auth["token"] = token
        gateway["auth"] = auth
        raw["gateway"] = gateway
        ctx.doc.mark_changed(ctx.env, ["Generated gateway.auth.token (token mode)."])
        report.note("Gateway auth", ["Gateway token configured."], check_id=self.id, kind="changes")

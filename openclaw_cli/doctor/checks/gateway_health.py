"""`core/doctor/gateway-health`: the Gateway's `health` RPC; refused or unauthorised is a finding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openclaw_cli.doctor.model import Check, Finding
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext
    from openclaw_cli.doctor.report import Report

CHECK_ID = "core/doctor/gateway-health"


def probe(ctx: DoctorContext) -> tuple[Finding | None, str | None]:
    """(finding or None, the URL that answered health)."""
    from openclaw_cli.gateway import (
        GatewayAuthError,
        GatewayCredentialsRequired,
        GatewayError,
        GatewayRefused,
        GatewaySetupError,
        GatewayTimeout,
        GatewayUnavailable,
        GatewayUnreachable,
    )
    from openclaw_cli.gateway.errors import join_hint
    from openclaw_cli.gateway.rpc import connection_for, health

    gateway = object_at(ctx.cfg, "gateway")
    remote = gateway.get("mode") == "remote"
    try:
        connection = connection_for("health", ctx.env, cfg=ctx.cfg, config_path=ctx.config_path)
    except GatewayCredentialsRequired as exc:
        exc.scrubbed(ctx.secrets)
        return _probe_without_credentials(ctx, exc), None
    except GatewayError as exc:
        exc.scrubbed(ctx.secrets)
        return Finding(CHECK_ID, "warning", f"Gateway health probe could not be prepared: {exc.message}",
                       "gateway.remote.url" if remote else "gateway",
                       join_hint(exc.hint, "Then rerun `openclaw doctor --lint --only core/doctor/gateway-health`")
                       ), None
    url = connection.target.display_url
    path = "gateway.remote.url" if remote else "gateway.mode"
    try:
        result = health({}, connection=connection, timeout_ms=ctx.options.gateway_timeout_ms)
    except (GatewayUnavailable, GatewayUnreachable, GatewayTimeout) as exc:
        exc.scrubbed(ctx.secrets)
        hint = ("Verify the remote Gateway URL, network path, TLS settings, and credentials." if remote else
                "Start the Gateway (`openclaw gateway run`) or check gateway.port / OPENCLAW_GATEWAY_PORT.")
        return Finding(CHECK_ID, "warning", f"Gateway is not reachable: {exc.message}", path, hint, url), None
    except GatewayAuthError as exc:
        exc.scrubbed(ctx.secrets)
        return Finding(CHECK_ID, "warning", f"Gateway refused doctor's credentials: {exc.message}", "gateway.auth",
                       exc.hint or "Check gateway.auth.token / OPENCLAW_GATEWAY_TOKEN.", url), None
    except GatewaySetupError as exc:
        exc.scrubbed(ctx.secrets)
        return Finding(CHECK_ID, "warning", f"Gateway health probe could not be prepared: {exc.message}",
                       "gateway", exc.hint, url), None
    except GatewayRefused as exc:
        exc.scrubbed(ctx.secrets)
        return Finding(CHECK_ID, "warning", f"Gateway health check failed: {exc.message}", path, exc.hint, url), None
    except GatewayError as exc:
        exc.scrubbed(ctx.secrets)
        return Finding(CHECK_ID, "warning", f"Gateway health check failed: {exc.message}", path, exc.hint, url), None
    if isinstance(result, dict) and result.get("ok") is False:
        return Finding(CHECK_ID, "warning", "Gateway answered health with ok=false.", path,
                       "Check the Gateway log (`openclaw logs`) for the failing component.", url), None
    return None, url


def _probe_without_credentials(ctx: DoctorContext, exc) -> Finding:
    """No token or password: only see whether something listens at the Gateway address."""
    import socket
    from urllib.parse import urlparse

    url = exc.url or ""
    parsed = urlparse(url)
    host, port = parsed.hostname, parsed.port or (443 if parsed.scheme == "wss" else 80)
    try:
        with socket.create_connection((host or "127.0.0.1", port), timeout=ctx.options.gateway_timeout_ms / 1000):
            pass
    except OSError as err:
        reason = "connection refused" if isinstance(err, ConnectionRefusedError) else (err.strerror or str(err))
        return Finding(CHECK_ID, "warning", f"Gateway is not reachable: {reason} ({url})", "gateway.mode",
                       "Start the Gateway (`openclaw gateway run`) or check gateway.port / OPENCLAW_GATEWAY_PORT.",
                       url or None)
    return Finding(CHECK_ID, "warning", "A Gateway is listening but doctor has no credentials for it, so its "
                                        "health was not checked.", "gateway.auth", exc.hint, url or None)


class GatewayHealthCheck(Check):
    def __init__(self) -> None:
        super().__init__(CHECK_ID, "Gateway health", "The configured Gateway answers `health`.",
                         default_enabled=False)

    def detect(self, ctx: DoctorContext) -> list[Finding]:
        finding, _url = probe(ctx)
        return [finding] if finding else []

    def run(self, ctx: DoctorContext, report: Report) -> None:
        finding, url = probe(ctx)
        if finding is None:
            report.note("Gateway health", [f"- Gateway at {url} answered health: ok."], check_id=self.id)
            return
        lines = [f"- {finding.message}"]
        if finding.target:
            lines.append(f"  Gateway target: {finding.target}")
        if finding.fix_hint:
            lines.append(f"  Fix: {finding.fix_hint}")
        report.note("Gateway health", lines, check_id=self.id, findings=[finding], kind="warning")

"""Gateway error types: unavailable (work locally), setup problems, and refusals."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from openclaw_cli.errors import CliError
from openclaw_cli.ui.redact.secrets import scrub

TOKEN_FIX = "pass the Gateway's token with --token or OPENCLAW_GATEWAY_TOKEN"
PASSWORD_FIX = "pass the Gateway's password with --password or OPENCLAW_GATEWAY_PASSWORD"


def join_hint(*parts: str | None) -> str | None:
    """Join the non-empty hint parts into sentences."""
    out = [p.strip() for p in parts if p and p.strip()]
    if not out:
        return None
    return " ".join(p if p.endswith(".") else p + "." for p in out)


class GatewayError(CliError):
    """Base class of every Gateway client error."""

    def __init__(self, message: str, *, url: str | None = None, url_source: str | None = None,
                 hint: str | None = None, exit_code: int | None = None):
        super().__init__(message, exit_code=exit_code, hint=hint)
        self.url = url
        self.url_source = url_source

    def scrubbed(self, secrets: Iterable[str | None]) -> GatewayError:
        """Remove secrets from the message and hint in place; returns self."""
        secrets = list(secrets)
        self.message = scrub(self.message, secrets)
        if self.hint:
            self.hint = scrub(self.hint, secrets)
        self.args = (self.message,)
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class GatewayUnavailable(GatewayError):
    """Nothing listens at the Gateway address (connection refused): the caller may work locally."""


class GatewayUnreachable(GatewayError):
    """The network failed before anything answered: unknown host, no route, TCP connect timeout."""


class GatewaySetupError(GatewayError):
    """A problem found before any socket is opened (configuration, credentials, URL)."""


class GatewayCredentialsRequired(GatewaySetupError):
    """The Gateway needs a token or password and none resolved."""


class GatewayExplicitAuthRequired(GatewaySetupError):
    """A URL override came without explicit credentials; config credentials are not reused."""


class GatewaySecretRefError(GatewaySetupError):
    """A credential is a SecretRef that cannot be resolved here."""

    def __init__(self, message: str, *, path: str, **kw: Any):
        super().__init__(message, **kw)
        self.path = path


class GatewayInsecureUrl(GatewaySetupError):
    """A plaintext ws:// URL to a host that is neither loopback nor private."""


class GatewayRemoteUrlMissing(GatewaySetupError):
    """gateway.mode is remote but gateway.remote.url is not set."""


class GatewayRefused(GatewayError):
    """Something answered at the Gateway address but the call cannot go through."""

    def __init__(self, message: str, *, code: str | None = None, details: Any = None,
                 server_message: str | None = None, close_code: int | None = None,
                 close_reason: str | None = None, **kw: Any):
        super().__init__(message, **kw)
        self.code = code
        self.details = details
        self.server_message = server_message
        self.close_code = close_code
        self.close_reason = close_reason

    @property
    def detail_code(self) -> str | None:
        """`error.details.code` of the Gateway's reply, when there is one."""
        if isinstance(self.details, dict) and isinstance(self.details.get("code"), str):
            return self.details["code"]
        return None

    def scrubbed(self, secrets: Iterable[str | None]) -> GatewayError:
        secrets = list(secrets)
        if self.server_message:
            self.server_message = scrub(self.server_message, secrets)
        if self.close_reason:
            self.close_reason = scrub(self.close_reason, secrets)
        return super().scrubbed(secrets)


class GatewayAuthError(GatewayRefused):
    """The Gateway rejected the credentials (or wants a device identity)."""


class GatewayProtocolError(GatewayRefused):
    """The peer does not speak the Gateway protocol we expect (not a Gateway, bad frames, versions)."""


class GatewayNotAGateway(GatewayProtocolError):
    """The peer answered, but not as an OpenClaw Gateway (HTTP error on upgrade, not HTTP at all)."""


class GatewayTimeout(GatewayRefused):
    """The peer accepted the connection but did not answer in time."""

    def __init__(self, message: str, *, timeout_ms: int | None = None, **kw: Any):
        super().__init__(message, **kw)
        self.timeout_ms = timeout_ms


class GatewayClosed(GatewayRefused):
    """The Gateway closed the connection before the call finished."""


class GatewayMethodUnsupported(GatewayRefused):
    """The Gateway does not advertise a method this call requires."""

    def __init__(self, message: str, *, method: str, **kw: Any):
        super().__init__(message, **kw)
        self.method = method


class GatewayRequestError(GatewayRefused):
    """The Gateway answered the request with ok:false."""

    def __init__(self, message: str, *, method: str, retryable: bool | None = None,
                 retry_after_ms: int | None = None, **kw: Any):
        super().__init__(message, **kw)
        self.method = method
        self.retryable = retryable
        self.retry_after_ms = retry_after_ms

    @property
    def missing_scope(self) -> str | None:
        """The scope a missing-scope refusal names: 2026.8+ answer `FORBIDDEN` with
        `details.missingScope`, 2026.7.1 `INVALID_REQUEST` "missing scope: <scope>" (no details)."""
        if self.code == "FORBIDDEN" and self.detail_code == "MISSING_SCOPE":
            scope = self.details.get("missingScope")
            if isinstance(scope, str) and scope.strip():
                return scope.strip()
        prefix = "missing scope: "
        text = self.server_message or ""
        if self.code in ("INVALID_REQUEST", "FORBIDDEN") and text.startswith(prefix):
            return text[len(prefix):].strip() or None
        return None

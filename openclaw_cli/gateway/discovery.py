"""Where the Gateway is and how to authenticate: URL, port, TLS pin and pre-connect checks."""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from openclaw_cli.errors import UsageError
from openclaw_cli.gateway.credentials import (
    ENV_PASSWORD,
    ENV_TOKEN,
    Credentials,
    allows_tailscale,
    is_remote_mode,
    resolve_auth_mode,
    resolve_credentials,
    trim,
)
from openclaw_cli.gateway.errors import (
    GatewayCredentialsRequired,
    GatewayExplicitAuthRequired,
    GatewayInsecureUrl,
    GatewayRemoteUrlMissing,
    GatewaySetupError,
)

DEFAULT_PORT = 18789
DEV_PORT = 19001  # what `--dev` puts in OPENCLAW_GATEWAY_PORT when it is unset
DEFAULT_CALL_TIMEOUT_MS = 10_000
DEFAULT_HANDSHAKE_TIMEOUT_MS = 15_000
ENV_URL = "OPENCLAW_GATEWAY_URL"

ENV_ALLOW_PRIVATE_WS = "OPENCLAW_ALLOW_INSECURE_PRIVATE_WS"
ENV_HANDSHAKE_TIMEOUT = "OPENCLAW_HANDSHAKE_TIMEOUT_MS"

SOURCE_CLI = "cli --url"
SOURCE_ENV = "env OPENCLAW_GATEWAY_URL"
SOURCE_REMOTE = "config gateway.remote.url"
SOURCE_LOCAL = "local loopback"
SOURCE_REMOTE_MISSING = "missing gateway.remote.url (fallback local)"

_DIGITS = re.compile(r"^\d+$")
_SENSITIVE_QUERY = frozenset({
    "token", "key", "api_key", "apikey", "secret", "access_token", "auth_token", "password",
    "pass", "passwd", "auth", "jwt", "session", "id_token", "code", "client_secret",
    "refresh_token", "signature", "private_key", "credential", "authorization",
})
_PRIVATE_NETS = [ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "100.64.0.0/10",
    "127.0.0.0/8", "fc00::/7", "fe80::/10", "::1/128",
)]


def _parse_port(text: str) -> int | None:
    if not _DIGITS.match(text):
        return None
    port = int(text)
    return port if 0 < port <= 65535 else None


def parse_port_env(raw: str | None) -> int | None:
    """OPENCLAW_GATEWAY_PORT as `18789`, `host:18789` or `[::1]:18789`; None when unusable."""
    from openclaw_cli.config.load import parse_gateway_port_env

    return parse_gateway_port_env(raw)


def parse_port_option(value: Any) -> int:
    """An explicit `--port` value; raise UsageError when it is not a TCP port."""
    port = value if isinstance(value, int) and not isinstance(value, bool) else \
        _parse_port(str(value).strip()) if value is not None else None
    if not isinstance(port, int) or not 0 < port <= 65535:
        raise UsageError(f"Invalid --port: {value!r} (expected 1-65535).")
    return port


def resolve_port(cfg: Mapping[str, Any] | None, env: Mapping[str, str], port: Any = None) -> int | float:
    """Local Gateway port: explicit `--port`, OPENCLAW_GATEWAY_PORT, gateway.port, 18789."""
    from openclaw_cli.config.load import resolve_gateway_port

    if port is not None:
        return parse_port_option(port)
    return resolve_gateway_port(cfg, env)


def redact_url(url: str) -> str:
    """The URL with user info and credential-like query values replaced by `***`."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        netloc = "***@" + netloc.rsplit("@", 1)[1]
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, "***" if k.strip().lower().replace("-", "_") in _SENSITIVE_QUERY
                            else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _host_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _url_host(url: str) -> str | None:
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host.rstrip(".").lower() if host else None


def is_loopback_host(host: str | None) -> bool:
    if not host:
        return False
    if host.rstrip(".").lower() == "localhost":
        return True
    ip = _host_ip(host)
    return bool(ip and ip.is_loopback)


def is_private_or_loopback_host(host: str | None) -> bool:
    if not host:
        return False
    if is_loopback_host(host):
        return True
    ip = _host_ip(host)
    if ip is None or (ip.version == 6 and (str(ip).startswith("ff") or str(ip) == "::")):
        return False
    return any(ip in net for net in _PRIVATE_NETS if net.version == ip.version)


def is_loopback_url(url: str) -> bool:
    return is_loopback_host(_url_host(url))


def url_scheme(url: str) -> str:
    """`ws` or `wss` (http/https count as their WebSocket twins); '' for anything else."""
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return ""
    return {"http": "ws", "https": "wss"}.get(scheme, scheme if scheme in ("ws", "wss") else "")


def _valid_netloc(url: str) -> bool:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        return False
    return bool(parts.hostname)


def is_secure_ws_url(url: str, *, allow_private: bool = False) -> bool:
    """wss://, or ws:// to loopback, a private/CGNAT address, *.local or *.ts.net."""
    scheme = url_scheme(url)
    if scheme == "wss":
        return True
    if scheme != "ws":
        return False
    host = _url_host(url)
    if is_private_or_loopback_host(host):
        return True
    if host and host.endswith((".local", ".ts.net")):
        return True
    return allow_private and host is not None and _host_ip(host) is None


def normalize_fingerprint(value: str) -> str:
    """Lowercase hex without separators; accepts `sha256:` prefixes and colon-separated hex."""
    text = re.sub(r"^sha-?256\s*:?\s*", "", value.strip(), flags=re.IGNORECASE)
    return re.sub(r"[^a-fA-F0-9]", "", text).lower()


def pem_fingerprint(path: str) -> str | None:
    """SHA-256 of the first certificate in a PEM file, or None when there is none."""
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None
    match = re.search(r"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----", text, re.S)
    if not match:
        return None
    try:
        der = base64.b64decode("".join(match.group(1).split()), validate=True)
    except ValueError:
        return None
    return hashlib.sha256(der).hexdigest()


def _state_dir(env: Mapping[str, str]) -> str:
    try:
        from openclaw_cli.config.paths import resolve_state_dir
    except ImportError:  # pragma: no cover - only while the paths module is missing
        override = env.get("OPENCLAW_STATE_DIR")
        home = env.get("HOME") or os.path.expanduser("~")
        return os.path.expanduser(override) if override else os.path.join(home, ".openclaw")
    return resolve_state_dir(env)


def _expand_user(path: str, env: Mapping[str, str]) -> str:
    if path.startswith("~"):
        return (env.get("HOME") or os.path.expanduser("~")) + path[1:]
    return path


@dataclass(frozen=True)
class GatewayTarget:
    """The Gateway URL and where it came from (labels as OpenClaw 2026.7.1 prints them)."""

    url: str
    url_source: str
    override_source: str | None = None  # "cli" for --url, "env" for OPENCLAW_GATEWAY_URL
    remote_mode: bool = False
    bind_detail: str | None = None
    remote_fallback_note: str | None = None
    tls_fingerprint: str | None = None

    @property
    def display_url(self) -> str:
        return redact_url(self.url)

    @property
    def is_loopback(self) -> bool:
        return is_loopback_url(self.url)


def _gateway_cfg(cfg: Mapping[str, Any] | None) -> Mapping[str, Any]:
    gw = cfg.get("gateway") if isinstance(cfg, Mapping) else None
    return gw if isinstance(gw, Mapping) else {}


def _sub(node: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = node.get(key)
    return value if isinstance(value, Mapping) else {}


def url_overrides(env: Mapping[str, str], *, url: str | None = None,
                  port: Any = None) -> tuple[str | None, str | None]:
    """(override URL, "cli"|"env"|None). OPENCLAW_GATEWAY_URL is ignored with --url or --port."""
    cli_url = trim(url)
    if cli_url:
        return cli_url, "cli"
    env_url = None if port is not None else trim(env.get(ENV_URL))
    return (env_url, "env") if env_url else (None, None)


def resolve_target(cfg: Mapping[str, Any] | None, env: Mapping[str, str], *,
                   url: str | None = None, port: Any = None, config_path: str | None = None,
                   tls_fingerprint: str | None = None) -> GatewayTarget:
    """Pick the Gateway URL: --url, OPENCLAW_GATEWAY_URL, gateway.remote.url (remote mode), loopback.

    Raises GatewayInsecureUrl for plaintext ws:// to a public address.
    """
    gw = _gateway_cfg(cfg)
    remote = gw.get("mode") == "remote"
    remote_cfg = _sub(gw, "remote") if remote else {}
    tls_cfg = _sub(gw, "tls")
    tls_enabled = tls_cfg.get("enabled") is True
    local_port = resolve_port(cfg, env, port)
    local_url = f"{'wss' if tls_enabled else 'ws'}://127.0.0.1:{local_port}"
    override, override_source = url_overrides(env, url=url, port=port)
    remote_url = trim(remote_cfg.get("url"))
    misconfigured = remote and not override and not remote_url
    chosen = override or remote_url or local_url
    if override:
        source = SOURCE_ENV if override_source == "env" else SOURCE_CLI
    elif remote_url:
        source = SOURCE_REMOTE
    else:
        source = SOURCE_REMOTE_MISSING if misconfigured else SOURCE_LOCAL
    if not url_scheme(chosen) or not _valid_netloc(chosen):
        raise GatewaySetupError(f'invalid Gateway URL "{redact_url(chosen)}" (source: {source})',
                                hint="use a ws:// or wss:// URL.")
    allow_private = env.get(ENV_ALLOW_PRIVATE_WS) == "1"
    if not is_secure_ws_url(chosen, allow_private=allow_private):
        lines = [f'Gateway URL "{redact_url(chosen)}" uses plaintext ws:// to a non-loopback '
                 "address; the credentials and chat data would be exposed on the network.",
                 f"Source: {source}"]
        if config_path:
            lines.append(f"Config: {config_path}")
        hint = "use wss:// for remote Gateways, or an SSH tunnel to the Gateway's loopback port"
        if not allow_private:
            hint += f" (on a trusted private network only: set {ENV_ALLOW_PRIVATE_WS}=1)"
        raise GatewayInsecureUrl("SECURITY ERROR: " + "\n".join(lines), url=redact_url(chosen),
                                 url_source=source, hint=hint + ".")
    pin = trim(tls_fingerprint)
    if not pin and remote and override_source != "cli":
        pin = trim(remote_cfg.get("tlsFingerprint"))
    if not pin and tls_enabled and not override_source and not remote_url \
            and url_scheme(chosen) == "wss":
        cert = trim(tls_cfg.get("certPath"))
        cert_path = _expand_user(cert, env) if cert else os.path.join(
            _state_dir(env), "gateway", "tls", "gateway-cert.pem")
        pin = pem_fingerprint(cert_path)
    return GatewayTarget(
        url=chosen,
        url_source=source,
        override_source=override_source,
        remote_mode=remote,
        bind_detail=None if override or remote_url else f"Bind: {gw.get('bind') or 'loopback'}",
        remote_fallback_note=("Warn: gateway.mode=remote but gateway.remote.url is missing; set "
                              "gateway.remote.url or switch gateway.mode=local.")
        if misconfigured else None,
        tls_fingerprint=normalize_fingerprint(pin) if pin else None,
    )


def _positive_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, float) and value > 0 and value.is_integer():
        return int(value)
    if isinstance(value, str) and _DIGITS.match(value.strip().lstrip("+")) and int(value.strip()) > 0:
        return int(value.strip())
    return None


def handshake_timeout_ms(cfg: Mapping[str, Any] | None, env: Mapping[str, str]) -> int | None:
    """OPENCLAW_HANDSHAKE_TIMEOUT_MS, else gateway.handshakeTimeoutMs; None when neither is set."""
    from_env = _positive_int(env.get(ENV_HANDSHAKE_TIMEOUT) or None)
    if from_env:
        return from_env
    return _positive_int(_gateway_cfg(cfg).get("handshakeTimeoutMs"))


def default_call_timeout_ms(cfg: Mapping[str, Any] | None, env: Mapping[str, str]) -> int:
    """10 s, or a longer configured handshake timeout."""
    configured = handshake_timeout_ms(cfg, env)
    return max(DEFAULT_CALL_TIMEOUT_MS, configured or 0)


def parse_timeout_ms(raw: Any, fallback: int | None) -> int | None:
    """A `--timeout <ms>` value: a positive integer; absent gives `fallback`."""
    if raw is None:
        return fallback
    if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0:
        return raw
    text = str(raw).strip()
    value = _positive_int(text) if text else None
    if value is None:
        received = f' Received: "{text}".' if text else ""
        raise UsageError(f"Invalid --timeout. Use a positive millisecond value, "
                         f"e.g. --timeout 30000.{received}")
    return value


@dataclass(frozen=True, repr=False)
class GatewayConnection:
    """Everything needed to open a Gateway call; secrets stay out of repr."""

    target: GatewayTarget
    credentials: Credentials
    method: str
    auth_mode: str = "token"
    config_path: str | None = None
    state_dir: str | None = None  # where our device identity is kept (None: never present one)

    @property
    def url(self) -> str:
        return self.target.url

    @property
    def sends_device(self) -> bool:
        """Whether `connect` carries our signed device identity (see gateway/device.py)."""
        from openclaw_cli.gateway.device import needs_device

        return self.state_dir is not None and needs_device(
            url_is_loopback=self.target.is_loopback, auth_mode=self.auth_mode,
            token=self.credentials.token, password=self.credentials.password)

    def __repr__(self) -> str:
        return (f"GatewayConnection(url={self.target.display_url!r}, "
                f"source={self.target.url_source!r}, {self.credentials!r})")


def resolve_connection(method: str, cfg: Mapping[str, Any] | None, env: Mapping[str, str], *,
                       url: str | None = None, port: Any = None, token: str | None = None,
                       password: str | None = None, config_path: str | None = None,
                       tls_fingerprint: str | None = None) -> GatewayConnection:
    """Resolve URL and credentials for `method` and run every check done before connecting.

    Raises (all GatewaySetupError): GatewaySecretRefError, GatewayExplicitAuthRequired,
    GatewayRemoteUrlMissing, GatewayInsecureUrl, GatewayCredentialsRequired.
    """
    cfg = cfg if isinstance(cfg, Mapping) else {}
    override, override_source = url_overrides(env, url=url, port=port)
    credentials = resolve_credentials(cfg, env, token=token, password=password,
                                      url_override_source=override_source)
    config_line = f" (config: {config_path})" if config_path else ""
    if override is not None and override_source == "cli" and not credentials:
        raise GatewayExplicitAuthRequired(
            "gateway url override requires explicit credentials" + config_line,
            url=redact_url(override), url_source=SOURCE_CLI,
            hint="pass --token or --password with --url (config credentials are not reused "
                 "for an explicit URL), or drop --url to use the configured Gateway.")
    if override is not None and override_source == "env" and not credentials:
        raise GatewayExplicitAuthRequired(
            "gateway url override requires explicit credentials" + config_line,
            url=redact_url(override), url_source=SOURCE_ENV,
            hint=f"set {ENV_TOKEN} or {ENV_PASSWORD} alongside {ENV_URL} (config credentials "
                 "are not reused), or pass --token / --password.")
    gw = _gateway_cfg(cfg)
    if is_remote_mode(cfg) and not override and not trim(_sub(gw, "remote").get("url")):
        raise GatewayRemoteUrlMissing(
            "gateway remote mode misconfigured: gateway.remote.url missing" + config_line,
            hint="set gateway.remote.url, or set gateway.mode=local.")
    target = resolve_target(cfg, env, url=url, port=port, config_path=config_path,
                            tls_fingerprint=tls_fingerprint)
    auth_mode = resolve_auth_mode(cfg, env)
    if auth_mode in ("token", "password") and not credentials and not allows_tailscale(cfg, env):
        raise GatewayCredentialsRequired(
            f"gateway {method} requires credentials before opening a websocket" + config_line,
            url=target.display_url, url_source=target.url_source,
            hint=f"configure gateway.auth.token / gateway.auth.password, set {ENV_TOKEN} / "
                 f"{ENV_PASSWORD}, or pass --token / --password.")
    return GatewayConnection(target=target, credentials=credentials, method=method,
                             auth_mode=auth_mode, config_path=config_path,
                             state_dir=_identity_state_dir(env))


def _identity_state_dir(env: Mapping[str, str]) -> str | None:
    """The state folder our device identity lives in; None when it cannot be resolved."""
    from openclaw_cli.errors import CliError

    try:
        return _state_dir(env)
    except (CliError, OSError):
        return None


def is_listening(url: str, timeout_s: float = 2.0) -> bool | None:
    """Whether anything accepts a TCP connection at a ws(s) URL's host and port.

    False only for a refused connection (nothing listening: no Gateway); None when the answer is
    unknown (unreachable host, timeout); True when something accepted the connection.
    """
    import socket
    from urllib.parse import urlparse

    try:
        parsed = urlparse(url)
        host = parsed.hostname or "127.0.0.1"
        port = parsed.port or (443 if parsed.scheme == "wss" else 80)
    except ValueError:
        return None
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return True
    except ConnectionRefusedError:
        return False
    except OSError:
        return None

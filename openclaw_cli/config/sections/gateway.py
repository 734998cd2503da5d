"""The `gateway` section of OpenClaw 2026.7.1's config schema."""

from collections.abc import Iterable
from typing import Annotated, Literal

from openclaw_cli.config.sections.base import NonNegInt, NotFalse, Num, PosInt, StrList, integer
from openclaw_cli.config.sections.secrets import SecretInput, _matches
from openclaw_cli.config.zod import ONE_OF, UNION, UNSET, Checked, Loose, Refined, Strict, required
from openclaw_cli.js.strings import js_trim


def _not_blank(message: str) -> Checked:
    return Checked(lambda v: bool(js_trim(v)), message)


class ControlUi(Strict):
    enabled: bool = UNSET
    basePath: str = UNSET
    root: str = UNSET
    embedSandbox: Annotated[Literal["strict", "scripts", "trusted"], ONE_OF] = UNSET
    allowExternalEmbedUrls: bool = UNSET
    chatMessageMaxWidth: str = UNSET
    allowedOrigins: StrList = UNSET
    dangerouslyAllowHostHeaderOriginFallback: bool = UNSET
    allowInsecureAuth: bool = UNSET
    dangerouslyDisableDeviceAuth: bool = UNSET


class Terminal(Strict):
    enabled: bool = UNSET
    shell: str = UNSET
    detachedSessionTimeoutSeconds: Annotated[float, integer(ge=0)] = UNSET


class RateLimit(Strict):
    maxAttempts: Num = UNSET
    windowMs: Num = UNSET
    lockoutMs: Num = UNSET
    exemptLoopback: bool = UNSET


class TrustedProxy(Strict):
    userHeader: Annotated[str, Checked(lambda v: len(v) >= 1, "userHeader is required for trusted-proxy mode")] \
        = required()
    requiredHeaders: StrList = UNSET
    allowUsers: StrList = UNSET
    allowLoopback: bool = UNSET


class GatewayAuth(Strict):
    mode: Annotated[Literal["none", "token", "password", "trusted-proxy"], ONE_OF] = UNSET
    token: SecretInput = UNSET
    password: SecretInput = UNSET
    allowTailscale: bool = UNSET
    rateLimit: RateLimit = UNSET
    trustedProxy: TrustedProxy = UNSET


class GatewayTools(Strict):
    deny: StrList = UNSET
    allow: StrList = UNSET


class Tailscale(Strict):
    mode: Annotated[Literal["off", "serve", "funnel"], ONE_OF] = UNSET
    resetOnExit: bool = UNSET
    serviceName: Annotated[str, Checked(
        _matches(r"^svc:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\Z"),
        'Tailscale serviceName must use the "svc:<dns-label>" format, for example "svc:openclaw"')] = UNSET
    preserveFunnel: bool = UNSET


class Remote(Strict):
    enabled: bool = UNSET
    url: str = UNSET
    transport: Annotated[Literal["ssh", "direct"], ONE_OF] = UNSET
    remotePort: Annotated[float, integer(ge=1, le=65535)] = UNSET
    token: SecretInput = UNSET
    password: SecretInput = UNSET
    tlsFingerprint: str = UNSET
    sshTarget: str = UNSET
    sshIdentity: str = UNSET
    sshHostKeyPolicy: Annotated[Literal["strict", "openssh"], ONE_OF] = UNSET


class Reload(Strict):
    mode: Annotated[Literal["off", "restart", "hot", "hybrid"], ONE_OF] = UNSET
    debounceMs: NonNegInt = UNSET
    deferralTimeoutMs: NonNegInt = UNSET


class Tls(Loose):
    enabled: bool = UNSET
    autoGenerate: bool = UNSET
    certPath: Annotated[str, _not_blank("certPath must not be blank")] = UNSET
    keyPath: Annotated[str, _not_blank("keyPath must not be blank")] = UNSET
    caPath: str = UNSET


class UrlFetch(Strict):
    allowUrl: bool = UNSET
    urlAllowlist: StrList = UNSET
    allowedMimes: StrList = UNSET
    maxBytes: PosInt = UNSET
    maxRedirects: NonNegInt = UNSET
    timeoutMs: PosInt = UNSET


class Pdf(Strict):
    maxPages: PosInt = UNSET
    maxPixels: PosInt = UNSET
    minTextChars: NonNegInt = UNSET


class FileFetch(UrlFetch):
    maxChars: PosInt = UNSET
    pdf: Pdf = UNSET


class ChatCompletions(Strict):
    enabled: bool = UNSET
    maxBodyBytes: PosInt = UNSET
    maxImageParts: NonNegInt = UNSET
    maxTotalImageBytes: PosInt = UNSET
    images: UrlFetch = UNSET


class Responses(Strict):
    enabled: bool = UNSET
    maxBodyBytes: PosInt = UNSET
    maxUrlParts: NonNegInt = UNSET
    files: FileFetch = UNSET
    images: UrlFetch = UNSET


class Endpoints(Strict):
    chatCompletions: ChatCompletions = UNSET
    responses: Responses = UNSET


class SecurityHeaders(Strict):
    strictTransportSecurity: Annotated[str | NotFalse, UNION] = UNSET


class Http(Strict):
    endpoints: Endpoints = UNSET
    securityHeaders: SecurityHeaders = UNSET


class ApnsRelay(Strict):
    baseUrl: str = UNSET
    timeoutMs: PosInt = UNSET


class Apns(Strict):
    relay: ApnsRelay = UNSET


class Push(Strict):
    apns: Apns = UNSET


class NodesBrowser(Strict):
    mode: Annotated[Literal["auto", "manual", "off"], ONE_OF] = UNSET
    node: str = UNSET


class NodesPairing(Strict):
    autoApproveCidrs: StrList = UNSET


class Nodes(Strict):
    browser: NodesBrowser = UNSET
    pairing: NodesPairing = UNSET
    allowCommands: StrList = UNSET
    denyCommands: StrList = UNSET


class Gateway(Refined):
    port: PosInt = UNSET
    mode: Annotated[Literal["local", "remote"], ONE_OF] = UNSET
    bind: Annotated[Literal["auto", "lan", "loopback", "custom", "tailnet"], ONE_OF] = UNSET
    customBindHost: str = UNSET
    controlUi: ControlUi = UNSET
    terminal: Terminal = UNSET
    auth: GatewayAuth = UNSET
    trustedProxies: StrList = UNSET
    allowRealIpFallback: bool = UNSET
    tools: GatewayTools = UNSET
    handshakeTimeoutMs: Annotated[float, integer(ge=1)] = UNSET
    channelHealthCheckMinutes: Annotated[float, integer(ge=0)] = UNSET
    channelStaleEventThresholdMinutes: Annotated[float, integer(ge=1)] = UNSET
    channelMaxRestartsPerHour: Annotated[float, integer(ge=1)] = UNSET
    tailscale: Tailscale = UNSET
    remote: Remote = UNSET
    reload: Reload = UNSET
    tls: Tls = UNSET
    http: Http = UNSET
    push: Push = UNSET
    nodes: Nodes = UNSET

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        health = value.get("channelHealthCheckMinutes")
        effective = 5 if health is None else health
        stale = value.get("channelStaleEventThresholdMinutes")
        if stale is not None and effective != 0 and stale < effective:
            yield (("channelStaleEventThresholdMinutes",),
                   "channelStaleEventThresholdMinutes should be >= channelHealthCheckMinutes to avoid "
                   "delayed stale detection")

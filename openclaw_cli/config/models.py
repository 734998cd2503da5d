"""OpenClaw's config schema as pydantic models, for the sections this tool reads.

The schema is OpenClaw 2026.7.1's (`src/config/zod-schema.ts`, zod); `config/zod.py` holds the pieces
that make pydantic judge as zod does, `config/issues.py` reports the errors as OpenClaw words them.

Every object is strict (unknown keys are reported) unless it is `Loose`; fields are optional
(`UNSET`) unless `required()`. The other sections (but logging) are checked for their own key set
only. Not checked: values inside those sections and the unmodelled agent fields, plugin and
channel schemas, SecretRef placement policy, identity.avatar, the CSS grammar of
gateway.controlUi.chatMessageMaxWidth (URLs are checked loosely).
"""

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, Discriminator, Field, Tag, create_model

from openclaw_cli.config.units import parse_byte_size, parse_duration_ms
from openclaw_cli.config.zod import (
    ONE_OF,
    UNION,
    UNSET,
    Checked,
    JsNumber,
    Loose,
    Refined,
    Sized,
    Strict,
    ZodTagged,
    is_number,
    js_same,
    required,
    tag_of,
)
from openclaw_cli.js.strings import js_number_to_string, js_trim
from openclaw_cli.js.values import js_string, object_at

Num = Annotated[float, JsNumber()]
PosInt = Annotated[float, JsNumber(integer=True, gt=0)]
NonNegInt = Annotated[float, JsNumber(integer=True, ge=0)]
StrList = list[str]
StrOrNum = Annotated[str | Num, UNION]
NotFalse = Annotated[Literal[False], ONE_OF]


def _int(*, ge: float, le: float | None = None) -> JsNumber:
    return JsNumber(integer=True, ge=ge, le=le)


# -------------------------------------------------------------------------------- grammars

_BAD_DURATION = "invalid duration (use ms, s, m, h, d)"
_BAD_SIZE = "invalid size (use b, kb, mb, gb, tb)"


def _stringified(value: Any) -> str:
    """normalizeStringifiedOptionalString(value) ?? ''."""
    if isinstance(value, str):
        return js_trim(value)
    if isinstance(value, (bool, int, float)):
        return js_trim(js_number_to_string(value))
    return ""


def _duration_ok(value: Any, default_unit: str) -> bool:
    try:
        parse_duration_ms(_stringified(value), default_unit)
        return True
    except ValueError:
        return False


def _size_ok(value: Any) -> bool:
    try:
        parse_byte_size(_stringified(value), "b")
        return True
    except ValueError:
        return False


# -------------------------------------------------------------------------------- session

class Reset(Strict):
    mode: Annotated[Literal["daily", "idle"], ONE_OF] = UNSET
    atHour: Annotated[float, _int(ge=0, le=23)] = UNSET
    idleMinutes: PosInt = UNSET


ChatType = Annotated[Literal["direct", "group", "channel", "dm"], ONE_OF]
AllowDeny = Annotated[Literal["allow", "deny"], ONE_OF]
DmScope = Annotated[Literal["main", "per-peer", "per-channel-peer", "per-account-channel-peer"], ONE_OF]


class SendPolicyMatch(Strict):
    channel: str = UNSET
    chatType: ChatType = UNSET
    keyPrefix: str = UNSET
    rawKeyPrefix: str = UNSET


class SendPolicyRule(Strict):
    action: AllowDeny = required()
    match: SendPolicyMatch = UNSET


class SendPolicy(Strict):
    default: AllowDeny = UNSET
    rules: list[SendPolicyRule] = UNSET


class ResetByType(Strict):
    direct: Reset = UNSET
    dm: Reset = UNSET
    group: Reset = UNSET
    thread: Reset = UNSET


class WriteLock(Strict):
    acquireTimeoutMs: PosInt = UNSET
    staleMs: PosInt = UNSET
    maxHoldMs: PosInt = UNSET


class AgentToAgent(Strict):
    maxPingPongTurns: Annotated[float, _int(ge=0, le=20)] = UNSET


class ThreadBindings(Strict):
    enabled: bool = UNSET
    idleHours: Annotated[float, JsNumber(ge=0)] = UNSET
    maxAgeHours: Annotated[float, JsNumber(ge=0)] = UNSET
    spawnSessions: bool = UNSET
    defaultSpawnContext: Annotated[Literal["isolated", "fork"], ONE_OF] = UNSET


class Maintenance(Refined):
    mode: Annotated[Literal["enforce", "warn"], ONE_OF] = UNSET
    pruneAfter: StrOrNum = UNSET
    pruneDays: PosInt = UNSET
    maxEntries: PosInt = UNSET
    rotateBytes: StrOrNum = UNSET
    resetArchiveRetention: Annotated[str | Num | NotFalse, UNION] = UNSET
    maxDiskBytes: StrOrNum = UNSET
    highWaterBytes: StrOrNum = UNSET

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        if "pruneAfter" in value and not _duration_ok(value["pruneAfter"], "d"):
            yield ("pruneAfter",), _BAD_DURATION
        retention = value.get("resetArchiveRetention", False)
        if retention is not False and not _duration_ok(retention, "d"):
            yield ("resetArchiveRetention",), _BAD_DURATION
        for key in ("maxDiskBytes", "highWaterBytes"):
            if key in value and not _size_ok(value[key]):
                yield (key,), _BAD_SIZE


class Session(Strict):
    scope: Annotated[Literal["per-sender", "global"], ONE_OF] = UNSET
    dmScope: DmScope = UNSET
    identityLinks: dict[str, StrList] = UNSET
    resetTriggers: StrList = UNSET
    idleMinutes: PosInt = UNSET
    reset: Reset = UNSET
    resetByType: ResetByType = UNSET
    resetByChannel: dict[str, Reset] = UNSET
    store: str = UNSET
    typingIntervalSeconds: PosInt = UNSET
    typingMode: Annotated[Literal["never", "instant", "thinking", "message"], ONE_OF] = UNSET
    mainKey: str = UNSET
    sendPolicy: SendPolicy = UNSET
    writeLock: WriteLock = UNSET
    agentToAgent: AgentToAgent = UNSET
    threadBindings: ThreadBindings = UNSET
    maintenance: Maintenance = UNSET


# -------------------------------------------------------------------------------- agents

class AgentModelChoice(Strict):
    primary: str = UNSET
    fallbacks: StrList = UNSET


AgentModel = Annotated[str | AgentModelChoice, UNION]
Thinking = Annotated[Literal["off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max", "ultra"],
                     ONE_OF]


class ModelRuntime(Strict):
    id: str = UNSET


class ModelEntry(Strict):
    alias: str = UNSET
    params: dict[str, Any] = UNSET
    agentRuntime: ModelRuntime = UNSET
    streaming: bool = UNSET


class EmbeddedRuntime(Strict):
    type: Annotated[Literal["embedded"], ONE_OF] = required()


class AcpRuntimeSettings(Strict):
    agent: str = UNSET
    backend: str = UNSET
    mode: Annotated[Literal["persistent", "oneshot"], ONE_OF] = UNSET
    cwd: str = UNSET


class AcpRuntime(Strict):
    type: Annotated[Literal["acp"], ONE_OF] = required()
    acp: AcpRuntimeSettings = UNSET


class AgentExperimental(Strict):
    localModelLean: bool = UNSET


class _AgentEntryChecked(Strict):
    id: str = required()
    default: bool = UNSET
    name: str = UNSET
    description: str = UNSET
    workspace: str = UNSET
    agentDir: str = UNSET
    model: AgentModel = UNSET
    utilityModel: str = UNSET
    models: dict[str, ModelEntry] = UNSET
    thinkingDefault: Thinking = UNSET
    verboseDefault: Annotated[Literal["off", "on", "full"], ONE_OF] = UNSET
    toolProgressDetail: Annotated[Literal["explain", "raw"], ONE_OF] = UNSET
    reasoningDefault: Annotated[Literal["on", "off", "stream"], ONE_OF] = UNSET
    fastModeDefault: Annotated[bool | Annotated[Literal["auto"], ONE_OF], UNION] = UNSET
    contextInjection: Annotated[Literal["always", "continuation-skip", "never"], ONE_OF] = UNSET
    bootstrapMaxChars: PosInt = UNSET
    bootstrapTotalMaxChars: PosInt = UNSET
    experimental: AgentExperimental = UNSET
    skills: StrList = UNSET
    contextTokens: PosInt = UNSET
    params: dict[str, Any] = UNSET
    runtime: Annotated[EmbeddedRuntime | AcpRuntime, UNION] = UNSET


class _AgentDefaultsChecked(Strict):
    model: AgentModel = UNSET
    utilityModel: str = UNSET
    workspace: str = UNSET
    models: dict[str, ModelEntry] = UNSET
    skills: StrList = UNSET
    params: dict[str, Any] = UNSET
    repoRoot: str = UNSET
    userTimezone: str = UNSET
    contextTokens: PosInt = UNSET
    maxConcurrent: PosInt = UNSET
    timeoutSeconds: PosInt = UNSET


def _unchecked(name: str, keys: str, base: type[BaseModel]) -> Any:
    """`base` (or a strict object) plus unchecked fields for the other keys OpenClaw accepts."""
    fields: Any = {f"k_{re.sub(r'[^0-9A-Za-z_]', '_', key)}": (Any, Field(None, alias=key))
                   for key in keys.split() if key not in base.model_fields}
    return create_model(name, __base__=base, __module__=__name__, **fields)


_AGENT_ENTRY_UNCHECKED = ("memorySearch humanDelay tts skillsLimits contextLimits heartbeat identity groupChat "
                          "subagents runRetries embeddedAgent sandbox tools")
_AGENT_DEFAULTS_UNCHECKED = (
    "imageModel imageGenerationModel videoGenerationModel musicGenerationModel voiceModel "
    "mediaGenerationAutoProviderFallback pdfModel pdfMaxBytesMb pdfMaxPages silentReply promptOverlays "
    "skipBootstrap skipOptionalBootstrapFiles contextInjection bootstrapMaxChars bootstrapTotalMaxChars "
    "experimental bootstrapPromptTruncationWarning startupContext contextLimits timeFormat envelopeTimezone "
    "envelopeTimestamp envelopeElapsed cliBackends memorySearch contextPruning compaction runRetries "
    "embeddedAgent thinkingDefault verboseDefault toolProgressDetail reasoningDefault elevatedDefault "
    "blockStreamingDefault blockStreamingBreak blockStreamingChunk blockStreamingCoalesce humanDelay "
    "mediaMaxMb imageMaxDimensionPx imageQuality typingIntervalSeconds typingMode heartbeat subagents sandbox")

if TYPE_CHECKING:  # a type checker needs only the checked fields
    AgentEntry = _AgentEntryChecked
    AgentDefaults = _AgentDefaultsChecked
else:
    AgentEntry = _unchecked("AgentEntry", _AGENT_ENTRY_UNCHECKED, _AgentEntryChecked)
    AgentDefaults = _unchecked("AgentDefaults", _AGENT_DEFAULTS_UNCHECKED, _AgentDefaultsChecked)


class Agents(Strict):
    defaults: AgentDefaults = UNSET
    entries: list[AgentEntry] = Field(UNSET, alias="list")


# -------------------------------------------------------------------------------- acp

class AcpDispatch(Strict):
    enabled: bool = UNSET


class AcpStream(Strict):
    coalesceIdleMs: NonNegInt = UNSET
    maxChunkChars: PosInt = UNSET
    repeatSuppression: bool = UNSET
    deliveryMode: Annotated[Literal["live", "final_only"], ONE_OF] = UNSET
    hiddenBoundarySeparator: Annotated[Literal["none", "space", "newline", "paragraph"], ONE_OF] = UNSET
    maxOutputChars: PosInt = UNSET
    maxSessionUpdateChars: PosInt = UNSET
    tagVisibility: dict[str, bool] = UNSET


class AcpRuntimeDefaults(Strict):
    ttlMinutes: PosInt = UNSET
    installCommand: str = UNSET


class Acp(Strict):
    enabled: bool = UNSET
    dispatch: AcpDispatch = UNSET
    backend: str = UNSET
    fallbacks: StrList = UNSET
    defaultAgent: str = UNSET
    allowedAgents: StrList = UNSET
    maxConcurrentSessions: PosInt = UNSET
    stream: AcpStream = UNSET
    runtime: AcpRuntimeDefaults = UNSET


# -------------------------------------------------------------------------------- secrets

_FILE_SEGMENT = re.compile(r"(?:[^~]|~0|~1)*\Z")
_EXEC_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}\Z")


def _matches(pattern: str) -> Any:
    return re.compile(pattern).search


def _file_ref_id_ok(value: str) -> bool:
    if value == "value":
        return True
    return value.startswith("/") and all(_FILE_SEGMENT.match(s) for s in value[1:].split("/"))


def _exec_ref_id_ok(value: str) -> bool:
    return bool(_EXEC_ID.match(value)) and all(s not in (".", "..") for s in value.split("/"))


Provider = Annotated[str, Checked(
    _matches(r"^[a-z][a-z0-9_-]{0,63}\Z"),
    'Secret reference provider must match /^[a-z][a-z0-9_-]{0,63}$/ (example: "default").')]


class EnvSecretRef(Strict):
    source: Annotated[Literal["env"], ONE_OF] = required()
    provider: Provider = required()
    id: Annotated[str, Checked(
        _matches(r"^[A-Z][A-Z0-9_]{0,127}\Z"),
        'Env secret reference id must match /^[A-Z][A-Z0-9_]{0,127}$/ (example: "OPENAI_API_KEY").')] = required()


class FileSecretRef(Strict):
    source: Annotated[Literal["file"], ONE_OF] = required()
    provider: Provider = required()
    id: Annotated[str, Checked(
        _file_ref_id_ok,
        'File secret reference id must be an absolute JSON pointer (example: "/providers/openai/apiKey"), '
        'or "value" for singleValue mode.')] = required()


class ExecSecretRef(Strict):
    source: Annotated[Literal["exec"], ONE_OF] = required()
    provider: Provider = required()
    id: Annotated[str, Checked(
        _exec_ref_id_ok,
        'Exec secret reference id must match /^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$/ and must not '
        'include "." or ".." path segments (example: "vault/openai/api-key" or "aws/secret#json_key").')] = required()


SecretRef = Annotated[
    Union[Annotated[EnvSecretRef, Tag("env")], Annotated[FileSecretRef, Tag("file")],  # noqa: UP007
          Annotated[ExecSecretRef, Tag("exec")]],
    Discriminator(tag_of("source")), ZodTagged("source")]
SecretInput = Annotated[str | SecretRef, UNION]


# -------------------------------------------------------------------------------- gateway

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
    detachedSessionTimeoutSeconds: Annotated[float, _int(ge=0)] = UNSET


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
    remotePort: Annotated[float, _int(ge=1, le=65535)] = UNSET
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
    handshakeTimeoutMs: Annotated[float, _int(ge=1)] = UNSET
    channelHealthCheckMinutes: Annotated[float, _int(ge=0)] = UNSET
    channelStaleEventThresholdMinutes: Annotated[float, _int(ge=1)] = UNSET
    channelMaxRestartsPerHour: Annotated[float, _int(ge=1)] = UNSET
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


# -------------------------------------------------------------------------------- cron

def _is_http_url(value: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


RetryOn = Annotated[Literal["rate_limit", "overloaded", "network", "timeout", "server_error"], ONE_OF]
CronMode = Annotated[Literal["announce", "webhook"], ONE_OF]


class CronTriggers(Strict):
    enabled: bool = UNSET
    minIntervalMs: PosInt = UNSET


class CronRetry(Strict):
    maxAttempts: Annotated[float, _int(ge=0, le=10)] = UNSET
    backoffMs: Annotated[list[NonNegInt], Sized(1, 10)] = UNSET
    retryOn: Annotated[list[RetryOn], Sized(1)] = UNSET


class CronRunLog(Strict):
    maxBytes: StrOrNum = UNSET
    keepLines: PosInt = UNSET


class CronFailureAlert(Strict):
    enabled: bool = UNSET
    after: Annotated[float, _int(ge=1)] = UNSET
    cooldownMs: NonNegInt = UNSET
    includeSkipped: bool = UNSET
    mode: CronMode = UNSET
    accountId: str = UNSET


class CronFailureDestination(Strict):
    channel: str = UNSET
    to: str = UNSET
    accountId: str = UNSET
    mode: CronMode = UNSET


class Cron(Refined):
    enabled: bool = UNSET
    store: str = UNSET
    maxConcurrentRuns: PosInt = UNSET
    triggers: CronTriggers = UNSET
    retry: CronRetry = UNSET
    webhook: Annotated[str, Checked(_is_http_url, "Expected http:// or https:// URL")] = UNSET
    webhookToken: SecretInput = UNSET
    sessionRetention: Annotated[str | NotFalse, UNION] = UNSET
    runLog: CronRunLog = UNSET
    failureAlert: CronFailureAlert = UNSET
    failureDestination: CronFailureDestination = UNSET

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        retention = value.get("sessionRetention", False)
        if retention is not False and not _duration_ok(retention, "h"):
            yield ("sessionRetention",), _BAD_DURATION
        run_log = value.get("runLog")
        if isinstance(run_log, dict) and "maxBytes" in run_log and not _size_ok(run_log["maxBytes"]):
            yield ("runLog", "maxBytes"), _BAD_SIZE


# -------------------------------------------------------------------------------- bindings

class BindingPeer(Strict):
    kind: ChatType = required()
    id: str = required()


class BindingMatch(Strict):
    channel: str = required()
    accountId: str = UNSET
    peer: BindingPeer = UNSET
    guildId: str = UNSET
    teamId: str = UNSET
    roles: StrList = UNSET


class BindingSession(Strict):
    dmScope: DmScope = UNSET


class RouteBinding(Strict):
    type: Annotated[Literal["route"], ONE_OF] = UNSET
    agentId: str = required()
    comment: str = UNSET
    match: BindingMatch = required()
    session: BindingSession = UNSET


class AcpBindingSettings(Strict):
    mode: Annotated[Literal["persistent", "oneshot"], ONE_OF] = UNSET
    label: str = UNSET
    cwd: str = UNSET
    backend: str = UNSET


class AcpBinding(Refined):
    type: Annotated[Literal["acp"], ONE_OF] = required()
    agentId: str = required()
    comment: str = UNSET
    match: BindingMatch = required()
    acp: AcpBindingSettings = UNSET

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        peer_id = object_at(object_at(value, "match"), "peer").get("id")
        if not (isinstance(peer_id, str) and js_trim(peer_id)):
            yield ("match", "peer"), "ACP bindings require match.peer.id to target a concrete conversation."


Binding = Annotated[RouteBinding | AcpBinding, UNION]


# -------------------------------------------------------------------------------- root

class Meta(Strict):
    lastTouchedVersion: str = UNSET
    lastTouchedAt: Annotated[str | Annotated[float, JsNumber(refine=lambda v: abs(v) <= 8.64e15)], UNION] \
        = UNSET


class ShellEnv(Strict):
    enabled: bool = UNSET
    timeoutMs: NonNegInt = UNSET


class Env(Loose):
    """The `env` block: its other keys are variables (strings)."""

    __pydantic_extra__: dict[str, str] = Field(init=False)
    shellEnv: ShellEnv = UNSET
    vars: dict[str, str] = UNSET


class Broadcast(Loose):
    """`broadcast`: a strategy, and for every other key the agent ids a peer's messages go to."""

    __pydantic_extra__: dict[str, StrList] = Field(init=False)
    strategy: Annotated[Literal["parallel", "sequential"], ONE_OF] = UNSET


LoggingLevel = Annotated[Literal["silent", "fatal", "error", "warn", "info", "debug", "trace"], ONE_OF]


class Logging(Strict):
    level: LoggingLevel = UNSET
    file: str = UNSET
    maxFileBytes: PosInt = UNSET
    consoleLevel: LoggingLevel = UNSET
    consoleStyle: Annotated[Literal["pretty", "compact", "json"], ONE_OF] = UNSET
    redactSensitive: Annotated[Literal["off", "tools"], ONE_OF] = UNSET
    redactPatterns: StrList = UNSET


_OTHER_SECTIONS: dict[str, str | type[BaseModel]] = {  # root order; a model where the values are checked
    "wizard": "lastRunAt lastRunVersion lastRunCommit lastRunCommand lastRunMode securityAcknowledgedAt",
    "diagnostics": "enabled flags stuckSessionWarnMs stuckSessionAbortMs memoryPressureSnapshot otel cacheTrace",
    "audit": "enabled",
    "logging": Logging,
    "cli": "banner",
    "crestodian": "rescue",
    "update": "channel checkOnStart auto",
    "browser": "enabled evaluateEnabled cdpUrl remoteCdpTimeoutMs remoteCdpHandshakeTimeoutMs "
               "localLaunchTimeoutMs localCdpReadyTimeoutMs actionTimeoutMs color executablePath headless "
               "noSandbox attachOnly cdpPortRangeStart defaultProfile snapshotDefaults ssrfPolicy profiles "
               "extraArgs tabCleanup",
    "ui": "seamColor assistant",
    "tui": "footer",
    "secrets": "providers defaults resolution",
    "marketplaces": "feeds sources",
    "auth": "profiles order cooldowns",
    "models": "mode providers pricing",
    "nodeHost": "browserProxy",
    "tools": "profile allow alsoAllow deny byProvider toolsBySender web media links sessions loopDetection "
             "toolSearch codeMode message agentToAgent elevated exec fs subagents sandbox sessions_spawn "
             "experimental",
    "security": "audit installPolicy",
    "audio": "transcription",
    "media": "preserveFilenames ttlHours",
    "messages": "messagePrefix visibleReplies responsePrefix usageTemplate responseUsage groupChat queue "
                "inbound ackReaction ackReactionScope removeAckAfterReply statusReactions suppressToolErrors tts",
    "commands": "native nativeSkills text bash bashForegroundMs config mcp plugins debug restart "
                "useAccessGroups ownerAllowFrom ownerDisplay ownerDisplaySecret allowFrom modelsWrite",
    "approvals": "exec plugin",
    "transcripts": "enabled maxUtterances autoStart",
    "commitments": "enabled maxPerDay",
    "hooks": "enabled path token defaultSessionKey allowRequestSessionKey allowedSessionKeyPrefixes "
             "allowedAgentIds maxBodyBytes presets transformsDir mappings gmail internal",
    "web": "enabled heartbeatSeconds reconnect whatsapp",
    "discovery": "wideArea mdns",
    "talk": "provider providers realtime consultThinkingLevel consultFastMode speechLocale interruptOnSpeech "
            "silenceTimeoutMs",
    "memory": "backend citations qmd",
    "mcp": "servers sessionIdleTtlMs",
    "skills": "allowBundled load install limits workshop entries",
    "plugins": "enabled allow deny load slots entries bundledDiscovery installs",
    "canvasHost": "enabled root port liveReload",
    "proxy": "enabled proxyUrl tls loopbackMode",
}


class Channels(Loose):
    """`channels`: each channel's schema belongs to its plugin."""


def _agent_id(value: Any) -> str:
    from openclaw_cli.config.agents import normalize_agent_id

    return normalize_agent_id(value if isinstance(value, str) else None)


# tools.web.search.<id> as an object: provider config that belongs under plugins.entries.<plugin>.config.webSearch
# (OpenClaw 2026.7.1, dist/web-search-legacy-provider-keys-*.js and the tools.web.search refinement).
LEGACY_WEB_SEARCH_PROVIDER_KEYS = frozenset({"brave", "duckduckgo", "exa", "firecrawl", "gemini", "grok", "kimi",
                                             "minimax", "ollama", "perplexity", "searxng", "tavily"})


def _legacy_web_search_issues(value: dict) -> Iterable[tuple[tuple, str]]:
    search = object_at(object_at(object_at(value, "tools"), "web"), "search")
    for key, entry in search.items():
        if key in LEGACY_WEB_SEARCH_PROVIDER_KEYS and isinstance(entry, dict):
            yield (("tools", "web", "search", key),
                   "legacy web_search provider config must use plugins.entries.<plugin>.config.webSearch")


_BOTH_ALLOW = ("cannot set both allow and alsoAllow in the same scope (merge alsoAllow into allow, or remove allow "
               "and use profile + alsoAllow)")


def _allow_conflicts(tools: Any, loc: tuple, label: str) -> Iterable[tuple[tuple, str]]:
    """A tool policy (and its byProvider policies) with both a non-empty allow and alsoAllow."""
    if not isinstance(tools, dict):
        return
    if all(isinstance(tools.get(k), list) and tools[k] for k in ("allow", "alsoAllow")):
        yield loc, f"{label} {_BOTH_ALLOW}"
    for key, policy in object_at(tools, "byProvider").items():
        if isinstance(policy, dict) and all(isinstance(policy.get(k), list) and policy[k]
                                            for k in ("allow", "alsoAllow")):
            yield (*loc, "byProvider", key), f"tools.byProvider policy {_BOTH_ALLOW}"


class _RootRefinement(Refined):
    """The checks across sections: every binding and broadcast target is a listed agent; no legacy
    web-search provider block; no tool policy with both allow and alsoAllow."""

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        yield from _legacy_web_search_issues(value)
        yield from _allow_conflicts(value.get("tools"), ("tools",), "tools")
        agent_list = object_at(value, "agents").get("list")
        for index, agent in enumerate(agent_list if isinstance(agent_list, list) else []):
            if isinstance(agent, dict):
                yield from _allow_conflicts(agent.get("tools"), ("agents", "list", index, "tools"), "agent tools")
        entries = object_at(value, "agents").get("list")
        if not isinstance(entries, list) or not entries:
            return
        raw_ids = [e.get("id") for e in entries if isinstance(e, dict)]
        known = {_agent_id(i) for i in raw_ids}
        bindings = value.get("bindings")
        for index, binding in enumerate(bindings if isinstance(bindings, list) else []):
            agent_id = binding.get("agentId") if isinstance(binding, dict) else None
            if isinstance(agent_id, str) and _agent_id(agent_id) not in known:
                yield ("bindings", index, "agentId"), f'Unknown agent id "{agent_id}" (not in agents.list).'
        broadcast = value.get("broadcast")
        for peer, ids in (broadcast.items() if isinstance(broadcast, dict) else []):
            if peer == "strategy" or not isinstance(ids, list):
                continue
            for index, agent_id in enumerate(ids):
                if not any(js_same(agent_id, raw) for raw in raw_ids):
                    yield (("broadcast", peer, index),
                           f'Unknown agent id "{js_string(agent_id)}" (not in agents.list).')


def _section(name: str, keys: str) -> Any:
    """A section this tool does not read: only its own key set is checked."""
    return _unchecked(f"{name[:1].upper()}{name[1:]}Section", keys, Strict)


_ROOT_FIELDS: Any = {
    "schema_": (str, Field(None, alias="$schema")),
    "meta": (Meta, UNSET),
    "env": (Env, UNSET),
    **{f"s_{name}": (_section(name, keys) if isinstance(keys, str) else keys, Field(None, alias=name))
       for name, keys in _OTHER_SECTIONS.items()},
    "accessGroups": (dict[str, Any], UNSET),
    "acp": (Acp, UNSET),
    "agents": (Agents, UNSET),
    "bindings": (list[Binding], UNSET),
    "broadcast": (Broadcast, UNSET),
    "session": (Session, UNSET),
    "cron": (Cron, UNSET),
    "channels": (Channels, UNSET),
    "gateway": (Gateway, UNSET),
    "surfaces": (dict[str, Any], UNSET),
}
OpenClawConfig = create_model("OpenClawConfig", __base__=_RootRefinement, __module__=__name__, **_ROOT_FIELDS)
"""The whole config file, as OpenClaw's validator sees it (after `$include` and `${VAR}`)."""

__all__ = ["OpenClawConfig", "is_number"]

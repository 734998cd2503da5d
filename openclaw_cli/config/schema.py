"""OpenClaw's config schema for the sections this tool reads, checked with OpenClaw's messages and paths."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from openclaw_cli.config import paths
from openclaw_cli.config.units import MAX_SAFE_INTEGER, parse_byte_size, parse_duration_ms
from openclaw_cli.js.strings import js_number_to_string as js_number_string
from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import js_string, object_at


@dataclass
class ConfigIssue:
    """One problem found in the config: a dotted path ('' for the root) and a message."""

    path: str
    message: str

    def format(self) -> str:
        return f"{self.path or '<root>'}: {self.message}"


# --------------------------------------------------------------------------------------
# Validation: OpenClaw's schema for the sections this tool reads, the root key set,
# and the top-level keys of every other section. Issues carry the same paths as the
# OpenClaw; `cont=False` marks issues that stop object refinements (as in OpenClaw).
# Not checked: values inside the other sections and the unmodelled agent fields, plugin and
# channel schemas, SecretRef placement policy, identity.avatar, the CSS grammar of
# gateway.controlUi.chatMessageMaxWidth (URLs are checked loosely).

_MISSING = object()


@dataclass
class _Issue:
    path: tuple
    code: str
    cont: bool
    message: str | None = None
    values: list | None = None
    expected: str | None = None
    bound: tuple[str, float] | None = None
    branches: list[list[_Issue]] | None = None


_ObjRefine = Callable[[dict, tuple, "list[_Issue]"], None]
"""A check over a whole object (runs when its fields had no aborting issue): value, path, issues."""


def is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return a == b
    return type(a) is type(b) and a == b


def _aborted(issues: list[_Issue]) -> bool:
    return any(not i.cont for i in issues)


class _Schema:
    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        raise NotImplementedError


class _AnyValue(_Schema):
    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        return None


class _Str(_Schema):
    def __init__(self, *, min_len: int | None = None, pattern: str | None = None,
                 refine: Callable[[str], bool] | None = None,
                 message: str | None = None):
        self.min_len = min_len
        self.pattern = re.compile(pattern) if pattern else None
        self.refine = refine
        self.message = message

    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        if not isinstance(value, str):
            out.append(_Issue(path, "invalid_type", False, expected="string"))
            return
        if self.min_len is not None and len(value) < self.min_len:
            out.append(_Issue(path, "too_small", True, message=self.message))
        if self.pattern is not None and not self.pattern.search(value):
            out.append(_Issue(path, "invalid_format", True, message=self.message))
        if self.refine is not None and not self.refine(value):
            out.append(_Issue(path, "custom", True, message=self.message))


class _Num(_Schema):
    def __init__(self, *, integer: bool = False, gt: float | None = None, ge: float | None = None,
                 le: float | None = None, refine: Callable[[float], bool] | None = None):
        self.integer, self.gt, self.ge, self.le, self.refine = integer, gt, ge, le, refine

    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        if not is_number(value) or math.isnan(value) or math.isinf(value):
            out.append(_Issue(path, "invalid_type", False, expected="number"))
            return
        if self.integer:
            if not float(value).is_integer():
                out.append(_Issue(path, "invalid_type", False, expected="int"))
                return
            if abs(value) > MAX_SAFE_INTEGER:
                out.append(_Issue(path, "too_big", True))
        if self.gt is not None and not value > self.gt:
            out.append(_Issue(path, "too_small", True, bound=("gt", self.gt)))
        if self.ge is not None and not value >= self.ge:
            out.append(_Issue(path, "too_small", True, bound=("ge", self.ge)))
        if self.le is not None and not value <= self.le:
            out.append(_Issue(path, "too_big", True, bound=("le", self.le)))
        if self.refine is not None and not self.refine(value):
            out.append(_Issue(path, "invalid_type", False))


class _Bool(_Schema):
    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        if not isinstance(value, bool):
            out.append(_Issue(path, "invalid_type", False, expected="boolean"))


class _Lit(_Schema):
    def __init__(self, *values: Any):
        self.values = list(values)

    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        if value is _MISSING or not any(_same(value, v) for v in self.values):
            out.append(_Issue(path, "invalid_value", False, values=self.values))


class _Obj(_Schema):
    def __init__(self, shape: Mapping[str, _Schema], *, required: tuple[str, ...] = (),
                 strict: bool = True, catchall: _Schema | None = None, refine: _ObjRefine | None = None):
        self.shape = dict(shape)
        self.required = required
        self.strict = strict
        self.catchall = catchall
        self.refine = refine

    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        if not isinstance(value, dict):
            out.append(_Issue(path, "invalid_type", False, expected="object"))
            return
        start = len(out)
        for key, schema in self.shape.items():
            if key in value:
                schema.check(value[key], (*path, key), out)
            elif key in self.required:
                schema.check(_MISSING, (*path, key), out)
        extra = [k for k in value if k not in self.shape]
        if self.catchall is not None:
            for key in extra:
                self.catchall.check(value[key], (*path, key), out)
        elif self.strict and extra:
            out.append(_Issue(path, "unrecognized_keys", False))
        if self.refine is not None and not _aborted(out[start:]):
            self.refine(value, path, out)


class _AnyObj(_Obj):
    """An object whose own keys are checked but whose values are not."""

    def __init__(self, keys: str = "", *, strict: bool = True):
        super().__init__({k: _AnyValue() for k in keys.split()}, strict=strict)


class _Rec(_Schema):
    def __init__(self, value: _Schema, key: _Schema | None = None):
        self.value, self.key = value, key

    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        if not isinstance(value, dict):
            out.append(_Issue(path, "invalid_type", False, expected="record"))
            return
        for key, item in value.items():
            if self.key is not None:
                self.key.check(key, (*path, key), out)
            self.value.check(item, (*path, key), out)


class _Arr(_Schema):
    def __init__(self, item: _Schema, *, min_items: int | None = None, max_items: int | None = None):
        self.item, self.min_items, self.max_items = item, min_items, max_items

    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        if not isinstance(value, list):
            out.append(_Issue(path, "invalid_type", False, expected="array"))
            if not isinstance(value, str):
                return
            # OpenClaw still runs its length checks on a string (it has a length).
        else:
            for index, item in enumerate(value):
                self.item.check(item, (*path, index), out)
        if self.min_items is not None and len(value) < self.min_items:
            out.append(_Issue(path, "too_small", True))
        if self.max_items is not None and len(value) > self.max_items:
            out.append(_Issue(path, "too_big", True))


class _Union(_Schema):
    def __init__(self, *options: _Schema):
        self.options = options

    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        results = []
        for option in self.options:
            branch: list[_Issue] = []
            option.check(value, path, branch)
            if not branch:
                return
            results.append(branch)
        usable = [b for b in results if not _aborted(b)]
        if len(usable) == 1:
            out.extend(usable[0])
            return
        out.append(_Issue(path, "invalid_union", False, branches=results))


class _Tagged(_Schema):
    """A discriminated union on `key`."""

    def __init__(self, key: str, options: Mapping[str, _Obj]):
        self.key, self.options = key, dict(options)

    def check(self, value: Any, path: tuple, out: list[_Issue]) -> None:
        if not isinstance(value, dict):
            out.append(_Issue(path, "invalid_type", False, expected="object"))
            return
        tag = value.get(self.key)
        option = self.options.get(tag) if isinstance(tag, str) else None
        if option is None:
            out.append(_Issue((*path, self.key), "invalid_union", False, branches=[]))
            return
        option.check(value, path, out)


def _custom(out: list[_Issue], path: tuple, message: str) -> None:
    out.append(_Issue(path, "custom", True, message=message))


def _js_label(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return js_number_string(value) if is_number(value) else json.dumps(value)


_INCOMPLETE = None


def _allowed_values(issue: _Issue) -> list | None:
    """Values that would have been accepted ([] when unknown, None when incomplete)."""
    if issue.code == "invalid_value":
        return list(issue.values or [])
    if issue.code == "invalid_type":
        return [True, False] if issue.expected == "boolean" else _INCOMPLETE
    if issue.code != "invalid_union":
        return []
    if not issue.branches:
        return _INCOMPLETE
    collected: list = []
    for branch in issue.branches:
        if not branch:
            return _INCOMPLETE
        branch_values: list = []
        for nested in branch:
            values = _allowed_values(nested)
            if values is _INCOMPLETE:
                return _INCOMPLETE
            branch_values += values
        if not branch_values:
            return _INCOMPLETE
        collected += branch_values
    return collected


def _issue_message(issue: _Issue) -> str:
    message = issue.message or "Invalid input"
    if issue.bound is not None:
        kind, limit = issue.bound
        text = js_number_string(limit)
        message += {"gt": f" (must be greater than {text})", "ge": f" (minimum: {text})",
                    "le": f" (maximum: {text})"}[kind]
    values = _allowed_values(issue)
    if values and "(allowed:" not in message.lower():
        labels: list[str] = []
        for value in values:
            label = _js_label(value)
            if label not in labels:
                labels.append(label)
        shown = labels[:12]
        hidden = len(labels) - len(shown)
        message += " (allowed: " + ", ".join(shown) + (f", ... (+{hidden} more)" if hidden else "") + ")"
    return message


def _to_config_issue(issue: _Issue) -> ConfigIssue:
    return ConfigIssue(".".join(str(p) for p in issue.path), _issue_message(issue))


def _int(*, gt: float | None = None, ge: float | None = None, le: float | None = None) -> _Num:
    return _Num(integer=True, gt=gt, ge=ge, le=le)


_STR = _Str()
_BOOL = _Bool()
_ANY = _AnyValue()
_POS_INT = _int(gt=0)
_NONNEG_INT = _int(ge=0)
_STR_LIST = _Arr(_STR)
_STR_OR_NUM = _Union(_STR, _Num())


def _stringified(value: Any) -> str:
    """normalizeStringifiedOptionalString(value) ?? ''."""
    if isinstance(value, str):
        return js_trim(value)
    if isinstance(value, (bool, int, float)):
        return js_trim(js_number_string(value))
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


_BAD_DURATION = "invalid duration (use ms, s, m, h, d)"
_BAD_SIZE = "invalid size (use b, kb, mb, gb, tb)"


def _refine_maintenance(value: dict, path: tuple, out: list[_Issue]) -> None:
    if "pruneAfter" in value and not _duration_ok(value["pruneAfter"], "d"):
        _custom(out, (*path, "pruneAfter"), _BAD_DURATION)
    retention = value.get("resetArchiveRetention", _MISSING)
    if retention is not _MISSING and retention is not False and not _duration_ok(retention, "d"):
        _custom(out, (*path, "resetArchiveRetention"), _BAD_DURATION)
    for key in ("maxDiskBytes", "highWaterBytes"):
        if key in value and not _size_ok(value[key]):
            _custom(out, (*path, key), _BAD_SIZE)


_RESET = _Obj({"mode": _Lit("daily", "idle"), "atHour": _int(ge=0, le=23), "idleMinutes": _POS_INT})
_CHAT_TYPES = _Lit("direct", "group", "channel", "dm")
_ALLOW_DENY = _Lit("allow", "deny")
_SEND_POLICY = _Obj({
    "default": _ALLOW_DENY,
    "rules": _Arr(_Obj({
        "action": _ALLOW_DENY,
        "match": _Obj({"channel": _STR, "chatType": _CHAT_TYPES, "keyPrefix": _STR, "rawKeyPrefix": _STR}),
    }, required=("action",))),
})
_DM_SCOPE = _Lit("main", "per-peer", "per-channel-peer", "per-account-channel-peer")

_SESSION = _Obj({
    "scope": _Lit("per-sender", "global"),
    "dmScope": _DM_SCOPE,
    "identityLinks": _Rec(_STR_LIST),
    "resetTriggers": _STR_LIST,
    "idleMinutes": _POS_INT,
    "reset": _RESET,
    "resetByType": _Obj({"direct": _RESET, "dm": _RESET, "group": _RESET, "thread": _RESET}),
    "resetByChannel": _Rec(_RESET),
    "store": _STR,
    "typingIntervalSeconds": _POS_INT,
    "typingMode": _Lit("never", "instant", "thinking", "message"),
    "mainKey": _STR,
    "sendPolicy": _SEND_POLICY,
    "writeLock": _Obj({"acquireTimeoutMs": _POS_INT, "staleMs": _POS_INT, "maxHoldMs": _POS_INT}),
    "agentToAgent": _Obj({"maxPingPongTurns": _int(ge=0, le=20)}),
    "threadBindings": _Obj({
        "enabled": _BOOL, "idleHours": _Num(ge=0), "maxAgeHours": _Num(ge=0), "spawnSessions": _BOOL,
        "defaultSpawnContext": _Lit("isolated", "fork"),
    }),
    "maintenance": _Obj({
        "mode": _Lit("enforce", "warn"),
        "pruneAfter": _STR_OR_NUM,
        "pruneDays": _POS_INT,
        "maxEntries": _POS_INT,
        "rotateBytes": _STR_OR_NUM,
        "resetArchiveRetention": _Union(_STR, _Num(), _Lit(False)),
        "maxDiskBytes": _STR_OR_NUM,
        "highWaterBytes": _STR_OR_NUM,
    }, refine=_refine_maintenance),
})

_AGENT_MODEL = _Union(_STR, _Obj({"primary": _STR, "fallbacks": _STR_LIST}))
_THINKING = _Lit("off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max", "ultra")
_MODEL_ENTRY = _Obj({"alias": _STR, "params": _Rec(_ANY), "agentRuntime": _Obj({"id": _STR}),
                     "streaming": _BOOL})
_AGENT_RUNTIME = _Union(
    _Obj({"type": _Lit("embedded")}, required=("type",)),
    _Obj({"type": _Lit("acp"),
          "acp": _Obj({"agent": _STR, "backend": _STR, "mode": _Lit("persistent", "oneshot"), "cwd": _STR})},
         required=("type",)),
)


def _with_keys(shape: dict[str, _Schema], keys: str) -> dict[str, _Schema]:
    """`shape` plus unchecked entries for the other keys OpenClaw accepts."""
    return {**dict.fromkeys(keys.split(), _ANY), **shape}


_AGENT_ENTRY = _Obj(_with_keys({
    "id": _STR, "default": _BOOL, "name": _STR, "description": _STR, "workspace": _STR, "agentDir": _STR,
    "model": _AGENT_MODEL, "utilityModel": _STR, "models": _Rec(_MODEL_ENTRY), "thinkingDefault": _THINKING,
    "verboseDefault": _Lit("off", "on", "full"), "toolProgressDetail": _Lit("explain", "raw"),
    "reasoningDefault": _Lit("on", "off", "stream"), "fastModeDefault": _Union(_BOOL, _Lit("auto")),
    "contextInjection": _Lit("always", "continuation-skip", "never"), "bootstrapMaxChars": _POS_INT,
    "bootstrapTotalMaxChars": _POS_INT, "experimental": _Obj({"localModelLean": _BOOL}),
    "skills": _STR_LIST, "contextTokens": _POS_INT, "params": _Rec(_ANY), "runtime": _AGENT_RUNTIME,
}, "memorySearch humanDelay tts skillsLimits contextLimits heartbeat identity groupChat subagents "
   "runRetries embeddedAgent sandbox tools"), required=("id",))

_AGENT_DEFAULTS = _Obj(_with_keys({
    "model": _AGENT_MODEL, "utilityModel": _STR, "workspace": _STR, "models": _Rec(_MODEL_ENTRY),
    "skills": _STR_LIST, "params": _Rec(_ANY), "repoRoot": _STR, "userTimezone": _STR,
    "contextTokens": _POS_INT, "maxConcurrent": _POS_INT, "timeoutSeconds": _POS_INT,
}, "imageModel imageGenerationModel videoGenerationModel musicGenerationModel voiceModel "
   "mediaGenerationAutoProviderFallback pdfModel pdfMaxBytesMb pdfMaxPages silentReply promptOverlays "
   "skipBootstrap skipOptionalBootstrapFiles contextInjection bootstrapMaxChars bootstrapTotalMaxChars "
   "experimental bootstrapPromptTruncationWarning startupContext contextLimits timeFormat envelopeTimezone "
   "envelopeTimestamp envelopeElapsed cliBackends memorySearch contextPruning compaction runRetries "
   "embeddedAgent thinkingDefault verboseDefault toolProgressDetail reasoningDefault elevatedDefault "
   "blockStreamingDefault blockStreamingBreak blockStreamingChunk blockStreamingCoalesce humanDelay "
   "mediaMaxMb imageMaxDimensionPx imageQuality typingIntervalSeconds typingMode heartbeat subagents sandbox"))

_ACP = _Obj({
    "enabled": _BOOL,
    "dispatch": _Obj({"enabled": _BOOL}),
    "backend": _STR,
    "fallbacks": _STR_LIST,
    "defaultAgent": _STR,
    "allowedAgents": _STR_LIST,
    "maxConcurrentSessions": _POS_INT,
    "stream": _Obj({
        "coalesceIdleMs": _NONNEG_INT, "maxChunkChars": _POS_INT, "repeatSuppression": _BOOL,
        "deliveryMode": _Lit("live", "final_only"),
        "hiddenBoundarySeparator": _Lit("none", "space", "newline", "paragraph"),
        "maxOutputChars": _POS_INT, "maxSessionUpdateChars": _POS_INT, "tagVisibility": _Rec(_BOOL),
    }),
    "runtime": _Obj({"ttlMinutes": _POS_INT, "installCommand": _STR}),
})

_PROVIDER_ALIAS = r"^[a-z][a-z0-9_-]{0,63}\Z"
_PROVIDER_MSG = 'Secret reference provider must match /^[a-z][a-z0-9_-]{0,63}$/ (example: "default").'
_FILE_SEGMENT = re.compile(r"(?:[^~]|~0|~1)*\Z")
_EXEC_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}\Z")


def _file_ref_id_ok(value: str) -> bool:
    if value == "value":
        return True
    return value.startswith("/") and all(_FILE_SEGMENT.match(s) for s in value[1:].split("/"))


def _exec_ref_id_ok(value: str) -> bool:
    return bool(_EXEC_ID.match(value)) and all(s not in (".", "..") for s in value.split("/"))


def _secret_ref(source: str, id_schema: _Str) -> _Obj:
    return _Obj({"source": _Lit(source), "provider": _Str(pattern=_PROVIDER_ALIAS, message=_PROVIDER_MSG),
                 "id": id_schema}, required=("source", "provider", "id"))


_SECRET_INPUT = _Union(_STR, _Tagged("source", {
    "env": _secret_ref("env", _Str(
        pattern=r"^[A-Z][A-Z0-9_]{0,127}\Z",
        message='Env secret reference id must match /^[A-Z][A-Z0-9_]{0,127}$/ (example: "OPENAI_API_KEY").')),
    "file": _secret_ref("file", _Str(
        refine=_file_ref_id_ok,
        message='File secret reference id must be an absolute JSON pointer (example: "/providers/openai/apiKey"), '
                'or "value" for singleValue mode.')),
    "exec": _secret_ref("exec", _Str(
        refine=_exec_ref_id_ok,
        message='Exec secret reference id must match /^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$/ and must not '
                'include "." or ".." path segments (example: "vault/openai/api-key" or "aws/secret#json_key").')),
}))


def _not_blank(message: str) -> _Str:
    return _Str(refine=lambda v: bool(js_trim(v)), message=message)


def _refine_gateway(value: dict, path: tuple, out: list[_Issue]) -> None:
    health = value.get("channelHealthCheckMinutes")
    effective = 5 if health is None else health
    stale = value.get("channelStaleEventThresholdMinutes")
    if stale is not None and effective != 0 and stale < effective:
        _custom(out, (*path, "channelStaleEventThresholdMinutes"),
                "channelStaleEventThresholdMinutes should be >= channelHealthCheckMinutes to avoid "
                "delayed stale detection")


_URL_FETCH = {"allowUrl": _BOOL, "urlAllowlist": _STR_LIST, "allowedMimes": _STR_LIST,
              "maxBytes": _POS_INT, "maxRedirects": _NONNEG_INT, "timeoutMs": _POS_INT}

_GATEWAY = _Obj({
    "port": _POS_INT,
    "mode": _Lit("local", "remote"),
    "bind": _Lit("auto", "lan", "loopback", "custom", "tailnet"),
    "customBindHost": _STR,
    "controlUi": _Obj({
        "enabled": _BOOL, "basePath": _STR, "root": _STR, "embedSandbox": _Lit("strict", "scripts", "trusted"),
        "allowExternalEmbedUrls": _BOOL, "chatMessageMaxWidth": _STR, "allowedOrigins": _STR_LIST,
        "dangerouslyAllowHostHeaderOriginFallback": _BOOL, "allowInsecureAuth": _BOOL,
        "dangerouslyDisableDeviceAuth": _BOOL,
    }),
    "terminal": _Obj({"enabled": _BOOL, "shell": _STR, "detachedSessionTimeoutSeconds": _int(ge=0)}),
    "auth": _Obj({
        "mode": _Lit("none", "token", "password", "trusted-proxy"),
        "token": _SECRET_INPUT,
        "password": _SECRET_INPUT,
        "allowTailscale": _BOOL,
        "rateLimit": _Obj({"maxAttempts": _Num(), "windowMs": _Num(), "lockoutMs": _Num(),
                           "exemptLoopback": _BOOL}),
        "trustedProxy": _Obj({
            "userHeader": _Str(min_len=1, message="userHeader is required for trusted-proxy mode"),
            "requiredHeaders": _STR_LIST, "allowUsers": _STR_LIST, "allowLoopback": _BOOL,
        }, required=("userHeader",)),
    }),
    "trustedProxies": _STR_LIST,
    "allowRealIpFallback": _BOOL,
    "tools": _Obj({"deny": _STR_LIST, "allow": _STR_LIST}),
    "handshakeTimeoutMs": _int(ge=1),
    "channelHealthCheckMinutes": _int(ge=0),
    "channelStaleEventThresholdMinutes": _int(ge=1),
    "channelMaxRestartsPerHour": _int(ge=1),
    "tailscale": _Obj({
        "mode": _Lit("off", "serve", "funnel"), "resetOnExit": _BOOL,
        "serviceName": _Str(pattern=r"^svc:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\Z",
                            message='Tailscale serviceName must use the "svc:<dns-label>" format, '
                                    'for example "svc:openclaw"'),
        "preserveFunnel": _BOOL,
    }),
    "remote": _Obj({
        "enabled": _BOOL, "url": _STR, "transport": _Lit("ssh", "direct"), "remotePort": _int(ge=1, le=65535),
        "token": _SECRET_INPUT, "password": _SECRET_INPUT, "tlsFingerprint": _STR, "sshTarget": _STR,
        "sshIdentity": _STR, "sshHostKeyPolicy": _Lit("strict", "openssh"),
    }),
    "reload": _Obj({"mode": _Lit("off", "restart", "hot", "hybrid"), "debounceMs": _int(ge=0),
                    "deferralTimeoutMs": _int(ge=0)}),
    "tls": _Obj({
        "enabled": _BOOL, "autoGenerate": _BOOL, "certPath": _not_blank("certPath must not be blank"),
        "keyPath": _not_blank("keyPath must not be blank"), "caPath": _STR,
    }, strict=False),
    "http": _Obj({
        "endpoints": _Obj({
            "chatCompletions": _Obj({
                "enabled": _BOOL, "maxBodyBytes": _POS_INT, "maxImageParts": _NONNEG_INT,
                "maxTotalImageBytes": _POS_INT, "images": _Obj(_URL_FETCH),
            }),
            "responses": _Obj({
                "enabled": _BOOL, "maxBodyBytes": _POS_INT, "maxUrlParts": _NONNEG_INT,
                "files": _Obj({**_URL_FETCH, "maxChars": _POS_INT,
                               "pdf": _Obj({"maxPages": _POS_INT, "maxPixels": _POS_INT,
                                            "minTextChars": _NONNEG_INT})}),
                "images": _Obj(_URL_FETCH),
            }),
        }),
        "securityHeaders": _Obj({"strictTransportSecurity": _Union(_STR, _Lit(False))}),
    }),
    "push": _Obj({"apns": _Obj({"relay": _Obj({"baseUrl": _STR, "timeoutMs": _POS_INT})})}),
    "nodes": _Obj({
        "browser": _Obj({"mode": _Lit("auto", "manual", "off"), "node": _STR}),
        "pairing": _Obj({"autoApproveCidrs": _STR_LIST}),
        "allowCommands": _STR_LIST, "denyCommands": _STR_LIST,
    }),
}, refine=_refine_gateway)


def _is_http_url(value: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _refine_cron(value: dict, path: tuple, out: list[_Issue]) -> None:
    retention = value.get("sessionRetention", _MISSING)
    if retention is not _MISSING and retention is not False and not _duration_ok(retention, "h"):
        _custom(out, (*path, "sessionRetention"), _BAD_DURATION)
    run_log = value.get("runLog")
    if isinstance(run_log, dict) and "maxBytes" in run_log and not _size_ok(run_log["maxBytes"]):
        _custom(out, (*path, "runLog", "maxBytes"), _BAD_SIZE)


_CRON = _Obj({
    "enabled": _BOOL,
    "store": _STR,
    "maxConcurrentRuns": _POS_INT,
    "triggers": _Obj({"enabled": _BOOL, "minIntervalMs": _POS_INT}),
    "retry": _Obj({
        "maxAttempts": _int(ge=0, le=10),
        "backoffMs": _Arr(_NONNEG_INT, min_items=1, max_items=10),
        "retryOn": _Arr(_Lit("rate_limit", "overloaded", "network", "timeout", "server_error"), min_items=1),
    }),
    "webhook": _Str(refine=_is_http_url, message="Expected http:// or https:// URL"),
    "webhookToken": _SECRET_INPUT,
    "sessionRetention": _Union(_STR, _Lit(False)),
    "runLog": _Obj({"maxBytes": _STR_OR_NUM, "keepLines": _POS_INT}),
    "failureAlert": _Obj({"enabled": _BOOL, "after": _int(ge=1), "cooldownMs": _int(ge=0),
                          "includeSkipped": _BOOL, "mode": _Lit("announce", "webhook"), "accountId": _STR}),
    "failureDestination": _Obj({"channel": _STR, "to": _STR, "accountId": _STR,
                                "mode": _Lit("announce", "webhook")}),
}, refine=_refine_cron)


def _refine_acp_binding(value: dict, path: tuple, out: list[_Issue]) -> None:
    match = object_at(value, "match")
    peer = object_at(match, "peer")
    peer_id = peer.get("id")
    if not (isinstance(peer_id, str) and js_trim(peer_id)):
        _custom(out, (*path, "match", "peer"),
                "ACP bindings require match.peer.id to target a concrete conversation.")


_BINDING_MATCH = _Obj({
    "channel": _STR, "accountId": _STR,
    "peer": _Obj({"kind": _Lit("direct", "group", "channel", "dm"), "id": _STR}, required=("kind", "id")),
    "guildId": _STR, "teamId": _STR, "roles": _STR_LIST,
}, required=("channel",))
_BINDINGS = _Arr(_Union(
    _Obj({"type": _Lit("route"), "agentId": _STR, "comment": _STR, "match": _BINDING_MATCH,
          "session": _Obj({"dmScope": _DM_SCOPE})}, required=("agentId", "match")),
    _Obj({"type": _Lit("acp"), "agentId": _STR, "comment": _STR, "match": _BINDING_MATCH,
          "acp": _Obj({"mode": _Lit("persistent", "oneshot"), "label": _STR, "cwd": _STR, "backend": _STR})},
         required=("type", "agentId", "match"), refine=_refine_acp_binding),
))


def _valid_timestamp(value: float) -> bool:
    return abs(value) <= 8.64e15


_OTHER_SECTIONS = {
    "wizard": "lastRunAt lastRunVersion lastRunCommit lastRunCommand lastRunMode securityAcknowledgedAt",
    "diagnostics": "enabled flags stuckSessionWarnMs stuckSessionAbortMs memoryPressureSnapshot otel cacheTrace",
    "audit": "enabled",
    "logging": "level file maxFileBytes consoleLevel consoleStyle redactSensitive redactPatterns",
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


def _agent_id(value: Any) -> str:
    from openclaw_cli.config.agents import normalize_agent_id

    return normalize_agent_id(value if isinstance(value, str) else None)


def _refine_root(value: dict, path: tuple, out: list[_Issue]) -> None:
    agents = object_at(value, "agents")
    entries = agents.get("list") if isinstance(agents.get("list"), list) else []
    if not entries:
        return
    raw_ids = [e.get("id") for e in entries if isinstance(e, dict)]
    known = {_agent_id(i) for i in raw_ids}
    bindings = value.get("bindings")
    for index, binding in enumerate(bindings if isinstance(bindings, list) else []):
        agent_id = binding.get("agentId") if isinstance(binding, dict) else None
        if isinstance(agent_id, str) and _agent_id(agent_id) not in known:
            _custom(out, ("bindings", index, "agentId"), f'Unknown agent id "{agent_id}" (not in agents.list).')
    broadcast = value.get("broadcast")
    for peer, ids in (broadcast.items() if isinstance(broadcast, dict) else []):
        if peer == "strategy" or not isinstance(ids, list):
            continue
        for index, agent_id in enumerate(ids):
            if not any(_same(agent_id, raw) for raw in raw_ids):
                _custom(out, ("broadcast", peer, index),
                        f'Unknown agent id "{js_string(agent_id)}" (not in agents.list).')


_ROOT = _Obj({
    "$schema": _STR,
    "meta": _Obj({"lastTouchedVersion": _STR,
                  "lastTouchedAt": _Union(_STR, _Num(refine=_valid_timestamp))}),
    "env": _Obj({"shellEnv": _Obj({"enabled": _BOOL, "timeoutMs": _NONNEG_INT}), "vars": _Rec(_STR)},
                catchall=_STR),
    **{name: _AnyObj(keys) for name, keys in _OTHER_SECTIONS.items()},
    "accessGroups": _Rec(_ANY),
    "acp": _ACP,
    "agents": _Obj({"defaults": _AGENT_DEFAULTS, "list": _Arr(_AGENT_ENTRY)}),
    "bindings": _BINDINGS,
    "broadcast": _Obj({"strategy": _Lit("parallel", "sequential")}, catchall=_STR_LIST),
    "session": _SESSION,
    "cron": _CRON,
    "channels": _AnyObj(strict=False),
    "gateway": _GATEWAY,
    "surfaces": _Rec(_ANY),
}, refine=_refine_root)


def _duplicate_agent_dirs(cfg: dict, env: Mapping[str, str] | None) -> list[ConfigIssue]:
    from openclaw_cli.config.agents import normalize_agent_id, resolve_default_agent_id

    agents = object_at(cfg, "agents")
    entries = [e for e in agents.get("list") or [] if isinstance(e, dict)]
    ids = [resolve_default_agent_id(cfg)]  # the schema has checked that every entry has a string id
    ids += [normalize_agent_id(e["id"]) for e in entries if e.get("id")]
    for binding in cfg.get("bindings") or []:
        agent_id = binding.get("agentId") if isinstance(binding, dict) else None
        if isinstance(agent_id, str) and js_trim(agent_id):
            ids.append(normalize_agent_id(agent_id))
    state_dir: str | None = None
    by_dir: dict[str, list[str]] = {}
    for agent_id in dict.fromkeys(ids):
        entry = next((e for e in entries if normalize_agent_id(e.get("id")) == agent_id), None)
        configured = js_trim(entry.get("agentDir") or "") if entry else ""
        if configured:
            agent_dir = paths.resolve_user_path(configured, env)
        else:
            state_dir = state_dir or paths.resolve_state_dir(env)
            agent_dir = paths.join_path(state_dir, "agents", agent_id, "agent")
        by_dir.setdefault(paths.resolve_path(agent_dir), []).append(agent_id)
    clashes = [(d, a) for d, a in by_dir.items() if len(a) > 1]
    if not clashes:
        return []
    lines = ["Duplicate agentDir detected (multi-agent config).",
             "Each agent must have a unique agentDir; sharing it causes auth/session state collisions "
             "and token invalidation.", "", "Conflicts:"]
    lines += [f"- {d}: " + ", ".join(f'"{a}"' for a in agent_ids) for d, agent_ids in clashes]
    lines += ["", "Fix: remove the shared agents.list[].agentDir override (or give each agent its own "
                  "directory).",
              "If you want to share credentials, copy auth-profiles.json instead of sharing the entire agentDir."]
    return [ConfigIssue("agents.list", "\n".join(lines))]


def _is_loopback_ipv4(value: Any) -> bool:
    import ipaddress

    text = js_trim(value) if isinstance(value, str) else ""
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if not re.fullmatch(r"(?:0|[1-9][0-9]*)(?:\.(?:0|[1-9][0-9]*)){3}", text):
        return False
    try:
        return ipaddress.IPv4Address(text).is_loopback
    except ValueError:
        return False


def _gateway_tailscale_issues(cfg: dict) -> list[ConfigIssue]:
    gateway = object_at(cfg, "gateway")
    tailscale = object_at(gateway, "tailscale")
    mode = tailscale.get("mode", "off")
    if mode not in ("serve", "funnel"):
        return []
    bind = gateway.get("bind", "loopback")
    if bind != "loopback" and not (bind == "custom" and _is_loopback_ipv4(gateway.get("customBindHost"))):
        return [ConfigIssue("gateway.bind",
                            f"gateway.bind must resolve to loopback when gateway.tailscale.mode={mode} "
                            '(use gateway.bind="loopback" or gateway.bind="custom" with '
                            'gateway.customBindHost="127.0.0.1")')]
    auth = object_at(gateway, "auth")
    if auth.get("mode") == "none":
        if mode == "funnel":
            message = ("gateway.tailscale.mode=funnel requires gateway.auth.mode=password; auth.mode=none "
                       "cannot be used when exposing the gateway through Tailscale Funnel")
        else:
            message = (f"gateway.auth.mode=none cannot be used with gateway.tailscale.mode={mode}; configure "
                       "token, password, or trusted-proxy auth before exposing the gateway through Tailscale")
        return [ConfigIssue("gateway.auth.mode", message)]
    return []


def validate_config(cfg: Any, env: Mapping[str, str] | None = None) -> list[ConfigIssue]:
    """OpenClaw's accept/reject decision for a resolved config (see module notes)."""
    found: list[_Issue] = []
    _ROOT.check(cfg, (), found)
    if found:
        return [_to_config_issue(i) for i in found]
    return _duplicate_agent_dirs(cfg, env) or _gateway_tailscale_issues(cfg)

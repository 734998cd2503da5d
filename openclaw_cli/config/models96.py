"""OpenClaw 2026.9.6's config schema (the SQLite era, 2026.8+), as the differences from 2026.7.1's.

Built from the pieces of `config/models.py`: a variant takes a 2026.7.1 object, drops the keys
2026.9.6 no longer accepts and adds its new ones. Checked as 2026.9.6 checks them:
`session` (with `session.maintenance`: `archiveDashboardAfter`, `preserveRecent`, `coldStorage`,
`maxDiskBytes: false`, positive durations; `rotateBytes` and `pruneDays` are gone), `agents.entries`
(agents keyed by id) and `agents.ownership` with their roster rules, `broadcast` groups, and the
agent ids that heartbeats, the system agent, Talk, bindings and broadcasts name. Accepted with their values unchecked: the other new keys (`gateway.roles`,
`agents.defaults.mediaModels`, new top-level sections, ...). Rejected: the keys it dropped from
`session`, `agents` (`agents.list` too: 2026.9.6 judges a config as it migrates it on reading,
config/read96.py, where a legacy list becomes `agents.entries`), `gateway`, `cron`, `acp` and `meta`.
Still accepted as in 2026.7.1: the keys 2026.9.6 dropped inside the other sections (not followed:
only their own key sets are checked).
"""

import re
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic_core import PydanticCustomError, core_schema

from openclaw_cli.config import issues, models
from openclaw_cli.config.models import _section
from openclaw_cli.config.sections import acp, agents, cron, gateway, session
from openclaw_cli.config.sections.agents import AgentEntry, AgentModel
from openclaw_cli.config.sections.base import (
    BAD_DURATION,
    BAD_SIZE,
    NotFalse,
    Num,
    PosInt,
    size_ok,
    stringified,
)
from openclaw_cli.config.sections.session import Reset
from openclaw_cli.config.units import parse_duration_ms
from openclaw_cli.config.zod import ONE_OF, UNION, UNSET, JsNumber, Refined, Sized, Strict, js_same, required
from openclaw_cli.js.values import js_string, object_at

_POSITIVE = "duration must be positive (use ms, s, m, h, d), e.g. 30d"

ENUM_PATHS = tuple(tuple(p.split(".")) for p in (
    "agents.defaults.compaction.postIndexSync agents.defaults.compaction.thinkingLevel agents.defaults.imageQuality "
    "agents.defaults.modelSelectionScope agents.defaults.skipOptionalBootstrapFiles.* "
    "agents.defaults.subagents.delegationMode agents.defaults.thinkingDefault "
    "agents.entries.*.groupChat.unmentionedInbound agents.entries.*.reasoningDefault agents.entries.*.runtime.acp.mode "
    "agents.entries.*.subagents.delegationMode agents.entries.*.thinkingDefault agents.entries.*.toolProgressDetail "
    "agents.entries.*.tts.auto agents.entries.*.tts.mode agents.entries.*.verboseDefault "
    "bindings.*.acp.mode bindings.*.session.dmScope bindings.*.session.groupScope broadcast.strategy "
    "cron.failureAlert.mode session.dmScope session.groupScope session.maintenance.mode "
    "session.threadBindings.defaultSpawnContext").split())
"""Where 2026.9.6's schema has a zod enum (its issue: `Invalid option: expected one of "a"|"b"`); its
other choices of strings are unions of literals (`Invalid input (allowed: "a", "b")`)."""


def is_enum_path(loc: tuple) -> bool:
    return any(len(p) == len(loc) and all(a in ("*", str(b)) for a, b in zip(p, loc)) for p in ENUM_PATHS)


class _PositiveDuration:
    """`PositiveDurationSchema`: a string or number that parses as a duration (days by default) above 0."""

    def _check(self, value: Any) -> Any:
        try:
            positive = parse_duration_ms(stringified(value), "d") > 0
        except ValueError:
            raise issues.check_error(BAD_DURATION) from None
        if not positive:
            raise issues.check_error(_POSITIVE)
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        return core_schema.no_info_after_validator_function(self._check, handler(source))


PositiveDuration = Annotated[Annotated[str | Num, UNION], _PositiveDuration()]


def variant(name: str, base: type[BaseModel], *, drop: str = "", root: type[BaseModel] = Strict,
            **fields: Any) -> Any:
    """`base` with the keys in `drop` removed and `fields` added or replaced (a field is `(type, default)`).
    Without drops it is a subclass of `base` (its refinement kept); with drops a new `root` object
    with `base`'s other fields in their order."""
    if not drop:
        return create_model(name, __base__=base, __module__=__name__, **fields)
    dropped = set(drop.split())
    kept: dict[str, Any] = {}
    for field_name, info in base.model_fields.items():  # a replaced field keeps its place
        if (info.alias or field_name) not in dropped:
            kept[field_name] = fields.pop(field_name, (info.annotation, info))
    return create_model(name, __base__=root, __module__=__name__, **kept, **fields)


def _unchecked_fields(keys: str) -> dict[str, Any]:
    return {f"k_{re.sub(r'[^0-9A-Za-z_]', '_', key)}": (Any, Field(None, alias=key)) for key in keys.split()}


# -------------------------------------------------------------------------------- session

ResetMode = Annotated[Literal["none", "daily", "idle"], ONE_OF]
Reset96 = variant("Reset96", Reset, mode=(ResetMode, UNSET))


class ColdStorage(Strict):
    enabled: bool = UNSET
    afterDays: PosInt = UNSET


class Maintenance96(Refined):
    mode: Annotated[Literal["enforce", "warn"], ONE_OF] = UNSET
    coldStorage: ColdStorage = UNSET
    pruneAfter: PositiveDuration = UNSET
    archiveDashboardAfter: Annotated[PositiveDuration | NotFalse | Annotated[Literal[0], ONE_OF], UNION] = UNSET
    maxEntries: PosInt = UNSET
    preserveRecent: Annotated[PositiveDuration | NotFalse, UNION] = UNSET
    resetArchiveRetention: Annotated[PositiveDuration | NotFalse, UNION] = UNSET
    maxDiskBytes: Annotated[str | Num | NotFalse, UNION] = UNSET
    highWaterBytes: Annotated[str | Num, UNION] = UNSET

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        for key in ("maxDiskBytes", "highWaterBytes"):
            if key in value and value[key] is not False and not size_ok(value[key]):
                yield (key,), BAD_SIZE


class SessionSharing(Strict):
    readOnly: bool = UNSET
    suggest: bool = UNSET
    drafts: bool = UNSET


ResetByType96 = variant("ResetByType96", session.ResetByType, drop="dm",
                        direct=(Reset96, UNSET), group=(Reset96, UNSET), thread=(Reset96, UNSET))
_SESSION = session.Session.model_fields
_SESSION_FIELDS: Any = dict(
    **{name: (_SESSION[name].annotation, _SESSION[name]) for name in ("scope", "dmScope")},
    groupScope=(Annotated[Literal["main", "per-group"], ONE_OF], UNSET),
    notifyOnCreate=(bool, UNSET),
    **{name: (_SESSION[name].annotation, _SESSION[name]) for name in ("identityLinks", "resetTriggers")},
    reset=(Reset96, UNSET),
    resetByType=(ResetByType96, UNSET),
    resetByChannel=(dict[str, Reset96], UNSET),  # type: ignore[valid-type]
    **{name: (_SESSION[name].annotation, _SESSION[name])
       for name in ("store", "mainKey", "sendPolicy", "threadBindings")},
    sharing=(SessionSharing, UNSET),
    maintenance=(Maintenance96, UNSET),
)
Session96 = create_model("Session96", __base__=Strict, __module__=__name__, **_SESSION_FIELDS)
"""`session` in 2026.9.6's key order (the order of its issues); gone: idleMinutes, typingIntervalSeconds,
typingMode, writeLock, agentToAgent, resetByType.dm."""


# -------------------------------------------------------------------------------- agents

_AGENT_ID_KEY = re.compile(r"[a-z0-9_][a-z0-9_-]{0,63}\Z", re.IGNORECASE)


class _AgentIdKey:
    """The keys of `agents.entries`: an agent id (`Invalid key in record` at the key's path)."""

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        def check(value: Any) -> Any:
            if not _AGENT_ID_KEY.match(value):  # aborts: the roster rules do not run
                raise PydanticCustomError(issues.TYPE, "Invalid key in record")
            return value

        return core_schema.no_info_after_validator_function(check, core_schema.str_schema())


AgentEntry96 = variant(
    "AgentEntry96", AgentEntry, drop="id contextTokens memorySearch runRetries",
    **_unchecked_fields("cwd decisionModel memory modelPolicy typingMode"))
"""A keyed agent entry: no `id` (the key is the id)."""

AgentDefaults96 = variant(
    "AgentDefaults96", agents.AgentDefaults,
    drop="bootstrapPromptTruncationWarning cliBackends contextTokens envelopeElapsed envelopeTimestamp "
         "envelopeTimezone imageGenerationModel mediaGenerationAutoProviderFallback memorySearch "
         "musicGenerationModel pdfMaxBytesMb promptOverlays runRetries timeFormat videoGenerationModel",
    model=(AgentModel, UNSET),
    **_unchecked_fields("authInheritance cwd decisionModel fastModeDefault mediaModels modelPolicy "
                        "modelSelectionScope pdfMaxMb sessionStore systemAgent"))


def _agent_id(value: Any) -> str:
    return models._agent_id(value)


class Agents96(Refined):
    refine_beside_unknown_keys = True  # `agents: Unrecognized key: "list"` comes with the roster's rules
    ownership: Annotated[Literal["explicit"], ONE_OF] = UNSET
    defaults: AgentDefaults96 = UNSET  # type: ignore[valid-type]
    keyed: dict[Annotated[str, _AgentIdKey()], AgentEntry96] = Field(UNSET, alias="entries")  # type: ignore[valid-type]

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        keyed = value.get("entries", {})
        if not isinstance(keyed, dict):
            return
        if not keyed:
            yield ("entries",), "agents.entries must contain at least one configured agent"
        first_key: dict[str, str] = {}
        for key in keyed:
            agent_id = _agent_id(key)
            if agent_id not in first_key:
                first_key[agent_id] = key
                continue
            yield (("entries", key),
                   f'agents.entries keys "{first_key[agent_id]}" and "{key}" resolve to the same agent id '
                   f'"{agent_id}"; rename one key so each agent has a unique id')
        marked = sum(1 for entry in keyed.values() if isinstance(entry, dict) and entry.get("default") is True)
        if marked > 1:
            yield ("entries",), f"agents.entries must contain at most one default=true entry (found {marked})"
        explicit = value.get("ownership") == "explicit"
        if explicit and marked:
            yield ("ownership",), "agents.ownership=explicit cannot be combined with a legacy default=true marker"
        if len(keyed) > 1 and not marked and not explicit:
            yield (("ownership",),
                   'multi-agent rosters require agents.ownership="explicit" or one legacy default=true marker; '
                   'add agents.ownership="explicit" or run openclaw doctor')


# -------------------------------------------------------------------------------- the other sections

Meta96 = variant("Meta96", models.Meta, drop="lastTouchedAt", **_unchecked_fields("migrations"))
AcpStream96 = variant("AcpStream96", acp.AcpStream,
                      drop="coalesceIdleMs hiddenBoundarySeparator maxChunkChars maxOutputChars maxSessionUpdateChars")
AcpRuntimeDefaults96 = variant("AcpRuntimeDefaults96", acp.AcpRuntimeDefaults, drop="ttlMinutes")
Acp96 = variant("Acp96", acp.Acp, drop="maxConcurrentSessions", stream=(AcpStream96, UNSET),
                runtime=(AcpRuntimeDefaults96, UNSET))


class _CronChecks(Refined):
    refine = cron.Cron.__dict__["refine"]


Cron96 = variant("Cron96", cron.Cron, drop="store maxConcurrentRuns retry runLog failureDestination",
                 root=_CronChecks, **_unchecked_fields("skipMissedJobs webhookSsrfPolicy"))
ControlUi96 = variant("ControlUi96", gateway.ControlUi, drop="allowInsecureAuth chatMessageMaxWidth",
                      **_unchecked_fields("automaticallyFetchFavicons communityInvite environment experimental "
                                          "github sessionObserver"))
TrustedProxy96 = variant("TrustedProxy96", gateway.TrustedProxy,
                         **_unchecked_fields("cloudflareAccessOidc deviceAutoApprove"))
GatewayAuth96 = variant("GatewayAuth96", gateway.GatewayAuth, trustedProxy=(TrustedProxy96, UNSET),
                        **_unchecked_fields("identityScopes"))
NodesPairing96 = variant("NodesPairing96", gateway.NodesPairing, **_unchecked_fields("autoApproveLocal sshVerify"))
Nodes96 = variant("Nodes96", gateway.Nodes, drop="allowCommands denyCommands", pairing=(NodesPairing96, UNSET),
                  **_unchecked_fields("allowSkills commands pluginTools"))
Remote96 = variant("Remote96", gateway.Remote, drop="enabled", **_unchecked_fields("edgeAuth"))
Tailscale96 = variant("Tailscale96", gateway.Tailscale, drop="resetOnExit serviceName")
Reload96 = variant("Reload96", gateway.Reload, drop="debounceMs deferralTimeoutMs",
                   mode=(Annotated[Literal["off", "hybrid"], ONE_OF], UNSET))
ChatCompletions96 = variant("ChatCompletions96", gateway.ChatCompletions,
                            drop="maxBodyBytes maxImageParts maxTotalImageBytes")
Responses96 = variant("Responses96", gateway.Responses, drop="maxBodyBytes")
Endpoints96 = variant("Endpoints96", gateway.Endpoints, chatCompletions=(ChatCompletions96, UNSET),
                      responses=(Responses96, UNSET))
Http96 = variant("Http96", gateway.Http, endpoints=(Endpoints96, UNSET))
Gateway96 = variant(
    "Gateway96", gateway.Gateway,
    drop="channelHealthCheckMinutes channelMaxRestartsPerHour channelStaleEventThresholdMinutes handshakeTimeoutMs",
    controlUi=(ControlUi96, UNSET), auth=(GatewayAuth96, UNSET), nodes=(Nodes96, UNSET), remote=(Remote96, UNSET),
    tailscale=(Tailscale96, UNSET), reload=(Reload96, UNSET), http=(Http96, UNSET),
    **_unchecked_fields("cliAgents portals publicOrigin roles"))
"""`gateway` without 2026.7.1's channel-health and handshake settings (and their refinement)."""

class BroadcastGroup(Strict):
    """An agent group thread: agents answering one channel-qualified peer together."""

    agents: Annotated[list[str], Sized(max_items=16)] = required()
    mentionGating: bool = UNSET
    maxRounds: Annotated[float, JsNumber(integer=True, ge=1, le=4)] = UNSET
    maxTurns: Annotated[float, JsNumber(integer=True, ge=1, le=32)] = UNSET


_QUALIFIED_PEER = re.compile(r"[a-z][a-z0-9_-]*:.+", re.IGNORECASE | re.DOTALL)


class Broadcast96(Refined):
    """`broadcast`: a strategy, and for every other key the agent ids (or a group) a peer's messages go to."""

    model_config = ConfigDict(strict=True, extra="allow", populate_by_name=False)
    __pydantic_extra__: dict[str, Annotated[list[str] | BroadcastGroup, UNION]] = Field(init=False)
    strategy: Annotated[Literal["parallel", "sequential"], ONE_OF] = UNSET

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        for peer, entry in value.items():
            if peer == "strategy" or not isinstance(entry, (dict, list)):
                continue
            qualified = bool(_QUALIFIED_PEER.match(peer))
            if isinstance(entry, dict) and not qualified:
                yield (peer,), "Group options require a channel-qualified key (<channel>:<peerId>)."
            elif isinstance(entry, list) and qualified and len(entry) > 16:
                yield (peer,), "Agent group threads support at most 16 agents."


class LoggingAudit96(Strict):
    enabled: bool = UNSET
    executionIdentity: bool = UNSET
    messages: Annotated[Literal["off", "direct", "all"], ONE_OF] = UNSET


# 2026.9.6's logging: no redactSensitive, no "compact" console style, an audit block.
Logging96 = variant("Logging96", models.Logging, drop="redactSensitive",
                    consoleStyle=(Annotated[Literal["pretty", "json"], ONE_OF], UNSET), audit=(LoggingAudit96, UNSET))


_NEW_SECTION_KEYS = {
    "browser": "allowSystemProfileImport extensionRelay",
    "mcp": "apps",
    "memory": "search",
    "models": "catalogRefresh",
    "nodeHost": "agentRuns autoUpdate mcp skills workerRuns",
    "secrets": "egressProxy",
    "talk": "agentId",
    "tools": "github swarm updatePlan",
    "ui": "prefs",
    "wizard": "accessMode appRecommendations",
}
_NEW_SECTIONS = "attachments cloudWorkers desktop telemetry tts worktreeAcceleration worktreeRoot"


_EXPLICIT_TARGETS = (("agents", "defaults", "heartbeat", "agentId"), ("agents", "defaults", "systemAgent", "agentId"),
                     ("talk", "agentId"))


def _unknown(agent_id: Any) -> str:
    return f'Unknown agent id "{agent_id}" (not in agents.entries).'


class _RootRefinement96(Refined):
    """The checks across sections: every agent id a heartbeat, the system agent, Talk, a binding or a
    broadcast names is a configured agent (`agents.entries`; `main` when none is configured)."""

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        agents = object_at(value, "agents")
        keyed = agents.get("entries")
        ids = (list(keyed) if isinstance(keyed, dict) else []) or ["main"]  # the agent of an empty roster
        known = {_agent_id(i) for i in ids}
        for path in _EXPLICIT_TARGETS:
            cursor: Any = value
            for key in path:
                cursor = cursor.get(key) if isinstance(cursor, dict) else None
            if isinstance(cursor, str) and _agent_id(cursor) not in known:
                yield path, _unknown(cursor)
        bindings = value.get("bindings")
        for index, binding in enumerate(bindings if isinstance(bindings, list) else []):
            agent_id = binding.get("agentId") if isinstance(binding, dict) else None
            if isinstance(agent_id, str) and agent_id != "main" and _agent_id(agent_id) not in known:
                yield ("bindings", index, "agentId"), _unknown(agent_id)
        broadcast = value.get("broadcast")
        for peer, entry in (broadcast.items() if isinstance(broadcast, dict) else ()):
            if peer == "strategy" or not isinstance(entry, (dict, list)):
                continue
            targets = entry if isinstance(entry, list) else entry.get("agents")
            where: tuple = (("broadcast", peer) if isinstance(entry, list) else ("broadcast", peer, "agents"))
            for index, agent_id in enumerate(targets if isinstance(targets, list) else []):
                if not any(js_same(agent_id, raw) for raw in ids):
                    yield (*where, index), _unknown(js_string(agent_id))


_ROOT_FIELDS = dict(models._ROOT_FIELDS)
_ROOT_FIELDS.update({
    **{f"s_{name}": (_section(name, f"{models._OTHER_SECTIONS[name]} {keys}"), Field(None, alias=name))
       for name, keys in _NEW_SECTION_KEYS.items()},
    **_unchecked_fields(_NEW_SECTIONS),
    "s_logging": (Logging96, Field(None, alias="logging")),
    "meta": (Meta96, UNSET),
    "acp": (Acp96, UNSET),
    "agents": (Agents96, UNSET),
    "session": (Session96, UNSET),
    "cron": (Cron96, UNSET),
    "gateway": (Gateway96, UNSET),
    "broadcast": (Broadcast96, UNSET),
})
OpenClawConfig96 = create_model("OpenClawConfig96", __base__=_RootRefinement96, __module__=__name__,
                                **_ROOT_FIELDS)
"""The whole config file as 2026.9.6's validator sees it (after `$include` and `${VAR}`)."""

__all__ = ["OpenClawConfig96"]

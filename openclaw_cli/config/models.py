"""OpenClaw's config schema as pydantic models: the root, with its sections in `config/sections/`.

The schema is OpenClaw 2026.7.1's (`src/config/zod-schema.ts`, zod). A section's module is imported, and
its models built, only when a config has that section. `config/zod.py` holds the pieces
that make pydantic judge as zod does, `config/issues.py` reports the errors as OpenClaw words them.

Every object is strict (unknown keys are reported) unless it is `Loose`; fields are optional
(`UNSET`) unless `required()`. The other sections (but logging) are checked for their own key set
only. Not checked: values inside those sections and the unmodelled agent fields, plugin and
channel schemas, SecretRef placement policy, identity.avatar, the CSS grammar of
gateway.controlUi.chatMessageMaxWidth (URLs are checked loosely).
"""

from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, create_model

from openclaw_cli.config.sections.base import NonNegInt, PosInt, StrList, with_unchecked
from openclaw_cli.config.zod import (
    ONE_OF,
    UNION,
    UNSET,
    Deferred,
    JsNumber,
    Loose,
    Refined,
    Strict,
    is_number,
    js_same,
)
from openclaw_cli.js.values import js_string, object_at

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
    return with_unchecked(f"{name[:1].upper()}{name[1:]}Section", keys, Strict)


def _deferred(module: str, name: str) -> Any:
    """The type `name` of `config/sections/<module>.py`, imported and built when a config has the section."""

    def build() -> Any:
        from importlib import import_module

        return getattr(import_module(f"openclaw_cli.config.sections.{module}"), name)

    return Annotated[Any, Deferred(build)]


def _key_set(name: str, keys: str) -> Any:
    return Annotated[Any, Deferred(lambda: _section(name, keys))]


_ROOT_FIELDS: Any = {
    "schema_": (str, Field(None, alias="$schema")),
    "meta": (Meta, UNSET),
    "env": (Env, UNSET),
    **{f"s_{name}": (_key_set(name, keys) if isinstance(keys, str) else keys, Field(None, alias=name))
       for name, keys in _OTHER_SECTIONS.items()},
    "accessGroups": (dict[str, Any], UNSET),
    "acp": (_deferred("acp", "Acp"), UNSET),
    "agents": (_deferred("agents", "Agents"), UNSET),
    "bindings": (_deferred("bindings", "Bindings"), UNSET),
    "broadcast": (Broadcast, UNSET),
    "session": (_deferred("session", "Session"), UNSET),
    "cron": (_deferred("cron", "Cron"), UNSET),
    "channels": (Channels, UNSET),
    "gateway": (_deferred("gateway", "Gateway"), UNSET),
    "surfaces": (dict[str, Any], UNSET),
}
OpenClawConfig = create_model("OpenClawConfig", __base__=_RootRefinement, __module__=__name__, **_ROOT_FIELDS)
"""The whole config file, as OpenClaw's validator sees it (after `$include` and `${VAR}`)."""

__all__ = ["OpenClawConfig", "is_number"]

"""The legacy-config detection rules of OpenClaw 2026.7.1 (`- <path>: <message>` lines)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openclaw_cli.doctor.support.legacy_shared import MISSING, get_path, rec

FIX = 'Run "openclaw doctor --fix".'
FIX_REMOVE = 'Run "openclaw doctor --fix" to remove it.'


@dataclass(frozen=True)
class Rule:
    path: tuple[str, ...]
    message: str
    match: Callable[[Any, dict], bool] | None = None
    source_literal: bool = False
    migration: str = ""


def _has(value: Any, key: str) -> bool:
    return isinstance(value, dict) and key in value


def _any_agent(pred: Callable[[dict], bool]) -> Callable[[Any, dict], bool]:
    return lambda value, _root: isinstance(value, list) and any(pred(a) for a in value if isinstance(a, dict))


def _tb_ttl(value: Any) -> bool:
    return _has(value, "ttlHours")


def _tb_split(value: Any) -> bool:
    return _has(value, "spawnSubagentSessions") or _has(value, "spawnAcpSessions")


def _channels_any(pred: Callable[[Any], bool]) -> Callable[[Any, dict], bool]:
    def match(value: Any, _root: dict) -> bool:
        if not isinstance(value, dict):
            return False
        for channel in value.values():
            if not isinstance(channel, dict):
                continue
            if pred(channel.get("threadBindings")):
                return True
            accounts = channel.get("accounts")
            if isinstance(accounts, dict) and any(isinstance(a, dict) and pred(a.get("threadBindings"))
                                                  for a in accounts.values()):
                return True
        return False
    return match


RETIRED_QUEUE_MODES = frozenset({"queue", "steer-backlog", "steer+backlog"})


def retired_queue_mode(value: Any, _root: dict | None = None) -> bool:
    return isinstance(value, str) and value in RETIRED_QUEUE_MODES


def _auto(value: Any, _root: dict | None = None) -> bool:
    return isinstance(value, str) and value.strip().lower() == "auto"


def _store_path(memory_search: Any) -> bool:
    store = rec(memory_search.get("store")) if isinstance(memory_search, dict) else None
    return store is not None and isinstance(store.get("path"), str)


def legacy_bind_alias(value: Any) -> str | None:
    normalized = value.strip().lower() if isinstance(value, str) else ""
    if not normalized or normalized in ("auto", "loopback", "lan", "tailnet", "custom"):
        return None
    if normalized in ("0.0.0.0", "::", "[::]", "*"):
        return "lan"
    if normalized in ("127.0.0.1", "localhost", "::1", "[::1]"):
        return "loopback"
    return None


MCP_TYPE_TO_TRANSPORT = {"http": "streamable-http", "streamable-http": "streamable-http", "sse": "sse",
                         "stdio": "stdio"}


def mcp_alias(value: Any) -> bool:
    return (value.strip().lower() if isinstance(value, str) else "") in MCP_TYPE_TO_TRANSPORT


def _codex_plugin_refs(_value: Any, root: dict) -> bool:
    from openclaw_cli.doctor.support.legacy_migrations import rewrite_codex_plugin_policy
    from openclaw_cli.doctor.support.legacy_shared import clone

    return bool(rewrite_codex_plugin_policy(clone(root)))


def _bundled_discovery(value: Any, root: dict) -> bool:
    plugins = rec(root.get("plugins")) or {}
    return isinstance(value, list) and len(value) > 0 and "bundledDiscovery" not in plugins


def _memory_pressure(value: Any, _root: dict) -> bool:
    return isinstance(value, (bool, dict))


def _silent_rewrite(value: Any, _root: dict) -> bool:
    return isinstance(value, dict) and any(k not in ("__proto__", "prototype", "constructor")
                                           and _has(v, "silentReplyRewrite") for k, v in value.items())


def _silent_direct(value: Any, _root: dict) -> bool:
    return isinstance(value, dict) and any(_has(rec(v) and v.get("silentReply"), "direct") for v in value.values())


def _stale_context_window(value: Any, _root: dict) -> bool:
    from openclaw_cli.doctor.support.legacy_migrations import stale_context_window_fix

    if not isinstance(value, dict):
        return False
    for provider_id, provider in value.items():
        models = rec(provider) and provider.get("models")
        if not isinstance(models, list):
            continue
        for model in models:
            if isinstance(model, dict) and isinstance(model.get("id"), str) and stale_context_window_fix(
                    provider_id, model["id"], model.get("contextWindow")):
                return True
    return False


def _model_rules() -> tuple[Rule, ...]:
    from openclaw_cli.doctor.support import legacy_models as m
    from openclaw_cli.doctor.support import retired_models

    move = 'run "openclaw doctor --fix" to move it to models.providers.vllm.models[].compat.thinkingFormat.'
    return (
        Rule(("models", "providers"), retired_models.CODEX_PROVIDER_MESSAGE, m.codex_provider_match),
        Rule(("models", "providers"), retired_models.CODEX_API_MESSAGE, m.codex_api_match),
        *(Rule((section,), retired_models.MESSAGE, m.retired_refs_match) for section in retired_models.SECTIONS),
        Rule(("agents", "defaults", "models"), "agents.defaults.models.<vllm-model>.params.qwenThinkingFormat is "
             f"legacy; {move}", m.agent_models_match),
        Rule(("models", "providers", "vllm", "params"), f"models.providers.vllm.params.qwenThinkingFormat is legacy; "
             f"{move}", m.params_match),
        Rule(("models", "providers", "vllm", "models"), "models.providers.vllm.models[*].params.qwenThinkingFormat is "
             f"legacy; {move}", m.model_rows_match),
        Rule(("models", "providers"), "models.providers.<vllm>.params.qwenThinkingFormat is legacy; run \"openclaw "
             'doctor --fix" to move it to models.providers.<vllm>.models[].compat.thinkingFormat.',
             m.normalized_provider_match),
        Rule(("agents", "defaults", "params"), f"agents.defaults.params.qwenThinkingFormat is legacy; {move}",
             m.params_match),
        Rule(("agents",), f"agents.list[].params.qwenThinkingFormat is legacy; {move}", m.agent_list_match),
        Rule(("models", "providers"), "models.providers.<id>.models[*].compat.thinkingFormat has an unrecognized "
             'value; run "openclaw doctor --fix" to remove it and restore the runtime default.',
             m.invalid_format_match),
    )


def _tts_rules() -> tuple[Rule, ...]:
    from openclaw_cli.doctor.support import legacy_tts as t

    voice = "speaker selection fields voice/voiceName/voiceId are legacy; use speakerVoice or speakerVoiceId. " + FIX
    plugin = "plugins.entries.voice-call.config.tts"
    return (
        Rule(("messages", "tts"), 'messages.tts legacy provider aliases/keys are legacy; use provider: "microsoft" and '
             f"messages.tts.providers.<provider>. {FIX}", lambda v, _r: t.has_provider_keys(v)),
        Rule(("plugins", "entries"), f'{plugin} legacy provider aliases/keys are legacy; use provider: "microsoft" '
             f"and {plugin}.providers.<provider>. {FIX}", t.in_plugins(t.has_provider_keys)),
        Rule(("messages", "tts"), f"messages.tts {voice}", lambda v, _r: t.has_speaker_selection(v)),
        Rule(("agents",), f"agents.list[].tts {voice}", t.in_agents(t.has_speaker_selection)),
        Rule(("channels",), f"supported channel TTS {voice}", t.in_channels(t.has_speaker_selection)),
        Rule(("plugins", "entries"), f"{plugin} {voice}", t.in_plugins(t.has_speaker_selection)),
        Rule(("messages", "tts"), f"messages.tts.enabled is legacy; use messages.tts.auto. {FIX}",
             lambda v, _r: t.has_enabled(v)),
        Rule(("agents",), f"agents.list[].tts.enabled is legacy; use agents.list[].tts.auto. {FIX}",
             t.in_agents(t.has_enabled)),
        Rule(("channels",), "supported channel TTS enabled fields are legacy; use the same TTS block auto field. "
             f"{FIX}", t.in_channels(t.has_enabled)),
        Rule(("plugins", "entries"), f"{plugin}.enabled is legacy; use {plugin}.auto. {FIX}",
             t.in_plugins(t.has_enabled)),
    )


def _web_search(value: Any, root: dict) -> bool:
    from openclaw_cli.doctor.support.legacy_web_search import rule_match

    return rule_match(value, root)


def _tool_profile_rules() -> tuple[Rule, ...]:
    from openclaw_cli.doctor.support.legacy_tools import agents_match, needs_repair

    rewrite = ('filters explicit configured-section tool grants; run "openclaw doctor --fix" to rewrite the explicit '
               "grants into a valid allowlist.")
    return (Rule(("tools",), f"tools.profile {rewrite}", lambda v, _r: needs_repair(v)),
            Rule(("agents", "list"), f"agents.list[].tools.profile {rewrite}", agents_match))


TOOL_PROFILE_RULES = _tool_profile_rules()
MODEL_RULES = _model_rules()
TTS_RULES = _tts_rules()


RULES: tuple[Rule, ...] = (
    Rule(("channels", "webchat"), f"channels.webchat is retired. {FIX}", migration="channels.webchat-remove"),
    Rule(("routing", "allowFrom"), f"routing.allowFrom was removed; use channels.whatsapp.allowFrom instead. {FIX}"),
    Rule(("routing", "groupChat", "requireMention"), "routing.groupChat.requireMention was removed; use "
         f'channels.<channel>.groups."*".requireMention instead. {FIX}'),
    Rule(("routing", "groupChat", "historyLimit"), "routing.groupChat.historyLimit was moved; use "
         f"messages.groupChat.historyLimit instead. {FIX}"),
    Rule(("routing", "groupChat", "mentionPatterns"), "routing.groupChat.mentionPatterns was moved; use "
         f"messages.groupChat.mentionPatterns instead. {FIX}"),
    Rule(("channels", "telegram", "requireMention"), "channels.telegram.requireMention was removed; use "
         f'channels.telegram.groups."*".requireMention instead. {FIX}'),
    Rule(("channels", "feishu", "accounts"), "channels.feishu.accounts.<id>.botName was renamed to "
         f"channels.feishu.accounts.<id>.name. {FIX}",
         lambda v, _r: isinstance(v, dict) and any(_has(a, "botName") for a in v.values())),
    Rule(("session", "threadBindings"), "session.threadBindings.ttlHours was renamed to "
         f"session.threadBindings.idleHours. {FIX}", lambda v, _r: _tb_ttl(v)),
    Rule(("channels",), "channels.<id>.threadBindings.ttlHours was renamed to channels.<id>.threadBindings.idleHours. "
         f"{FIX}", _channels_any(_tb_ttl)),
    Rule(("session", "threadBindings"), "session.threadBindings.spawnSubagentSessions/spawnAcpSessions were replaced "
         f"by session.threadBindings.spawnSessions. {FIX}", lambda v, _r: _tb_split(v)),
    Rule(("channels",), "channels.<id>.threadBindings.spawnSubagentSessions/spawnAcpSessions were replaced by "
         f"channels.<id>.threadBindings.spawnSessions. {FIX}", _channels_any(_tb_split)),
    Rule(("messages", "queue", "mode"), "messages.queue.mode uses a retired queue mode; use steer, followup, collect, "
         f"or interrupt. {FIX}", retired_queue_mode),
    Rule(("messages", "queue", "byChannel"), "messages.queue.byChannel contains a retired queue mode; use steer, "
         f"followup, collect, or interrupt. {FIX}",
         lambda v, _r: isinstance(v, dict) and any(retired_queue_mode(x) for x in v.values())),
    *TOOL_PROFILE_RULES,
    Rule(("agents", "defaults", "silentReplyRewrite"), "agents.defaults.silentReplyRewrite was removed; exact NO_REPLY "
         f"is no longer rewritten to visible fallback text. {FIX_REMOVE}"),
    Rule(("agents", "defaults", "silentReply"), "agents.defaults.silentReply.direct was removed; direct chats never "
         f"receive NO_REPLY prompt guidance. {FIX_REMOVE}", lambda v, _r: _has(v, "direct")),
    Rule(("surfaces",), "surfaces.*.silentReplyRewrite was removed; exact NO_REPLY is no longer rewritten to visible "
         f"fallback text. {FIX_REMOVE}", _silent_rewrite),
    Rule(("surfaces",), "surfaces.*.silentReply.direct was removed; direct chats never receive NO_REPLY prompt "
         f"guidance. {FIX_REMOVE}", _silent_direct),
    Rule(("agents", "defaults", "systemPromptOverride"), "agents.defaults.systemPromptOverride was removed; OpenClaw "
         f"owns the generated system prompt. {FIX_REMOVE}"),
    Rule(("agents", "list"), "agents.list[].systemPromptOverride was removed; OpenClaw owns the generated system "
         f"prompt. {FIX_REMOVE}", _any_agent(lambda a: "systemPromptOverride" in a)),
    Rule(("agents", "defaults", "llm"), "agents.defaults.llm is legacy; use models.providers.<id>.timeoutSeconds for "
         f"slow model/provider timeouts. {FIX}", lambda v, _r: isinstance(v, dict)),
    Rule(("agents", "defaults", "model"), "agents.defaults.model.timeoutMs is ignored; agent model config only "
         'selects primary/fallback models. Run "openclaw doctor --fix" to remove it.',
         lambda v, _r: _has(v, "timeoutMs")),
    Rule(("agents", "defaults", "subagents", "model"), "agents.defaults.subagents.model.timeoutMs is ignored; "
         'subagent model config only selects primary/fallback models. Run "openclaw doctor --fix" to remove it.',
         lambda v, _r: _has(v, "timeoutMs")),
    Rule(("agents", "list"), "agents.list[].model.timeoutMs and agents.list[].subagents.model.timeoutMs are ignored; "
         'agent model config only selects primary/fallback models. Run "openclaw doctor --fix" to remove them.',
         _any_agent(lambda a: _has(a.get("model"), "timeoutMs") or _has(rec(a.get("subagents")) and
                                                                         a["subagents"].get("model"), "timeoutMs"))),
    Rule(("agents", "defaults", "embeddedPi"), "agents.defaults.embeddedPi is legacy; use "
         f"agents.defaults.embeddedAgent instead. {FIX}", lambda v, _r: isinstance(v, dict)),
    Rule(("agents", "list"), f"agents.list[].embeddedPi is legacy; use agents.list[].embeddedAgent instead. {FIX}",
         _any_agent(lambda a: isinstance(a.get("embeddedPi"), dict))),
    Rule(("agents", "defaults", "agentRuntime", "fallback"), "agents.defaults.agentRuntime is ignored; set "
         f"models.providers.<provider>.agentRuntime or a model-scoped agentRuntime instead. {FIX}"),
    Rule(("agents", "defaults", "embeddedHarness"), "agents.defaults.embeddedHarness is legacy and ignored; set "
         f"provider/model runtime policy instead. {FIX}", lambda v, _r: isinstance(v, dict)),
    Rule(("agents", "defaults", "agentRuntime"), "agents.defaults.agentRuntime is ignored; set "
         f"models.providers.<provider>.agentRuntime or a model-scoped agentRuntime instead. {FIX}",
         lambda v, _r: isinstance(v, dict)),
    Rule(("agents", "list"), f"agents.list[].agentRuntime is ignored; set provider/model runtime policy instead. {FIX}",
         _any_agent(lambda a: isinstance(a.get("agentRuntime"), dict))),
    Rule(("agents", "list"), "agents.list[].embeddedHarness is legacy and ignored; set provider/model runtime policy "
         f"instead. {FIX}", _any_agent(lambda a: isinstance(a.get("embeddedHarness"), dict))),
    Rule(("agents", "defaults", "sandbox"), "agents.defaults.sandbox.perSession is legacy; use "
         f"agents.defaults.sandbox.scope instead. {FIX}", lambda v, _r: _has(v, "perSession")),
    Rule(("agents", "list"), "agents.list[].sandbox.perSession is legacy; use agents.list[].sandbox.scope instead. "
         f"{FIX}",
         _any_agent(lambda a: _has(a.get("sandbox"), "perSession"))),
    Rule(("memorySearch",), f"top-level memorySearch was moved; use agents.defaults.memorySearch instead. {FIX}"),
    Rule(("memorySearch", "provider"), f'memorySearch.provider = "auto" is legacy; use "openai" explicitly. {FIX}',
         _auto),
    Rule(("agents", "defaults", "memorySearch", "provider"), 'agents.defaults.memorySearch.provider = "auto" is '
         f'legacy; use "openai" explicitly. {FIX}', _auto),
    Rule(("agents", "list"), f'agents.list[].memorySearch.provider = "auto" is legacy; use "openai" explicitly. {FIX}',
         _any_agent(lambda a: _auto(rec(a.get("memorySearch")) and a["memorySearch"].get("provider")))),
    Rule(("memorySearch", "store", "path"), "memorySearch.store.path is legacy; memory indexes now live in each agent "
         f"database. {FIX}"),
    Rule(("agents", "defaults", "memorySearch", "store", "path"), "agents.defaults.memorySearch.store.path is legacy; "
         f"memory indexes now live in each agent database. {FIX}"),
    Rule(("agents", "list"), "agents.list[].memorySearch.store.path is legacy; memory indexes now live in each agent "
         f"database. {FIX}", _any_agent(lambda a: _store_path(a.get("memorySearch")))),
    Rule(("heartbeat",), "top-level heartbeat is not a valid config path; use agents.defaults.heartbeat "
         "(cadence/target/model settings) or channels.defaults.heartbeat (showOk/showAlerts/useIndicator)."),
    Rule(("diagnostics", "memoryPressureBundle"), "diagnostics.memoryPressureBundle was renamed; use "
         f"diagnostics.memoryPressureSnapshot instead. {FIX}", _memory_pressure, True),
    Rule(("gateway", "webchat"), f"gateway.webchat is retired. {FIX}"),
    Rule(("gateway", "bind"), "gateway.bind host aliases (for example 0.0.0.0/localhost) are legacy; use bind modes "
         f"(lan/loopback/custom/tailnet/auto) instead. {FIX}", lambda v, _r: legacy_bind_alias(v) is not None, True),
    Rule(("mcp", "servers"), "mcp.servers entries use OpenClaw transport names; CLI-native type aliases are legacy "
         f"here. {FIX}", lambda v, _r: isinstance(v, dict) and any(isinstance(s, dict) and mcp_alias(s.get("type"))
                                                                   for s in v.values())),
    *MODEL_RULES,
    Rule(("models", "providers"), "models.providers.<id>.models[*].contextWindow has a stale catalog value; run "
         '"openclaw doctor --fix" to repair it.', _stale_context_window),
    Rule(("plugins",), "plugins.openai-codex references are retired; use the openai plugin id. " + FIX,
         _codex_plugin_refs, True),
    Rule(("plugins", "allow"), 'plugins.allow now gates bundled provider discovery by default; run "openclaw doctor '
         '--fix" to preserve legacy bundled provider compatibility as plugins.bundledDiscovery="compat", or set '
         'plugins.bundledDiscovery="allowlist" to keep the stricter behavior.', _bundled_discovery, True),
    Rule(("tools", "web", "x_search", "apiKey"), "tools.web.x_search.apiKey moved to the xAI plugin; use "
         f"plugins.entries.xai.config.webSearch.apiKey instead. {FIX}"),
    Rule(("session", "maintenance"), 'session.maintenance.rotateBytes is deprecated and ignored; run "openclaw doctor '
         '--fix" to remove it.', lambda v, _r: _has(v, "rotateBytes")),
    Rule(("session",), "session.parentForkMaxTokens was removed; parent fork sizing is automatic. "
         'Run "openclaw doctor --fix" to remove it.', lambda v, _r: _has(v, "parentForkMaxTokens")),
    *TTS_RULES,
    Rule(("tools", "web", "search"), "tools.web.search provider-owned config moved to "
         f"plugins.entries.<plugin>.config.webSearch. {FIX}", _web_search, True),
)


def find_issues(resolved: dict, source: dict | None) -> list[tuple[str, str]]:
    """(dotted path, message) for every rule that matches, in rule order."""
    root = resolved
    source_root = source if isinstance(source, dict) else root
    out: list[tuple[str, str]] = []
    for rule in RULES:
        cursor = get_path(root, rule.path)
        if cursor is MISSING:
            continue
        if rule.match is not None and not rule.match(cursor, root):
            continue
        if rule.source_literal:
            source_cursor = get_path(source_root, rule.path)
            if source_cursor is MISSING:
                continue
            if rule.match is not None and not rule.match(source_cursor, source_root):
                continue
        out.append((".".join(rule.path), rule.message))
    return out

"""The legacy-config migrations of OpenClaw 2026.7.1, applied in order to the authored config."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from openclaw_cli.doctor.support import legacy_models, legacy_tools, legacy_tts, legacy_web_search
from openclaw_cli.doctor.support.legacy_rules import (
    MCP_TYPE_TO_TRANSPORT,
    legacy_bind_alias,
    mcp_alias,
    retired_queue_mode,
)
from openclaw_cli.doctor.support.legacy_shared import (
    BLOCKED_KEYS,
    cleanup_empty,
    clone,
    ensure,
    list_at,
    merge_missing,
    rec,
    str_at,
)

Changes = list[str]


# -- channels ------------------------------------------------------------------------------

def webchat_channel(raw: dict, changes: Changes) -> None:
    channels = rec(raw.get("channels"))
    if not channels or "webchat" not in channels:
        return
    del channels["webchat"]
    cleanup_empty(raw, "channels")
    changes.append("Removed retired channels.webchat config.")


def _default_group_require_mention(section: dict, channel_id: str, legacy_path: str, value: Any,
                                   changes: Changes) -> None:
    groups_raw = section.get("groups")
    entry_raw = groups_raw.get("*") if isinstance(groups_raw, dict) else None
    if ("groups" in section and not isinstance(groups_raw, dict)) or (
            isinstance(groups_raw, dict) and "*" in groups_raw and not isinstance(entry_raw, dict)):
        changes.append(f"Removed {legacy_path} (channels.{channel_id}.groups has an incompatible shape; fix remaining "
                       "issues manually).")
        return
    groups = groups_raw if isinstance(groups_raw, dict) else {}
    entry = entry_raw if isinstance(entry_raw, dict) else {}
    if "requireMention" not in entry:
        entry["requireMention"] = value
        groups["*"] = entry
        section["groups"] = groups
        changes.append(f'Moved {legacy_path} → channels.{channel_id}.groups."*".requireMention.')
        return
    changes.append(f'Removed {legacy_path} (channels.{channel_id}.groups."*" already set).')


def group_routing(raw: dict, changes: Changes) -> None:
    routing = rec(raw.get("routing"))
    if routing and "allowFrom" in routing:
        channels = rec(raw.get("channels"))
        whatsapp = rec(channels.get("whatsapp")) if channels else None
        if not channels or whatsapp is None:
            del routing["allowFrom"]
            cleanup_empty(raw, "routing")
            changes.append("Removed routing.allowFrom (channels.whatsapp not configured).")
        else:
            if "allowFrom" not in whatsapp:
                whatsapp["allowFrom"] = routing["allowFrom"]
                changes.append("Moved routing.allowFrom → channels.whatsapp.allowFrom.")
            else:
                changes.append("Removed routing.allowFrom (channels.whatsapp.allowFrom already set).")
            del routing["allowFrom"]
            cleanup_empty(raw, "routing")
    routing = rec(raw.get("routing"))
    group_chat = rec(routing.get("groupChat")) if routing else None
    if routing and group_chat is not None:
        if "requireMention" in group_chat:
            value = group_chat["requireMention"]
            channels = rec(raw.get("channels"))
            matched = False
            for channel_id in ("whatsapp", "telegram", "imessage"):
                section = rec(channels.get(channel_id)) if channels else None
                if section is None:
                    continue
                matched = True
                _default_group_require_mention(section, channel_id, "routing.groupChat.requireMention", value, changes)
            if not matched:
                changes.append("Removed routing.groupChat.requireMention (no configured WhatsApp, Telegram, or "
                               "iMessage channel found).")
            del group_chat["requireMention"]
        for field in ("historyLimit", "mentionPatterns"):
            if field not in group_chat:
                continue
            target = ensure(ensure(raw, "messages"), "groupChat")
            if field not in target:
                target[field] = group_chat[field]
                changes.append(f"Moved routing.groupChat.{field} → messages.groupChat.{field}.")
            else:
                changes.append(f"Removed routing.groupChat.{field} (messages.groupChat.{field} already set).")
            del group_chat[field]
        if not group_chat:
            del routing["groupChat"]
        cleanup_empty(raw, "routing")
    channels = rec(raw.get("channels"))
    telegram = rec(channels.get("telegram")) if channels else None
    if telegram is not None and "requireMention" in telegram:
        _default_group_require_mention(telegram, "telegram", "channels.telegram.requireMention",
                                       telegram["requireMention"], changes)
        del telegram["requireMention"]


def feishu_bot_name(raw: dict, changes: Changes) -> None:
    channels = rec(raw.get("channels"))
    feishu = rec(channels.get("feishu")) if channels else None
    accounts = rec(feishu.get("accounts")) if feishu else None
    if not accounts:
        return
    for account_id, account in accounts.items():
        if not isinstance(account, dict) or "botName" not in account:
            continue
        base = f"channels.feishu.accounts.{account_id}"
        legacy, current = f"{base}.botName", f"{base}.name"
        if "name" not in account:
            account["name"] = account["botName"]
            changes.append(f"Moved {legacy} → {current}.")
        else:
            changes.append(f"Removed {legacy} ({current} already set).")
        del account["botName"]


def _ttl(owner: dict, prefix: str, changes: Changes) -> None:
    tb = rec(owner.get("threadBindings"))
    if not tb or "ttlHours" not in tb:
        return
    had = "idleHours" in tb
    if not had:
        tb["idleHours"] = tb["ttlHours"]
    del tb["ttlHours"]
    if had:
        changes.append(f"Removed {prefix}.threadBindings.ttlHours ({prefix}.threadBindings.idleHours already set).")
    else:
        changes.append(f"Moved {prefix}.threadBindings.ttlHours → {prefix}.threadBindings.idleHours.")


def _spawn(owner: dict, prefix: str, changes: Changes) -> None:
    tb = rec(owner.get("threadBindings"))
    if not tb or ("spawnSubagentSessions" not in tb and "spawnAcpSessions" not in tb):
        return
    had = "spawnSessions" in tb
    sub, acp = tb.get("spawnSubagentSessions"), tb.get("spawnAcpSessions")
    sub_b = sub if isinstance(sub, bool) else None
    acp_b = acp if isinstance(acp, bool) else None
    resolved = acp_b if sub_b is None else (sub_b if acp_b is None else (sub_b and acp_b))
    tb.pop("spawnSubagentSessions", None)
    tb.pop("spawnAcpSessions", None)
    if not had and resolved is not None:
        tb["spawnSessions"] = resolved
    shown = "undefined" if resolved is None else ("true" if resolved else "false")
    if had:
        changes.append(f"Removed deprecated {prefix}.threadBindings.spawnSubagentSessions/spawnAcpSessions "
                       f"({prefix}.threadBindings.spawnSessions already set).")
    elif isinstance(sub, bool) and isinstance(acp, bool) and sub != acp:
        changes.append(f"Collapsed conflicting {prefix}.threadBindings.spawnSubagentSessions/spawnAcpSessions → "
                       f"{prefix}.threadBindings.spawnSessions ({shown}).")
    else:
        changes.append(f"Moved {prefix}.threadBindings.spawnSubagentSessions/spawnAcpSessions → "
                       f"{prefix}.threadBindings.spawnSessions ({shown}).")


def thread_bindings(raw: dict, changes: Changes) -> None:
    session = rec(raw.get("session"))
    if session is not None:
        _ttl(session, "session", changes)
        _spawn(session, "session", changes)
    channels = rec(raw.get("channels"))
    for channel_id, channel in (channels or {}).items():
        if not isinstance(channel, dict):
            continue
        _ttl(channel, f"channels.{channel_id}", changes)
        _spawn(channel, f"channels.{channel_id}", changes)
        for account_id, account in (rec(channel.get("accounts")) or {}).items():
            if isinstance(account, dict):
                _ttl(account, f"channels.{channel_id}.accounts.{account_id}", changes)
                _spawn(account, f"channels.{channel_id}.accounts.{account_id}", changes)


def _safe_executable(value: str) -> bool:
    import re

    trimmed = value.strip()
    if not trimmed or "\0" in trimmed or re.search(r"[\r\n]", trimmed) or re.search(r"[;&|`$<>]", trimmed) \
            or re.search(r"[\"']", trimmed):
        return False
    if trimmed.startswith((".", "~")) or "/" in trimmed or "\\" in trimmed or re.match(r"^[A-Za-z]:[\\/]", trimmed):
        return True
    return not trimmed.startswith("-") and re.fullmatch(r"[A-Za-z0-9._+-]+", trimmed) is not None


def audio_transcription(raw: dict, changes: Changes) -> None:
    audio = rec(raw.get("audio"))
    if not audio or "transcription" not in audio:
        return
    source = rec(audio["transcription"]) or {}
    command = source.get("command")
    mapped = None
    if isinstance(command, list) and command and all(isinstance(p, str) for p in command) \
            and command[0].strip() and _safe_executable(command[0].strip()):
        mapped = {"command": command[0].strip(), "type": "cli"}
        args = [p.replace("{input}", "{{MediaPath}}") for p in command[1:]]
        if args:
            mapped["args"] = args
        timeout = source.get("timeoutSeconds")
        if isinstance(timeout, (int, float)) and not isinstance(timeout, bool):
            mapped["timeoutSeconds"] = timeout
    if mapped is None:
        changes.append("Removed audio.transcription (invalid or empty command).")
    else:
        media_audio = ensure(ensure(ensure(raw, "tools"), "media"), "audio")
        models = media_audio.get("models") if isinstance(media_audio.get("models"), list) else []
        if not models:
            media_audio["enabled"] = True
            media_audio["models"] = [mapped]
            changes.append("Moved audio.transcription → tools.media.audio.models.")
        else:
            changes.append("Removed audio.transcription (tools.media.audio.models already set).")
    del audio["transcription"]
    if not audio:
        del raw["audio"]


def queue_modes(raw: dict, changes: Changes) -> None:
    queue = rec((rec(raw.get("messages")) or {}).get("queue"))
    if not queue:
        return

    def migrate(owner: dict, key: str, path: str) -> None:
        value = owner.get(key)
        if not retired_queue_mode(value):
            return
        replacement = "steer" if value == "queue" else "followup"
        owner[key] = replacement
        changes.append(f'Moved deprecated {path} "{value}" → "{replacement}"; use "steer" for default active-run '
                       "steering.")

    migrate(queue, "mode", "messages.queue.mode")
    by_channel = rec(queue.get("byChannel")) or {}
    for channel_id in list(by_channel):
        migrate(by_channel, channel_id, f"messages.queue.byChannel.{channel_id}")


# -- agents --------------------------------------------------------------------------------

def _agents(raw: dict) -> tuple[dict | None, dict | None, list]:
    agents = rec(raw.get("agents"))
    defaults = rec(agents.get("defaults")) if agents else None
    entries = list_at(agents, "list") if agents else []
    return agents, defaults, entries


def silent_reply(raw: dict, changes: Changes) -> None:
    _, defaults, _ = _agents(raw)
    silent = rec(defaults.get("silentReply")) if defaults else None
    if silent is not None and "direct" in silent:
        del silent["direct"]
        changes.append("Removed agents.defaults.silentReply.direct; direct chats never use NO_REPLY.")
    if defaults is not None and "silentReplyRewrite" in defaults:
        del defaults["silentReplyRewrite"]
        changes.append("Removed agents.defaults.silentReplyRewrite.")
    for surface_id, surface in (rec(raw.get("surfaces")) or {}).items():
        if surface_id in BLOCKED_KEYS or not isinstance(surface, dict):
            continue
        silent = rec(surface.get("silentReply"))
        if silent is not None and "direct" in silent:
            del silent["direct"]
            changes.append(f"Removed surfaces.{surface_id}.silentReply.direct; direct chats never use NO_REPLY.")
        if "silentReplyRewrite" in surface:
            del surface["silentReplyRewrite"]
            changes.append(f"Removed surfaces.{surface_id}.silentReplyRewrite.")


def system_prompt_override(raw: dict, changes: Changes) -> None:
    _a, defaults, entries = _agents(raw)
    if defaults is not None and "systemPromptOverride" in defaults:
        del defaults["systemPromptOverride"]
        changes.append("Removed agents.defaults.systemPromptOverride.")
    for index, agent in enumerate(entries):
        if isinstance(agent, dict) and "systemPromptOverride" in agent:
            del agent["systemPromptOverride"]
            changes.append(f"Removed agents.list.{index}.systemPromptOverride.")


def llm_timeout(raw: dict, changes: Changes) -> None:
    _a, defaults, _e = _agents(raw)
    if defaults is None or not isinstance(defaults.get("llm"), dict):
        return
    del defaults["llm"]
    changes.append("Removed agents.defaults.llm; model idle timeout now follows models.providers.<id>.timeoutSeconds "
                   "within the agent/run timeout ceiling.")


def model_timeout(raw: dict, changes: Changes) -> None:
    def drop(model: Any, label: str) -> None:
        if isinstance(model, dict) and "timeoutMs" in model:
            del model["timeoutMs"]
            changes.append(f"Removed {label}.timeoutMs; agent model config only selects models.")

    _a, defaults, entries = _agents(raw)
    if defaults is not None:
        drop(defaults.get("model"), "agents.defaults.model")
        drop((rec(defaults.get("subagents")) or {}).get("model"), "agents.defaults.subagents.model")
    for index, agent in enumerate(entries):
        if isinstance(agent, dict):
            drop(agent.get("model"), f"agents.list.{index}.model")
            drop((rec(agent.get("subagents")) or {}).get("model"), f"agents.list.{index}.subagents.model")


def embedded_pi(raw: dict, changes: Changes) -> None:
    def move(container: dict, label: str) -> None:
        legacy = rec(container.get("embeddedPi"))
        if legacy is None:
            return
        existing = rec(container.get("embeddedAgent"))
        if existing is None:
            container["embeddedAgent"] = legacy
            changes.append(f"Moved {label}.embeddedPi → {label}.embeddedAgent.")
        else:
            merged = clone(existing)
            merge_missing(merged, legacy)
            container["embeddedAgent"] = merged
            changes.append(f"Merged {label}.embeddedPi → {label}.embeddedAgent (filled missing fields from legacy; "
                           "kept explicit embeddedAgent values).")
        del container["embeddedPi"]

    _a, defaults, entries = _agents(raw)
    if defaults is not None:
        move(defaults, "agents.defaults")
    for index, agent in enumerate(entries):
        if isinstance(agent, dict):
            move(agent, f"agents.list.{index}")


_CLI_RUNTIMES = {"claude-cli": "anthropic", "google-gemini-cli": "google"}


def _runtime_policy(container: dict, label: str, changes: Changes) -> None:
    runtime_cfg = rec(container.get("agentRuntime")) or {}
    runtime = str_at(runtime_cfg, "id").strip().lower()
    provider = _CLI_RUNTIMES.get(runtime)
    if not provider:
        return
    refs: list[str] = []

    def add(ref: Any) -> None:
        if not isinstance(ref, str):
            return
        trimmed = ref.strip()
        slash = trimmed.find("/")
        if 0 < slash < len(trimmed) - 1 and trimmed[:slash].strip().lower() == provider:
            refs.append(trimmed)

    model = container.get("model")
    if isinstance(model, str):
        add(model)
    elif isinstance(model, dict):
        add(model.get("primary"))
        for fallback in list_at(model, "fallbacks"):
            add(fallback)
    if not refs:
        return
    models = dict(rec(container.get("models")) or {})
    changed = False
    for ref in refs:
        entry = dict(models[ref]) if isinstance(models.get(ref), dict) else {}
        current = rec(entry.get("agentRuntime")) or {}
        current_id = str_at(current, "id").strip().lower()
        if current_id and current_id != "auto":
            continue
        entry["agentRuntime"] = {**current, "id": runtime}
        models[ref] = entry
        changed = True
    if changed:
        container["models"] = models
        changes.append(f"Moved {label}.agentRuntime.id {runtime} to matching {provider} model runtime policy.")


def agent_runtime(raw: dict, changes: Changes) -> None:
    def remove(container: dict, label: str) -> None:
        if isinstance(container.get("embeddedHarness"), dict):
            del container["embeddedHarness"]
            changes.append(f"Removed {label}.embeddedHarness; runtime is now provider/model scoped.")
        if isinstance(container.get("agentRuntime"), dict):
            _runtime_policy(container, label, changes)
            del container["agentRuntime"]
            changes.append(f"Removed {label}.agentRuntime; runtime is now provider/model scoped.")

    _a, defaults, entries = _agents(raw)
    if defaults is not None:
        remove(defaults, "agents.defaults")
    for index, agent in enumerate(entries):
        if isinstance(agent, dict):
            remove(agent, f"agents.list.{index}")


def sandbox_per_session(raw: dict, changes: Changes) -> None:
    def move(sandbox: dict, label: str) -> None:
        if "perSession" not in sandbox or not isinstance(sandbox["perSession"], bool):
            return
        if "scope" not in sandbox:
            sandbox["scope"] = "session" if sandbox["perSession"] else "shared"
            changes.append(f"Moved {label}.perSession → {label}.scope ({sandbox['scope']}).")
        else:
            changes.append(f"Removed {label}.perSession ({label}.scope already set).")
        del sandbox["perSession"]

    _a, defaults, entries = _agents(raw)
    sandbox = rec(defaults.get("sandbox")) if defaults else None
    if sandbox is not None:
        move(sandbox, "agents.defaults.sandbox")
    for index, agent in enumerate(entries):
        sandbox = rec(agent.get("sandbox")) if isinstance(agent, dict) else None
        if sandbox is not None:
            move(sandbox, f"agents.list.{index}.sandbox")


def _merge_into_defaults(raw: dict, root_key: str, field: str, legacy: dict, changes: Changes, moved: str,
                         merged: str) -> None:
    root = ensure(raw, root_key)
    defaults = ensure(root, "defaults")
    existing = rec(defaults.get(field))
    if existing is None:
        defaults[field] = legacy
        changes.append(moved)
    else:
        out = clone(existing)
        merge_missing(out, legacy)
        defaults[field] = out
        changes.append(merged)


def memory_search_move(raw: dict, changes: Changes) -> None:
    legacy = rec(raw.get("memorySearch"))
    if legacy is None:
        return
    _merge_into_defaults(raw, "agents", "memorySearch", legacy, changes,
                         "Moved memorySearch → agents.defaults.memorySearch.",
                         "Merged memorySearch → agents.defaults.memorySearch (filled missing fields from legacy; "
                         "kept explicit agents.defaults values).")
    del raw["memorySearch"]


def memory_search_auto(raw: dict, changes: Changes) -> None:
    def rewrite(memory_search: Any, label: str) -> None:
        if isinstance(memory_search, dict) and isinstance(memory_search.get("provider"), str) \
                and memory_search["provider"].strip().lower() == "auto":
            memory_search["provider"] = "openai"
            changes.append(f'Moved {label}.provider from legacy "auto" to "openai".')

    _a, defaults, entries = _agents(raw)
    rewrite((defaults or {}).get("memorySearch"), "agents.defaults.memorySearch")
    for index, agent in enumerate(entries):
        if isinstance(agent, dict):
            rewrite(agent.get("memorySearch"), f"agents.list.{index}.memorySearch")


def memory_search_store_path(raw: dict, changes: Changes) -> None:
    def remove(memory_search: Any, label: str) -> None:
        store = rec(memory_search.get("store")) if isinstance(memory_search, dict) else None
        if store is not None and isinstance(store.get("path"), str):
            del store["path"]
            changes.append(f"Removed {label}.store.path; memory indexes now use each agent database.")

    remove(raw.get("memorySearch"), "memorySearch")
    _a, defaults, entries = _agents(raw)
    remove((defaults or {}).get("memorySearch"), "agents.defaults.memorySearch")
    for index, agent in enumerate(entries):
        if isinstance(agent, dict):
            remove(agent.get("memorySearch"), f"agents.list[{index}].memorySearch")


_CHANNEL_HEARTBEAT_KEYS = frozenset({"showOk", "showAlerts", "useIndicator"})


def heartbeat_move(raw: dict, changes: Changes) -> None:
    legacy = rec(raw.get("heartbeat"))
    if legacy is None:
        return
    agent_hb = {k: v for k, v in legacy.items() if k not in BLOCKED_KEYS and k not in _CHANNEL_HEARTBEAT_KEYS}
    channel_hb = {k: v for k, v in legacy.items() if k in _CHANNEL_HEARTBEAT_KEYS}
    if agent_hb:
        _merge_into_defaults(raw, "agents", "heartbeat", agent_hb, changes,
                             "Moved heartbeat → agents.defaults.heartbeat.",
                             "Merged heartbeat → agents.defaults.heartbeat (filled missing fields from legacy; kept "
                             "explicit agents.defaults values).")
    if channel_hb:
        _merge_into_defaults(raw, "channels", "heartbeat", channel_hb, changes,
                             "Moved heartbeat visibility → channels.defaults.heartbeat.",
                             "Merged heartbeat visibility → channels.defaults.heartbeat (filled missing fields from "
                             "legacy; kept explicit channels.defaults values).")
    if not agent_hb and not channel_hb:
        changes.append("Removed empty top-level heartbeat.")
    del raw["heartbeat"]


# -- diagnostics, gateway, mcp -------------------------------------------------------------

def memory_pressure_bundle(raw: dict, changes: Changes) -> None:
    diagnostics = rec(raw.get("diagnostics"))
    if diagnostics is None or not isinstance(diagnostics.get("memoryPressureBundle"), (bool, dict)):
        return
    if "memoryPressureSnapshot" in diagnostics:
        del diagnostics["memoryPressureBundle"]
        changes.append("Removed diagnostics.memoryPressureBundle (memoryPressureSnapshot already set).")
        return
    legacy = diagnostics["memoryPressureBundle"]
    diagnostics["memoryPressureSnapshot"] = legacy if isinstance(legacy, bool) else legacy.get("enabled") is not False
    del diagnostics["memoryPressureBundle"]
    changes.append("Moved diagnostics.memoryPressureBundle → memoryPressureSnapshot.")


def gateway_webchat(raw: dict, changes: Changes) -> None:
    gateway = rec(raw.get("gateway"))
    if gateway is None or "webchat" not in gateway:
        return
    del gateway["webchat"]
    if not gateway:
        del raw["gateway"]
    changes.append("Removed retired gateway.webchat config.")


def control_ui_origins(raw: dict, changes: Changes) -> None:
    gateway = rec(raw.get("gateway"))
    if gateway is None:
        return
    bind = legacy_bind_alias(gateway.get("bind")) or gateway.get("bind")
    if bind not in ("lan", "tailnet", "custom", "auto"):
        return
    control = rec(gateway.get("controlUi")) or {}
    if control.get("dangerouslyAllowHostHeaderOriginFallback") is True:
        return
    allowed = control.get("allowedOrigins")
    if isinstance(allowed, list) and any(isinstance(o, str) and o.strip() for o in allowed):
        return
    port = gateway.get("port")
    port = port if isinstance(port, (int, float)) and not isinstance(port, bool) and port > 0 else 18789
    from openclaw_cli.js.strings import js_number_to_string

    port_text = js_number_to_string(port)
    origins = [f"http://localhost:{port_text}", f"http://127.0.0.1:{port_text}"]
    custom = str_at(gateway, "customBindHost").strip()
    if bind == "custom" and custom and f"http://{custom}:{port_text}" not in origins:
        origins.append(f"http://{custom}:{port_text}")
    gateway["controlUi"] = {**control, "allowedOrigins": origins}
    changes.append(f"Seeded gateway.controlUi.allowedOrigins {json.dumps(origins, separators=(',', ':'))} for "
                   f"bind={bind}. Required since v2026.2.26. Add other machine origins to "
                   "gateway.controlUi.allowedOrigins if needed.")


def gateway_bind(raw: dict, changes: Changes) -> None:
    gateway = rec(raw.get("gateway"))
    if gateway is None:
        return
    bind = gateway.get("bind")
    if not isinstance(bind, str) or not bind.strip():
        return
    mapped = legacy_bind_alias(bind)
    if not mapped or bind.strip().lower() == mapped:
        return
    gateway["bind"] = mapped
    shown = bind.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
    changes.append(f'Normalized gateway.bind "{shown}" → "{mapped}".')


def mcp_transport(raw: dict, changes: Changes) -> None:
    servers = rec((rec(raw.get("mcp")) or {}).get("servers"))
    for name, server in (servers or {}).items():
        if not isinstance(server, dict) or not mcp_alias(server.get("type")):
            continue
        raw_type = server["type"] if isinstance(server["type"], str) else ""
        alias = MCP_TYPE_TO_TRANSPORT.get(raw_type.strip().lower())
        alias = alias if alias in ("sse", "streamable-http") else None
        if not isinstance(server.get("transport"), str) and alias:
            server["transport"] = alias
            changes.append(f'Moved mcp.servers.{name}.type "{raw_type}" → transport "{alias}".')
        elif isinstance(server.get("transport"), str):
            changes.append(f'Removed mcp.servers.{name}.type (transport "{server["transport"]}" already set).')
        else:
            changes.append(f'Removed mcp.servers.{name}.type "{raw_type}".')
        del server["type"]


# -- models, plugins, tools, session -------------------------------------------------------

STALE_CONTEXT_WINDOWS = {"deepseek/deepseek-v4-flash": (200_000, 1_000_000)}


def stale_context_window_fix(provider_id: str, model_id: str, value: Any) -> tuple[int, int] | None:
    if provider_id != "deepseek":
        return None
    scoped = model_id if "/" in model_id else f"deepseek/{model_id}"
    fix = STALE_CONTEXT_WINDOWS.get(scoped)
    return fix if fix and value == fix[0] else None


def context_window(raw: dict, changes: Changes) -> None:
    providers = rec((rec(raw.get("models")) or {}).get("providers"))
    for provider_id, provider in (providers or {}).items():
        models = provider.get("models") if isinstance(provider, dict) else None
        for index, model in enumerate(models if isinstance(models, list) else []):
            if not isinstance(model, dict) or not isinstance(model.get("id"), str):
                continue
            fix = stale_context_window_fix(provider_id, model["id"], model.get("contextWindow"))
            if fix and isinstance(model.get("contextWindow"), (int, float)):
                model["contextWindow"] = fix[1]
                changes.append(f"Repaired models.providers.{provider_id}.models[{index}].{model['id']}.contextWindow "
                               f"({fix[0]} → {fix[1]} to match catalog default).")


def rewrite_codex_plugin_policy(raw: dict) -> list[str]:
    plugins = rec(raw.get("plugins"))
    if plugins is None:
        return []
    changes: list[str] = []
    for key in ("allow", "deny"):
        value = plugins.get(key)
        if not isinstance(value, list):
            continue
        seen: set[str] = set()
        out, changed = [], False
        for entry in value:
            replacement = "openai" if entry == "openai-codex" else entry
            changed = changed or replacement != entry
            if isinstance(replacement, str):
                if replacement in seen:
                    changed = True
                    continue
                seen.add(replacement)
            out.append(replacement)
        if changed:
            plugins[key] = out
            changes.append(f"Rewrote plugins.{key} openai-codex references to openai.")
    entries = rec(plugins.get("entries"))
    if entries is not None and "openai-codex" in entries:
        if "openai" not in entries:
            entries["openai"] = entries["openai-codex"]
        del entries["openai-codex"]
        changes.append("Rewrote plugins.entries.openai-codex to plugins.entries.openai.")
    slots = rec(plugins.get("slots"))
    if slots is not None and any(v == "openai-codex" for v in slots.values()):
        for key, value in slots.items():
            if value == "openai-codex":
                slots[key] = "openai"
        changes.append("Rewrote plugins.slots openai-codex references to openai.")
    return changes


def codex_plugins(raw: dict, changes: Changes) -> None:
    changes.extend(rewrite_codex_plugin_policy(raw))


def bundled_discovery(raw: dict, changes: Changes) -> None:
    plugins = rec(raw.get("plugins"))
    if plugins is None or "bundledDiscovery" in plugins:
        return
    allow = plugins.get("allow")
    if not isinstance(allow, list) or not allow:
        return
    plugins["bundledDiscovery"] = "compat"
    changes.append('Set plugins.bundledDiscovery="compat" to preserve legacy bundled provider discovery for this '
                   "restrictive plugins.allow config.")


def x_search(raw: dict, changes: Changes) -> None:
    web = rec((rec(raw.get("tools")) or {}).get("web"))
    legacy = rec(web.get("x_search")) if web is not None else None
    if web is None or legacy is None or "apiKey" not in legacy:
        return
    auth = legacy["apiKey"]
    rest = {k: v for k, v in legacy.items() if k != "apiKey"}
    if rest:
        web["x_search"] = rest
    else:
        del web["x_search"]
    entry = ensure(ensure(ensure(raw, "plugins"), "entries"), "xai")
    had_enabled = "enabled" in entry
    if not had_enabled:
        entry["enabled"] = True
    config = ensure(entry, "config")
    key_path = "plugins.entries.xai.config.webSearch.apiKey"
    existing = rec(config.get("webSearch"))
    if existing is None:
        config["webSearch"] = {"apiKey": auth}
        changes.append(f"Moved tools.web.x_search.apiKey → {key_path}.")
    elif "apiKey" not in existing:
        config["webSearch"] = {**existing, "apiKey": auth}
        changes.append(f"Merged tools.web.x_search.apiKey → {key_path} (filled missing plugin auth).")
    else:
        changes.append(f"Removed tools.web.x_search.apiKey ({key_path} already set).")
    if not rest and not had_enabled:
        changes.append("Removed empty tools.web.x_search.")


def rotate_bytes(raw: dict, changes: Changes) -> None:
    maintenance = rec((rec(raw.get("session")) or {}).get("maintenance"))
    if maintenance is None or "rotateBytes" not in maintenance:
        return
    del maintenance["rotateBytes"]
    changes.append("Removed deprecated session.maintenance.rotateBytes.")


def parent_fork_max_tokens(raw: dict, changes: Changes) -> None:
    session = rec(raw.get("session"))
    if session is None or "parentForkMaxTokens" not in session:
        return
    del session["parentForkMaxTokens"]
    changes.append("Removed session.parentForkMaxTokens; parent fork sizing is automatic.")


MIGRATIONS: tuple[tuple[str, Callable[[dict, Changes], None]], ...] = (
    ("channels.webchat-remove", webchat_channel),
    ("legacy-group-routing->channel-groups", group_routing),
    ("feishu.accounts.botName->name", feishu_bot_name),
    ("thread-bindings.ttlHours->idleHours", thread_bindings),
    ("audio.transcription-v2", audio_transcription),
    ("messages.queue.retired-steering-modes", queue_modes),
    ("tools.profile-configured-sections-alsoAllow", legacy_tools.profile_sections),
    ("silentReplyRewrite-removed", silent_reply),
    ("agents.systemPromptOverride-removed", system_prompt_override),
    ("agents.defaults.llm->models.providers.timeoutSeconds", llm_timeout),
    ("agents.model.timeoutMs-ignored", model_timeout),
    ("agents.embeddedPi->embeddedAgent", embedded_pi),
    ("agents.agentRuntime-ignored", agent_runtime),
    ("agents.sandbox.perSession->scope", sandbox_per_session),
    ("memorySearch->agents.defaults.memorySearch", memory_search_move),
    ("memorySearch.provider-auto->openai", memory_search_auto),
    ("memorySearch.store.path->agent-database", memory_search_store_path),
    ("heartbeat->agents.defaults.heartbeat", heartbeat_move),
    ("diagnostics.memoryPressureBundle->memoryPressureSnapshot", memory_pressure_bundle),
    ("gateway.webchat-remove", gateway_webchat),
    ("gateway.controlUi.allowedOrigins-seed-for-non-loopback", control_ui_origins),
    ("gateway.bind.host-alias->bind-mode", gateway_bind),
    ("mcp.servers.type->transport", mcp_transport),
    ("models.providers.openai-codex->models.providers.openai", legacy_models.codex_provider),
    ("models.retired-model-refs", legacy_models.retired_model_refs),
    ("agents.defaults.models.vllm.params.qwenThinkingFormat->models.providers.vllm.models.compat.thinkingFormat",
     legacy_models.vllm_qwen_thinking_format),
    ("models.providers.*.models.*.compat.thinkingFormat-invalid", legacy_models.invalid_thinking_format),
    ("models.providers.*.models.*.contextWindow-stale", context_window),
    ("plugins.openai-codex->plugins.openai", codex_plugins),
    ("plugins.allow->plugins.bundledDiscovery.compat", bundled_discovery),
    ("tools.web.x_search.apiKey->plugins.entries.xai.config.webSearch.apiKey", x_search),
    ("session.maintenance.rotateBytes", rotate_bytes),
    ("session.parentForkMaxTokens", parent_fork_max_tokens),
    ("tts.providers-generic-shape", legacy_tts.provider_shape),
    ("tts.speaker-selection-keys", legacy_tts.speaker_selection),
    ("tts.enabled-auto-mode", legacy_tts.enabled_auto),
    ("tools.web.search-provider-config->plugins.entries", legacy_web_search.search_provider_config),
)


def apply_all(raw: dict) -> tuple[dict | None, list[str]]:
    """A migrated deep copy of `raw` and its change lines; (None, []) when nothing changed."""
    nxt = clone(raw)
    changes: list[str] = []
    for _id, migrate in MIGRATIONS:
        migrate(nxt, changes)
    if not changes:
        return None, []
    return nxt, changes

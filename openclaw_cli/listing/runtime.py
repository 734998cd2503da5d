"""Agent runtime of a session row: the configured runtime policy, Codex default, ACP overlay, label."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, TypeGuard
from urllib.parse import urlsplit

from openclaw_cli.config.agents import (
    agent_entries,
    agent_entry,
    normalize_agent_id,
    resolve_default_agent_id,
)
from openclaw_cli.js.strings import js_trim, sanitize_terminal_text
from openclaw_cli.js.values import UNDEFINED, coalesce, lower_or_empty, opt_lower, opt_str, truthy
from openclaw_cli.listing.cli_providers import is_cli_provider
from openclaw_cli.listing.runtime_config import (
    DEFAULT_MODEL,
    DEFAULT_PROVIDER,
    defaults_of,
    is_record,
    normalize_provider_id,
    parse_catalog_ref,
    primary_model_value,
)
from openclaw_cli.store.keys import is_acp_key, parse_agent_key

RUNTIME_LABELS = {
    "openclaw": "OpenClaw Default",
    "codex": "OpenAI Codex",
    "codex-cli": "OpenAI Codex",
    "claude-cli": "Claude CLI",
    "google-gemini-cli": "Gemini CLI",
}


def normalize_runtime_id(raw: Any) -> str | None:
    """normalizeOptionalAgentRuntimeId: lowercased, with the `pi`/`codex-app-server` aliases."""
    if not isinstance(raw, str):
        return None
    value = js_trim(raw).lower()
    if not value:
        return None
    if value in ("openclaw", "pi"):
        return "openclaw"
    if value == "codex-app-server":
        return "codex"
    return value


def _has_policy(value: Any) -> TypeGuard[dict[str, Any]]:
    return is_record(value) and isinstance(value.get("id"), str) and bool(js_trim(value["id"]))


def _model_id_for_provider(provider: str | None, model_id: Any) -> str | None:
    trimmed = js_trim(model_id) if isinstance(model_id, str) else ""
    if not trimmed:
        return None
    slash = trimmed.find("/")
    if slash <= 0:
        return trimmed
    expected = normalize_provider_id(provider or "")
    if expected and normalize_provider_id(trimmed[:slash]) != expected:
        return None
    return js_trim(trimmed[slash + 1:]) or None


def _match_kind(key: str, provider: str | None, model_id: str) -> str:
    entry_id = js_trim(key)
    if entry_id == model_id:
        return "exact"
    parsed = parse_catalog_ref(entry_id)
    if parsed is None:
        return "none"
    caller = normalize_provider_id(provider or "")
    if caller and parsed[0] != caller:
        return "none"
    if parsed[1] == model_id:
        return "exact"
    return "provider-wildcard" if parsed[1] == "*" else "none"


def _is_provider_wildcard(key: str, provider: str | None) -> bool:
    parsed = parse_catalog_ref(key)
    caller = normalize_provider_id(provider or "")
    return parsed is not None and parsed[1] == "*" and (not caller or parsed[0] == caller)


def _session_agent_id(cfg: Mapping, agent_id: str | None, session_key: str | None) -> str:
    explicit = lower_or_empty(agent_id)
    if explicit:
        return normalize_agent_id(explicit)
    key = js_trim(session_key) if isinstance(session_key, str) else ""
    parsed = parse_agent_key(key.lower()) if key else None
    return normalize_agent_id(parsed[0]) if parsed else resolve_default_agent_id(cfg)


def _agent_model_entry_policy(cfg: Mapping, provider: str | None, model_id: Any, agent_id: str | None,
                              session_key: str | None, match_kind: str) -> dict:
    wanted = _model_id_for_provider(provider, model_id)
    if not wanted and match_kind != "provider-wildcard":
        return {}
    session_agent = _session_agent_id(cfg, agent_id, session_key)
    agent = agent_entry(cfg, session_agent)
    caller = normalize_provider_id(provider or "")
    for models in (agent.get("models") if agent else None, defaults_of(cfg).get("models")):
        matches: list[tuple[str, dict]] = []
        for key, entry in (models.items() if is_record(models) else ()):
            if wanted:
                hit = _match_kind(key, provider, wanted) == match_kind
            else:
                hit = _is_provider_wildcard(key, provider)
            policy = entry.get("agentRuntime") if is_record(entry) else None
            if not hit or not _has_policy(policy):
                continue
            parsed = parse_catalog_ref(key)
            matches.append((parsed[0] if parsed else "", policy))
        by_caller = [m for m in matches if m[0] == caller] if caller else []
        candidates = by_caller or matches
        if not candidates:
            continue
        if not caller and any(m[0] != candidates[0][0] for m in candidates):
            return {"ambiguous": True}
        return {"policy": candidates[0][1], "source": "model"}
    return {}


def _provider_config(cfg: Mapping, provider: str | None) -> Any:
    models = cfg.get("models")
    providers = models.get("providers") if is_record(models) else None
    if not is_record(providers) or not (provider and js_trim(provider)):
        return None
    direct = providers.get(provider)
    if truthy(direct):
        return direct
    wanted = normalize_provider_id(provider)
    for candidate, config in providers.items():
        if normalize_provider_id(candidate) == wanted:
            return config
    return None


def resolve_model_runtime_policy(cfg: Mapping, provider: Any, model_id: Any, agent_id: str | None,
                                 session_key: str | None) -> dict:
    """resolveModelRuntimePolicy: `{policy, source}` from agent/default model maps or provider config."""
    normalized = normalize_provider_id(provider if provider is not None else "")
    effective = normalized or None
    if effective is None and isinstance(model_id, str):
        parsed = parse_catalog_ref(js_trim(model_id))
        effective = parsed[0] if parsed else None
    if os.environ.get("OPENCLAW_BUILD_PRIVATE_QA") == "1":
        forced = js_trim(os.environ.get("OPENCLAW_QA_FORCE_RUNTIME") or "").lower()
        if forced in ("openclaw", "codex"):
            return {"policy": {"id": forced}, "source": "model"}
    exact = _agent_model_entry_policy(cfg, effective, model_id, agent_id, session_key, "exact")
    if exact.get("ambiguous"):
        return {}
    if exact.get("policy"):
        return exact
    provider_cfg = _provider_config(cfg, effective)
    wanted = _model_id_for_provider(effective, model_id)
    entries = provider_cfg.get("models") if is_record(provider_cfg) else None
    if wanted and isinstance(entries, list):
        for entry in entries:
            if is_record(entry) and isinstance(entry.get("id"), str) and _match_kind(entry["id"], effective,
                                                                                       wanted) == "exact":
                if _has_policy(entry.get("agentRuntime")):
                    return {"policy": entry["agentRuntime"], "source": "model"}
                break
    wildcard = _agent_model_entry_policy(cfg, effective, model_id, agent_id, session_key, "provider-wildcard")
    if wildcard.get("policy"):
        return wildcard
    if is_record(provider_cfg) and _has_policy(provider_cfg.get("agentRuntime")):
        return {"policy": provider_cfg["agentRuntime"], "source": "provider"}
    return {}


def _official_openai_base_url(base_url: Any) -> bool:
    if not isinstance(base_url, str) or not js_trim(base_url):
        return True
    try:
        parts = urlsplit(js_trim(base_url))
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    return parts.scheme.lower() == "https" and host == "api.openai.com" and parts.path in ("", "/", "/v1", "/v1/")


def _uses_codex_by_default(cfg: Mapping, provider: Any) -> bool:
    if normalize_provider_id(provider if provider is not None else "") != "openai":
        return False
    models = cfg.get("models")
    providers = models.get("providers") if is_record(models) else None
    openai_cfg = None
    if is_record(providers):
        openai_cfg = providers.get("openai") if truthy(providers.get("openai")) else next(
            (c for k, c in providers.items() if normalize_provider_id(k) == "openai"), None)
    return _official_openai_base_url(openai_cfg.get("baseUrl") if is_record(openai_cfg) else None)


def _default_model_for_agent(cfg: Mapping, agent_id: str | None) -> tuple[str, str]:
    """resolveDefaultModelForAgent, for the plain `provider/model` and bare-id forms."""
    primary = None
    if agent_id:
        wanted = normalize_agent_id(agent_id)
        for entry in agent_entries(cfg):
            if normalize_agent_id(entry.get("id") if isinstance(entry.get("id"), str) else None) == wanted:
                primary = primary_model_value(entry.get("model"))
                break
    primary = primary or primary_model_value(defaults_of(cfg).get("model"))
    if not primary:
        return DEFAULT_PROVIDER, DEFAULT_MODEL
    slash = primary.find("/")
    if slash == -1:
        return DEFAULT_PROVIDER, primary
    return normalize_provider_id(primary[:slash]), js_trim(primary[slash + 1:])


def _is_default_runtime(runtime: str | None) -> bool:
    return runtime is None or runtime in ("auto", "default")


def persisted_runtime_id(entry: Mapping) -> str | None:
    """The runtime a 2026.9.6 entry records: a locked harness, a runtime override, its harness id."""
    owner = entry.get("pluginOwnerId")
    if entry.get("modelSelectionLocked") is True and not (isinstance(owner, str) and js_trim(owner)):
        pinned = normalize_runtime_id(entry.get("agentHarnessId"))
        if not _is_default_runtime(pinned):
            return pinned
    override = normalize_runtime_id(entry.get("agentRuntimeOverride"))
    if not _is_default_runtime(override):
        return override
    return normalize_runtime_id(entry.get("agentHarnessId"))


def agent_runtime(cfg: Mapping, *, agent_id: str, provider: Any, model: str, session_key: str,
                  acp_runtime: bool, acp_backend: str | None, entry: Mapping | None = None) -> dict:
    """resolveModelAgentRuntimeMetadata: `{"id", "source"}`. With `entry` (2026.9.6), a runtime the
    session recorded comes first."""
    persisted = persisted_runtime_id(entry) if entry is not None else None
    if not _is_default_runtime(persisted):
        if acp_runtime and is_acp_key(session_key):
            return {"id": acp_backend if acp_backend else "acpx", "source": "session-key"}
        return {"id": persisted, "source": "session"}
    plain = all(v is None or type(v) is str for v in (provider, model, agent_id, session_key, acp_backend))
    if not plain:
        return _configured_runtime(cfg, agent_id, provider, model, session_key, acp_runtime, acp_backend)
    acp_key = acp_runtime and is_acp_key(session_key)
    if _RUNTIME_CACHE.get("cfg") is not cfg:  # one config per run; its identity is held, never reused
        _RUNTIME_CACHE.clear()
        _RUNTIME_CACHE["cfg"] = cfg
        _RUNTIME_CACHE["env"] = (os.environ.get("OPENCLAW_BUILD_PRIVATE_QA"),
                                 os.environ.get("OPENCLAW_QA_FORCE_RUNTIME"))
    cache_key = (agent_id, provider, model, acp_key, acp_backend, None if agent_id else session_key,
                 _RUNTIME_CACHE["env"])
    known = _RUNTIME_CACHE.get(cache_key)
    if known is None:
        known = _RUNTIME_CACHE[cache_key] = _configured_runtime(cfg, agent_id, provider, model, session_key,
                                                                acp_runtime, acp_backend)
    return dict(known)


_RUNTIME_CACHE: dict[Any, Any] = {}
"""agent_runtime's answers for the config in use (rows of one store share a few agents and models)."""


def _configured_runtime(cfg: Mapping, agent_id: str, provider: Any, model: Any, session_key: str,
                        acp_runtime: bool, acp_backend: str | None) -> dict:
    """agent_runtime without a runtime recorded in the entry: from the config alone."""
    if truthy(provider) and truthy(model):
        ref_provider, ref_model = provider, model
    else:
        ref_provider, ref_model = _default_model_for_agent(cfg, agent_id)
    configured = resolve_model_runtime_policy(cfg, ref_provider, ref_model, agent_id, session_key)
    policy = configured.get("policy")
    runtime_id = normalize_runtime_id(policy.get("id")) if is_record(policy) else None
    source = configured.get("source") or "implicit"
    runtime = runtime_id if runtime_id and runtime_id != "default" else "auto"
    if runtime == "auto" and _uses_codex_by_default(cfg, ref_provider):
        runtime = "codex"
    if acp_runtime and is_acp_key(session_key):
        return {"id": acp_backend if acp_backend else "acpx", "source": "session-key"}
    return {"id": runtime, "source": source}


def runtime_label(cfg: Mapping, entry: Mapping, runtime: Mapping, fallback_provider: Any) -> str:
    """The Runtime column: ACP agent, harness label, CLI backend, or OpenClaw Default."""
    runtime_id = opt_lower(runtime.get("id"))
    harness = runtime_id if runtime_id and runtime_id not in ("openclaw", "auto") else None
    acp = entry.get("acp")
    acp = acp if is_record(acp) else {}
    acp_agent = opt_str(acp.get("agent"))
    if acp_agent:
        agent = sanitize_terminal_text(acp_agent)
        backend_raw = opt_str(acp.get("backend"))
        if agent:
            backend = sanitize_terminal_text(backend_raw) if backend_raw else ""
            return f"{agent} (acp/{backend})" if backend else f"{agent} (acp)"
    if harness and harness not in ("auto", "default"):
        return RUNTIME_LABELS.get(harness) or sanitize_terminal_text(harness)
    provider_raw = opt_str(coalesce(opt_str(entry.get("modelProvider", UNDEFINED)),
                                    opt_str(entry.get("providerOverride", UNDEFINED)),
                                    opt_str(fallback_provider)))
    provider = sanitize_terminal_text(provider_raw) if provider_raw else None
    if provider and provider_raw and is_cli_provider(provider, cfg):
        return RUNTIME_LABELS.get(provider_raw.lower()) or f"{provider} (cli)"
    return RUNTIME_LABELS["openclaw"]

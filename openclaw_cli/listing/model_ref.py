"""The provider/model a session row displays: overrides, stored model, CLI-runtime refs, defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.config.agents import agent_entries
from openclaw_cli.errors import CliError
from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import UNDEFINED, coalesce, js_string, lower_or_empty, truthy
from openclaw_cli.listing.cli_providers import is_cli_provider
from openclaw_cli.listing.runtime_config import (
    DEFAULT_MODEL,
    DEFAULT_PROVIDER,
    defaults_of,
    is_record,
    normalize_google_preview_model_id,
    normalize_provider_id,
    primary_model_value,
)


@dataclass(frozen=True)
class ModelRef:
    """A display provider (normally a string) and model id."""

    provider: Any
    model: str


def _trim(value: Any, key: str, field: str) -> str:
    """`value.trim()` on a stored field: a non-string makes the whole listing fail (exit 1)."""
    if not isinstance(value, str):
        raise CliError(f'cannot list sessions: entry "{key}" has a non-string {field} ({js_string(value)})')
    return js_trim(value)


def parse_display_ref(raw: str, default_provider: Any) -> ModelRef:
    """parseModelRef of the sessions display: bare ids keep the default provider."""
    trimmed = js_trim(raw)
    if not trimmed:
        return ModelRef(default_provider, DEFAULT_MODEL)
    slash = trimmed.find("/")
    if slash <= 0 or slash == len(trimmed) - 1:
        return ModelRef(default_provider, trimmed)
    return ModelRef(js_trim(trimmed[:slash]) or default_provider, js_trim(trimmed[slash + 1:]) or DEFAULT_MODEL)


def _agent_primary(cfg: Mapping, agent_id: str | None) -> str | None:
    if not agent_id:
        return None
    for entry in agent_entries(cfg):
        if entry.get("id") == agent_id:
            return primary_model_value(entry.get("model"))
    return None


def default_model_ref(cfg: Mapping, agent_id: str | None) -> ModelRef:
    """The agent's primary model, else `agents.defaults.model`, else openai/gpt-5.5."""
    primary = _agent_primary(cfg, agent_id) or primary_model_value(defaults_of(cfg).get("model"))
    return parse_display_ref(primary or DEFAULT_MODEL, DEFAULT_PROVIDER)


def _self_prefix_stripped(provider: str, model: str) -> str:
    prefix = f"{provider}/"
    trimmed = js_trim(model)
    return trimmed[len(prefix):] if trimmed.lower().startswith(prefix) else model


_ANTHROPIC_ALIASES = {"opus-4.8": "claude-opus-4-8", "opus": "claude-opus-4-8", "opus-4.6": "claude-opus-4-6",
                      "sonnet-5": "claude-sonnet-5", "sonnet": "claude-sonnet-5",
                      "sonnet-4.6": "claude-sonnet-4-6"}


def _builtin_model_id(provider: str, model: str) -> str:
    """The built-in provider model-id normalisations (Google previews, Anthropic aliases, OpenRouter)."""
    if provider in ("google", "google-gemini-cli", "google-vertex"):
        return normalize_google_preview_model_id(model)
    if provider == "openrouter":
        trimmed = js_trim(model)
        return f"openrouter/{trimmed}" if trimmed and "/" not in trimmed else model
    if provider == "anthropic":
        bare = js_trim(model)[10:] if lower_or_empty(model).startswith("anthropic/") else model
        return _ANTHROPIC_ALIASES.get(lower_or_empty(bare), bare)
    return model


def _catalog_model_id(provider: str, model: str) -> str:
    return _builtin_model_id(provider, _self_prefix_stripped(provider, js_trim(model)))


def infer_unique_provider(cfg: Mapping, model: str) -> str | None:
    """The one provider whose configured models (model map keys, provider catalogs) include `model`."""
    model = js_trim(model)
    if not model:
        return None
    normalized = model.lower()
    providers: set[str] = set()
    models_map = defaults_of(cfg).get("models")
    for key in models_map if is_record(models_map) else ():
        ref = js_trim(key)
        if not ref or "/" not in ref or ref.endswith("/*"):
            continue
        slash = ref.find("/")
        provider_raw, model_raw = js_trim(ref[:slash]), js_trim(ref[slash + 1:])
        if not provider_raw or not model_raw:
            continue
        provider = provider_raw.lower()
        parsed_model = _catalog_model_id(provider, model_raw)
        if parsed_model == model or parsed_model.lower() == normalized:
            if provider:
                providers.add(provider)
            if len(providers) > 1:
                return None
    models_cfg = cfg.get("models")
    configured = models_cfg.get("providers") if is_record(models_cfg) else None
    for provider_id, provider_cfg in configured.items() if is_record(configured) else ():
        entries = provider_cfg.get("models") if is_record(provider_cfg) else None
        if not isinstance(entries, list):
            continue
        for entry in entries:
            raw_id = entry.get("id") if is_record(entry) else None
            model_id = js_trim(raw_id) if isinstance(raw_id, str) else ""
            if not model_id:
                continue
            catalog_id = _catalog_model_id(normalize_provider_id(provider_id), model_id)
            if normalized in (model_id.lower(), catalog_id.lower()) or model in (model_id, catalog_id):
                provider = normalize_provider_id(provider_id)
                if provider:
                    providers.add(provider)
        if len(providers) > 1:
            return None
    return next(iter(providers)) if len(providers) == 1 else None


def _normalize_cli_ref(cfg: Mapping, ref: ModelRef, default: ModelRef) -> ModelRef:
    """normalizeCliRuntimeDisplayRef: show the model's real provider rather than the CLI backend."""
    if not is_cli_provider(ref.provider, cfg):
        return ref
    if "/" in ref.model:
        parsed = parse_display_ref(ref.model, default.provider)
        if not is_cli_provider(parsed.provider, cfg):
            return parsed
    inferred = infer_unique_provider(cfg, ref.model)
    if inferred and not is_cli_provider(inferred, cfg):
        return ModelRef(inferred, ref.model)
    parsed = parse_display_ref(ref.model, default.provider)
    if not is_cli_provider(parsed.provider, cfg):
        return parsed
    return ModelRef(default.provider if truthy(default.provider) else ref.provider, parsed.model or ref.model)


def display_model_ref(cfg: Mapping, key: str, entry: Mapping) -> ModelRef:
    """resolveSessionDisplayModelRef for a stored entry."""
    agent_id = key.split(":")[1] if key.startswith("agent:") else None
    default = default_model_ref(cfg, agent_id)
    provider_override = entry.get("providerOverride", UNDEFINED)
    model_override = entry.get("modelOverride", UNDEFINED)
    p = None if provider_override in (None, UNDEFINED) else _trim(provider_override, key, "providerOverride")
    m = None if model_override in (None, UNDEFINED) else _trim(model_override, key, "modelOverride")
    if p and m:
        prefix = f"{p.lower()}/"
        if m.lower().startswith(prefix):
            m = js_trim(m[len(p) + 1:]) or m
    if m:
        return parse_display_ref(m, p if p is not None else default.provider)
    model = entry.get("model", UNDEFINED)
    if truthy(model):
        raw = _trim(model, key, "model")
        provider = coalesce(entry.get("modelProvider", UNDEFINED), default.provider)
        return _normalize_cli_ref(cfg, parse_display_ref(raw, provider), default)
    return default

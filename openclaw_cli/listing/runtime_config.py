"""The config as OpenClaw's runtime sees it: agent model refs and model maps normalised."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import is_record, lower_or_empty, opt_str

DEFAULT_PROVIDER = "openai"
DEFAULT_MODEL = "gpt-5.5"
DEFAULT_CONTEXT_TOKENS = 200_000
MAIN_KEY = "main"  # the runtime ignores session.mainKey: the main session is always "main"

_GOOGLE_PROVIDERS = frozenset(("google", "google-gemini-cli", "google-vertex"))
_GOOGLE_PREVIEW_IDS = {
    "gemini-3-pro": "gemini-3.1-pro-preview",
    "gemini-3-pro-preview": "gemini-3.1-pro-preview",
    "gemini-3-flash": "gemini-3-flash-preview",
    "gemini-3.1-pro": "gemini-3.1-pro-preview",
    "gemini-3.1-flash-lite-preview": "gemini-3.1-flash-lite",
    "gemini-3.1-flash": "gemini-3-flash-preview",
    "gemini-3.1-flash-preview": "gemini-3-flash-preview",
    "gemma-4-26b": "gemma-4-26b-a4b-it",
}


def normalize_google_preview_model_id(model_id: str) -> str:
    if model_id.startswith("google/"):
        inner = model_id[7:]
        normalized = normalize_google_preview_model_id(inner)
        return model_id if normalized == inner else f"google/{normalized}"
    return _GOOGLE_PREVIEW_IDS.get(model_id, model_id)


def parse_catalog_ref(value: str) -> tuple[str, str] | None:
    """parseModelCatalogRef: strict `provider/model` (provider lowercased), else None."""
    trimmed = js_trim(value)
    slash = trimmed.find("/")
    if slash <= 0 or slash >= len(trimmed) - 1:
        return None
    provider = js_trim(trimmed[:slash])
    model = js_trim(trimmed[slash + 1:])
    if not provider or not model:
        return None
    return provider.lower(), model


def model_key(provider: str, model: str) -> str:
    """The canonical `provider/model` key (a model already prefixed by its provider stays as is)."""
    provider_id = js_trim(provider)
    model_id = js_trim(model)
    if not provider_id:
        return model_id
    if not model_id:
        return provider_id
    if model_id.lower().startswith(f"{provider_id.lower()}/"):
        return model_id
    return f"{provider_id}/{model_id}"


def normalize_agent_model_ref(model: str) -> str:
    """normalizeAgentModelRefForConfig."""
    trimmed = js_trim(model)
    parsed = parse_catalog_ref(trimmed)
    if parsed is None:
        return trimmed
    provider, suffix = parsed
    if provider in _GOOGLE_PROVIDERS or suffix.startswith("google/"):
        suffix = normalize_google_preview_model_id(suffix)
    elif provider == "together" and suffix == "moonshotai/Kimi-K2.5":
        suffix = "moonshotai/Kimi-K2.6"
    return model_key(provider, suffix)


def _normalize_model_config(value: Any) -> Any:
    if isinstance(value, str):
        return normalize_agent_model_ref(value)
    if not is_record(value):
        return value
    out = dict(value)
    if isinstance(value.get("primary"), str):
        out["primary"] = normalize_agent_model_ref(value["primary"])
    fallbacks = value.get("fallbacks")
    if isinstance(fallbacks, list):
        out["fallbacks"] = [normalize_agent_model_ref(f) if isinstance(f, str) else f for f in fallbacks]
    return out


def _merge_model_entry(existing: Any, incoming: Any) -> Any:
    if not is_record(existing) or not is_record(incoming):
        return incoming
    merged = {**existing, **incoming}
    old_params = existing.get("params") if is_record(existing.get("params")) else None
    new_params = incoming.get("params") if is_record(incoming.get("params")) else None
    if old_params is not None or new_params is not None:
        merged["params"] = {**(old_params or {}), **(new_params or {})}
    return merged


def _normalize_model_map(models: Mapping) -> dict:
    out: dict = {}
    for key, entry in models.items():
        normalized = normalize_agent_model_ref(key)
        out[normalized] = _merge_model_entry(out.get(normalized), entry)
    return out


def _normalized_agent(entry: Any) -> Any:
    """A roster entry with its model settings normalised (anything else as it is)."""
    if not is_record(entry):
        return entry
    entry = dict(entry)
    if "model" in entry:
        entry["model"] = _normalize_model_config(entry["model"])
    if is_record(entry.get("models")):
        entry["models"] = _normalize_model_map(entry["models"])
    return entry


def runtime_view(cfg: Mapping | None) -> dict:
    """A copy of the config with the model normalisations OpenClaw applies when loading."""
    view = dict(cfg) if isinstance(cfg, Mapping) else {}
    agents = view.get("agents")
    if not is_record(agents):
        return view
    agents = dict(agents)
    view["agents"] = agents
    if isinstance(agents.get("list"), list):
        agents["list"] = [_normalized_agent(entry) for entry in agents["list"]]
    if is_record(agents.get("entries")):
        agents["entries"] = {key: _normalized_agent(entry) for key, entry in agents["entries"].items()}
    defaults = agents.get("defaults")
    if is_record(defaults):
        defaults = dict(defaults)
        if "model" in defaults:
            defaults["model"] = _normalize_model_config(defaults["model"])
        models = defaults.get("models")
        defaults["models"] = _normalize_model_map(models if is_record(models) else {})
        agents["defaults"] = defaults
    return view




def defaults_of(cfg: Mapping) -> dict:
    agents = cfg.get("agents")
    defaults = agents.get("defaults") if is_record(agents) else None
    return defaults if is_record(defaults) else {}


def primary_model_value(value: Any) -> str | None:
    """resolvePrimaryStringValue: a string model, or an object's `primary`, trimmed."""
    if isinstance(value, str):
        return opt_str(value)
    if is_record(value):
        return opt_str(value.get("primary"))
    return None


def normalize_provider_id(provider: Any) -> str:
    """normalizeProviderId: trimmed and lowercased ('' for anything that is not a string)."""
    return lower_or_empty(provider) if isinstance(provider, str) else ""

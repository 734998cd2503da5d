"""The model the Gateway would compact a session with, and what the config says about it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openclaw_cli.js.values import object_at


@dataclass(frozen=True)
class SessionModel:
    """`provider/model` of a session, with the provider's API and the model's config entry."""

    provider: str | None
    model_id: str | None
    api: str | None = None
    entry: Mapping[str, Any] = field(default_factory=dict)  # models.providers.*.models[] item

    @property
    def reasoning(self) -> bool:
        return self.entry.get("reasoning") is True

    @property
    def ref(self) -> str | None:
        if not self.model_id:
            return None
        return f"{self.provider}/{self.model_id}" if self.provider else self.model_id


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def session_model_ref(cfg: Mapping[str, Any], entry: Mapping[str, Any] | None) -> str | None:
    """`provider/model` as `resolveSessionModelRef` picks it: the session's override, else the
    model of its last run, else the agent default (`agents.defaults.model.primary`)."""
    entry = entry if isinstance(entry, Mapping) else {}
    for provider_field, model_field in (("providerOverride", "modelOverride"), ("modelProvider", "model")):
        model, provider = _text(entry.get(model_field)), _text(entry.get(provider_field))
        if model:
            return model if "/" in model or not provider else f"{provider}/{model}"
    agents = object_at(cfg, "agents")
    defaults = object_at(agents, "defaults")
    primary = defaults.get("model")
    if isinstance(primary, Mapping):
        primary = primary.get("primary")
    return _text(primary)


def _providers(source: Mapping[str, Any]) -> Mapping[str, Any]:
    models = source.get("models") if isinstance(source, Mapping) and "models" in source else source
    providers = models.get("providers") if isinstance(models, Mapping) else None
    return providers if isinstance(providers, Mapping) else {}


def configured_model(config: Mapping[str, Any], model: str | None) -> Mapping[str, Any]:
    """The `models.providers.*.models[]` entry whose id is `model` (or `provider/model`)."""
    provider, model_id, _ = _split(model)
    found = _find(_providers(config), provider, model_id)
    return found[1] if found else {}


def _split(model: str | None) -> tuple[str | None, str | None, str | None]:
    if not model:
        return None, None, None
    provider, _, model_id = model.rpartition("/")
    return provider or None, model_id or None, model


def _find(providers: Mapping[str, Any], provider: str | None, model_id: str | None
          ) -> tuple[Mapping[str, Any], Mapping[str, Any]] | None:
    for name, config in providers.items():
        if (provider and name != provider) or not isinstance(config, Mapping):
            continue
        for item in config.get("models") or []:
            if isinstance(item, Mapping) and item.get("id") == model_id:
                return config, item
    return None


def _agent_models_json(agent_dir: Path | None) -> Mapping[str, Any]:
    if agent_dir is None:
        return {}
    try:
        value = json.loads((agent_dir / "models.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, Mapping) else {}


def resolve_session_model(cfg: Mapping[str, Any], entry: Mapping[str, Any] | None,
                          agent_dir: Path | None = None) -> SessionModel:
    """The session's model with the API its provider speaks (the config's `models.providers`,
    then the agent's `models.json`); `api` stays None when neither names it."""
    provider, model_id, _ = _split(session_model_ref(cfg, entry))
    if not model_id:
        return SessionModel(None, None)
    for providers in (_providers(cfg), _providers(_agent_models_json(agent_dir))):
        found = _find(providers, provider, model_id)
        provider_config = providers.get(provider) if provider else None
        if found is None and not isinstance(provider_config, Mapping):
            continue
        if found is not None:
            config, item = found
        else:
            assert isinstance(provider_config, Mapping)  # the `continue` above leaves only this case
            config, item = provider_config, {}
        api = _text(item.get("api")) or _text(config.get("api"))
        if api:
            return SessionModel(provider, model_id, api, item)
    return SessionModel(provider, model_id)

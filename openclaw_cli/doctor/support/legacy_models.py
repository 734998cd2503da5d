"""The vLLM Qwen thinking-format and invalid compat.thinkingFormat migrations of OpenClaw 2026.7.1.

Facts from OpenClaw's src/commands/doctor/shared/legacy-config-migrations.runtime.models.ts (the
legacy param keys, the value aliases, the change lines), src/config/types.models.ts (the thinking
formats) and src/agents/model-ref-profile.ts (how `provider/model@profile` splits).
"""

from __future__ import annotations

import json
import re
from typing import Any

from openclaw_cli.doctor.support.legacy_shared import ensure, rec

Changes = list[str]

THINKING_FORMATS = ("openai", "openrouter", "deepseek", "together", "qwen", "qwen-chat-template", "zai")
QWEN_KEYS = ("qwenThinkingFormat", "qwen_thinking_format")
QWEN_ALIASES = {
    **dict.fromkeys(("chat-template", "chat-template-argument", "chat-template-arguments", "chat-template-kwarg",
                     "chat-template-kwargs", "qwen-chat-template"), "qwen-chat-template"),
    **dict.fromkeys(("enable-thinking", "qwen", "request-body", "top-level"), "qwen"),
}


def _js(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def valid_thinking_format(value: Any) -> bool:
    return isinstance(value, str) and value in THINKING_FORMATS


def _provider_id(value: Any) -> str:
    return value.strip().lower() if isinstance(value, str) else ""


def split_profile(raw: str) -> str:
    """The model part of `provider/model@profile` (dates and quantization suffixes stay in the model)."""
    trimmed = raw.strip()
    if not trimmed:
        return ""
    delimiter = trimmed.find("@", trimmed.rfind("/") + 1)
    if delimiter <= 0:
        return trimmed
    if re.match(r"\d{8}(?:@|$)", trimmed[delimiter + 1:]):
        delimiter = trimmed.find("@", delimiter + 9)
        if delimiter < 0:
            return trimmed
    if re.match(r"(?:i?q\d+(?:_[a-z0-9]+)*|\d+bit)(?:@|$)", trimmed[delimiter + 1:], re.IGNORECASE):
        delimiter = trimmed.find("@", delimiter + 1)
        if delimiter < 0:
            return trimmed
    model, profile = trimmed[:delimiter].strip(), trimmed[delimiter + 1:].strip()
    return model if model and profile else trimmed


def vllm_model_id(key: Any) -> str | None:
    """The model id of a `vllm/<model>` ref, or None."""
    if not isinstance(key, str):
        return None
    trimmed = split_profile(key).strip()
    slash = trimmed.find("/")
    if slash <= 0 or _provider_id(trimmed[:slash]) != "vllm":
        return None
    model_id = trimmed[slash + 1:].strip()
    return model_id if model_id and model_id != "*" else None


def legacy_format(params: dict) -> tuple[str, Any, str | None] | None:
    for key in QWEN_KEYS:
        if key in params:
            value = params[key]
            alias = QWEN_ALIASES.get(re.sub(r"[_\s]+", "-", value.strip().lower())) if isinstance(value, str) else None
            return key, value, alias
    return None


def _params_legacy(owner: Any) -> bool:
    params = rec(owner.get("params")) if isinstance(owner, dict) else None
    return params is not None and legacy_format(params) is not None


def _vllm_provider(providers: Any) -> dict | None:
    for key, value in (rec(providers) or {}).items():
        if _provider_id(key) == "vllm":
            return rec(value)
    return None


def _model_rows_legacy(models: Any) -> bool:
    return isinstance(models, list) and any(_params_legacy(m) for m in models)


# -- detection (value at the rule's path, the root) ----------------------------------------

def agent_models_match(value: Any, _root: dict) -> bool:
    return any(vllm_model_id(k) and _params_legacy(v) for k, v in (rec(value) or {}).items())


def params_match(value: Any, _root: dict) -> bool:
    return isinstance(value, dict) and legacy_format(value) is not None


def model_rows_match(value: Any, _root: dict) -> bool:
    return _model_rows_legacy(value)


def normalized_provider_match(value: Any, _root: dict) -> bool:
    providers = rec(value)
    if providers is None or rec(providers.get("vllm")) is not None:
        return False
    provider = _vllm_provider(providers)
    return provider is not None and (_params_legacy(provider) or _model_rows_legacy(provider.get("models")))


def agent_list_match(value: Any, _root: dict) -> bool:
    entries = value.get("list") if isinstance(value, dict) else None
    return isinstance(entries, list) and any(_params_legacy(a) for a in entries)


def invalid_format_match(value: Any, _root: dict) -> bool:
    for provider in (rec(value) or {}).values():
        models = provider.get("models") if isinstance(provider, dict) else None
        for model in models if isinstance(models, list) else []:
            compat = rec(model.get("compat")) if isinstance(model, dict) else None
            fmt = compat.get("thinkingFormat") if compat else None
            if isinstance(fmt, str) and not valid_thinking_format(fmt):
                return True
    return False


# -- vLLM Qwen thinking format -------------------------------------------------------------

Target = tuple[dict, int]


def _get_or_create(root: dict, key: str) -> dict | None:
    if key not in root:
        root[key] = {}
    return rec(root[key])


def _find_or_create_row(raw: dict, model_id: str) -> Target | None:
    models_root = _get_or_create(raw, "models")
    providers = _get_or_create(models_root, "providers") if models_root is not None else None
    if providers is None:
        return None
    key = next((k for k in providers if _provider_id(k) == "vllm"), None)
    vllm = rec(providers[key]) if key is not None else _get_or_create(providers, "vllm")
    if vllm is None or ("models" in vllm and not isinstance(vllm["models"], list)):
        return None
    rows = vllm.setdefault("models", [])
    for index, row in enumerate(rows):
        if isinstance(row, dict) and row.get("id") in (model_id, f"vllm/{model_id}"):
            return row, index
    rows.append({"id": model_id, "name": model_id})
    return rows[-1], len(rows) - 1


def _existing_rows(raw: dict) -> list[Target]:
    provider = _vllm_provider((rec(raw.get("models")) or {}).get("providers"))
    rows = provider.get("models") if provider is not None else None
    return [(r, i) for i, r in enumerate(rows) if isinstance(r, dict)] if isinstance(rows, list) else []


def _ids_from_selection(value: Any) -> list[str]:
    if isinstance(value, str):
        found = vllm_model_id(value)
        return [found] if found else []
    if not isinstance(value, dict):
        return []
    refs = [value["primary"]] if isinstance(value.get("primary"), str) else []
    refs += [f for f in value.get("fallbacks", []) if isinstance(f, str)] if isinstance(value.get("fallbacks"), list) \
        else []
    return [m for m in map(vllm_model_id, refs) if m]


def _ids_from_map(value: Any) -> list[str]:
    return [m for m in map(vllm_model_id, rec(value) or {}) if m]


def _unique(targets: list[Target]) -> list[Target]:
    seen: set[int] = set()
    out = []
    for row, index in targets:
        if id(row) not in seen:
            seen.add(id(row))
            out.append((row, index))
    return out


def _create_rows(raw: dict, model_ids: list[str]) -> list[Target]:
    return _unique([t for t in (_find_or_create_row(raw, m) for m in model_ids) if t is not None])


def _drop_keys(params: dict) -> None:
    for key in QWEN_KEYS:
        params.pop(key, None)


def _apply(source: str, params: dict, target: Target, fmt: tuple[str, Any, str | None], changes: Changes) -> None:
    key, value, alias = fmt
    if alias is None:
        _drop_keys(params)
        changes.append(f"Removed {source}.{key} (unrecognized value {_js(value)}; configure "
                       "models.providers.vllm.models[].compat.thinkingFormat if needed).")
        return
    row, index = target
    row.setdefault("reasoning", True)
    compat = ensure(row, "compat")
    current = compat.get("thinkingFormat")
    _drop_keys(params)
    if valid_thinking_format(current):
        changes.append(f"Removed {source}.{key}; models.providers.vllm.models[{index}].compat.thinkingFormat is "
                       f"already {_js(current)}.")
        return
    compat["thinkingFormat"] = alias
    changes.append(f"Moved {source}.{key} to models.providers.vllm.models[{index}].compat.thinkingFormat "
                   f"({_js(alias)}).")


def _apply_targets(source: str, params: dict, targets: list[Target], fmt: tuple[str, Any, str | None],
                   changes: Changes) -> None:
    if not targets:
        _drop_keys(params)
        changes.append(f"Removed {source}.{fmt[0]}; no concrete vLLM model row or agent model ref exists, so configure "
                       "models.providers.vllm.models[].compat.thinkingFormat on each Qwen model that needs it.")
        return
    for target in targets:
        _apply(source, params, target, fmt, changes)


def _drop_empty_params(owner: dict | None) -> None:
    if owner is not None and owner.get("params") == {}:
        del owner["params"]


def _agent_model_rows(raw: dict, defaults: dict | None, default_models: dict | None, changes: Changes) -> None:
    for key, entry in list((default_models or {}).items()):
        model_id = vllm_model_id(key)
        params = rec(entry.get("params")) if isinstance(entry, dict) else None
        fmt = legacy_format(params) if params is not None else None
        if not model_id or params is None or fmt is None:
            continue
        target = _find_or_create_row(raw, model_id) if fmt[2] else ({}, -1)
        if target is None:
            continue
        _apply(f"agents.defaults.models.{_js(key)}.params", params, target, fmt, changes)
        _drop_empty_params(entry)


def _provider_rows(provider: dict | None, changes: Changes) -> None:
    rows = provider.get("models") if provider is not None else None
    for index, row in enumerate(rows if isinstance(rows, list) else []):
        params = rec(row.get("params")) if isinstance(row, dict) else None
        fmt = legacy_format(params) if params is not None else None
        if params is None or fmt is None:
            continue
        _apply(f"models.providers.vllm.models[{index}].params", params, (row, index), fmt, changes)
        _drop_empty_params(row)


def vllm_qwen_thinking_format(raw: dict, changes: Changes) -> None:
    agents = rec(raw.get("agents"))
    defaults = rec(agents.get("defaults")) if agents else None
    default_models = rec(defaults.get("models")) if defaults else None
    _agent_model_rows(raw, defaults, default_models, changes)
    provider = _vllm_provider((rec(raw.get("models")) or {}).get("providers"))
    _provider_rows(provider, changes)
    default_ids = _ids_from_selection((defaults or {}).get("model")) + _ids_from_map(default_models)
    params = rec(provider.get("params")) if provider is not None else None
    fmt = legacy_format(params) if params is not None else None
    if params is not None and fmt is not None:
        entries = agents.get("list") if agents else None
        list_ids = [m for a in (entries if isinstance(entries, list) else []) if isinstance(a, dict)
                    for m in _ids_from_selection(a.get("model")) + _ids_from_map(a.get("models"))]
        targets = _unique(_existing_rows(raw) + _create_rows(raw, default_ids + list_ids))
        _apply_targets("models.providers.vllm.params", params, targets, fmt, changes)
        _drop_empty_params(provider)
    params = rec(defaults.get("params")) if defaults else None
    fmt = legacy_format(params) if params is not None else None
    if params is not None and fmt is not None:
        targets = _create_rows(raw, default_ids) if default_ids else _existing_rows(raw)
        _apply_targets("agents.defaults.params", params, targets, fmt, changes)
        _drop_empty_params(defaults)
    entries = agents.get("list") if agents else None
    for index, agent in enumerate(entries if isinstance(entries, list) else []):
        params = rec(agent.get("params")) if isinstance(agent, dict) else None
        fmt = legacy_format(params) if params is not None else None
        if params is None or fmt is None:
            continue
        own = _ids_from_selection(agent.get("model")) + _ids_from_map(agent.get("models"))
        ids = own or default_ids
        targets = _create_rows(raw, ids) if ids else _existing_rows(raw)
        _apply_targets(f"agents.list[{index}].params", params, targets, fmt, changes)
        _drop_empty_params(agent)


def invalid_thinking_format(raw: dict, changes: Changes) -> None:
    for provider_id, provider in (rec((rec(raw.get("models")) or {}).get("providers")) or {}).items():
        models = provider.get("models") if isinstance(provider, dict) else None
        for index, model in enumerate(models if isinstance(models, list) else []):
            compat = rec(model.get("compat")) if isinstance(model, dict) else None
            fmt = compat.get("thinkingFormat") if compat else None
            if compat is None or not isinstance(fmt, str) or valid_thinking_format(fmt):
                continue
            del compat["thinkingFormat"]
            changes.append(f"Removed models.providers.{provider_id}.models.{index}.compat.thinkingFormat "
                           f"(unrecognized value {_js(fmt)}; runtime default applies).")

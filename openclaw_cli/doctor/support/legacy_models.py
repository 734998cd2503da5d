"""The vLLM Qwen thinking-format and invalid compat.thinkingFormat migrations of OpenClaw 2026.7.1.

Facts from OpenClaw's src/commands/doctor/shared/legacy-config-migrations.runtime.models.ts (the
legacy param keys, the value aliases, the change lines), src/config/types.models.ts (the thinking
formats) and src/agents/model-ref-profile.ts (how `provider/model@profile` splits).
"""

from __future__ import annotations

import json
import re
from typing import Any

from openclaw_cli.doctor.support.legacy_shared import ensure, list_at, rec

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


def split_model_profile(raw: str) -> tuple[str, str]:
    """`provider/model@profile` as (model ref, profile or ''): dates and quantization suffixes stay in the model."""
    trimmed = raw.strip()
    if not trimmed:
        return "", ""
    delimiter = trimmed.find("@", trimmed.rfind("/") + 1)
    if delimiter <= 0:
        return trimmed, ""
    if re.match(r"\d{8}(?:@|$)", trimmed[delimiter + 1:]):
        delimiter = trimmed.find("@", delimiter + 9)
        if delimiter < 0:
            return trimmed, ""
    if re.match(r"(?:i?q\d+(?:_[a-z0-9]+)*|\d+bit)(?:@|$)", trimmed[delimiter + 1:], re.IGNORECASE):
        delimiter = trimmed.find("@", delimiter + 1)
        if delimiter < 0:
            return trimmed, ""
    model, profile = trimmed[:delimiter].strip(), trimmed[delimiter + 1:].strip()
    return (model, profile) if model and profile else (trimmed, "")


def split_profile(raw: str) -> str:
    """The model part of `provider/model@profile`."""
    return split_model_profile(raw)[0]


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


# -------------------------------------------------------------------------------- retired model refs
# OpenClaw's `models.retired-model-refs` migration; the catalog is doctor/support/retired_models.py.


def _norm(value: Any) -> str:
    return value.strip().lower() if isinstance(value, str) else ""


def _claude_target(family: str, separator: str, provider: str) -> str:
    from openclaw_cli.doctor.support import retired_models as r

    version = r.OPUS_VERSION if family == "opus" and provider not in r.OPUS_46_PROVIDERS else r.SONNET_VERSION
    return f"claude-{family}-{version if separator == '.' else version.replace('.', '-')}"


def _retired_prefix(normalized: str, prefixes: tuple[str, ...]) -> bool:
    from openclaw_cli.doctor.support.retired_models import VERSION_SEPARATORS

    return any(normalized == p or (normalized.startswith(p) and normalized[len(p):len(p) + 1] in
                                   tuple(VERSION_SEPARATORS)) for p in prefixes)


def _claude_token(token: str, separator: str, provider: str) -> str | None:
    from openclaw_cli.doctor.support import retired_models as r

    n = _norm(token)
    if not n or n.startswith(r.CURRENT_CLAUDE_PREFIXES):
        return None
    opus, sonnet = _claude_target("opus", separator, provider), _claude_target("sonnet", separator, provider)
    if n == "claude-opus-4" or _retired_prefix(n, r.RETIRED_OPUS_PREFIXES) or re.match(r.DATED_OPUS, n):
        return opus
    if n == "claude-sonnet-4" or _retired_prefix(n, r.RETIRED_SONNET_PREFIXES) or re.match(r.DATED_SONNET, n):
        return sonnet
    if n.startswith("claude-3") and "opus" in n:
        return opus
    if n.startswith("claude-3") and ("sonnet" in n or "haiku" in n):
        return sonnet
    if n.startswith("anthropic.claude-opus-"):
        if provider in r.BEDROCK_PROVIDERS or n.startswith(r.BEDROCK_CURRENT_OPUS):
            return None
        return f"anthropic.{_claude_target('opus', '-', provider)}"
    if n.startswith(("anthropic.claude-sonnet-", "anthropic.claude-haiku-")):
        if provider in r.BEDROCK_PROVIDERS or n.startswith(r.BEDROCK_CURRENT_SONNET):
            return None
        return f"anthropic.{_claude_target('sonnet', '-', provider)}"
    if n in r.SHORT_OPUS:
        return opus
    if n in r.SHORT_SONNET:
        return sonnet
    return None


def _claude_model(model: str, provider: str) -> str | None:
    from openclaw_cli.doctor.support.retired_models import DOTTED_CLAUDE_PROVIDERS

    separator = "." if provider in DOTTED_CLAUDE_PROVIDERS else "-"
    parts = model.split("/")
    if parts[-1]:
        upgraded = _claude_token(parts[-1], separator, provider)
        if upgraded:
            return "/".join([*parts[:-1], upgraded])
    return _claude_token(model, separator, provider)


def _owner_model(provider: str, model: str) -> str | None:
    from openclaw_cli.doctor.support import retired_models as r

    if provider == "groq":
        return r.GROQ.get(_norm(model))
    if provider == "xai":
        return r.XAI.get(_norm(model))
    if provider in r.OPENAI_OWNERS:
        targets = r.OPENAI.get(_norm(model))
        return targets[1 if provider == r.CODEX_PROVIDER else 0] if targets else None
    return None


def upgrade_retired_ref(value: str) -> str | None:
    """The current ref for a retired `provider/model@profile`, or None when it is not retired."""
    from openclaw_cli.doctor.support import retired_models as r

    if not value.strip():
        return None
    ref, profile = split_model_profile(value)
    suffix = f"@{profile}" if profile else ""
    slash = ref.find("/")
    provider = ref[:slash].strip() if slash > 0 else ""
    model = ref[slash + 1:].strip() if slash > 0 else ref
    owner = _norm(provider)
    upgraded = _owner_model(owner, model)
    if upgraded:
        return f"{provider}/{upgraded}{suffix}"
    if owner in r.COPILOT_PROVIDERS and _norm(model) == r.COPILOT_GROK[0]:
        return f"{provider}/{r.COPILOT_GROK[1]}{suffix}"
    if owner and owner not in r.CLAUDE_PROVIDERS:
        return None
    claude = _claude_model(model, owner)
    if not claude or claude == model:
        return None
    return f"{provider}/{claude}{suffix}" if provider else f"{claude}{suffix}"


def _ref_key(path: str) -> str:
    return path[path.rfind(".") + 1:]


def _channel_override(path: str) -> bool:
    from openclaw_cli.doctor.support.retired_models import CHANNEL_OVERRIDE

    return CHANNEL_OVERRIDE in path


def has_retired_refs(value: Any, key: str | None = None, path: str = "") -> bool:
    """A retired model ref anywhere below `value` (the detection rule's scan)."""
    from openclaw_cli.doctor.support import retired_models as r

    if isinstance(value, str):
        return bool(key and (key in r.REF_STRING_KEYS or _channel_override(path)) and upgrade_retired_ref(value))
    if isinstance(value, list):
        return any(bool(upgrade_retired_ref(entry)) if isinstance(entry, str) and key and key in r.REF_ARRAY_KEYS
                   else has_retired_refs(entry, None, f"{path}.{index}") for index, entry in enumerate(value))
    if not isinstance(value, dict):
        return False
    if key and key in r.REF_MAP_KEYS:
        return any(bool(upgrade_retired_ref(k)) for k in value)
    return any(has_retired_refs(child, k, f"{path}.{k}") for k, child in value.items())


def retired_refs_match(value: Any, _root: dict) -> bool:
    return has_retired_refs(value)


def _strict_equal(a: Any, b: Any) -> bool:
    """Node's isDeepStrictEqual on JSON values (true is not 1; key order does not matter)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_strict_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    if _number(a) and _number(b):
        return bool(a == b)
    return type(a) is type(b) and a == b


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _sanitize(value: Any) -> Any:
    from openclaw_cli.doctor.support.legacy_shared import BLOCKED_KEYS

    if isinstance(value, list):
        return [_sanitize(v) for v in value]
    if isinstance(value, dict):
        return {k: _sanitize(v) for k, v in value.items() if k not in BLOCKED_KEYS}
    return value


def _same_refs(existing: Any, incoming: Any, path: str) -> bool:
    return _strict_equal(existing, incoming) or _strict_equal(rewrite_retired_refs(existing, path, [])[0],
                                                              rewrite_retired_refs(incoming, path, [])[0])


def _merge_entries(existing: Any, incoming: Any, path: str) -> tuple[Any, list[str]]:
    from openclaw_cli.doctor.support.legacy_shared import BLOCKED_KEYS

    if not isinstance(existing, dict) or not isinstance(incoming, dict):
        return _sanitize(existing), [] if _same_refs(existing, incoming, path) else ["value"]
    merged = _sanitize(existing)
    conflicts: list[str] = []
    for field_name, value in incoming.items():
        if field_name in BLOCKED_KEYS:
            continue
        if field_name not in existing:
            merged[field_name] = _sanitize(value)
            continue
        current, field_path = existing[field_name], f"{path}.{field_name}"
        if _same_refs(current, value, field_path):
            continue
        if isinstance(current, dict) and isinstance(value, dict):
            merged[field_name], nested = _merge_entries(current, value, field_path)
            conflicts += [f"{field_name}.{c}" for c in nested]
            continue
        conflicts.append(field_name)
    return merged, conflicts


def _rewrite_map_keys(record: dict, path: str, changes: Changes) -> tuple[dict, bool]:
    changed = False
    nxt: dict = {}
    consumed: set[str] = set()
    for key, child in record.items():
        upgraded = upgrade_retired_ref(key)
        new_key = upgraded or key
        if not upgraded and key in consumed:
            continue
        if upgraded:
            changes.append(f"Upgraded {path} key from {_js(key)} to {_js(upgraded)}.")
            changed = True
            if new_key not in nxt and new_key in record:
                nxt[new_key] = record[new_key]
                consumed.add(new_key)
        if new_key in nxt:
            nxt[new_key], conflicts = _merge_entries(nxt[new_key], child, f"{path}.{new_key}")
            if conflicts:
                changes.append(f"Merged {path} key {_js(key)} into {_js(new_key)}; kept existing values for "
                               f"conflicting fields: {', '.join(sorted(conflicts))}.")
            else:
                changes.append(f"Merged {path} key {_js(key)} into {_js(new_key)}.")
            continue
        nxt[new_key] = child
    return (nxt if changed else record), changed


def _rewrite_ref(value: str, path: str, changes: Changes) -> str:
    upgraded = upgrade_retired_ref(value)
    if not upgraded:
        return value
    changes.append(f"Upgraded {path} from {_js(value)} to {_js(upgraded)}.")
    return upgraded


def rewrite_retired_refs(value: Any, path: str, changes: Changes) -> tuple[Any, bool]:
    """`value` with every retired ref below it upgraded (a new value when something changed)."""
    from openclaw_cli.doctor.support import retired_models as r

    key = _ref_key(path)
    if isinstance(value, str):
        if key not in r.REF_STRING_KEYS and not _channel_override(path):
            return value, False
        upgraded = _rewrite_ref(value, path, changes)
        return upgraded, upgraded != value
    if isinstance(value, list):
        changed = False
        out = []
        for index, entry in enumerate(value):
            if isinstance(entry, str) and key in r.REF_ARRAY_KEYS:
                rewritten = _rewrite_ref(entry, f"{path}.{index}", changes)
                changed = changed or rewritten != entry
            else:
                rewritten, entry_changed = rewrite_retired_refs(entry, f"{path}.{index}", changes)
                changed = changed or entry_changed
            out.append(rewritten)
        return (out if changed else value), changed
    if not isinstance(value, dict):
        return value, False
    working, changed = _rewrite_map_keys(value, path, changes) if key in r.REF_MAP_KEYS else (value, False)
    nxt = {}
    for child_key, child in working.items():
        nxt[child_key], child_changed = rewrite_retired_refs(child, f"{path}.{child_key}", changes)
        changed = changed or child_changed
    return (nxt if changed else value), changed


def retired_model_refs(raw: dict, changes: Changes) -> None:
    rewritten, changed = rewrite_retired_refs(raw, "config", changes)
    if changed and isinstance(rewritten, dict):
        raw.clear()
        raw.update(rewritten)


# -------------------------------------------------------------------------------- openai-codex provider
# OpenClaw's `models.providers.openai-codex->models.providers.openai` migration.


def _normalize_responses_api(provider_id: str, provider: dict, changes: Changes) -> tuple[dict, bool]:
    from openclaw_cli.doctor.support import retired_models as r

    changed = False
    nxt = dict(provider)
    if nxt.get("api") == r.LEGACY_RESPONSES_API:
        nxt["api"] = r.RESPONSES_API
        changes.append(f'Moved models.providers.{provider_id}.api "{r.LEGACY_RESPONSES_API}" → "{r.RESPONSES_API}".')
        changed = True
    if isinstance(provider.get("models"), list):
        rows_changed = False
        rows = []
        for index, model in enumerate(provider["models"]):
            if isinstance(model, dict) and model.get("api") == r.LEGACY_RESPONSES_API:
                rows_changed = True
                changes.append(f'Moved models.providers.{provider_id}.models[{index}].api "{r.LEGACY_RESPONSES_API}" '
                               f'→ "{r.RESPONSES_API}".')
                model = {**model, "api": r.RESPONSES_API}
            rows.append(model)
        if rows_changed:
            nxt["models"] = rows
            changed = True
    return nxt, changed


def _canonical_entry(providers: dict) -> tuple[str, dict] | None:
    from openclaw_cli.doctor.support.retired_models import OPENAI_PROVIDER_ID

    key = next((k for k in providers if _provider_id(k) == OPENAI_PROVIDER_ID), None)
    return (key, providers[key]) if key is not None and isinstance(providers[key], dict) else None


def _mergeable_rows(canonical: dict, legacy: dict) -> list:
    rows = list_at(legacy, "models")
    current = list_at(canonical, "models")
    ids = {m["id"] for m in current if isinstance(m, dict) and isinstance(m.get("id"), str) and m["id"]}
    names = {m["name"] for m in current if isinstance(m, dict) and isinstance(m.get("name"), str) and m["name"]}
    out = []
    for model in rows:
        if not isinstance(model, dict):
            continue
        row_id = model.get("id") if isinstance(model.get("id"), str) else None
        name = model.get("name") if isinstance(model.get("name"), str) else None
        if row_id:
            keep = row_id not in ids
        elif name:
            keep = name not in names
        else:
            keep = False
        if keep:
            out.append(model)
    return out


def _merge_blockers(canonical: dict, legacy: dict) -> list[str]:
    from openclaw_cli.doctor.support import retired_models as r

    return ([f"models.providers.{r.CODEX_PROVIDER_ID}.{k}" for k in r.UNSCOPED_PROVIDER_DEFAULT_KEYS if k in legacy]
            + [f"models.providers.{r.OPENAI_PROVIDER_ID}.{k}" for k in r.CANONICAL_MODEL_LEAK_KEYS if k in canonical])


def codex_provider_match(value: Any, _root: dict) -> bool:
    from openclaw_cli.doctor.support.retired_models import CODEX_PROVIDER_ID

    if not isinstance(value, dict):
        return False
    canonical = _canonical_entry(value)
    for provider_id, provider in value.items():
        if not isinstance(provider, dict) or _provider_id(provider_id) != CODEX_PROVIDER_ID:
            continue
        normalized, changed = _normalize_responses_api(provider_id, provider, [])
        if changed or canonical is None or not _mergeable_rows(canonical[1], normalized) \
                or not _merge_blockers(canonical[1], normalized):
            return True
    return False


def codex_api_match(value: Any, _root: dict) -> bool:
    from openclaw_cli.doctor.support.retired_models import LEGACY_RESPONSES_API

    return isinstance(value, dict) and any(
        isinstance(p, dict) and (p.get("api") == LEGACY_RESPONSES_API or (isinstance(p.get("models"), list) and any(
            isinstance(m, dict) and m.get("api") == LEGACY_RESPONSES_API for m in p["models"])))
        for p in value.values())


def _models_add_row(model: dict) -> bool:
    from openclaw_cli.doctor.support import retired_models as r

    row_id = _norm(model.get("id"))
    if row_id not in r.MODELS_ADD_IDS or model.get("api") not in r.MODELS_ADD_APIS:
        return False
    cost = rec(model.get("cost")) or {}
    shape: dict[str, Any] = r.MODELS_ADD_SHAPE
    return (model.get("reasoning") is True and model.get("input") == shape["input"]
            and all(_strict_equal(cost.get(k), v) for k, v in shape["cost"].items())
            and all(_strict_equal(model.get(k), shape[k]) for k in ("contextWindow", "contextTokens", "maxTokens")))


def _merged_row(model: Any, legacy: dict) -> Any:
    from openclaw_cli.doctor.support.retired_models import ROW_LIMIT_KEYS

    if not isinstance(model, dict):
        return model
    patch: dict = {}
    base_url = legacy.get("baseUrl") if isinstance(legacy.get("baseUrl"), str) else None
    api = legacy.get("api") if isinstance(legacy.get("api"), str) else None
    params = legacy.get("params") if isinstance(legacy.get("params"), dict) else None
    runtime = legacy.get("agentRuntime") if isinstance(legacy.get("agentRuntime"), dict) else None
    if base_url and not model.get("baseUrl"):
        patch["baseUrl"] = base_url
    if api and not model.get("api"):
        patch["api"] = api
    for key in ROW_LIMIT_KEYS:
        if _number(legacy.get(key)) and key not in model:
            patch[key] = legacy[key]
    if params is not None:
        if isinstance(model.get("params"), dict):
            patch["params"] = {**params, **model["params"]}
        elif "params" not in model:
            patch["params"] = params
    if runtime is not None and "agentRuntime" not in model:
        patch["agentRuntime"] = runtime
    if "metadataSource" not in model and _models_add_row(model):
        patch["metadataSource"] = "models-add"
    return {**model, **patch} if patch else model


def _row_label(model: Any) -> str:
    if isinstance(model, dict):
        for key in ("id", "name"):
            if isinstance(model.get(key), str) and model[key]:
                return model[key]
    return "unknown"


def codex_provider(raw: dict, changes: Changes) -> None:
    from openclaw_cli.doctor.support import retired_models as r

    models = rec(raw.get("models"))
    providers = rec(models.get("providers")) if models else None
    if models is None or providers is None:
        return
    for provider_id, value in list(providers.items()):
        provider = rec(providers.get(provider_id)) or rec(value)
        if provider is None:
            continue
        normalized, changed = _normalize_responses_api(provider_id, provider, changes)
        if _provider_id(provider_id) != r.CODEX_PROVIDER_ID:
            if changed:
                providers[provider_id] = normalized
            continue
        canonical_entry = _canonical_entry(providers)
        if not any(_provider_id(k) == r.OPENAI_PROVIDER_ID for k in providers):
            providers[r.OPENAI_PROVIDER_ID] = normalized
            changes.append(f"Moved models.providers.{r.CODEX_PROVIDER_ID} → models.providers.{r.OPENAI_PROVIDER_ID}.")
        else:
            key, canonical = canonical_entry if canonical_entry else (r.OPENAI_PROVIDER_ID, {})
            current = list_at(canonical, "models")
            rows = _mergeable_rows(canonical, normalized)
            blockers = _merge_blockers(canonical, normalized) if rows else []
            if blockers:
                if changed:
                    providers[provider_id] = normalized
                    changes.append(f"Skipped merging models.providers.{r.CODEX_PROVIDER_ID} into models.providers."
                                   f"{r.OPENAI_PROVIDER_ID} because provider-level defaults cannot be represented "
                                   f"safely on merged models: {', '.join(blockers)}.")
                continue
            stamped = [_merged_row(m, normalized) for m in rows]
            if stamped:
                providers[key] = {**canonical, "models": [*current, *stamped]}
                changes.append(f"Merged {len(stamped)} model(s) from models.providers.{r.CODEX_PROVIDER_ID} into "
                               f"models.providers.{r.OPENAI_PROVIDER_ID}: {', '.join(map(_row_label, stamped))}.")
            else:
                changes.append(f"Removed models.providers.{r.CODEX_PROVIDER_ID} because models.providers."
                               f"{r.OPENAI_PROVIDER_ID} already exists.")
        del providers[provider_id]


def blocked_codex_provider_warnings(cfg: Any) -> list[str]:
    """The openai-codex providers the migration leaves alone because their defaults cannot move onto merged rows."""
    from openclaw_cli.doctor.support.retired_models import CODEX_PROVIDER_ID

    models = rec(cfg.get("models")) if isinstance(cfg, dict) else None
    providers = rec(models.get("providers")) if models else None
    canonical = _canonical_entry(providers) if providers else None
    if providers is None or canonical is None:
        return []
    out = []
    for provider_id, provider in providers.items():
        if not isinstance(provider, dict) or _provider_id(provider_id) != CODEX_PROVIDER_ID:
            continue
        normalized, changed = _normalize_responses_api(provider_id, provider, [])
        if changed or not _mergeable_rows(canonical[1], normalized):
            continue
        blockers = _merge_blockers(canonical[1], normalized)
        if blockers:
            out.append(f"models.providers.{provider_id} cannot be merged automatically into models.providers."
                       f"{canonical[0]} because provider-level defaults cannot be represented safely on merged models: "
                       f"{', '.join(blockers)}. Move the affected model/provider defaults manually before removing "
                       f"models.providers.{provider_id}.")
    return out

"""Session table cells shared by `sessions` listings and the cleanup plan (key, age, model, flags)."""

from __future__ import annotations

from collections.abc import Mapping

from openclaw_cli.jsstr import js_trim, pad_end, utf16_len, utf16_slice

DEFAULT_PROVIDER = "openai"
DEFAULT_MODEL = "gpt-5.5"
BUILTIN_CLI_PROVIDERS = frozenset(("claude-cli", "google-gemini-cli"))

KEY_PAD = 26
AGE_PAD = 9
MODEL_PAD = 14


def format_time_ago(duration_ms) -> str:
    """`formatTimeAgo`: just now, Nm ago, Nh ago (under 48 h), Nd ago."""
    if duration_ms is None or duration_ms != duration_ms or duration_ms < 0:
        return "unknown"
    seconds = _js_round(duration_ms / 1000)
    minutes = _js_round(seconds / 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes}m ago"
    hours = _js_round(minutes / 60)
    if hours < 48:
        return f"{hours}h ago"
    return f"{_js_round(hours / 24)}d ago"


def _js_round(x: float) -> int:
    """`Math.round`: halves round towards +∞."""
    import math

    return math.floor(x + 0.5)


def key_cell(key: str) -> str:
    label = key
    if utf16_len(key) > KEY_PAD:
        label = f"{utf16_slice(key, 0, 16)}...{utf16_slice(key, -6)}"
    return pad_end(label, KEY_PAD)


def age_cell(updated_at, now_ms: int) -> str:
    text = format_time_ago(now_ms - updated_at) if updated_at else "unknown"
    return pad_end(text, AGE_PAD)


def model_cell(model: str | None) -> str:
    return pad_end(model if model is not None else "unknown", MODEL_PAD)


_FLAG_FIELDS = (
    ("thinkingLevel", "think:"),
    ("verboseLevel", "verbose:"),
    ("traceLevel", "trace:"),
    ("reasoningLevel", "reasoning:"),
    ("elevatedLevel", "elev:"),
    ("responseUsage", "usage:"),
    ("groupActivation", "activation:"),
)


def _truthy(value) -> bool:
    """JavaScript truthiness for JSON values."""
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0 and value == value
    if isinstance(value, str):
        return value != ""
    return True


def _js_str(value) -> str:
    """Template-literal interpolation of a JSON value."""
    from openclaw_cli.jsstr import js_number_to_string

    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number_to_string(value)
    if isinstance(value, list):
        return ",".join("" if v is None else _js_str(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return "null"


def flags_cell(entry: Mapping, policy_key: str | None = None) -> str:
    parts = [f"{prefix}{_js_str(entry.get(field))}" for field, prefix in _FLAG_FIELDS
             if _truthy(entry.get(field))]
    if _truthy(entry.get("systemSent")):
        parts.append("system")
    if _truthy(entry.get("abortedLastRun")):
        parts.append("aborted")
    if policy_key:
        parts.append(f"policy:{policy_key}")
    if _truthy(entry.get("sessionId")):
        parts.append(f"id:{_js_str(entry.get('sessionId'))}")
    return " ".join(parts)


def _primary(value) -> str | None:
    if isinstance(value, str):
        return js_trim(value) or None
    if isinstance(value, Mapping):
        primary = value.get("primary")
        return (js_trim(primary) or None) if isinstance(primary, str) else None
    return None


def _parse_ref(raw: str, default_provider: str) -> tuple[str, str]:
    trimmed = js_trim(raw)
    if not trimmed:
        return default_provider, DEFAULT_MODEL
    slash = trimmed.find("/")
    if slash <= 0 or slash == len(trimmed) - 1:
        return default_provider, trimmed
    return (js_trim(trimmed[:slash]) or default_provider, js_trim(trimmed[slash + 1:]) or DEFAULT_MODEL)


def default_model_ref(cfg: Mapping, agent_id: str | None) -> tuple[str, str]:
    agents = cfg.get("agents") if isinstance(cfg, Mapping) else None
    agents = agents if isinstance(agents, Mapping) else {}
    primary = None
    if agent_id is not None and isinstance(agents.get("list"), list):
        for agent in agents["list"]:
            if isinstance(agent, Mapping) and agent.get("id") == agent_id:
                primary = _primary(agent.get("model"))
                break
    if primary is None:
        defaults = agents.get("defaults")
        primary = _primary(defaults.get("model")) if isinstance(defaults, Mapping) else None
    return _parse_ref(primary or DEFAULT_MODEL, DEFAULT_PROVIDER)


def _cli_providers(cfg: Mapping) -> set[str]:
    providers = set(BUILTIN_CLI_PROVIDERS)
    agents = cfg.get("agents") if isinstance(cfg, Mapping) else None
    defaults = agents.get("defaults") if isinstance(agents, Mapping) else None
    backends = defaults.get("cliBackends") if isinstance(defaults, Mapping) else None
    if isinstance(backends, Mapping):
        providers.update(js_trim(str(k)).lower() for k in backends)
    return providers


def display_model(cfg: Mapping, key: str, entry: Mapping) -> str:
    """The model id a session table shows for an entry (override, stored model, or the default)."""
    agent_id = key.split(":")[1] if key.startswith("agent:") else None
    default_provider, default_model = default_model_ref(cfg, agent_id)
    provider_override = entry.get("providerOverride")
    model_override = entry.get("modelOverride")
    p = js_trim(provider_override) if isinstance(provider_override, str) else None
    m = js_trim(model_override) if isinstance(model_override, str) else None
    if p and m:
        prefix = f"{p.lower()}/"
        if m.lower().startswith(prefix):
            m = js_trim(m[len(p) + 1:]) or m
    if m:
        return _parse_ref(m, p if p is not None else default_provider)[1]
    model = entry.get("model")
    if _truthy(model) and isinstance(model, str):
        provider = entry.get("modelProvider")
        provider = provider if isinstance(provider, str) and provider is not None else default_provider
        ref_provider, ref_model = _parse_ref(model, provider)
        if ref_provider.lower() in _cli_providers(cfg):
            # CLI-runtime rows may carry "provider/model" inside the model: show the model part.
            return _parse_ref(ref_model, default_provider)[1]
        return ref_model
    return default_model

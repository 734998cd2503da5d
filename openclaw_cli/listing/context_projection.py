"""The context size 2026.9.6 lists for a session: its configured model's limits, the entry's own figure only where its provenance lets it stand."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from openclaw_cli.js.values import is_record, lower_or_empty
from openclaw_cli.listing.cli_providers import is_cli_provider
from openclaw_cli.listing.runtime_config import DEFAULT_CONTEXT_TOKENS, defaults_of, normalize_provider_id

_ONE_MILLION = 1_000_000
_CLAUDE_1M = re.compile(r"(?:^|-)claude-(?:fable-5|mythos-(?:5|preview)|opus-4-(?:6|7|8)|sonnet-(?:5|4-6))(?=$|[^a-z0-9])")
_OPUS_5 = re.compile(r"(?:^|-)claude-opus-5(?=$|[^a-z0-9])")
_SONNET_5 = re.compile(r"(?:^|-)claude-sonnet-5(?=$|[^a-z0-9])")


def _positive(value: Any) -> float | None:
    """A number above zero (OpenClaw's `typeof value === "number" && value > 0`), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if value > 0 else None


def _min_positive(*values: Any) -> float | None:
    found = [v for v in map(_positive, values) if v is not None]
    return min(found) if found else None


def _strip_self_prefix(provider: str, model: str) -> str:
    """stripSelfProviderModelPrefix: `provider/x` becomes `x` (the prefix compared lowercased)."""
    prefix = f"{lower_or_empty(provider)}/"
    trimmed = model.strip()
    return trimmed[len(prefix):] if trimmed.lower().startswith(prefix) else model


def _claude_identity(model_id: str) -> str:
    normalized = model_id.strip().lower()
    normalized = re.sub(r"[._\s]+", "-", normalized[10:] if normalized.startswith("anthropic/") else normalized)
    match = re.search(r"(?:^|[-/])(claude-[^/]+)$", normalized)
    return match.group(1) if match else normalized


def _is_opus_5(identity: str) -> bool:
    return identity in ("opus", "opus-5", "opus-5-5") or bool(re.match(r"claude-opus-5-5(?=$|[^a-z0-9])", identity)) \
        or bool(_OPUS_5.search(identity))


def anthropic_fixed_window(provider: str, model: str, claude_cli_1m: bool) -> int | None:
    """resolveAnthropicFixedContextWindow: the 1M window of the Claude models that have one."""
    if provider not in ("anthropic", "anthropic-vertex", "claude-cli"):
        return None
    lowered = lower_or_empty(model)
    model_id = lowered.split("/")[-1] if "/" in lowered else lowered
    if re.match(r"claude-fable-5(?=$|[^a-z0-9])", model_id):
        return _ONE_MILLION
    if provider != "claude-cli" and re.match(r"claude-mythos-5(?=$|[^a-z0-9])", model_id):
        return _ONE_MILLION
    identity = _claude_identity(model_id)
    if _is_opus_5(identity) or _SONNET_5.search(identity):
        return _ONE_MILLION
    if not _CLAUDE_1M.search(identity):
        return None
    if provider == "claude-cli" and not model_id.endswith("[1m]") and not claude_cli_1m:
        return None
    return _ONE_MILLION


def _merged_provider(cfg: Mapping, provider: str) -> Mapping | None:
    """resolveMergedModelProviderConfig: the provider entry whose key is `provider` (exactly, else
    normalised), every entry under that key merged."""
    models = cfg.get("models")
    providers = models.get("providers") if is_record(models) else None
    items = [(k, v) for k, v in providers.items() if is_record(v)] if is_record(providers) else []
    requested, normalized = provider.strip(), normalize_provider_id(provider)
    key = next((k for k, _ in items if k.strip() == requested), None) \
        or next((k for k, _ in items if normalize_provider_id(k) == normalized), None)
    if not normalized or key is None:
        return None
    matched: dict | None = None
    for candidate, entry in items:
        if candidate.strip() == key.strip():
            matched = dict(entry) if matched is None else {
                **matched, **entry, "models": entry.get("models", matched.get("models"))}
    return matched


def _model_rows(provider_config: Mapping) -> dict[str, dict]:
    """The provider's model rows by trimmed id, a model's own `contextTokens` else the provider's
    (as the loaded config carries it); the first row of an id wins field by field."""
    rows: dict[str, dict] = {}
    inherited = provider_config.get("contextTokens")
    models = provider_config.get("models")
    for model in models if isinstance(models, list) else ():
        if not is_record(model) or not isinstance(model.get("id"), str) or not model["id"].strip():
            continue
        row = dict(model)
        if "contextTokens" not in row and inherited is not None:
            row["contextTokens"] = inherited
        model_id = model["id"].strip()
        rows[model_id] = {**row, **rows[model_id]} if model_id in rows else row
    return rows


class ContextProjection:
    """2026.9.6's configured context caches and its projection of one listed row's context size."""

    def __init__(self, cfg: Mapping, default_model: str) -> None:
        self.cfg = cfg
        self.tokens: dict[Any, float] = {}
        self.windows: dict[Any, float] = {}
        self._configured: dict[tuple[str, str], dict | None] = {}
        self._prime()
        self.fallback = self.lookup(default_model) or DEFAULT_CONTEXT_TOKENS

    def _prime(self) -> None:
        """applyConfiguredContextWindows: each model's `contextTokens`, else its `contextWindow`,
        under its id and under its provider (later providers overwrite earlier ones)."""
        models = self.cfg.get("models")
        providers = models.get("providers") if is_record(models) else None
        for provider_id, provider in providers.items() if is_record(providers) else ():
            entries = provider.get("models") if is_record(provider) else None
            for model in entries if isinstance(entries, list) else ():
                self._prime_model(provider_id, provider, model)

    def _prime_model(self, provider_id: str, provider: Mapping, model: Any) -> None:
        model = model if is_record(model) else {}
        model_id = model.get("id") if isinstance(model.get("id"), str) else None
        tokens = _positive(model.get("contextTokens", provider.get("contextTokens")))
        window = _positive(model.get("contextWindow"))
        cache, value = (self.tokens, tokens) if tokens else (self.windows, window)
        if not model_id or not value:
            return
        normalized = normalize_provider_id(provider_id)
        cache[model_id] = cache[(normalized, model_id)] = value
        prefix, _, bare = model_id.partition("/")
        if normalized and "/" in model_id and prefix and normalize_provider_id(prefix) == normalized and bare.strip():
            cache[(normalized, bare.strip())] = value

    def lookup(self, model_id: Any) -> float | None:
        """lookupContextTokens: the smaller configured figure for a bare model id."""
        if not isinstance(model_id, str) or not model_id:
            return None
        return _min_positive(self.tokens.get(model_id), self.windows.get(model_id))

    def configured_model(self, provider: str, model: str) -> dict | None:
        """resolveConfiguredProviderModel: the provider's row for `model` (also spelled without,
        or found through a row spelled with, the provider's own prefix)."""
        key = (provider, model)
        if key not in self._configured:
            self._configured[key] = self._find_model(provider, model)
        return self._configured[key]

    def _find_model(self, provider: str, model: str) -> dict | None:
        config = _merged_provider(self.cfg, provider)
        if config is None:
            return None
        rows = _model_rows(config)
        bare = _strip_self_prefix(provider, model)
        for spelling in ([model] if bare == model else [model, bare]):
            wanted = spelling.strip()
            if wanted in rows:
                return rows[wanted]
            for candidate, row in rows.items():
                legacy = _strip_self_prefix(provider, candidate)
                if legacy != candidate and legacy.strip() == wanted:
                    return row
        return None

    def _claude_cli_1m(self, provider: str, model: str) -> bool:
        defaults = defaults_of(self.cfg)
        models = defaults.get("models")
        entry = models.get(f"{provider}/{model}") if is_record(models) else None
        params = entry.get("params") if is_record(entry) else None
        if is_record(params) and "context1m" in params:
            return params["context1m"] is True
        default_params = defaults.get("params")
        return is_record(default_params) and default_params.get("context1m") is True

    def resolve(self, provider: Any, model: Any) -> tuple[float | None, float | None]:
        """resolveModelContextTokenProjection without discovery: (context tokens, authored cap)."""
        model_raw = model.strip() if isinstance(model, str) else ""
        explicit = provider.strip() if isinstance(provider, str) else ""
        if model_raw and explicit and normalize_provider_id(explicit):
            configured = self.configured_model(explicit, model_raw) or {}
            authored = _positive(configured.get("contextTokens"))
            normalized = normalize_provider_id(explicit)
            fixed = anthropic_fixed_window(normalized, model_raw, self._claude_cli_1m(normalized, model_raw))
            window = _positive(configured.get("contextWindow"))
            limit = fixed or window
            if authored:
                return (min(authored, limit) if limit else authored), authored
            if fixed:
                return fixed, authored
            cap = _min_positive(self.tokens.get((normalized, model_raw)), self.windows.get((normalized, model_raw)))
            if cap:
                return (min(cap, window) if window else cap), authored
            if window:
                return window, authored
            return self.lookup(model), authored
        return self.lookup(model), None

    def authored(self, provider: Any, model: Any) -> float | None:
        """resolveAuthoredModelContextTokens: the configured row's own `contextTokens`."""
        model_raw = model.strip() if isinstance(model, str) else ""
        explicit = provider.strip() if isinstance(provider, str) else ""
        if not model_raw or not explicit or not normalize_provider_id(explicit):
            return None
        return _positive((self.configured_model(explicit, model_raw) or {}).get("contextTokens"))

    def for_entry(self, entry: Mapping, provider: Any, model: Any, harness: Any) -> float | None:
        """The row's `contextTokens` (None: the listing's default applies)."""
        if _positive(entry.get("contextTokens")) is None and is_cli_provider(harness, self.cfg):
            resolved, authored = self.lookup(model), self.authored(provider, model)
        else:
            resolved, authored = self.resolve(provider, model)
        return projected_context_tokens(entry, provider, model, harness, resolved, authored)


def _same_selection(entry: Mapping, provider: Any, model: Any, harness: Any) -> bool:
    pairs = ((entry.get("modelProvider"), provider), (entry.get("model"), model), (entry.get("agentHarnessId"), harness))
    lowered = [(lower_or_empty(a), lower_or_empty(b)) for a, b in pairs]
    return all(a and b and a == b for a, b in lowered)


def trusted_context_tokens(entry: Mapping, provider: Any, model: Any, harness: Any) -> float | None:
    """resolveTrustedSessionContextTokens: the entry's figure when it belongs to this selection."""
    tokens = _positive(entry.get("contextTokens"))
    if tokens is None:
        return None
    if entry.get("modelSelectionLocked") is True:
        for stored, current in ((entry.get("modelProvider"), provider), (entry.get("model"), model)):
            a, b = lower_or_empty(stored), lower_or_empty(current)
            if a and b and a != b:
                return None
        return tokens
    if entry.get("contextTokensSource") != "runtime":
        return None
    return tokens if _same_selection(entry, provider, model, harness) else None


def projected_context_tokens(entry: Mapping, provider: Any, model: Any, harness: Any,
                             resolved: float | None, authored: float | None) -> float | None:
    """resolveProjectedSessionContextTokens: an authored cap wins, a trusted figure is capped by
    the model's, a `resolved-v1` figure of the same selection stands in for a model with none."""
    trusted = trusted_context_tokens(entry, provider, model, harness)
    persisted = None
    if resolved is None and authored is None and entry.get("contextTokensSource") == "resolved-v1" \
            and _same_selection(entry, provider, model, harness):
        persisted = _positive(entry.get("contextTokens"))
    if authored is not None:
        current: float | None = authored if resolved is None else min(authored, resolved)
    elif trusted is not None and resolved is not None:
        current = min(trusted, resolved)
    else:
        current = next((v for v in (trusted, resolved, persisted) if v is not None), None)
    if entry.get("modelSelectionLocked") is True and trusted is not None:
        return trusted
    return current

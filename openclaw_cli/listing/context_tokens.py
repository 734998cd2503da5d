"""Context window per model id, from the configured provider catalogs (the listing never loads more)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeGuard

from openclaw_cli.js.values import UNDEFINED, coalesce, is_record
from openclaw_cli.listing.runtime_config import DEFAULT_CONTEXT_TOKENS, defaults_of

if TYPE_CHECKING:
    from openclaw_cli.listing.context_projection import ContextProjection
    from openclaw_cli.listing.rows import SessionRow


def _number(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _positive(value: Any) -> TypeGuard[float]:
    return _number(value) and value == value and value not in (float("inf"),) and value > 0


class ContextWindows:
    """OpenClaw's configured context caches: `contextTokens` caps and `contextWindow` sizes.

    Each configured provider model registers under its id; a model-level value wins over the
    provider-level one, and a model without a positive `contextWindow` counts as 200k (the
    runtime default). Later providers overwrite earlier ones for the same id.
    """

    def __init__(self, cfg: Mapping) -> None:
        self.tokens: dict[str, float] = {}
        self.windows: dict[str, float] = {}
        models = cfg.get("models")
        providers = models.get("providers") if is_record(models) else None
        for provider in providers.values() if is_record(providers) else ():
            entries = provider.get("models") if is_record(provider) else None
            if not isinstance(entries, list):
                continue
            for model in entries:
                model = model if is_record(model) else {}
                model_id = model.get("id")
                tokens = model.get("contextTokens") if _number(model.get("contextTokens")) else (
                    provider.get("contextTokens") if _number(provider.get("contextTokens")) else None)
                raw_window = model.get("contextWindow")
                window = raw_window if _positive(raw_window) else DEFAULT_CONTEXT_TOKENS
                if not isinstance(model_id, str) or not model_id:
                    continue
                if tokens is not None and tokens > 0:
                    self.tokens[model_id] = tokens
                elif window > 0:
                    self.windows[model_id] = window

    def lookup(self, model_id: Any) -> float | None:
        """lookupContextTokens without the async catalog load: the smaller configured limit."""
        if not isinstance(model_id, str) or not model_id:
            return None
        tokens, window = self.tokens.get(model_id), self.windows.get(model_id)
        values = [v for v in (tokens, window) if v is not None and v > 0] if tokens or window else None
        return min(values) if values else None


class ContextDefaults:
    """The context-token fallbacks a listing uses for rows without their own `contextTokens`."""

    def __init__(self, cfg: Mapping, default_model: str) -> None:
        self.windows = ContextWindows(cfg)
        self.configured = defaults_of(cfg).get("contextTokens", UNDEFINED)
        fallback = coalesce(self.configured, self.windows.lookup(default_model))
        self.fallback = fallback if fallback not in (None, UNDEFINED) else DEFAULT_CONTEXT_TOKENS
        self._cfg, self._default_model = cfg, default_model
        self._projection: ContextProjection | None = None

    def of_row(self, row: SessionRow) -> Any:
        """A listed row's context size: 2026.9.6's projection for a row read from an agent
        database, else 2026.7.1's rule."""
        entry = row.entry
        if not row.sqlite_era:
            return self.for_row(entry.get("contextTokens", UNDEFINED), row.model_ref.model)
        if self._projection is None:
            from openclaw_cli.listing.context_projection import ContextProjection

            self._projection = ContextProjection(self._cfg, self._default_model)
        ref = row.model_ref
        own = self._projection.for_entry(entry, ref.provider, ref.model, row.agent_runtime.get("id"))
        return own if own is not None else self._projection.fallback

    def for_row(self, row_context_tokens: Any, model: str) -> Any:
        """`row ?? agents.defaults.contextTokens ?? lookup(model) ?? the default-model window`."""
        if row_context_tokens is not None and row_context_tokens is not UNDEFINED:
            return row_context_tokens
        return coalesce(self.configured, self.windows.lookup(model), self.fallback)

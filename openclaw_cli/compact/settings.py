"""Compaction settings resolved from `agents.defaults.compaction` as 2026.7.1 does."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

DEFAULT_KEEP_RECENT_TOKENS = 20000
DEFAULT_RESERVE_TOKENS = 16384
DEFAULT_RESERVE_TOKENS_FLOOR = 20000
MIN_PROMPT_BUDGET_TOKENS = 8000
MIN_PROMPT_BUDGET_RATIO = 0.5


@dataclass(frozen=True)
class CompactionSettings:
    """Effective settings: the cut budget, the summary reserve and how summaries are made."""

    keep_recent_tokens: int = DEFAULT_KEEP_RECENT_TOKENS
    reserve_tokens: int = DEFAULT_RESERVE_TOKENS_FLOOR
    keep_recent_configured: bool = False
    mode: str = "default"  # "default" or "safeguard"
    raw: Mapping[str, Any] | None = None

    @property
    def harden_manual_boundary(self) -> bool:
        """A manual compaction keeps no recent tail unless keepRecentTokens is configured."""
        return not self.keep_recent_configured


def _finite(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def compaction_config(config: Mapping[str, Any] | None) -> Mapping[str, Any]:
    agents = (config or {}).get("agents")
    defaults = agents.get("defaults") if isinstance(agents, Mapping) else None
    compaction = defaults.get("compaction") if isinstance(defaults, Mapping) else None
    return compaction if isinstance(compaction, Mapping) else {}


def resolve_settings(config: Mapping[str, Any] | None, *, context_window: int | None = None,
                     keep_recent_tokens: int | None = None) -> CompactionSettings:
    """`applyAgentCompactionSettingsFromConfig` plus the mode (`resolveEffectiveCompactionMode`).

    `keep_recent_tokens` overrides the configured value (it then counts as configured).
    """
    cfg = compaction_config(config)
    raw_keep = cfg.get("keepRecentTokens")
    configured_keep = math.floor(raw_keep) if _finite(raw_keep) and raw_keep > 0 else None
    raw_reserve = cfg.get("reserveTokens")
    configured_reserve = math.floor(raw_reserve) if _finite(raw_reserve) and raw_reserve >= 0 else None
    raw_floor = cfg.get("reserveTokensFloor")
    floor = math.floor(raw_floor) if _finite(raw_floor) and raw_floor >= 0 else DEFAULT_RESERVE_TOKENS_FLOOR
    max_reserve: int | None = None
    if context_window is not None and context_window > 0:
        budget = math.floor(context_window)
        min_prompt = min(MIN_PROMPT_BUDGET_TOKENS, max(1, math.floor(budget * MIN_PROMPT_BUDGET_RATIO)))
        max_reserve = max(0, budget - min_prompt)
        floor = min(floor, max_reserve)
    reserve = max(configured_reserve if configured_reserve is not None else DEFAULT_RESERVE_TOKENS, floor)
    if max_reserve is not None:
        reserve = min(reserve, max_reserve)
    keep = DEFAULT_KEEP_RECENT_TOKENS
    configured = False
    if keep_recent_tokens is not None:
        keep, configured = max(1, int(keep_recent_tokens)), True
    elif configured_keep is not None:
        keep, configured = configured_keep, True
    # keepRecentTokens counts as configured for the boundary rule only when it is a number
    if isinstance(raw_keep, (int, float)) and not isinstance(raw_keep, bool):
        configured = True
    mode = "safeguard" if cfg.get("provider") or cfg.get("mode") == "safeguard" else "default"
    return CompactionSettings(keep_recent_tokens=keep, reserve_tokens=reserve,
                              keep_recent_configured=configured, mode=mode, raw=cfg)

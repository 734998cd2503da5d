"""Listed session rows: built from store entries, filtered by activity, newest first, as JSON."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.js.values import UNDEFINED, truthy
from openclaw_cli.listing.acp import AcpMeta, meta_for_entry
from openclaw_cli.listing.context_tokens import ContextDefaults
from openclaw_cli.listing.kind import classify_session_kind
from openclaw_cli.listing.model_ref import ModelRef, display_model_ref
from openclaw_cli.listing.policy_key import runtime_policy_key
from openclaw_cli.listing.runtime import agent_runtime, runtime_label
from openclaw_cli.listing.store_key import stored_key_for_agent_store
from openclaw_cli.store.keys import is_acp_key, parse_agent_key

TOP_N_SELECTION_LIMIT = 200

# toSessionDisplayRow: the entry fields a row carries, in order (updatedAt and ageMs come first).
_ENTRY_FIELDS = (
    "sessionId", "sessionFile", "spawnedBy", "spawnedWorkspaceDir", "spawnedCwd", "parentSessionKey",
    "forkedFromParent", "spawnDepth", "subagentRole", "subagentControlScope", "sessionStartedAt",
    "lastInteractionAt", "label", "status", "systemSent", "abortedLastRun", "thinkingLevel", "verboseLevel",
    "traceLevel", "reasoningLevel", "elevatedLevel", "responseUsage", "groupActivation", "inputTokens",
    "outputTokens", "totalTokens", "totalTokensFresh", "model", "modelProvider", "providerOverride",
    "modelOverride", "contextTokens",
)
# The same in 2026.9.6, for a SQLite-era store: no sessionFile; colour, visibility (default
# "shared"), owner and participants, the token-count version.
_ENTRY_FIELDS_SQLITE = (
    "sessionId", "spawnedBy", "spawnedWorkspaceDir", "spawnedCwd", "parentSessionKey", "forkedFromParent",
    "spawnDepth", "subagentRole", "subagentControlScope", "sessionStartedAt", "lastInteractionAt", "label",
    "color", "status", "visibility", "createdActor", "owner", "participants", "participantCount", "systemSent",
    "abortedLastRun", "thinkingLevel", "verboseLevel", "traceLevel", "reasoningLevel", "elevatedLevel",
    "responseUsage", "groupActivation", "inputTokens", "outputTokens", "totalTokens", "totalTokensFresh",
    "totalTokensVersion", "model", "modelProvider", "providerOverride", "modelOverride", "contextTokens",
)


@dataclass
class SessionRow:
    """One listed session and everything the table and JSON show about it."""

    key: str
    entry: Mapping
    agent_id: str
    updated_at: Any
    model_ref: ModelRef
    acp_runtime: bool
    agent_runtime: dict
    kind: str
    policy_key: str | None
    runtime_label: str
    extra: dict = field(default_factory=dict)
    sqlite_era: bool = False  # read from an agent database (2026.9.6's row shape)

    @property
    def sort_value(self) -> float:
        return self.updated_at if self.updated_at is not None else 0

    def total_tokens(self) -> Any:
        """resolveSessionTotalTokens: a finite, non-negative `totalTokens`, else None."""
        total = self.entry.get("totalTokens")
        if isinstance(total, bool) or not isinstance(total, (int, float)):
            return None
        if total != total or total in (float("inf"), float("-inf")) or total < 0:
            return None
        return total

    def fresh_total(self) -> Any:
        """resolveFreshSessionTotalTokens (2026.9.6): the total only when marked fresh under
        counting version 1."""
        total = self.total_tokens()
        if total is None or self.entry.get("totalTokensFresh") is not True \
                or self.entry.get("totalTokensVersion") != 1:
            return None
        return total


def acp_model_overlay(ref: ModelRef, acp_key: str, acp_runtime: bool) -> ModelRef:
    """An ACP-run session shows `acpx` / `<agentId>-acp` instead of its configured model."""
    if not acp_runtime or not is_acp_key(acp_key):
        return ref
    parsed = parse_agent_key(acp_key)
    return ModelRef("acpx", f"{parsed[0] if parsed else 'acp'}-acp")


def _plain(*values: Any) -> bool:
    """Every value a string, null or absent: a key that stands for them exactly (no 1 == True)."""
    return all(v is None or v is UNDEFINED or type(v) is str for v in values)


class RowBuilder:
    """Builds the rows of one listing. The model and runtime-label cells depend on a few fields and
    the config, so rows that share those fields share one answer."""

    def __init__(self, cfg: Mapping, acp_sessions: Mapping[str, AcpMeta]) -> None:
        self.cfg = cfg
        self.acp_sessions = acp_sessions
        self._refs: dict[tuple, ModelRef] = {}
        self._labels: dict[tuple, str] = {}

    def _model_ref(self, key: str, entry: Mapping) -> ModelRef:
        fields = (key.split(":")[1] if key.startswith("agent:") else None, entry.get("providerOverride", UNDEFINED),
                  entry.get("modelOverride", UNDEFINED), entry.get("model", UNDEFINED),
                  entry.get("modelProvider", UNDEFINED))
        if not _plain(*fields):
            return display_model_ref(self.cfg, key, entry)
        ref = self._refs.get(fields)
        if ref is None:
            ref = self._refs[fields] = display_model_ref(self.cfg, key, entry)
        return ref

    def _label(self, entry: Mapping, runtime: Mapping, provider: Any) -> str:
        fields = (runtime.get("id"), entry.get("modelProvider", UNDEFINED), entry.get("providerOverride", UNDEFINED),
                  provider)
        if "acp" in entry or not _plain(*fields):
            return runtime_label(self.cfg, entry, runtime, provider)
        label = self._labels.get(fields)
        if label is None:
            label = self._labels[fields] = runtime_label(self.cfg, entry, runtime, provider)
        return label

    def build(self, key: str, entry: Mapping, store_agent_id: str, *, sqlite_era: bool = False) -> SessionRow:
        cfg, acp_sessions = self.cfg, self.acp_sessions
        parsed = parse_agent_key(key)
        agent_id = parsed[0] if parsed else store_agent_id
        # The store key matters only for ACP metadata: without any, the runtime never reads it (the
        # row's agent id is always known).
        acp_key = stored_key_for_agent_store(cfg, agent_id, key) if acp_sessions else key
        meta = meta_for_entry(acp_sessions, acp_key, entry) if acp_sessions else None
        acp_runtime = meta is not None
        ref = acp_model_overlay(self._model_ref(key, entry), acp_key, acp_runtime)
        backend = meta.backend if meta is not None and isinstance(meta.backend, str) else None
        runtime = agent_runtime(cfg, agent_id=agent_id, provider=ref.provider, model=ref.model, session_key=acp_key,
                                acp_runtime=acp_runtime, acp_backend=backend, entry=entry if sqlite_era else None)
        updated_at = entry.get("updatedAt")
        return SessionRow(
            key=key, entry=entry, agent_id=agent_id, updated_at=updated_at, model_ref=ref, acp_runtime=acp_runtime,
            agent_runtime=runtime, kind=classify_session_kind(key, entry),
            policy_key=runtime_policy_key(cfg, key, entry), runtime_label=self._label(entry, runtime, ref.provider),
            sqlite_era=sqlite_era)


def is_active(entry: Mapping, now_ms: float, active_minutes: int | None) -> bool:
    """`--active N`: a numeric `updatedAt` no more than N minutes ago (future times count)."""
    if active_minutes is None:
        return True
    updated_at = entry.get("updatedAt")
    if isinstance(updated_at, bool) or not isinstance(updated_at, (int, float)):
        return False
    return now_ms - updated_at <= active_minutes * 60_000


def select_newest(rows: list[SessionRow], limit: int | None) -> list[SessionRow]:
    """Newest first; equal times keep store order. The first `limit` rows, or all for None.

    For limits up to 200 OpenClaw inserts each row into a bounded sorted list (a row goes
    after the rows it ties with, and a row tying with the last kept one is not taken); that is
    the same as a stable sort cut to `limit`, which is what this computes.
    """
    if limit is None or limit > TOP_N_SELECTION_LIMIT:
        ordered = sorted(rows, key=lambda r: -r.sort_value)
        return ordered if limit is None else ordered[:limit]
    return heapq.nsmallest(limit, rows, key=lambda r: -r.sort_value)


def json_row(row: SessionRow, now_ms: float, context: ContextDefaults) -> dict:
    """A `sessions[]` item: the display row's fields in OpenClaw's order, then its extras."""
    entry = row.entry
    get = entry.get
    updated_at = row.updated_at
    out: dict[str, Any] = {"key": row.key, "updatedAt": updated_at,
                           "ageMs": now_ms - updated_at if updated_at else None}
    raw_total = get("totalTokens", UNDEFINED)
    fresh = (get("totalTokensFresh", UNDEFINED) is not False) if isinstance(raw_total, (int, float)) \
        and not isinstance(raw_total, bool) else False
    overrides = {
        "totalTokens": row.total_tokens(),
        "totalTokensFresh": fresh,
        "contextTokens": context.of_row(row),
        "modelProvider": row.model_ref.provider,
        "model": row.model_ref.model,
    }
    if row.sqlite_era:
        # 2026.9.6 counts a total as fresh only when marked so under counting version 1.
        overrides["totalTokensFresh"] = row.fresh_total() is not None
        visibility = get("visibility")
        overrides["visibility"] = "shared" if visibility is None else visibility
        overrides["forkedFromParent"] = True if truthy(get("forkedFromParent")) else UNDEFINED
    for name, overridden in _SQLITE_PLAN if row.sqlite_era else _FILE_PLAN:
        value = overrides[name] if overridden else get(name, UNDEFINED)
        if value is not UNDEFINED:
            out[name] = value
    out["agentId"] = row.agent_id
    out["acpRuntime"] = row.acp_runtime
    out["agentRuntime"] = dict(row.agent_runtime)
    out["kind"] = row.kind
    if row.policy_key is not None:
        out["runtimePolicySessionKey"] = row.policy_key
    return out


_FILE_OVERRIDES = frozenset(("totalTokens", "totalTokensFresh", "contextTokens", "modelProvider", "model"))
# Each field of a row in order, and whether json_row computes it rather than copying the entry's.
_FILE_PLAN = tuple((name, name in _FILE_OVERRIDES) for name in _ENTRY_FIELDS)
_SQLITE_PLAN = tuple((name, name in _FILE_OVERRIDES | {"visibility", "forkedFromParent"})
                     for name in _ENTRY_FIELDS_SQLITE)


def iter_entries(store: Mapping) -> Iterable[tuple[str, Mapping]]:
    for key, entry in store.items():
        yield key, entry if isinstance(entry, Mapping) else {}

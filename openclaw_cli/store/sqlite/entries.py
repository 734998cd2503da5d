"""Session entries of an agent database: `session_nodes.entry_json`, with its owner and participants."""

from __future__ import annotations

from typing import Any

from openclaw_cli.js import json as js_json
from openclaw_cli.store.sqlite.connection import AgentDb

_OWNER_COLUMNS = ("owner_actor_type", "owner_actor_id", "owner_assigned_by_type", "owner_assigned_by_id",
                  "owner_assigned_at")
# Fields OpenClaw drops from a stored entry before returning it (retired locators, projections).
_RETIRED_FIELDS = ("sessionFile", "transcriptPath", "owner", "participants", "participantCount")
# What a listing leaves out of each entry (the large prompt snapshots).
_LIST_OMITTED = ("skillsSnapshot", "systemPromptReport")
_INTERNAL_SEGMENT = "internal-session-effects:"


def is_internal_key(key: str) -> bool:
    """`agent:<id>:internal-session-effects:…`: bookkeeping rows no listing shows."""
    if not key.startswith("agent:"):
        return False
    end = key.find(":", 6)
    return end >= 0 and key.startswith(_INTERNAL_SEGMENT, end + 1)


def _columns(db: AgentDb, table: str) -> set[str]:
    return {row[1] for row in db.rows(f"PRAGMA table_info({table})")}


def _actor(kind: Any, ident: Any) -> dict | None:
    ident = ident.strip() if isinstance(ident, str) else ""
    return {"type": kind, "id": ident} if kind in ("human", "agent", "system") and ident else None


def _owner(values: tuple) -> dict | None:
    actor = _actor(values[0], values[1])
    if actor is None:
        return None
    owner: dict[str, Any] = {"actor": actor}
    assigned_by = _actor(values[2], values[3])
    if assigned_by:
        owner["assignedBy"] = assigned_by
    if isinstance(values[4], (int, float)) and not isinstance(values[4], bool):
        owner["assignedAt"] = values[4]
    return owner


def _participants(db: AgentDb) -> dict[str, list[dict]]:
    """Each key's participants, in OpenClaw's order (first prompted, actor, namespace)."""
    if not db.has_table("session_participants"):
        return {}
    out: dict[str, list[dict]] = {}
    for key, namespace, actor_id in db.rows(
            "SELECT session_key, identity_namespace, actor_id FROM session_participants "
            "ORDER BY session_key, first_prompted_at, actor_id, identity_namespace"):
        identity = js_json.loads(namespace)
        identity = {**identity, "id": actor_id} if isinstance(identity, dict) else {"id": actor_id}
        out.setdefault(key, []).append({"identity": identity})
    return out


def _project(entry: dict, owner: dict | None, participants: list[dict] | None, listing: bool) -> dict:
    omitted = _RETIRED_FIELDS + (_LIST_OMITTED if listing else ())
    out = {name: value for name, value in entry.items() if name not in omitted}
    if owner is not None:
        out["owner"] = owner
    if participants:
        out["participants"] = participants
        out["participantCount"] = len(participants)
    return out


def read_entries(db: AgentDb, *, listing: bool = False) -> list[tuple[str, dict]]:
    """Every session key and its entry, ordered by key, as OpenClaw reads them (internal keys
    and rows whose JSON is not an object left out). `listing` drops the prompt snapshots."""
    return _read(db, None, listing)


def read_entry(db: AgentDb, key: str) -> dict | None:
    """One session key's entry as OpenClaw reads it (prompt snapshots included), or None."""
    found = _read(db, key, False)
    return found[0][1] if found else None


def _read(db: AgentDb, key: str | None, listing: bool) -> list[tuple[str, dict]]:
    owner_cols = [c for c in _OWNER_COLUMNS if c in _columns(db, "session_nodes")]
    has_owner = len(owner_cols) == len(_OWNER_COLUMNS)
    select = "session_key, entry_json" + (", " + ", ".join(_OWNER_COLUMNS) if has_owner else "")
    participants = _participants(db)
    where, params = ("WHERE session_key = ? ", (key,)) if key is not None else ("", ())
    out: list[tuple[str, dict]] = []
    for row in db.rows(f"SELECT {select} FROM session_nodes {where}ORDER BY session_key", params):
        key, text = row[0], row[1]
        if not isinstance(key, str) or is_internal_key(key):
            continue
        try:
            entry = js_json.loads(text) if isinstance(text, (str, bytes)) else None
        except ValueError:
            entry = None
        if not isinstance(entry, dict):
            continue
        owner = _owner(tuple(row[2:])) if has_owner else None
        out.append((key, _project(entry, owner, participants.get(key), listing)))
    return out

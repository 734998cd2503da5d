"""Least-privilege operator scopes per Gateway method, as OpenClaw 2026.7.1 classifies them."""

from __future__ import annotations

from typing import Any

ADMIN = "operator.admin"
READ = "operator.read"
WRITE = "operator.write"
APPROVALS = "operator.approvals"
PAIRING = "operator.pairing"
TALK_SECRETS = "operator.talk.secrets"

# What OpenClaw's CLI asks for when it does not know a method.
CLI_DEFAULT_SCOPES: tuple[str, ...] = (ADMIN, READ, WRITE, APPROVALS, PAIRING, TALK_SECRETS)

METHOD_SCOPES: dict[str, str] = {
    "health": READ,  # the server skips the check: [] works too
    "status": READ,
    "system-presence": READ,
    "system.info": READ,
    "config.get": READ,
    "last-heartbeat": READ,
    "gateway.identity.get": READ,
    "diagnostics.stability": READ,
    "doctor.memory.status": READ,
    "channels.status": READ,
    "logs.tail": READ,
    "models.list": READ,
    "agents.list": READ,
    "sessions.list": READ,
    "sessions.get": READ,
    "sessions.describe": READ,
    "sessions.preview": READ,
    "sessions.resolve": READ,
    "sessions.usage": READ,
    "sessions.usage.timeseries": READ,
    "sessions.usage.logs": READ,
    "sessions.compaction.list": READ,
    "chat.history": READ,
    "chat.send": WRITE,
    "chat.abort": WRITE,
    "sessions.cleanup": ADMIN,
    "sessions.compact": ADMIN,
    "sessions.reset": ADMIN,
    "chat.inject": ADMIN,
}

_PATCH_WRITE_KEYS = frozenset({"key", "agentId", "label", "category", "pinned", "archived", "unread"})
_DELETE_WRITE_KEYS = frozenset({"key", "agentId", "deleteTranscript", "archivedOnly"})


def scopes_for_method(method: str, params: Any = None) -> list[str]:
    """The narrowest scopes that let a device-less `cli` client call `method` with `params`."""
    if method == "sessions.patch":
        if not isinstance(params, dict):
            return [WRITE]
        return [WRITE] if set(params) <= _PATCH_WRITE_KEYS else [ADMIN]
    if method == "sessions.delete":
        if isinstance(params, dict) and params.get("archivedOnly") is True \
                and set(params) <= _DELETE_WRITE_KEYS:
            return [WRITE]
        return [ADMIN]
    scope = METHOD_SCOPES.get(method)
    return [scope] if scope else list(CLI_DEFAULT_SCOPES)

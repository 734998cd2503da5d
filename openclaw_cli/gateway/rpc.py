"""One function per Gateway RPC this tool uses; each opens a connection, calls, and closes."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.gateway.client import GatewayClient
from openclaw_cli.gateway.discovery import (
    DEFAULT_CALL_TIMEOUT_MS,
    GatewayConnection,
    resolve_connection,
)
from openclaw_cli.gateway.scopes import scopes_for_method

OFFLINE_REPAIR_HINT = "Or use --store <path> for an explicit offline repair of a store file"
CHAT_FINAL_TIMEOUT_MS = 60_000

CLEANUP_PARAMS = ("agent", "allAgents", "enforce", "activeKey", "fixMissing", "fixDmScope")
COMPACT_PARAMS = ("key", "agentId", "maxLines")
LIST_PARAMS = ("limit", "offset", "activeMinutes", "includeGlobal", "includeUnknown",
               "configuredAgentsOnly", "includeDerivedTitles", "includeLastMessage", "label",
               "spawnedBy", "agentId", "search", "archived")
USAGE_PARAMS = ("key", "agentId", "agentScope", "startDate", "endDate", "mode", "range", "groupBy",
                "includeHistorical", "utcOffset", "limit", "includeContextWeight")
HISTORY_PARAMS = ("sessionKey", "agentId", "limit", "offset", "maxChars")


def clean_params(method: str, params: Mapping[str, Any] | None,
                 allowed: Iterable[str]) -> dict[str, Any]:
    """Drop None values (JSON leaves undefined out); reject keys the 2026.7.1 schema refuses."""
    allowed = tuple(allowed)
    out = {k: v for k, v in (params or {}).items() if v is not None}
    unknown = sorted(set(out) - set(allowed))
    if unknown:
        raise ValueError(f"{method} does not accept {', '.join(unknown)} "
                         f"(allowed: {', '.join(allowed)})")
    return out


def connection_for(method: str, env: MutableMapping[str, str] | None = None, *,
                   cfg: Mapping[str, Any] | None = None, config_path: str | None = None,
                   url: str | None = None, port: Any = None, token: str | None = None,
                   password: str | None = None, strict: bool = True) -> GatewayConnection:
    """resolve_connection(), loading the config first (into `env`, like OpenClaw's process
    environment: dotenv files and the config `env` block) unless `cfg` is given.

    An explicit `--url` with explicit credentials needs no config at all, as in OpenClaw.
    With `strict`, an invalid config raises ConfigError, as OpenClaw's Gateway calls do.
    """
    env = os.environ if env is None else env
    if not isinstance(env, MutableMapping):
        env = dict(env)
    if cfg is None:
        explicit = (token and token.strip()) or (password and password.strip())
        if url and url.strip() and explicit:
            cfg = {}
        else:
            from openclaw_cli.config.load import load_config

            loaded = load_config(env, strict=strict)
            cfg = loaded.data
            config_path = config_path or str(loaded.path)
    return resolve_connection(method, cfg, env, url=url, port=port, token=token,
                              password=password, config_path=config_path)


def connection_if_running(method: str, env: MutableMapping[str, str], *, cfg: Mapping[str, Any],
                          action: str, offline_hint: str, url: str | None = None, port: Any = None,
                          token: str | None = None, password: str | None = None) -> GatewayConnection | None:
    """`connection_for()`, except that with no credentials at all the Gateway address is probed:
    nothing listening means no Gateway (None: work on the files); something listening is an
    error, since the work cannot be handed to it."""
    from openclaw_cli.gateway.discovery import is_listening
    from openclaw_cli.gateway.errors import GatewayCredentialsRequired

    try:
        return connection_for(method, env, cfg=cfg, url=url, port=port, token=token, password=password)
    except GatewayCredentialsRequired as exc:
        if exc.url and is_listening(exc.url) is False:
            return None
        raise GatewayCredentialsRequired(
            f"a Gateway may be running at {exc.url or 'the configured address'} but no token or password "
            f"is configured, so {action} cannot be handed to it",
            url=exc.url, url_source=exc.url_source,
            hint="Pass --token/--password (or set OPENCLAW_GATEWAY_TOKEN / OPENCLAW_GATEWAY_PASSWORD), "
                 f"or {offline_hint}") from None


def call(method: str, params: Any = None, scopes: Iterable[str] | None = None, *,
         connection: GatewayConnection, timeout_ms: int | None = DEFAULT_CALL_TIMEOUT_MS,
         required_methods: Iterable[str] | None = None, expect_final: bool = False,
         offline_hint: str | None = None) -> Any:
    """Call any method on a fresh connection; scopes default to the method's least privilege."""
    chosen = list(scopes) if scopes is not None else scopes_for_method(method, params)
    with GatewayClient(connection, scopes=chosen, timeout_ms=timeout_ms,
                       offline_hint=offline_hint) as client:
        return client.request(method, {} if params is None else params,
                              required_methods=required_methods, expect_final=expect_final)


def sessions_cleanup(params: Mapping[str, Any] | None = None, *, connection: GatewayConnection,
                     timeout_ms: int | None = DEFAULT_CALL_TIMEOUT_MS,
                     offline_hint: str | None = OFFLINE_REPAIR_HINT) -> dict[str, Any]:
    """`sessions.cleanup` with OpenClaw's CLI's params `{agent, allAgents, enforce, activeKey,
    fixMissing, fixDmScope}` (None values are left out). Needs operator.admin."""
    return call("sessions.cleanup", clean_params("sessions.cleanup", params, CLEANUP_PARAMS),
                connection=connection, timeout_ms=timeout_ms,
                required_methods=["sessions.cleanup"], offline_hint=offline_hint)


def sessions_compact(params: Mapping[str, Any], *, connection: GatewayConnection,
                     timeout_ms: int | None = None,
                     offline_hint: str | None = None) -> dict[str, Any]:
    """`sessions.compact` `{key, agentId?, maxLines?}`; no deadline unless `timeout_ms` is given
    (the handshake still gets 10 s), like OpenClaw. Needs operator.admin."""
    return call("sessions.compact", clean_params("sessions.compact", params, COMPACT_PARAMS),
                connection=connection, timeout_ms=timeout_ms,
                required_methods=["sessions.compact"], offline_hint=offline_hint)


def sessions_list(params: Mapping[str, Any] | None = None, *, connection: GatewayConnection,
                  timeout_ms: int | None = DEFAULT_CALL_TIMEOUT_MS) -> dict[str, Any]:
    """`sessions.list` (operator.read); `archived` is a boolean in 2026.7.1."""
    return call("sessions.list", clean_params("sessions.list", params, LIST_PARAMS),
                connection=connection, timeout_ms=timeout_ms, required_methods=["sessions.list"])


def sessions_usage(params: Mapping[str, Any] | None = None, *, connection: GatewayConnection,
                   timeout_ms: int | None = DEFAULT_CALL_TIMEOUT_MS) -> dict[str, Any]:
    """`sessions.usage` (operator.read). It works but is not advertised, so it is not checked."""
    return call("sessions.usage", clean_params("sessions.usage", params, USAGE_PARAMS),
                connection=connection, timeout_ms=timeout_ms)


def chat_history(params: Mapping[str, Any], *, connection: GatewayConnection,
                 timeout_ms: int | None = DEFAULT_CALL_TIMEOUT_MS) -> dict[str, Any]:
    """`chat.history` `{sessionKey, agentId?, limit?, offset?, maxChars?}` (operator.read)."""
    return call("chat.history", clean_params("chat.history", params, HISTORY_PARAMS),
                connection=connection, timeout_ms=timeout_ms, required_methods=["chat.history"])


def health(params: Mapping[str, Any] | None = None, *, connection: GatewayConnection,
           timeout_ms: int | None = DEFAULT_CALL_TIMEOUT_MS) -> dict[str, Any]:
    """`health` (no scope check on the server; we ask for operator.read). `{probe: true}` skips
    the server's 60 s cache."""
    return call("health", dict(params or {}), connection=connection, timeout_ms=timeout_ms,
                required_methods=["health"])


@dataclass
class ChatSendResult:
    """The `chat.send` acknowledgement and, when waited for, the run's final `chat` event."""

    ack: dict[str, Any]
    final: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)


def chat_send(params: Mapping[str, Any], *, connection: GatewayConnection,
              timeout_ms: int | None = CHAT_FINAL_TIMEOUT_MS,
              wait_final: bool = True) -> ChatSendResult:
    """`chat.send` (operator.write) — a real chat turn: it writes to the transcript.

    `idempotencyKey` is generated when missing. With `wait_final` the call waits for the
    `chat` event whose state is final (or error/aborted) for the returned runId.
    """
    body = dict(params)
    body.setdefault("idempotencyKey", str(uuid.uuid4()))
    with GatewayClient(connection, scopes=scopes_for_method("chat.send"),
                       timeout_ms=timeout_ms) as client:
        ack = client.request("chat.send", body, required_methods=["chat.send"])
        result = ChatSendResult(ack=ack if isinstance(ack, dict) else {"value": ack})
        run_id = result.ack.get("runId")
        if wait_final and run_id:
            def is_final(event: dict[str, Any]) -> bool:
                payload = event.get("payload")
                return (event.get("event") == "chat" and isinstance(payload, dict)
                        and payload.get("runId") == run_id
                        and payload.get("state") in ("final", "error", "aborted"))

            event = client.wait_for_event(is_final, timeout_ms or CHAT_FINAL_TIMEOUT_MS)
            result.final = event.get("payload")
        result.events = list(client.events)
        return result

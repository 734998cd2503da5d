"""Gateway protocol frames: building requests and validating what the Gateway sends."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from openclaw_cli.js.values import object_at

MIN_PROTOCOL = 3
MAX_PROTOCOL = 4
MAX_PAYLOAD_BYTES = 25 * 1024 * 1024
MAX_PREAUTH_PAYLOAD_BYTES = 64 * 1024
CHALLENGE_EVENT = "connect.challenge"

# Closed schemas of the connect params in 2026.7.1: sending any other key gets the socket closed.
CLIENT_ID = "cli"
CLIENT_MODE = "cli"
ROLE = "operator"


class FrameError(ValueError):
    """A frame that is not valid JSON or does not have the shape the protocol requires."""


def new_request_id() -> str:
    return str(uuid.uuid4())


def encode_frame(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def frame_size(text: str) -> int:
    return len(text.encode("utf-8"))


def build_request(method: str, params: Any = None, request_id: str | None = None) -> dict[str, Any]:
    """A `req` frame; `params` defaults to `{}` like the server would substitute."""
    if not isinstance(method, str) or not method.strip():
        raise ValueError("method must be a non-empty string")
    return {
        "type": "req",
        "id": request_id or new_request_id(),
        "method": method,
        "params": {} if params is None else params,
    }


def build_connect_params(*, scopes: list[str], client_version: str, platform: str,
                         instance_id: str | None = None, token: str | None = None,
                         password: str | None = None) -> dict[str, Any]:
    """`connect` params for a device-less `cli` client with shared-secret auth."""
    params: dict[str, Any] = {
        "minProtocol": MIN_PROTOCOL,
        "maxProtocol": MAX_PROTOCOL,
        "client": {
            "id": CLIENT_ID,
            "version": client_version,
            "platform": platform,
            "mode": CLIENT_MODE,
            "instanceId": instance_id or str(uuid.uuid4()),
        },
        "caps": [],
        "role": ROLE,
        "scopes": list(scopes),
    }
    auth = {k: v for k, v in (("token", token), ("password", password)) if v}
    if auth:
        params["auth"] = auth
    return params


def _non_empty_str(value: Any) -> bool:
    return isinstance(value, str) and len(value) > 0


def _non_negative_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_error_shape(error: Any) -> None:
    if not isinstance(error, dict):
        raise FrameError("response error is not an object")
    if not _non_empty_str(error.get("code")) or not _non_empty_str(error.get("message")):
        raise FrameError("response error lacks a code or message")
    if "retryable" in error and not isinstance(error["retryable"], bool):
        raise FrameError("response error has a non-boolean retryable")
    if "retryAfterMs" in error and not _non_negative_int(error["retryAfterMs"]):
        raise FrameError("response error has an invalid retryAfterMs")


def decode_frame(raw: str | bytes) -> dict[str, Any]:
    """Parse one text frame from the Gateway; raise FrameError when it is malformed.

    Events and responses are checked against their schema; a well-formed frame of another
    type is returned as is (and ignored by the client).
    """
    if isinstance(raw, (bytes, bytearray)):
        raise FrameError("binary frame (the Gateway only sends JSON text frames)")
    try:
        frame = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise FrameError(f"not JSON ({exc.msg} at position {exc.pos})") from None
    except ValueError as exc:  # e.g. an integer literal longer than Python converts
        raise FrameError(f"not JSON ({exc})") from None
    if not isinstance(frame, dict):
        raise FrameError("frame is not a JSON object")
    kind = frame.get("type")
    if kind == "event":
        if not _non_empty_str(frame.get("event")):
            raise FrameError("event frame without an event name")
        if "seq" in frame and not _non_negative_int(frame["seq"]):
            raise FrameError("event frame with an invalid seq")
        return frame
    if kind == "res":
        if not _non_empty_str(frame.get("id")):
            raise FrameError("response frame without an id")
        if not isinstance(frame.get("ok"), bool):
            raise FrameError("response frame without a boolean ok")
        if frame.get("error") is not None:
            _check_error_shape(frame["error"])
        elif frame["ok"] is False:
            raise FrameError("ok:false response without an error")
        return frame
    if not _non_empty_str(kind):
        raise FrameError("frame without a type")
    return frame  # a frame type this client does not know: callers skip it


def challenge_nonce(frame: dict[str, Any]) -> str | None:
    """The nonce of a `connect.challenge` event, or None when it is not one or has no nonce."""
    if frame.get("type") != "event" or frame.get("event") != CHALLENGE_EVENT:
        return None
    payload = frame.get("payload")
    nonce = payload.get("nonce") if isinstance(payload, dict) else None
    return nonce.strip() if isinstance(nonce, str) and nonce.strip() else None


def challenge_ts(frame: dict[str, Any]) -> int | None:
    """The server time (ms) of a `connect.challenge`, which a device signature is dated with."""
    payload = frame.get("payload")
    ts = payload.get("ts") if isinstance(payload, dict) else None
    return ts if _non_negative_int(ts) else None


@dataclass
class HelloOk:
    """What we keep from a `hello-ok`: protocol, advertised methods and events, limits, granted scopes."""

    protocol: int
    methods: frozenset[str]
    events: frozenset[str]
    max_payload: int
    tick_interval_ms: int | None
    server_version: str | None
    role: str | None
    scopes: list[str]
    snapshot: dict[str, Any] = field(default_factory=dict, repr=False)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


def parse_hello_ok(payload: Any) -> HelloOk:
    """Validate a `hello-ok` payload; raise FrameError when it is not one."""
    if not isinstance(payload, dict) or payload.get("type") != "hello-ok":
        raise FrameError("connect reply is not a hello-ok")
    protocol = payload.get("protocol")
    if not isinstance(protocol, int) or isinstance(protocol, bool):
        raise FrameError("hello-ok without a protocol version")
    features = payload.get("features")
    features = features if isinstance(features, dict) else {}
    methods = features.get("methods")
    if not isinstance(methods, list) or not all(isinstance(m, str) for m in methods):
        raise FrameError("hello-ok without a features.methods list")
    events = features.get("events")
    events = events if isinstance(events, list) else []
    policy = object_at(payload, "policy")
    raw_max = policy.get("maxPayload")
    max_payload = raw_max if _non_negative_int(raw_max) and raw_max != 0 else MAX_PAYLOAD_BYTES
    tick = policy.get("tickIntervalMs")
    server = object_at(payload, "server")
    auth = object_at(payload, "auth")
    scopes = auth.get("scopes")
    snapshot = payload.get("snapshot")
    return HelloOk(
        protocol=protocol,
        methods=frozenset(m.strip() for m in methods if m.strip()),
        events=frozenset(e for e in events if isinstance(e, str)),
        max_payload=max_payload,
        tick_interval_ms=tick if _non_negative_int(tick) else None,
        server_version=server.get("version") if isinstance(server.get("version"), str) else None,
        role=auth.get("role") if isinstance(auth.get("role"), str) else None,
        scopes=[s for s in scopes if isinstance(s, str)] if isinstance(scopes, list) else [],
        snapshot=snapshot if isinstance(snapshot, dict) else {},
        raw=payload,
    )

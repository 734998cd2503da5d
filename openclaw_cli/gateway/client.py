"""Synchronous Gateway client: connect, challenge/connect/hello-ok handshake, requests, timeouts."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import socket
import ssl
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypedDict
from urllib.parse import urlsplit, urlunsplit

from openclaw_cli import __version__
from openclaw_cli.gateway import frames
from openclaw_cli.gateway.discovery import (
    DEFAULT_CALL_TIMEOUT_MS,
    DEFAULT_HANDSHAKE_TIMEOUT_MS,
    GatewayConnection,
    url_scheme,
)
from openclaw_cli.gateway.errors import (
    PASSWORD_FIX,
    TOKEN_FIX,
    GatewayAuthError,
    GatewayClosed,
    GatewayError,
    GatewayMethodUnsupported,
    GatewayNotAGateway,
    GatewayProtocolError,
    GatewayRequestError,
    GatewayTimeout,
    GatewayUnavailable,
    GatewayUnreachable,
    join_hint,
)
from openclaw_cli.logs import get_logger

log = get_logger("openclaw_cli.gateway")
# One wait lasts at most Node's longest timer (2^31-1 ms): a larger --timeout cannot overflow.
MAX_WAIT_S = 2_147_483.647

# websockets logs whole frames (the connect frame holds the credentials) at DEBUG level:
# give it a logger of its own that never emits below INFO, whatever the root level is.
_wire_log = get_logger("openclaw_cli.gateway.wire")
_wire_log.setLevel(logging.INFO)
_wire_log.addFilter(lambda record: record.levelno >= logging.INFO)

_AUTH_DETAIL_FIXES = {
    "AUTH_TOKEN_MISMATCH": f"the token is wrong: {TOKEN_FIX}",
    "AUTH_TOKEN_MISSING": f"this Gateway uses token auth and no token was sent: {TOKEN_FIX}",
    "AUTH_TOKEN_NOT_CONFIGURED": "the Gateway has no token configured (gateway.auth.token)",
    "AUTH_PASSWORD_MISMATCH": f"the password is wrong: {PASSWORD_FIX}",
    "AUTH_PASSWORD_MISSING": f"this Gateway uses password auth and no password was sent: "
                             f"{PASSWORD_FIX}",
    "AUTH_PASSWORD_NOT_CONFIGURED": "the Gateway has no password configured "
                                    "(gateway.auth.password)",
    "AUTH_RATE_LIMITED": "too many failed attempts: wait a moment, then retry with the right "
                         "credentials",
    "DEVICE_IDENTITY_REQUIRED": f"no usable credentials were sent: {TOKEN_FIX}, or {PASSWORD_FIX}",
    "PAIRING_REQUIRED": "this Gateway only accepts paired devices from this address: run the "
                        "command on the Gateway host, or use its token or password",
}
_RETRY_CLOSE_CODES = (1012, 1013)  # service restart, gateway starting


def _pairing_fix(details: dict[str, Any]) -> str:
    """What to do when the Gateway holds our device's pairing request for approval (2026.8+ send
    its id)."""
    request_id = details.get("requestId")
    command = f"openclaw devices approve {request_id}" if isinstance(request_id, str) and request_id \
        else "openclaw devices approve --latest"
    return (f"this Gateway pairs new devices only with approval: approve this tool's device on the "
            f"Gateway host ({command}), then run the command again")


class _ServerError(TypedDict):
    """What a refused request's error object carries into our error (code, details, message)."""

    code: str | None
    details: Any
    server_message: str


class _CloseFields(TypedDict):
    """The close code and reason a closed connection carries into our error."""

    close_code: int | None
    close_reason: str | None


class _Retry(Exception):
    """Internal: the handshake should be tried again after `delay` seconds."""

    def __init__(self, delay: float, error: GatewayError):
        super().__init__(error.message)
        self.delay = delay
        self.error = error


def _connect_uri(url: str) -> str:
    """The URL websockets accepts: http(s) becomes ws(s); a bare origin gets its `/` path."""
    parts = urlsplit(url)
    return urlunsplit((url_scheme(url), parts.netloc, parts.path or "/", parts.query, ""))


def _close_info(exc: Exception) -> tuple[int | None, str]:
    """(code, reason) the peer closed with; (1006, "") when the socket just dropped."""
    rcvd = getattr(exc, "rcvd", None)
    if rcvd is not None:
        return rcvd.code, rcvd.reason or ""
    sent = getattr(exc, "sent", None)
    if sent is not None and sent.code == 1009:
        return 1009, sent.reason or ""
    return 1006, ""


class GatewayClient:
    """One Gateway connection: `connect()` runs the handshake, `request()` calls one method.

    Timeouts: `timeout_ms` is the whole budget from the start of `connect()` to the end of the
    last request (None: no limit once the handshake is done; the handshake then gets the
    default 10 s). `challenge_timeout_ms` bounds the wait for `connect.challenge`.
    """

    def __init__(self, connection: GatewayConnection, *, scopes: Sequence[str],
                 timeout_ms: int | None = DEFAULT_CALL_TIMEOUT_MS,
                 challenge_timeout_ms: int = DEFAULT_HANDSHAKE_TIMEOUT_MS,
                 client_version: str = __version__, platform: str | None = None,
                 offline_hint: str | None = None, on_event: Callable[[dict], None] | None = None):
        self.connection = connection
        self.scopes = list(scopes)
        self.timeout_ms = timeout_ms
        self.challenge_timeout_ms = challenge_timeout_ms
        self.client_version = client_version
        self.platform = platform or sys.platform
        self.offline_hint = offline_hint
        self.on_event = on_event
        self.hello: frames.HelloOk | None = None
        self.device_id: str | None = None  # the device identity presented, if any
        self._unsaved_identity: Any = None  # a new identity, written once a Gateway knows it
        self.events: deque[dict[str, Any]] = deque(maxlen=1000)
        self._ws: Any = None
        self._stack: contextlib.ExitStack | None = None
        self._deadline: float | None = None

    # -- public API ------------------------------------------------------------------------

    def __enter__(self) -> GatewayClient:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "connected" if self._ws is not None else "closed"
        return f"GatewayClient({self.connection!r}, scopes={self.scopes!r}, {state})"

    @property
    def url(self) -> str:
        return self.connection.target.display_url

    def connect(self) -> frames.HelloOk:
        """Open the socket and complete the handshake; returns the hello-ok."""
        try:
            return self._connect()
        except GatewayError as exc:
            self.close()
            raise self._finish(exc) from None
        except BaseException:
            self.close()
            raise

    def request(self, method: str, params: Any = None, *,
                required_methods: Iterable[str] | None = None, expect_final: bool = False,
                timeout_ms: int | None = None) -> Any:
        """Send one request and return its payload; events that arrive meanwhile are kept.

        `timeout_ms` limits this request on top of the overall budget.
        """
        try:
            return self._request(method, params, required_methods, expect_final, timeout_ms)
        except GatewayError as exc:
            raise self._finish(exc) from None

    def wait_for_event(self, predicate: Callable[[dict[str, Any]], bool],
                       timeout_ms: int) -> dict[str, Any]:
        """The first kept or incoming event matching `predicate`; GatewayTimeout otherwise."""
        for event in list(self.events):
            if predicate(event):
                self.events.remove(event)
                return event
        deadline = time.monotonic() + timeout_ms / 1000
        try:
            while True:
                frame = self._recv(deadline, phase=f"waiting for an event ({timeout_ms} ms)")
                if frame.get("type") == "event":
                    if predicate(frame):
                        return frame
                    self._keep_event(frame)
        except GatewayError as exc:
            raise self._finish(exc) from None

    def close(self) -> None:
        """Close the socket (code 1000); safe to call twice."""
        stack, self._stack, self._ws = self._stack, None, None
        if stack is not None:
            with contextlib.suppress(Exception):
                stack.close()

    # -- connection and handshake ------------------------------------------------------------

    def _secrets(self) -> tuple[str, ...]:
        return self.connection.credentials.secrets()

    def _finish(self, exc: GatewayError) -> GatewayError:
        if exc.url is None:
            exc.url = self.url
            exc.url_source = self.connection.target.url_source
        return exc.scrubbed(self._secrets())

    def _hint(self, *parts: str | None) -> str | None:
        return join_hint(*parts, self.offline_hint)

    def _remaining(self, deadline: float | None) -> float | None:
        if deadline is None:
            return None
        return min(MAX_WAIT_S, max(0.0, deadline - time.monotonic()))

    def _connect(self) -> frames.HelloOk:
        self.close()
        start = time.monotonic()
        startup_ms = self.timeout_ms if self.timeout_ms is not None else DEFAULT_CALL_TIMEOUT_MS
        startup_deadline = start + startup_ms / 1000
        self._deadline = start + self.timeout_ms / 1000 if self.timeout_ms is not None else None
        clean_close_retried = False
        while True:
            try:
                self._open(startup_deadline, startup_ms)
                self.hello = self._handshake(startup_deadline, startup_ms)
                log.debug("hello-ok from %s: protocol %s, %d methods, scopes %s", self.url,
                          self.hello.protocol, len(self.hello.methods), self.hello.scopes)
                return self.hello
            except _Retry as retry:
                self.close()
                is_clean_close = isinstance(retry.error, GatewayClosed) \
                    and retry.error.close_code == 1000
                if is_clean_close and clean_close_retried:
                    raise retry.error from None
                clean_close_retried = clean_close_retried or is_clean_close
                if time.monotonic() + retry.delay >= startup_deadline:
                    raise retry.error from None
                log.debug("retrying the handshake in %.1f s: %s", retry.delay, retry.error.message)
                time.sleep(retry.delay)

    def _open(self, deadline: float, budget_ms: int) -> None:
        target = self.connection.target
        parts = urlsplit(target.url)
        host = parts.hostname or ""
        secure = url_scheme(target.url) == "wss"
        port = parts.port or (443 if secure else 80)
        log.debug("connecting to %s (%s)", self.url, target.url_source)
        try:
            sock = socket.create_connection((host, port), timeout=self._remaining(deadline) or 0.001)
        except ConnectionRefusedError:
            raise GatewayUnavailable(
                f"no Gateway is listening at {self.url} (connection refused)",
                hint=join_hint("start the Gateway, or check the port (gateway.port, "
                               "OPENCLAW_GATEWAY_PORT) and the URL (--url, OPENCLAW_GATEWAY_URL)"),
            ) from None
        except TimeoutError:
            raise GatewayUnreachable(
                f"could not connect to {self.url} within {budget_ms} ms",
                hint=self._hint("check that the Gateway host is up and reachable")) from None
        except socket.gaierror as exc:
            raise GatewayUnreachable(f"cannot resolve the Gateway host {host!r} ({exc.strerror})",
                                     hint=self._hint("check --url / OPENCLAW_GATEWAY_URL / "
                                                     "gateway.remote.url")) from None
        except OSError as exc:
            raise GatewayUnreachable(
                f"could not connect to {self.url}: {exc.strerror or exc}",
                hint=self._hint("check that the Gateway host is up and reachable")) from None
        context = None
        if secure:
            context = ssl.create_default_context()
            if target.tls_fingerprint:
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
        try:
            from websockets.exceptions import InvalidStatus
            from websockets.sync.client import connect as ws_connect
        except ImportError as exc:  # pragma: no cover - websockets is a declared dependency
            sock.close()
            raise GatewayError(f"the websockets library is missing: {exc}") from None
        stack = contextlib.ExitStack()
        stack.callback(sock.close)
        try:
            ws = stack.enter_context(ws_connect(
                _connect_uri(target.url), sock=sock, ssl=context,
                server_hostname=host if secure else None,
                open_timeout=max(0.001, self._remaining(deadline) or 0.001),
                compression=None, max_size=frames.MAX_PAYLOAD_BYTES, close_timeout=2,
                user_agent_header=f"openclaw-cli/{__version__}", logger=_wire_log,
            ))
        except InvalidStatus as exc:
            stack.close()
            status = exc.response.status_code
            raise GatewayNotAGateway(
                f"{self.url} answered the WebSocket upgrade with HTTP {status}: this is not an "
                "OpenClaw Gateway (or not the right port)",
                hint=self._hint("check the port (gateway.port, OPENCLAW_GATEWAY_PORT) and the URL "
                                "(--url, OPENCLAW_GATEWAY_URL)")) from None
        except TimeoutError:
            stack.close()
            raise GatewayTimeout(
                f"{self.url} accepted the TCP connection but did not answer the WebSocket upgrade "
                f"within {budget_ms} ms: this does not behave like an OpenClaw Gateway",
                timeout_ms=budget_ms,
                hint=self._hint("check the port and the URL (gateway.port, OPENCLAW_GATEWAY_PORT, "
                                "--url)")) from None
        except ssl.SSLError as exc:
            stack.close()
            raise GatewayProtocolError(
                f"TLS handshake with {self.url} failed: {exc.reason or exc}",
                hint=self._hint("check ws:// against wss://, and the Gateway's certificate "
                                "(gateway.remote.tlsFingerprint)")) from None
        except Exception as exc:  # invalid or missing HTTP answer, dropped socket, ...
            stack.close()
            raise GatewayNotAGateway(
                f"{self.url} accepted the connection but did not complete a WebSocket upgrade "
                f"({type(exc).__name__}): this is not an OpenClaw Gateway",
                hint=self._hint("check the port and the URL, and ws:// against wss://")) from None
        self._stack, self._ws = stack, ws
        if secure and target.tls_fingerprint:
            self._check_pin(target.tls_fingerprint)

    def _check_pin(self, expected: str) -> None:
        der = None
        with contextlib.suppress(Exception):
            der = self._ws.socket.getpeercert(binary_form=True)
        actual = hashlib.sha256(der).hexdigest() if der else None
        if actual != expected:
            raise GatewayProtocolError(
                f"the TLS certificate of {self.url} does not match the pinned SHA-256 fingerprint",
                hint=self._hint("check gateway.remote.tlsFingerprint (or the local Gateway "
                                "certificate in gateway.tls.certPath)"))

    def _send(self, frame: dict[str, Any], limit: int, what: str) -> None:
        text = frames.encode_frame(frame)
        size = frames.frame_size(text)
        if size > limit:
            raise GatewayProtocolError(f"{what} is {size} bytes, over the Gateway's limit of "
                                       f"{limit} bytes")
        try:
            self._ws.send(text)
        except Exception as exc:  # ConnectionClosed or a socket error
            code, reason = _close_info(exc)
            raise self._closed_error(code, reason, f"while sending {what}") from None

    def _handshake(self, deadline: float, budget_ms: int) -> frames.HelloOk:
        challenge_deadline = min(deadline, time.monotonic() + self.challenge_timeout_ms / 1000)
        while True:
            frame = self._recv(challenge_deadline, phase="waiting for connect.challenge",
                               budget_ms=min(budget_ms, self.challenge_timeout_ms), handshake=True)
            if frame.get("type") == "event" and frame.get("event") == frames.CHALLENGE_EVENT:
                if frames.challenge_nonce(frame) is None:
                    raise GatewayProtocolError(f"{self.url} sent a connect.challenge without a "
                                               "nonce", hint=self._hint(None))
                break
        creds = self.connection.credentials
        request_id = frames.new_request_id()
        params = frames.build_connect_params(scopes=self.scopes, client_version=self.client_version,
                                             platform=self.platform, token=creds.token,
                                             password=creds.password)
        if self.connection.sends_device:
            params["device"] = self._device_block(params, frame)
        self._send(frames.build_request("connect", params, request_id),
                   frames.MAX_PREAUTH_PAYLOAD_BYTES, "the connect request")
        while True:
            frame = self._recv(deadline, phase="waiting for hello-ok", budget_ms=budget_ms,
                               handshake=True)
            if frame.get("type") == "res" and frame.get("id") == request_id:
                break
            if frame.get("type") == "event":
                self._keep_event(frame)
        if not frame["ok"]:
            error = frame.get("error") or {}
            details = error.get("details")
            if isinstance(details, dict) and details.get("code") == "PAIRING_REQUIRED":
                self._keep_identity()  # its pairing request waits for approval under this key
            raise self._connect_error(error)
        try:
            hello = frames.parse_hello_ok(frame.get("payload"))
        except frames.FrameError as exc:
            raise GatewayProtocolError(f"{self.url} answered connect with an invalid hello-ok: "
                                       f"{exc}", hint=self._hint(None)) from None
        if not frames.MIN_PROTOCOL <= hello.protocol <= frames.MAX_PROTOCOL:
            raise GatewayProtocolError(
                f"the Gateway chose protocol {hello.protocol}; this tool speaks "
                f"{frames.MIN_PROTOCOL}-{frames.MAX_PROTOCOL}", hint=self._hint(None))
        self._keep_identity()
        return hello

    def _keep_identity(self) -> None:
        """Write the new identity this connection presented, now that the Gateway knows it."""
        from openclaw_cli.gateway.device import keep_identity

        identity, self._unsaved_identity = self._unsaved_identity, None
        if identity is not None:
            keep_identity(identity)

    def _device_block(self, params: dict[str, Any], challenge: dict[str, Any]) -> dict[str, Any]:
        """Our device identity, signed over this connection's params and the challenge."""
        from openclaw_cli.gateway.device import device_block, load_or_new_identity

        assert self.connection.state_dir is not None
        identity, is_new = load_or_new_identity(self.connection.state_dir)
        self._unsaved_identity = identity if is_new else None
        ts = frames.challenge_ts(challenge)
        signed_at = ts if ts is not None else int(time.time() * 1000)
        self.device_id = identity.device_id
        log.debug("presenting device %s (%s)", identity.device_id, identity.path)
        return device_block(identity, connect_params=params, nonce=frames.challenge_nonce(challenge) or "",
                            signed_at_ms=signed_at)

    def _connect_error(self, error: dict[str, Any]) -> Exception:
        code = error.get("code")
        message = error.get("message") or "unknown error"
        details = error.get("details")
        detail_code = details.get("code") if isinstance(details, dict) else None
        common: _ServerError = {"code": code, "details": details, "server_message": message}
        if code == "UNAVAILABLE" and error.get("retryable"):
            retry_after = error.get("retryAfterMs")
            wait_ms = retry_after if isinstance(retry_after, int) else 500
            err = GatewayClosed(f"the Gateway at {self.url} is still starting ({message})",
                                hint=self._hint("retry in a moment"), **common)
            return _Retry(min(2.0, max(0.1, wait_ms / 1000)), err)
        if isinstance(details, dict) and detail_code == "PROTOCOL_MISMATCH":
            expected = details.get("expectedProtocol")
            return GatewayProtocolError(
                f"the Gateway at {self.url} refused the connection: protocol mismatch (it speaks "
                f"protocol {expected}, this tool {frames.MIN_PROTOCOL}-{frames.MAX_PROTOCOL})",
                hint=self._hint("use a Gateway and a tool of compatible versions"), **common)
        if code == "NOT_PAIRED" or (isinstance(detail_code, str) and (
                detail_code.startswith(("AUTH_", "DEVICE_")) or detail_code == "PAIRING_REQUIRED")) or message.startswith("unauthorized"):
            fix = _pairing_fix(details) if isinstance(details, dict) and detail_code == "PAIRING_REQUIRED" \
                and self.device_id else None
            fix = fix or _AUTH_DETAIL_FIXES.get(detail_code or "") or f"{TOKEN_FIX}, or {PASSWORD_FIX}"
            return GatewayAuthError(
                f"the Gateway at {self.url} rejected the credentials "
                f"({self.connection.credentials.describe()}): {message}",
                hint=self._hint(fix), **common)
        return GatewayRequestError(f"the Gateway at {self.url} refused the connection: {message}",
                                   method="connect", retryable=error.get("retryable"),
                                   retry_after_ms=error.get("retryAfterMs"),
                                   hint=self._hint(None), **common)

    # -- frames ----------------------------------------------------------------------------

    def _keep_event(self, frame: dict[str, Any]) -> None:
        self.events.append(frame)
        if self.on_event is not None:
            self.on_event(frame)

    def _closed_error(self, code: int | None, reason: str, when: str,
                      handshake: bool = False) -> Exception:
        """The error for a close; during the handshake a restart or clean close asks for a retry."""
        text = f"{code}: {reason}" if reason else f"{code}"
        common: _CloseFields = {"close_code": code, "close_reason": reason or None}
        if code == 1009:
            return GatewayProtocolError(
                f"the connection to {self.url} was closed {when}: a frame exceeded the size limit "
                f"({text})", hint=self._hint(None), **common)
        if handshake:
            if code == 1002:
                return GatewayProtocolError(
                    f"the Gateway at {self.url} closed the connection {when}: protocol mismatch "
                    f"({text})", hint=self._hint(None), **common)
            lowered = reason.lower()
            if code == 1008 and ("unauthorized" in lowered or "device identity" in lowered
                                 or "pairing" in lowered):
                return GatewayAuthError(
                    f"the Gateway at {self.url} rejected the credentials "
                    f"({self.connection.credentials.describe()}): {reason}",
                    hint=self._hint(f"{TOKEN_FIX}, or {PASSWORD_FIX}"), **common)
            err = GatewayClosed(f"the Gateway at {self.url} closed the connection {when} ({text})",
                                hint=self._hint(None), **common)
            if code in _RETRY_CLOSE_CODES:
                return _Retry(0.5, err)
            if code == 1000 and not reason:
                return _Retry(0.25, err)
            return err
        return GatewayClosed(
            f"the Gateway at {self.url} closed the connection {when} ({text}); the request may "
            "or may not have been carried out", hint=self._hint(None), **common)

    def _recv(self, deadline: float | None, *, phase: str, budget_ms: int | None = None,
              handshake: bool = False) -> dict[str, Any]:
        """Next well-formed frame; protocol errors, timeouts and closes become GatewayErrors."""
        from websockets.exceptions import ConnectionClosed

        if self._ws is None:
            raise GatewayClosed(f"not connected to {self.url}")
        remaining = self._remaining(deadline)
        try:
            raw = self._ws.recv(timeout=remaining)
        except TimeoutError:
            limit = budget_ms if budget_ms is not None else self.timeout_ms
            if phase == "waiting for connect.challenge":
                message = (f"connected to {self.url}, but it sent no connect.challenge within "
                           f"{limit} ms: this does not behave like an OpenClaw Gateway")
            else:
                message = f"no answer from the Gateway at {self.url} within {limit} ms ({phase})"
            raise GatewayTimeout(message, timeout_ms=limit,
                                 hint=self._hint("check the port and the URL, or raise --timeout"
                                                 if handshake else "raise --timeout")) from None
        except ConnectionClosed as exc:
            code, reason = _close_info(exc)
            raise self._closed_error(code, reason, f"({phase})", handshake=handshake) from None
        try:
            return frames.decode_frame(raw)
        except frames.FrameError as exc:
            raise GatewayProtocolError(f"the Gateway at {self.url} sent a malformed frame "
                                       f"({phase}): {exc}", hint=self._hint(None)) from None

    # -- requests --------------------------------------------------------------------------

    def _request(self, method: str, params: Any, required: Iterable[str] | None,
                 expect_final: bool, timeout_ms: int | None) -> Any:
        if self.hello is None or self._ws is None:
            raise GatewayClosed(f"not connected to {self.url}")
        for name in required or ():
            name = name.strip()
            if name and name not in self.hello.methods:
                raise GatewayMethodUnsupported(
                    f'active gateway does not support required method "{name}" for "{method}" '
                    f"(Gateway {self.hello.server_version or 'of unknown version'} at {self.url})",
                    method=name, hint=self._hint("update the Gateway"))
        deadline = self._deadline
        if timeout_ms is not None:
            own = time.monotonic() + timeout_ms / 1000
            deadline = own if deadline is None else min(deadline, own)
        budget = timeout_ms if timeout_ms is not None else self.timeout_ms
        request_id = frames.new_request_id()
        self._send(frames.build_request(method, params, request_id), self.hello.max_payload,
                   f"the {method} request")
        log.debug("request %s sent (id %s)", method, request_id)
        while True:
            frame = self._recv(deadline, phase=f"waiting for the {method} reply", budget_ms=budget)
            kind = frame.get("type")
            if kind == "event":
                self._keep_event(frame)
                continue
            if kind != "res" or frame.get("id") != request_id:
                continue
            if frame["ok"]:
                payload = frame.get("payload")
                if expect_final and isinstance(payload, dict) and payload.get("status") == "accepted":
                    continue
                log.debug("request %s answered ok", method)
                return payload
            raise self._request_error(method, frame.get("error") or {})

    def _request_error(self, method: str, error: dict[str, Any]) -> GatewayRequestError:
        message = error.get("message") or "unknown error"
        err = GatewayRequestError(
            f"the Gateway refused {method}: {message}", method=method, code=error.get("code"),
            details=error.get("details"), server_message=message,
            retryable=error.get("retryable"), retry_after_ms=error.get("retryAfterMs"))
        scope = err.missing_scope
        if scope:
            granted = self.hello.scopes if self.hello else []
            if not granted and self.scopes:
                fix = ("the Gateway granted this connection no scopes: it keeps the scopes of a "
                       "client without a device identity only on loopback; run the command on the "
                       "Gateway host")
            else:
                fix = f"this call needs {scope}"
            err.hint = self._hint(fix)
        else:
            err.hint = self._hint(None)
        return err

"""Gateway frames and client behaviour against fake servers: handshake, errors, limits, secrets."""

from __future__ import annotations

import json
import logging
import shutil
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers.gateway import challenge_frame, closed_port, hello_payload, tcp_listener

from openclaw_cli.gateway import (
    GatewayAuthError,
    GatewayClosed,
    GatewayError,
    GatewayMethodUnsupported,
    GatewayNotAGateway,
    GatewayProtocolError,
    GatewayRefused,
    GatewayRequestError,
    GatewayTimeout,
    GatewayUnavailable,
    frames,
    rpc,
)
from openclaw_cli.gateway.client import GatewayClient
from openclaw_cli.gateway.credentials import Credentials
from openclaw_cli.gateway.discovery import GatewayConnection, resolve_connection, resolve_target

SECRET = "tok-VERY-SECRET-1234"


def connection(url: str, *, token: str | None = SECRET, password: str | None = None,
               tls_fingerprint: str | None = None) -> GatewayConnection:
    target = resolve_target({}, {}, url=url, tls_fingerprint=tls_fingerprint)
    creds = Credentials(token, password, "--token" if token else None,
                        "--password" if password else None)
    return GatewayConnection(target=target, credentials=creds, method="test")


def client(url: str, scopes=("operator.admin",), timeout_ms=3000, **kw) -> GatewayClient:
    return GatewayClient(connection(url, **kw), scopes=list(scopes), timeout_ms=timeout_ms,
                         offline_hint="Or use --store <path>")


def assert_no_secret(exc: BaseException) -> None:
    for text in (str(exc), repr(exc), getattr(exc, "hint", "") or "",
                 getattr(exc, "server_message", "") or "", getattr(exc, "close_reason", "") or ""):
        assert SECRET not in text


def linger(ws, seconds: float = 3.0) -> None:
    """Keep the server side open until the client hangs up (or `seconds` pass)."""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ws.recv(timeout=max(0.01, deadline - time.monotonic()))
    except Exception:
        pass


def reply(ws, frame, payload=None, *, ok=True, error=None):
    body = {"type": "res", "id": frame["id"], "ok": ok}
    if ok:
        body["payload"] = payload if payload is not None else {"ok": True}
    else:
        body["error"] = error
    ws.send(json.dumps(body))


# -- frames -------------------------------------------------------------------------------

def test_connect_params_use_only_schema_keys():
    params = frames.build_connect_params(scopes=["operator.read"], client_version="1.2.3",
                                         platform="linux", token="t", password="p")
    assert set(params) == {"minProtocol", "maxProtocol", "client", "caps", "role", "scopes", "auth"}
    assert (params["minProtocol"], params["maxProtocol"]) == (3, 4)
    assert set(params["client"]) == {"id", "version", "platform", "mode", "instanceId"}
    assert (params["client"]["id"], params["client"]["mode"], params["role"]) == \
        ("cli", "cli", "operator")
    assert params["auth"] == {"token": "t", "password": "p"}
    assert "auth" not in frames.build_connect_params(scopes=[], client_version="1",
                                                     platform="linux")


@pytest.mark.parametrize("raw, problem", [
    ("not json", "not JSON"), ("[1,2]", "not a JSON object"), ('{"x":1}', "without a type"),
    ('{"type":"event"}', "without an event name"),
    ('{"type":"event","event":"tick","seq":-1}', "invalid seq"),
    ('{"type":"res","ok":true}', "without an id"),
    ('{"type":"res","id":"1","ok":"yes"}', "boolean ok"),
    ('{"type":"res","id":"1","ok":false}', "without an error"),
    ('{"type":"res","id":"1","ok":false,"error":{"code":"X"}}', "code or message"),
    ('{"type":"res","id":"1","ok":false,"error":{"code":"X","message":"m","retryAfterMs":-1}}',
     "retryAfterMs"),
    (b'{"type":"event","event":"tick"}', "binary frame"),
])
def test_malformed_frames_are_rejected(raw, problem):
    with pytest.raises(frames.FrameError, match=problem):
        frames.decode_frame(raw)


def test_well_formed_frames():
    assert frames.decode_frame('{"type":"event","event":"tick","payload":{"ts":1},"seq":3}')
    assert frames.decode_frame('{"type":"res","id":"a","ok":false,'
                               '"error":{"code":"X","message":"m","retryable":true}}')
    assert frames.decode_frame('{"type":"future-thing"}')["type"] == "future-thing"


def test_hello_ok_parsing():
    hello = frames.parse_hello_ok(hello_payload(methods=["health", " sessions.list "]))
    assert hello.protocol == 4 and hello.methods == {"health", "sessions.list"}
    assert hello.max_payload == 26214400 and hello.scopes == ["operator.admin"]
    with pytest.raises(frames.FrameError):
        frames.parse_hello_ok({"type": "hello-ok", "protocol": 4, "features": {}})
    with pytest.raises(frames.FrameError):
        frames.parse_hello_ok({"type": "hello", "protocol": 4})


# -- handshake ----------------------------------------------------------------------------

def test_connect_frame_and_request(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)
        req = srv.recv_json(ws)
        reply(ws, req, {"echo": req["params"]})

    srv = fake_gateway(handler)
    with client(srv.url, scopes=["operator.admin"]) as c:
        assert c.hello.protocol == 4 and "sessions.cleanup" in c.hello.methods
        assert c.request("sessions.cleanup", {"enforce": True},
                         required_methods=["sessions.cleanup"]) == {"echo": {"enforce": True}}
    connect, request = srv.received
    assert connect["type"] == "req" and connect["method"] == "connect"
    params = connect["params"]
    assert (params["minProtocol"], params["maxProtocol"], params["role"]) == (3, 4, "operator")
    assert params["scopes"] == ["operator.admin"] and params["auth"] == {"token": SECRET}
    assert params["client"]["id"] == "cli" and params["client"]["mode"] == "cli"
    assert request == {"type": "req", "id": request["id"], "method": "sessions.cleanup",
                       "params": {"enforce": True}}
    assert request["id"] != connect["id"]


def test_events_before_the_challenge_are_ignored(fake_gateway):
    def handler(ws, srv):
        ws.send(json.dumps({"type": "event", "event": "tick", "payload": {"ts": 1}}))
        srv.handshake(ws)
        reply(ws, srv.recv_json(ws))

    with client(fake_gateway(handler).url) as c:
        assert c.request("health") == {"ok": True}


def test_never_sends_challenge(fake_gateway):
    def handler(ws, srv):
        linger(ws, 3)

    started = time.monotonic()
    with pytest.raises(GatewayTimeout) as info:
        client(fake_gateway(handler).url, timeout_ms=800).connect()
    assert time.monotonic() - started < 2.5
    assert "connect.challenge" in info.value.message and info.value.timeout_ms == 800
    assert isinstance(info.value, GatewayRefused) and not isinstance(info.value, GatewayUnavailable)
    assert "--store" in info.value.hint


def test_challenge_without_nonce(fake_gateway):
    def handler(ws, srv):
        ws.send(json.dumps({"type": "event", "event": "connect.challenge", "payload": {"ts": 1}}))
        linger(ws, 1)

    with pytest.raises(GatewayProtocolError, match="without a nonce"):
        client(fake_gateway(handler).url).connect()


def test_closes_with_1008(fake_gateway):
    def handler(ws, srv):
        ws.send(json.dumps(challenge_frame()))
        srv.recv_json(ws)
        ws.close(1008, "connect failed")

    with pytest.raises(GatewayClosed) as info:
        client(fake_gateway(handler).url).connect()
    assert (info.value.close_code, info.value.close_reason) == (1008, "connect failed")
    assert "1008" in info.value.message


def test_close_1008_with_auth_reason_is_an_auth_error(fake_gateway):
    def handler(ws, srv):
        ws.send(json.dumps(challenge_frame()))
        srv.recv_json(ws)
        ws.close(1008, "unauthorized: gateway token mismatch")

    with pytest.raises(GatewayAuthError) as info:
        client(fake_gateway(handler).url).connect()
    assert "--token" in info.value.hint and "OPENCLAW_GATEWAY_TOKEN" in info.value.hint
    assert_no_secret(info.value)


def test_auth_rejection_reply(fake_gateway):
    def handler(ws, srv):
        ws.send(json.dumps(challenge_frame()))
        frame = srv.recv_json(ws)
        # a hostile server echoing the credential back must not leak it
        reply(ws, frame, ok=False, error={
            "code": "INVALID_REQUEST",
            "message": f"unauthorized: gateway token mismatch (got {SECRET})",
            "details": {"code": "AUTH_TOKEN_MISMATCH", "authReason": "token_mismatch"}})
        ws.close(1008, f"unauthorized {SECRET}")

    with pytest.raises(GatewayAuthError) as info:
        client(fake_gateway(handler).url).connect()
    assert info.value.detail_code == "AUTH_TOKEN_MISMATCH"
    assert "token is wrong" in info.value.hint
    assert "token from --token" in info.value.message
    assert_no_secret(info.value)


def test_protocol_mismatch_reply(fake_gateway):
    def handler(ws, srv):
        ws.send(json.dumps(challenge_frame()))
        reply(ws, srv.recv_json(ws), ok=False, error={
            "code": "INVALID_REQUEST", "message": "protocol mismatch",
            "details": {"code": "PROTOCOL_MISMATCH", "expectedProtocol": 5}})
        ws.close(1002, "protocol mismatch")

    with pytest.raises(GatewayProtocolError, match="protocol mismatch"):
        client(fake_gateway(handler).url).connect()


def test_startup_unavailable_is_retried(fake_gateway):
    attempts = []

    def handler(ws, srv):
        attempts.append(1)
        if len(attempts) == 1:
            ws.send(json.dumps(challenge_frame()))
            reply(ws, srv.recv_json(ws), ok=False, error={
                "code": "UNAVAILABLE", "message": "gateway starting; retry shortly",
                "retryable": True, "retryAfterMs": 100, "details": {"reason": "startup-sidecars"}})
            ws.close(1013, "gateway starting")
            return
        srv.handshake(ws)
        reply(ws, srv.recv_json(ws))

    with client(fake_gateway(handler).url) as c:
        assert c.request("health") == {"ok": True}
    assert len(attempts) == 2


def test_clean_close_before_hello_is_retried_once(fake_gateway):
    attempts = []

    def handler(ws, srv):
        attempts.append(1)
        ws.close(1000)

    with pytest.raises(GatewayClosed):
        client(fake_gateway(handler).url).connect()
    assert len(attempts) == 2


def test_bad_hello(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws, hello={"type": "hello-ok", "protocol": 4})
        linger(ws, 1)

    with pytest.raises(GatewayProtocolError, match="invalid hello-ok"):
        client(fake_gateway(handler).url).connect()


def test_unsupported_protocol_in_hello(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws, hello=hello_payload(protocol=5))
        linger(ws, 1)

    with pytest.raises(GatewayProtocolError, match="protocol 5"):
        client(fake_gateway(handler).url).connect()


# -- requests -----------------------------------------------------------------------------

def test_missing_method_in_hello(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws, hello=hello_payload(methods=["health"]))
        linger(ws, 1)

    conn = connection(fake_gateway(handler).url)
    with pytest.raises(GatewayMethodUnsupported) as info:
        rpc.sessions_cleanup({"enforce": True}, connection=conn)
    assert 'active gateway does not support required method "sessions.cleanup"' in \
        info.value.message
    assert info.value.method == "sessions.cleanup"


def test_error_reply(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws, hello=hello_payload(auth={"role": "operator", "scopes": []}))
        reply(ws, srv.recv_json(ws), ok=False,
              error={"code": "INVALID_REQUEST", "message": "missing scope: operator.admin"})

    conn = connection(fake_gateway(handler).url)
    with pytest.raises(GatewayRequestError) as info:
        rpc.sessions_cleanup({}, connection=conn)
    err = info.value
    assert (err.method, err.code, err.missing_scope) == \
        ("sessions.cleanup", "INVALID_REQUEST", "operator.admin")
    assert "missing scope: operator.admin" in err.message
    assert "no scopes" in err.hint and "--store" in err.hint


def test_unexpected_frames_between_request_and_response(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)
        req = srv.recv_json(ws)
        ws.send(json.dumps({"type": "event", "event": "tick", "payload": {"ts": 1}, "seq": 1}))
        ws.send(json.dumps({"type": "event", "event": "health", "payload": {"ok": True},
                            "seq": 5}))
        ws.send(json.dumps({"type": "res", "id": "someone-else", "ok": True, "payload": {}}))
        ws.send(json.dumps({"type": "mystery", "data": 1}))
        reply(ws, req, {"answer": 42})

    seen = []
    with client(fake_gateway(handler).url) as c:
        c.on_event = seen.append
        assert c.request("sessions.list") == {"answer": 42}
        assert [e["event"] for e in c.events] == ["tick", "health"]
    assert [e["event"] for e in seen] == ["tick", "health"]


def test_expect_final(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)
        req = srv.recv_json(ws)
        reply(ws, req, {"status": "accepted"})
        reply(ws, req, {"status": "ok", "result": 1})

    with client(fake_gateway(handler).url) as c:
        assert c.request("agent", {}, expect_final=True) == {"status": "ok", "result": 1}


def test_malformed_json_frame(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)
        srv.recv_json(ws)
        ws.send("{this is not json")
        linger(ws, 1)

    with client(fake_gateway(handler).url) as c, pytest.raises(GatewayProtocolError) as info:
        c.request("health")
    assert "malformed frame" in info.value.message


def test_oversized_incoming_frame(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)
        req = srv.recv_json(ws)
        reply(ws, req, {"blob": "x" * (frames.MAX_PAYLOAD_BYTES + 10)})
        linger(ws, 2)

    with client(fake_gateway(handler).url, timeout_ms=20_000) as c, \
            pytest.raises(GatewayProtocolError) as info:
        c.request("sessions.list")
    assert info.value.close_code == 1009 and "size limit" in info.value.message


def test_large_frame_under_the_limit(fake_gateway):
    blob = "y" * (5 * 1024 * 1024)  # over websockets' 1 MiB default, under 25 MiB

    def handler(ws, srv):
        srv.handshake(ws)
        reply(ws, srv.recv_json(ws), {"blob": blob})

    with client(fake_gateway(handler).url, timeout_ms=20_000) as c:
        assert c.request("sessions.list")["blob"] == blob


def test_oversized_outgoing_request(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws, hello=hello_payload(policy={"maxPayload": 1000}))
        linger(ws, 1)

    srv = fake_gateway(handler)
    with client(srv.url) as c, pytest.raises(GatewayProtocolError) as info:
        c.request("chat.send", {"message": "z" * 2000})
    assert "over the Gateway's limit of 1000 bytes" in info.value.message
    assert [f["method"] for f in srv.received] == ["connect"]  # nothing else was sent


def test_timeout_after_hello(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)
        srv.recv_json(ws)
        linger(ws, 3)

    started = time.monotonic()
    with client(fake_gateway(handler).url, timeout_ms=1000) as c, \
            pytest.raises(GatewayTimeout) as info:
        c.request("sessions.cleanup")
    assert time.monotonic() - started < 2.5
    assert "within 1000 ms" in info.value.message


def test_close_after_request(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)
        srv.recv_json(ws)
        ws.close(1012, "service restart")

    with client(fake_gateway(handler).url) as c, pytest.raises(GatewayClosed) as info:
        c.request("sessions.cleanup")
    assert info.value.close_code == 1012 and "may or may not" in info.value.message


def test_request_without_deadline_waits(fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)
        req = srv.recv_json(ws)
        time.sleep(1.2)
        reply(ws, req, {"compacted": True})

    conn = connection(fake_gateway(handler).url)
    # no call deadline (like `sessions compact` without --timeout)
    assert rpc.sessions_compact({"key": "k", "maxLines": 3, "agentId": None}, connection=conn,
                                timeout_ms=None) == {"compacted": True}


# -- not a Gateway ------------------------------------------------------------------------

def test_closed_port_is_unavailable():
    port = closed_port()
    with pytest.raises(GatewayUnavailable) as info:
        client(f"ws://127.0.0.1:{port}").connect()
    assert "connection refused" in info.value.message
    assert info.value.url == f"ws://127.0.0.1:{port}"


def test_silent_tcp_listener_is_refused_not_unavailable():
    with tcp_listener("silent") as port:
        started = time.monotonic()
        with pytest.raises(GatewayTimeout) as info:
            client(f"ws://127.0.0.1:{port}", timeout_ms=800).connect()
        assert time.monotonic() - started < 2.5
    assert "did not answer the WebSocket upgrade" in info.value.message
    assert isinstance(info.value, GatewayRefused)


@pytest.mark.parametrize("behaviour", ["http404", "close", "garbage"])
def test_non_websocket_listeners(behaviour):
    with tcp_listener(behaviour) as port, pytest.raises(GatewayNotAGateway) as info:
        client(f"ws://127.0.0.1:{port}").connect()
    assert "not an OpenClaw Gateway" in info.value.message
    if behaviour == "http404":
        assert "HTTP 404" in info.value.message


# -- TLS pinning --------------------------------------------------------------------------

@pytest.fixture
def tls_files(tmp_path: Path):
    if not shutil.which("openssl"):
        pytest.skip("openssl not available")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "2", "-subj", "/CN=localhost"],
                   check=True, capture_output=True)
    return key, cert


def _tls_server(key: Path, cert: Path):
    from websockets.sync.server import serve

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    def handler(ws):
        ws.send(json.dumps(challenge_frame()))
        frame = json.loads(ws.recv(timeout=5))
        reply(ws, frame, hello_payload())
        reply(ws, json.loads(ws.recv(timeout=5)), {"tls": True})

    server = serve(handler, "127.0.0.1", 0, ssl=context, compression=None)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_tls_fingerprint_pin(tls_files):
    from openclaw_cli.gateway.discovery import pem_fingerprint

    key, cert = tls_files
    server = _tls_server(key, cert)
    try:
        url = f"wss://127.0.0.1:{server.socket.getsockname()[1]}"
        pin = pem_fingerprint(str(cert))
        with client(url, tls_fingerprint=pin) as c:
            assert c.request("health") == {"tls": True}
        with pytest.raises(GatewayProtocolError, match="pinned SHA-256"):
            client(url, tls_fingerprint="00" * 32).connect()
        with pytest.raises(GatewayProtocolError, match="TLS handshake"):
            client(url).connect()  # self-signed and not pinned
    finally:
        server.shutdown()


def test_local_tls_uses_the_gateway_certificate(tls_files, tmp_path: Path):
    _key, cert = tls_files
    cfg = {"gateway": {"tls": {"enabled": True, "certPath": str(cert)}, "port": 1,
                       "auth": {"token": "t"}}}
    conn = resolve_connection("health", cfg, {})
    assert conn.url == "wss://127.0.0.1:1" and len(conn.target.tls_fingerprint) == 64


# -- secrets ------------------------------------------------------------------------------

def test_secrets_stay_out_of_logs_and_reprs(fake_gateway, caplog):
    def handler(ws, srv):
        srv.handshake(ws)
        reply(ws, srv.recv_json(ws))

    caplog.set_level(logging.DEBUG)
    for name in ("websockets", "websockets.client", "openclaw_cli", "openclaw_cli.gateway.wire"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    try:
        c = client(fake_gateway(handler).url, password="pw-VERY-SECRET")
        with c:
            c.request("health")
            assert SECRET not in repr(c) and "pw-VERY-SECRET" not in repr(c)
    finally:
        logging.getLogger("openclaw_cli.gateway.wire").setLevel(logging.INFO)
    # the fake server's own logs show what it received; only the client side matters here
    text = "\n".join(f"{r.name} {r.getMessage()}" for r in caplog.records
                     if not r.name.startswith("websockets.server"))
    assert "hello-ok" in text  # debug logging did happen
    assert SECRET not in text and "pw-VERY-SECRET" not in text


def test_unavailable_is_a_gateway_error_with_url():
    port = closed_port()
    conn = resolve_connection("health", {"gateway": {"port": port}},
                              {"OPENCLAW_GATEWAY_TOKEN": SECRET})
    with pytest.raises(GatewayError) as info:
        rpc.health(connection=conn)
    assert isinstance(info.value, GatewayUnavailable)
    assert info.value.url_source == "local loopback"
    assert_no_secret(info.value)


def test_importing_the_package_does_not_load_websockets():
    code = ("import sys, openclaw_cli.gateway, openclaw_cli.gateway.rpc, "
            "openclaw_cli.gateway.client; print('websockets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- device identity (2026.8+ Gateways that admit paired devices only) ------------------------


def device_connection(url: str, state_dir: Path, *, token: str | None = None) -> GatewayConnection:
    """A connection that presents our device: auth mode "none" (or a token off loopback)."""
    target = resolve_target({}, {}, url=url)
    creds = Credentials(token, None, "--token" if token else None, None)
    return GatewayConnection(target=target, credentials=creds, method="test", auth_mode="none",
                             state_dir=str(state_dir))


def verify_device(params: dict, nonce: str, ts: int) -> str:
    """What a Gateway checks of the `device` block (raises when the signature does not verify)."""
    import base64
    import hashlib

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    device = params["device"]
    raw = base64.urlsafe_b64decode(device["publicKey"] + "=" * (-len(device["publicKey"]) % 4))
    assert device["id"] == hashlib.sha256(raw).hexdigest()
    assert (device["nonce"], device["signedAt"]) == (nonce, ts)
    client_info = params["client"]
    token = (params.get("auth") or {}).get("token", "")
    payload = "|".join(["v3", device["id"], client_info["id"], client_info["mode"], params["role"],
                        ",".join(params["scopes"]), str(ts), token, nonce, client_info["platform"].lower(), ""])
    signature = base64.urlsafe_b64decode(device["signature"] + "=" * (-len(device["signature"]) % 4))
    Ed25519PublicKey.from_public_bytes(raw).verify(signature, payload.encode())
    return device["id"]


def test_a_device_identity_is_created_once_and_signs_the_challenge(fake_gateway, tmp_path: Path):
    seen: list[str] = []

    def handler(ws, server):
        challenge = challenge_frame()
        ws.send(json.dumps(challenge))
        frame = server.recv_json(ws)
        seen.append(verify_device(frame["params"], challenge["payload"]["nonce"], challenge["payload"]["ts"]))
        reply(ws, frame, hello_payload())
        linger(ws, 1)

    server = fake_gateway(handler)
    for _ in range(2):
        with GatewayClient(device_connection(server.url, tmp_path), scopes=["operator.admin"]) as c:
            assert c.device_id == seen[-1]
    assert len(seen) == 2 and seen[0] == seen[1]
    identity = tmp_path / "openclaw-cli" / "device-identity.json"
    assert json.loads(identity.read_text())["deviceId"] == seen[0]
    assert identity.stat().st_mode & 0o777 == 0o600
    assert "PRIVATE KEY" in json.loads(identity.read_text())["privateKeyPem"]


def test_no_device_is_presented_on_loopback_with_the_gateways_token(fake_gateway, tmp_path: Path):
    def handler(ws, server):
        frame = server.handshake(ws)
        assert "device" not in frame["params"]
        linger(ws, 1)

    server = fake_gateway(handler)
    target = resolve_target({}, {}, url=server.url)
    plain = GatewayConnection(target=target, credentials=Credentials(SECRET, None, "--token", None),
                              method="test", auth_mode="token", state_dir=str(tmp_path))
    with GatewayClient(plain, scopes=["operator.admin"]) as c:
        assert c.device_id is None
    assert server.received and not server.errors
    assert not (tmp_path / "openclaw-cli").exists()


def test_a_pairing_request_waiting_for_approval_names_the_approve_command(fake_gateway, tmp_path: Path):
    def handler(ws, server):
        ws.send(json.dumps(challenge_frame()))
        frame = server.recv_json(ws)
        reply(ws, frame, ok=False, error={
            "code": "NOT_PAIRED", "message": "pairing required: device pairing required",
            "details": {"code": "PAIRING_REQUIRED", "reason": "not-paired", "requestId": "req-42",
                        "deviceId": frame["params"]["device"]["id"]}})
        ws.close(1008, "pairing required")

    server = fake_gateway(handler)
    with pytest.raises(GatewayAuthError) as caught:
        GatewayClient(device_connection(server.url, tmp_path), scopes=["operator.admin"]).connect()
    assert caught.value.detail_code == "PAIRING_REQUIRED"
    assert "pairing required" in caught.value.message
    assert "openclaw devices approve req-42" in (caught.value.hint or "")
    # the request waits under this key: it is kept for the run after the approval
    kept = json.loads((tmp_path / "openclaw-cli" / "device-identity.json").read_text())
    assert kept["deviceId"] == server.received[0]["params"]["device"]["id"]


def test_a_refused_connection_leaves_no_device_identity_behind(fake_gateway, tmp_path: Path):
    def handler(ws, server):
        ws.send(json.dumps(challenge_frame()))
        frame = server.recv_json(ws)
        reply(ws, frame, ok=False, error={
            "code": "INVALID_REQUEST", "message": "unauthorized: gateway token mismatch",
            "details": {"code": "AUTH_TOKEN_MISMATCH"}})
        ws.close(1008, "unauthorized: gateway token mismatch")

    server = fake_gateway(handler)
    with pytest.raises(GatewayAuthError):
        GatewayClient(device_connection(server.url, tmp_path, token=SECRET), scopes=["operator.admin"]).connect()
    assert "device" in server.received[0]["params"]
    assert list(tmp_path.iterdir()) == []


def test_an_unreadable_device_identity_is_one_error_and_is_left_alone(fake_gateway, tmp_path: Path):
    from openclaw_cli.gateway.device import DeviceIdentityError

    identity = tmp_path / "openclaw-cli" / "device-identity.json"
    identity.parent.mkdir()
    identity.write_text('{"deviceId": "00", "publicKeyPem": "x", "privateKeyPem": "y", "createdAtMs": 1}')

    def handler(ws, server):
        ws.send(json.dumps(challenge_frame()))
        linger(ws, 2)

    server = fake_gateway(handler)
    with pytest.raises(DeviceIdentityError) as caught:
        GatewayClient(device_connection(server.url, tmp_path), scopes=["operator.admin"]).connect()
    assert str(identity) in caught.value.message and caught.value.exit_code == 1
    assert identity.read_text().startswith('{"deviceId": "00"')


def test_a_2026_9_missing_scope_names_the_scope_from_its_details(fake_gateway):
    def handler(ws, server):
        server.handshake(ws)
        frame = server.recv_json(ws)
        reply(ws, frame, ok=False, error={
            "code": "FORBIDDEN", "message": "missing scope: operator.admin",
            "details": {"code": "MISSING_SCOPE", "missingScope": "operator.admin",
                        "requiredScopes": ["operator.admin"]}})
        linger(ws, 1)

    server = fake_gateway(handler)
    with client(server.url) as c, pytest.raises(GatewayRequestError) as caught:
        c.request("sessions.compact", {"key": "k"})
    assert (caught.value.code, caught.value.missing_scope) == ("FORBIDDEN", "operator.admin")
    assert caught.value.hint == "this call needs operator.admin. Or use --store <path>."


def test_a_partial_all_agents_cleanup_prints_what_was_done_then_one_error_line(fake_gateway, tmp_path: Path):
    """2026.9's sessions.cleanup refuses with the summaries of the stores done before the failing one."""
    from helpers.cli import run

    done = {"agentId": "main", "storePath": "/state/agents/main/agent/openclaw-agent.sqlite", "mode": "enforce",
            "dryRun": False, "beforeCount": 2, "afterCount": 2, "applied": True, "appliedCount": 2,
            "unreferencedArtifacts": {"scannedFiles": 0, "removedFiles": 0, "freedBytes": 0}}
    partial = {"allAgents": True, "mode": "enforce", "dryRun": False, "stores": [done],
               "partialError": {"failingAgentId": "work", "message": "database is locked",
                                "failingStorePath": "/state/agents/work/agent/openclaw-agent.sqlite",
                                "lifecycleCommitted": False}}

    def handler(ws, server):
        server.handshake(ws)
        frame = server.recv_json(ws)
        reply(ws, frame, ok=False, error={"code": "UNAVAILABLE", "message": "database is locked",
                                          "details": partial})
        linger(ws, 1)

    env = {"OPENCLAW_GATEWAY_TOKEN": SECRET}
    for args in ([], ["--json"]):
        server = fake_gateway(handler)
        result = run(["sessions", "cleanup", "--enforce", "--all-agents", *args], tmp_path,
                     {**env, "OPENCLAW_GATEWAY_PORT": str(server.port)})
        assert result.returncode == 1
        if args:
            assert json.loads(result.stdout) == partial
        else:
            assert result.stdout == ("Session store: /state/agents/main/agent/openclaw-agent.sqlite\n"
                                     "Applied maintenance. Current entries: 2\n")
        assert result.stderr == ("the Gateway stopped the cleanup at agent work "
                                 "(/state/agents/work/agent/openclaw-agent.sqlite): database is locked\n")
        assert server.received[-1]["method"] == "sessions.cleanup"

"""The Gateway client against the real reference Gateway (2026.7.1) and the reference CLI."""

from __future__ import annotations

import json
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import refbin
from helpers.gateway import closed_port, hello_payload

from openclaw_cli.gateway import (
    GatewayAuthError,
    GatewayProtocolError,
    GatewayRequestError,
    GatewayUnavailable,
    frames,
    rpc,
)
from openclaw_cli.gateway.client import GatewayClient
from openclaw_cli.gateway.credentials import Credentials
from openclaw_cli.gateway.discovery import GatewayConnection, resolve_connection, resolve_target
from openclaw_cli.gateway.scopes import scopes_for_method

pytestmark = [pytest.mark.gateway, pytest.mark.reference]

ADMIN, WRITE, READ = "operator.admin", "operator.write", "operator.read"


def conn_for(gw, method: str = "health", env: dict | None = None, **kw) -> GatewayConnection:
    return resolve_connection(method, gw.client_config(), env or {}, **kw)


def raw_conn(gw, *, token=None, password=None) -> GatewayConnection:
    target = resolve_target({}, {}, url=gw.url)
    return GatewayConnection(target=target, method="test",
                             credentials=Credentials(token, password, "test", "test"))


def same_path(a, b) -> bool:
    return os.path.realpath(str(a)) == os.path.realpath(str(b))


def assert_secret_free(exc: BaseException, *secrets: str) -> None:
    texts = [str(exc), repr(exc), exc.hint or "", getattr(exc, "server_message", "") or "",
             getattr(exc, "close_reason", "") or ""]
    for secret in secrets:
        for text in texts:
            assert secret not in text


# -- handshake and read methods ----------------------------------------------------------

def test_fixture_gateway_is_ready(real_gateway):
    assert real_gateway.running() and real_gateway.startup_s < 90
    assert real_gateway.url == f"ws://127.0.0.1:{real_gateway.port}"


def test_handshake_and_health(real_gateway):
    with GatewayClient(conn_for(real_gateway), scopes=[READ]) as client:
        hello = client.hello
        assert hello.protocol == 4 and hello.server_version == "2026.7.1"
        assert {"health", "status", "sessions.list", "sessions.cleanup", "sessions.compact",
                "sessions.compaction.list", "chat.history", "chat.send"} <= hello.methods
        assert "sessions.usage" not in hello.methods  # callable, not advertised
        assert hello.max_payload == frames.MAX_PAYLOAD_BYTES
        assert (hello.role, hello.scopes) == ("operator", [READ])
        assert "stateDir" not in hello.snapshot  # admin-only
        health = client.request("health")
    assert health["ok"] is True
    assert same_path(health["sessions"]["path"], real_gateway.store_path)
    assert rpc.health(connection=conn_for(real_gateway))["ok"] is True


def test_admin_hello_reports_state_dir(real_gateway):
    with GatewayClient(conn_for(real_gateway), scopes=[ADMIN]) as client:
        assert same_path(client.hello.snapshot["stateDir"], real_gateway.state_dir)


def test_sessions_list(real_gateway):
    reply = rpc.sessions_list({"limit": 5, "includeGlobal": True}, connection=conn_for(real_gateway))
    assert reply["limitApplied"] == 5 and isinstance(reply["sessions"], list)
    assert {"ts", "path", "count", "totalCount", "hasMore", "defaults"} <= set(reply)
    assert rpc.sessions_list(connection=conn_for(real_gateway))["limitApplied"] == 100


def test_sessions_usage_and_chat_history(real_gateway):
    usage = rpc.sessions_usage({"includeContextWeight": True}, connection=conn_for(real_gateway))
    assert {"startDate", "endDate", "sessions", "totals", "aggregates"} <= set(usage)
    history = rpc.chat_history({"sessionKey": "agent:main:main", "limit": 5},
                               connection=conn_for(real_gateway))
    assert history["sessionKey"] == "agent:main:main" and isinstance(history["messages"], list)


def test_closed_schema_is_enforced_by_the_gateway(real_gateway):
    with pytest.raises(ValueError, match="dryRun"):
        rpc.sessions_cleanup({"dryRun": True}, connection=conn_for(real_gateway))
    with pytest.raises(GatewayRequestError) as info:
        rpc.call("sessions.cleanup", {"dryRun": True}, connection=conn_for(real_gateway))
    assert info.value.code == "INVALID_REQUEST"
    assert "unexpected property 'dryRun'" in info.value.message


# -- sessions.cleanup ----------------------------------------------------------------------

def test_sessions_cleanup(real_gateway):
    params = {"agent": None, "allAgents": False, "enforce": True, "activeKey": None,
              "fixMissing": False, "fixDmScope": False}
    reply = rpc.sessions_cleanup(params, connection=conn_for(real_gateway, "sessions.cleanup"))
    assert reply["agentId"] == "main" and same_path(reply["storePath"], real_gateway.store_path)
    assert (reply["mode"], reply["dryRun"], reply["applied"]) == ("enforce", False, True)
    assert {"beforeCount", "afterCount", "pruned", "capped", "missing", "unreferencedArtifacts",
            "wouldMutate", "appliedCount"} <= set(reply)


def _capture_reference_cleanup(fake_gateway, tmp_path: Path, args: list[str]) -> dict:
    """Run the reference `sessions cleanup` against a fake Gateway; return what it sent."""
    summary = {"agentId": "main", "storePath": "/x/sessions.json", "mode": "enforce",
               "dryRun": False, "beforeCount": 0, "afterCount": 0, "applied": True,
               "appliedCount": 0}

    def handler(ws, srv):
        srv.handshake(ws, hello=hello_payload())
        request = srv.recv_json(ws)
        ws.send(json.dumps({"type": "res", "id": request["id"], "ok": True, "payload": summary}))

    srv = fake_gateway(handler)
    home = tmp_path / "ref-home"
    home.mkdir(exist_ok=True)
    result = refbin.run_reference(["sessions", "cleanup", "--json", *args], home,
                                  env={"OPENCLAW_GATEWAY_PORT": str(srv.port),
                                       "OPENCLAW_GATEWAY_TOKEN": "ref-token"}, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == summary
    connect, request = srv.received
    return {"connect": connect["params"], "request": request}


def _capture_ours(fake_gateway, params: dict) -> dict:
    def handler(ws, srv):
        srv.handshake(ws, hello=hello_payload())
        request = srv.recv_json(ws)
        ws.send(json.dumps({"type": "res", "id": request["id"], "ok": True, "payload": {}}))

    srv = fake_gateway(handler)
    conn = resolve_connection("sessions.cleanup", {"gateway": {"port": srv.port}},
                              {"OPENCLAW_GATEWAY_TOKEN": "ref-token"})
    rpc.sessions_cleanup(params, connection=conn)
    connect, request = srv.received
    return {"connect": connect["params"], "request": request}


@pytest.mark.parametrize("args, params", [
    ([], {"agent": None, "allAgents": False, "enforce": False, "activeKey": None,
          "fixMissing": False, "fixDmScope": False}),
    (["--enforce", "--agent", "main", "--fix-missing", "--active-key", "agent:main:main"],
     {"agent": "main", "allAgents": False, "enforce": True, "activeKey": "agent:main:main",
      "fixMissing": True, "fixDmScope": False}),
])
def test_cleanup_request_matches_reference_cli(fake_gateway, tmp_path, args, params):
    ref = _capture_reference_cleanup(fake_gateway, tmp_path, args)
    ours = _capture_ours(fake_gateway, params)
    assert ours["request"]["method"] == ref["request"]["method"] == "sessions.cleanup"
    assert ours["request"]["params"] == ref["request"]["params"]
    assert set(ours["request"]) == set(ref["request"]) == {"type", "id", "method", "params"}
    for key in ("role", "scopes", "auth", "caps"):
        assert ours["connect"][key] == ref["connect"][key]
    assert ref["connect"]["client"]["id"] == ours["connect"]["client"]["id"] == "cli"
    assert ref["connect"]["client"]["mode"] == ours["connect"]["client"]["mode"] == "cli"
    assert "device" not in ref["connect"] and "device" not in ours["connect"]


# -- credential precedence, checked against the reference CLI ------------------------------

def _credential_cases(tmp_path: Path, fake_url: str, port: int) -> dict:
    secret_file = tmp_path / "gw-secrets.json"
    secret_file.write_text('{"gateway": {"token": "file-tok"}}')
    secret_file.chmod(0o600)
    return {
        "local-env-first": (
            {"gateway": {"port": port, "auth": {"token": "cfg-tok", "password": "cfg-pw"}}},
            {"OPENCLAW_GATEWAY_TOKEN": "env-tok"}),
        "local-remote-fallback": (
            {"gateway": {"port": port, "remote": {"token": "remote-tok"}}}, {}),
        "remote-mode": (
            {"gateway": {"mode": "remote", "auth": {"password": "local-pw", "token": "local-tok"},
                         "remote": {"url": fake_url, "token": "remote-tok",
                                    "password": "remote-pw"}}},
            {"OPENCLAW_GATEWAY_TOKEN": "env-tok", "OPENCLAW_GATEWAY_PASSWORD": "env-pw"}),
        "file-secret-ref": (
            {"secrets": {"providers": {"vault": {"source": "file", "path": str(secret_file)}}},
             "gateway": {"port": port, "auth": {
                 "token": {"source": "file", "provider": "vault", "id": "/gateway/token"}}}},
            {}),
    }


def test_credentials_match_reference_cli(fake_gateway, tmp_path):
    """Each case runs the reference `gateway call health` (concurrently, they are slow) against
    a fake Gateway and compares the auth it sent with what we resolve."""
    def handler(ws, srv):
        srv.handshake(ws)
        request = srv.recv_json(ws)
        ws.send(json.dumps({"type": "res", "id": request["id"], "ok": True,
                            "payload": {"ok": True}}))

    servers = {name: fake_gateway(handler) for name in
               ("local-env-first", "local-remote-fallback", "remote-mode", "file-secret-ref")}
    runs = {}
    for name, srv in servers.items():
        cfg, env = _credential_cases(tmp_path, srv.url, srv.port)[name]
        home = tmp_path / name
        (home / ".openclaw").mkdir(parents=True)
        (home / ".openclaw" / "openclaw.json").write_text(json.dumps(cfg))
        runs[name] = (cfg, env, home)
    with ThreadPoolExecutor(max_workers=len(runs)) as pool:
        results = dict(zip(runs, pool.map(
            lambda item: refbin.run_reference(["gateway", "call", "health", "--json"], item[2],
                                              env=item[1], timeout=180), runs.values())))
    for name, (cfg, env, _home) in runs.items():
        assert results[name].returncode == 0, (name, results[name].stderr)
        srv = servers[name]
        ref_connect = srv.received[0]["params"]
        ours = resolve_connection("health", cfg, env)
        assert ours.url == srv.url, name
        expected = {k: v for k, v in (("token", ours.credentials.token),
                                      ("password", ours.credentials.password)) if v}
        assert ref_connect["auth"] == expected, name
        assert ref_connect["scopes"] == scopes_for_method("health"), name


# -- scopes (spec §5) ----------------------------------------------------------------------

SCOPE_CASES = {
    "sessions.cleanup": ({"enforce": False}, ADMIN),
    "sessions.compact": ({"key": "agent:main:no-such-session", "maxLines": 3}, ADMIN),
    "sessions.list": ({"limit": 1}, READ),
    "sessions.usage": ({"limit": 1}, READ),
    "status": ({"includeChannelSummary": False}, READ),
    "chat.history": ({"sessionKey": "agent:main:main", "limit": 1}, READ),
    "health": ({}, None),
}


@pytest.mark.parametrize("method", sorted(SCOPE_CASES))
def test_scope_matrix(real_gateway, method):
    params, required = SCOPE_CASES[method]
    granted = {ADMIN: {ADMIN, WRITE, READ}, WRITE: {WRITE, READ}, READ: {READ}, None: set()}
    for scopes in ([ADMIN], [WRITE], [READ], []):
        allowed = required is None or required in granted[scopes[0] if scopes else None]
        try:
            rpc.call(method, params, scopes, connection=conn_for(real_gateway, method))
            outcome = None
        except GatewayRequestError as exc:
            outcome = exc.missing_scope
        assert outcome == (None if allowed else required), (method, scopes)


def test_chat_send_needs_write(real_gateway):
    for scopes in ([READ], []):
        with pytest.raises(GatewayRequestError) as info:
            rpc.call("chat.send", {"sessionKey": "agent:main:x", "message": "hi",
                                   "idempotencyKey": "k"}, scopes,
                     connection=conn_for(real_gateway))
        assert info.value.missing_scope == WRITE


def test_missing_scope_error(real_gateway):
    with pytest.raises(GatewayRequestError) as info:
        rpc.call("sessions.cleanup", {}, [READ], connection=conn_for(real_gateway))
    err = info.value
    assert (err.code, err.missing_scope, err.details) == ("INVALID_REQUEST", ADMIN, None)
    assert "missing scope: operator.admin" in err.message


# -- auth failures -------------------------------------------------------------------------

def test_wrong_token(real_gateway):
    wrong = "wrong-token-0123456789"
    # env-first: a wrong env token beats the right config token, as in the reference
    conn = conn_for(real_gateway, env={"OPENCLAW_GATEWAY_TOKEN": wrong})
    with pytest.raises(GatewayAuthError) as info:
        rpc.health(connection=conn)
    err = info.value
    assert (err.code, err.detail_code) == ("INVALID_REQUEST", "AUTH_TOKEN_MISMATCH")
    assert "gateway token mismatch" in err.message
    assert "token from env OPENCLAW_GATEWAY_TOKEN" in err.message
    assert "--token" in err.hint and "OPENCLAW_GATEWAY_TOKEN" in err.hint
    assert_secret_free(err, wrong, real_gateway.secret)


def test_password_where_token_required(real_gateway):
    conn = raw_conn(real_gateway, password="some-password-123")
    with pytest.raises(GatewayAuthError) as info:
        rpc.health(connection=conn)
    assert info.value.detail_code == "AUTH_TOKEN_MISSING"
    assert "token" in info.value.hint
    assert_secret_free(info.value, "some-password-123")


def test_no_credentials_at_all(real_gateway):
    with pytest.raises(GatewayAuthError) as info:
        rpc.health(connection=raw_conn(real_gateway))
    assert (info.value.code, info.value.detail_code) == ("NOT_PAIRED", "DEVICE_IDENTITY_REQUIRED")


def test_token_and_password_together(real_gateway):
    conn = raw_conn(real_gateway, token=real_gateway.secret, password="unused-password")
    assert rpc.health(connection=conn)["ok"] is True


def test_password_gateway(real_gateway_password):
    gw = real_gateway_password
    assert rpc.health(connection=conn_for(gw))["ok"] is True
    with pytest.raises(GatewayAuthError) as info:
        rpc.health(connection=raw_conn(gw, password="not-the-password"))
    assert info.value.detail_code == "AUTH_PASSWORD_MISMATCH"
    assert "password is wrong" in info.value.hint
    assert_secret_free(info.value, "not-the-password", gw.secret)
    with pytest.raises(GatewayAuthError) as info:
        rpc.health(connection=raw_conn(gw, token="a-token-instead"))
    assert info.value.detail_code == "AUTH_PASSWORD_MISSING"
    assert "--password" in info.value.hint
    assert_secret_free(info.value, "a-token-instead", gw.secret)


def test_protocol_mismatch(real_gateway, monkeypatch):
    monkeypatch.setattr(frames, "MIN_PROTOCOL", 5)
    monkeypatch.setattr(frames, "MAX_PROTOCOL", 5)
    with pytest.raises(GatewayProtocolError) as info:
        rpc.health(connection=conn_for(real_gateway))
    assert info.value.detail_code == "PROTOCOL_MISMATCH"
    assert "protocol mismatch" in info.value.message


# -- targets, reachability, secrets ---------------------------------------------------------

def test_url_override_and_env_url(real_gateway):
    conn = resolve_connection("health", {}, {}, url=real_gateway.url, token=real_gateway.secret)
    assert conn.target.url_source == "cli --url"
    assert rpc.health(connection=conn)["ok"] is True
    env = {"OPENCLAW_GATEWAY_URL": real_gateway.url, "OPENCLAW_GATEWAY_TOKEN": real_gateway.secret}
    conn = resolve_connection("health", {"gateway": {"port": closed_port()}}, env)
    assert conn.target.url_source == "env OPENCLAW_GATEWAY_URL"
    assert rpc.health(connection=conn)["ok"] is True


def test_closed_port_is_unavailable(real_gateway):
    cfg = {"gateway": {"port": closed_port(), "auth": {"token": real_gateway.secret}}}
    with pytest.raises(GatewayUnavailable) as info:
        rpc.sessions_cleanup({"enforce": True},
                             connection=resolve_connection("sessions.cleanup", cfg, {}))
    assert_secret_free(info.value, real_gateway.secret)


def test_no_secrets_in_logs(real_gateway, caplog):
    caplog.set_level(logging.DEBUG)
    logging.getLogger("websockets").setLevel(logging.DEBUG)
    rpc.sessions_list(connection=conn_for(real_gateway))
    with pytest.raises(GatewayAuthError):
        rpc.health(connection=conn_for(real_gateway, env={"OPENCLAW_GATEWAY_TOKEN": "bad-tok-42"}))
    assert "sessions.list" in caplog.text
    assert real_gateway.secret not in caplog.text and "bad-tok-42" not in caplog.text


def test_reference_cli_talks_to_the_fixture(real_gateway, tmp_path):
    home = tmp_path / "cli-home"
    home.mkdir()
    result = refbin.run_reference(["gateway", "call", "health", "--json"], home,
                                  env=real_gateway.client_env(), timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ok"] is True


def test_stopped_gateway_is_unavailable(gateway_factory):
    gw = gateway_factory()
    conn = conn_for(gw, "sessions.cleanup")
    assert rpc.health(connection=conn)["ok"] is True
    gw.stop()
    assert not gw.running()
    with pytest.raises(GatewayUnavailable):
        rpc.sessions_cleanup({"enforce": True}, connection=conn)


def test_chat_send_context_report(real_gateway_password):
    result = rpc.chat_send({"sessionKey": "agent:main:probe", "message": "/context list"},
                           connection=conn_for(real_gateway_password))
    assert result.ack.get("runId") and result.final["state"] == "final"
    text = result.final["message"]["content"][0]["text"]
    assert "Context breakdown" in text


def test_sessions_compact(real_gateway_password):
    gw = real_gateway_password
    key = "agent:main:compact-probe"
    rpc.chat_send({"sessionKey": key, "message": "/context list"}, connection=conn_for(gw))
    conn = conn_for(gw, "sessions.compact")
    reply = rpc.sessions_compact({"key": key, "maxLines": 1}, connection=conn)
    assert (reply["ok"], reply["key"], reply["compacted"], reply["kept"]) == (True, key, True, 1)
    assert ".jsonl.bak." in reply["archived"] and Path(reply["archived"]).exists()
    again = rpc.sessions_compact({"key": key, "maxLines": 1}, connection=conn)
    assert (again["ok"], again["compacted"]) == (True, False)
    unknown = rpc.sessions_compact({"key": "agent:main:nope", "maxLines": 3}, connection=conn)
    assert (unknown["ok"], unknown["compacted"], unknown["reason"]) == (True, False, "no sessionId")
    with pytest.raises(GatewayRequestError, match="maxLines"):
        rpc.sessions_compact({"key": key, "maxLines": 0}, connection=conn)

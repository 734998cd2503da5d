"""`core/doctor/gateway-health` against fake Gateways and the real 2026.7.1 Gateway."""

from __future__ import annotations

import json
from urllib.parse import urlparse

import pytest
from helpers.doctor import doctor, lint, write_config
from helpers.gateway import challenge_frame, closed_port

SECRET = "gw-secret-token-0123456789abcdef"


def _config(home, port: int, token: str = SECRET) -> None:
    write_config(home, {"gateway": {"mode": "local", "port": port, "auth": {"mode": "token", "token": token}}})


def _port(url: str) -> int:
    return urlparse(url).port


def _reply(ws, frame, payload=None, *, ok=True, error=None) -> None:
    body = {"type": "res", "id": frame["id"], "ok": ok}
    body.update({"payload": payload if payload is not None else {"ok": True}} if ok else {"error": error})
    ws.send(json.dumps(body))


def _health(home, **env) -> tuple[list[dict], str]:
    env = {k: v for k, v in {"OPENCLAW_GATEWAY_PORT": None, **env}.items() if v is not None}
    run = lint(home, only=["core/doctor/gateway-health"], env=env or None)
    human = doctor(home, non_interactive=True, env=env or None)
    return run.findings(), human.out + human.err


def _no_port_env(home):
    """Runs without the suite's default OPENCLAW_GATEWAY_PORT=1 so the config port is used."""
    return {"OPENCLAW_GATEWAY_PORT": ""}


def test_healthy_fake_gateway(home, fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)
        _reply(ws, srv.recv_json(ws), {"ok": True, "ts": 1})

    srv = fake_gateway(handler)
    _config(home, _port(srv.url))
    found, out = _health(home, **_no_port_env(home))
    assert found == []
    assert f"- Gateway at {srv.url} answered health: ok." in out
    assert SECRET not in out


def test_unauthorised_gateway_is_a_finding(home, fake_gateway):
    def handler(ws, srv):
        ws.send(json.dumps(challenge_frame()))
        frame = srv.recv_json(ws)
        _reply(ws, frame, ok=False, error={"code": "INVALID_REQUEST",
                                           "message": f"unauthorized: gateway token mismatch ({SECRET})",
                                           "details": {"code": "AUTH_TOKEN_MISMATCH"}})
        ws.close(1008, "unauthorized")

    srv = fake_gateway(handler)
    _config(home, _port(srv.url))
    found, out = _health(home, **_no_port_env(home))
    assert [(f["checkId"], f["severity"], f["path"]) for f in found] == [
        ("core/doctor/gateway-health", "warning", "gateway.auth")]
    assert found[0]["message"].startswith("Gateway refused doctor's credentials:")
    assert found[0]["target"] == srv.url
    assert SECRET not in json.dumps(found) and SECRET not in out
    assert "Traceback" not in out


def test_not_listening_is_a_finding(home):
    port = closed_port()
    _config(home, port)
    found, out = _health(home, **_no_port_env(home))
    assert [(f["path"], f["target"]) for f in found] == [("gateway.mode", f"ws://127.0.0.1:{port}")]
    assert found[0]["message"].startswith("Gateway is not reachable:")
    assert "Gateway health" in out


def test_remote_mode_without_url(home):
    write_config(home, {"gateway": {"mode": "remote"}})
    found, _out = _health(home)
    assert [f["path"] for f in found] == ["gateway.remote.url"]
    assert "could not be prepared" in found[0]["message"]


@pytest.mark.gateway
def test_real_gateway_health(home, real_gateway):
    _config(home, real_gateway.port, real_gateway.token)
    found, out = _health(home, **_no_port_env(home))
    assert found == [], out
    assert "answered health: ok" in out
    assert real_gateway.token not in out
    _config(home, real_gateway.port, "wrong-token-0123456789abcdef0123")
    found, out = _health(home, **_no_port_env(home))
    assert [f["path"] for f in found] == ["gateway.auth"]
    assert real_gateway.token not in out


def test_listening_gateway_without_credentials(home, fake_gateway):
    def handler(ws, srv):
        srv.handshake(ws)

    srv = fake_gateway(handler)
    write_config(home, {"gateway": {"mode": "local", "port": _port(srv.url)}})
    found, _out = _health(home, **_no_port_env(home))
    assert [(f["path"], f["target"]) for f in found] == [("gateway.auth", srv.url)]
    assert "no credentials" in found[0]["message"]

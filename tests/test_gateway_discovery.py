"""Gateway URL, port, timeout and credential resolution, in the order OpenClaw 2026.7.1 uses."""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path

import pytest
from helpers.state import state_dir, write_config

from openclaw_cli.config.paths import apply_cli_profile
from openclaw_cli.errors import ConfigError, UsageError
from openclaw_cli.gateway import (
    GatewayCredentialsRequired,
    GatewayExplicitAuthRequired,
    GatewayInsecureUrl,
    GatewayRemoteUrlMissing,
    GatewaySecretRefError,
    GatewaySetupError,
    rpc,
)
from openclaw_cli.gateway.credentials import Credentials, resolve_auth_mode, resolve_credentials
from openclaw_cli.gateway.discovery import (
    DEFAULT_PORT,
    DEV_PORT,
    default_call_timeout_ms,
    is_secure_ws_url,
    normalize_fingerprint,
    parse_port_env,
    parse_timeout_ms,
    redact_url,
    resolve_connection,
    resolve_port,
    resolve_target,
)
from openclaw_cli.gateway.scopes import CLI_DEFAULT_SCOPES, scopes_for_method


def gw(**gateway):
    return {"gateway": gateway}


# -- port ---------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    ("18790", 18790), (" 18790 ", 18790), ("localhost:18790", 18790), ("[::1]:18790", 18790),
    ("0.0.0.0:18790", 18790), ("", None), ("abc", None), ("0", None), ("70000", None),
    ("a:b:1", None), (":123", None), ("host:", None), ("host:x", None), ("::1:18790", None),
])
def test_parse_port_env(raw, expected):
    assert parse_port_env(raw) == expected


def test_port_order():
    cfg = gw(port=18800)
    assert resolve_port({}, {}) == DEFAULT_PORT == 18789
    assert resolve_port(cfg, {}) == 18800
    assert resolve_port(cfg, {"OPENCLAW_GATEWAY_PORT": "127.0.0.1:18801"}) == 18801
    assert resolve_port(cfg, {"OPENCLAW_GATEWAY_PORT": "18801"}, port=18802) == 18802
    assert resolve_port(cfg, {"OPENCLAW_GATEWAY_PORT": "bogus"}) == 18800
    assert resolve_port(gw(port=0), {}) == DEFAULT_PORT
    assert resolve_port(gw(port=-5), {}) == DEFAULT_PORT
    assert resolve_port(gw(port="18800"), {}) == DEFAULT_PORT  # only numbers count


def test_dev_port_beats_config_port(tmp_path: Path):
    # `--dev` puts OPENCLAW_GATEWAY_PORT=19001 in the environment (unless it is set already).
    env = {"HOME": str(tmp_path)}
    apply_cli_profile(env, None, dev=True)
    assert DEV_PORT == 19001 and env["OPENCLAW_GATEWAY_PORT"] == "19001"
    assert resolve_target(gw(port=18800), env).url == "ws://127.0.0.1:19001"
    env = {"HOME": str(tmp_path), "OPENCLAW_GATEWAY_PORT": "18900"}
    apply_cli_profile(env, None, dev=True)
    assert resolve_target(gw(port=18800), env).url == "ws://127.0.0.1:18900"


@pytest.mark.parametrize("bad", ["0", "abc", "65536", -1, True])
def test_explicit_port_must_be_valid(bad):
    with pytest.raises(UsageError):
        resolve_port({}, {}, port=bad)


# -- URL ----------------------------------------------------------------------------------

def test_local_loopback_default():
    target = resolve_target({}, {})
    assert (target.url, target.url_source) == ("ws://127.0.0.1:18789", "local loopback")
    assert target.bind_detail == "Bind: loopback"
    assert target.override_source is None and target.is_loopback


def test_local_url_ignores_bind_and_uses_tls_scheme(tmp_path: Path):
    cert = tmp_path / "cert.pem"
    der = b"not really a certificate but fine for hashing"
    cert.write_text("-----BEGIN CERTIFICATE-----\n" + base64.b64encode(der).decode() +
                    "\n-----END CERTIFICATE-----\n")
    target = resolve_target(gw(bind="lan", tls={"enabled": True, "certPath": str(cert)}), {})
    assert target.url == "wss://127.0.0.1:18789"
    assert target.bind_detail == "Bind: lan"
    assert target.tls_fingerprint == hashlib.sha256(der).hexdigest()


def test_cli_url_beats_env_and_remote():
    env = {"OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1111"}
    cfg = gw(mode="remote", remote={"url": "wss://gw.example.com"})
    target = resolve_target(cfg, env, url="ws://127.0.0.1:2222")
    assert (target.url, target.url_source, target.override_source) == \
        ("ws://127.0.0.1:2222", "cli --url", "cli")
    assert target.bind_detail is None


def test_env_url_beats_remote_config():
    env = {"OPENCLAW_GATEWAY_URL": " ws://127.0.0.1:1111 "}
    target = resolve_target(gw(mode="remote", remote={"url": "wss://gw.example.com"}), env)
    assert (target.url, target.url_source) == ("ws://127.0.0.1:1111", "env OPENCLAW_GATEWAY_URL")


def test_explicit_port_suppresses_env_url():
    env = {"OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1111"}
    target = resolve_target({}, env, port=2222)
    assert (target.url, target.url_source) == ("ws://127.0.0.1:2222", "local loopback")


def test_remote_url_only_in_remote_mode():
    remote = {"url": "wss://gw.example.com"}
    assert resolve_target(gw(remote=remote), {}).url == "ws://127.0.0.1:18789"
    target = resolve_target(gw(mode="remote", remote=remote), {})
    assert (target.url, target.url_source) == ("wss://gw.example.com", "config gateway.remote.url")
    assert target.remote_mode


def test_remote_mode_without_url():
    target = resolve_target(gw(mode="remote", remote={}), {})
    assert target.url_source == "missing gateway.remote.url (fallback local)"
    assert "gateway.remote.url is missing" in target.remote_fallback_note
    with pytest.raises(GatewayRemoteUrlMissing, match=r"gateway\.remote\.url missing"):
        resolve_connection("health", gw(mode="remote", remote={}),
                           {"OPENCLAW_GATEWAY_TOKEN": "t"})
    # an override makes it fine
    conn = resolve_connection("health", gw(mode="remote"),
                              {"OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1",
                               "OPENCLAW_GATEWAY_TOKEN": "t"})
    assert conn.target.url_source == "env OPENCLAW_GATEWAY_URL"


@pytest.mark.parametrize("url, ok", [
    ("wss://gw.example.com", True), ("ws://127.0.0.1:1", True), ("ws://localhost:1", True),
    ("ws://[::1]:1", True), ("ws://10.1.2.3:1", True), ("ws://192.168.1.5", True),
    ("ws://172.20.0.1", True), ("ws://100.64.1.1", True), ("ws://169.254.1.1", True),
    ("ws://[fd00::1]:1", True), ("ws://gw.local:1", True), ("ws://box.tail1.ts.net", True),
    ("ws://gw.example.com", False), ("ws://8.8.8.8", False), ("https://gw.example.com", True),
    ("http://gw.example.com", False), ("ftp://127.0.0.1", False),
])
def test_plaintext_rule(url, ok):
    assert is_secure_ws_url(url) is ok


def test_private_ws_break_glass():
    assert is_secure_ws_url("ws://gw.example.com", allow_private=True)
    assert not is_secure_ws_url("ws://8.8.8.8", allow_private=True)


def test_insecure_url_is_refused_before_connecting():
    with pytest.raises(GatewayInsecureUrl) as info:
        resolve_connection("health", {}, {}, url="ws://gw.example.com:18789", token="t")
    assert "SECURITY ERROR" in info.value.message and "cli --url" in info.value.message
    env = {"OPENCLAW_ALLOW_INSECURE_PRIVATE_WS": "1"}
    assert resolve_connection("health", {}, env, url="ws://gw.example.com", token="t")


@pytest.mark.parametrize("url", ["ftp://127.0.0.1", "ws://127.0.0.1:99999", "ws://:18789",
                                 "not a url"])
def test_invalid_url(url):
    with pytest.raises(GatewaySetupError, match="invalid Gateway URL"):
        resolve_target({}, {}, url=url)


def test_redact_url():
    assert redact_url("wss://user:pw@gw.example.com/x?token=abc&x=1") == \
        "wss://***@gw.example.com/x?token=***&x=1"
    assert redact_url("ws://127.0.0.1:18789") == "ws://127.0.0.1:18789"


def test_remote_tls_fingerprint_pin():
    cfg = gw(mode="remote", remote={"url": "wss://gw.example.com", "tlsFingerprint": "sha256:AB:CD"})
    assert resolve_target(cfg, {}).tls_fingerprint == "abcd"
    assert resolve_target(cfg, {}, url="wss://other.example.com").tls_fingerprint is None
    assert normalize_fingerprint("SHA-256: aa:BB:cc") == "aabbcc"


# -- timeouts -----------------------------------------------------------------------------

def test_call_timeout_defaults():
    assert default_call_timeout_ms({}, {}) == 10_000
    assert default_call_timeout_ms(gw(handshakeTimeoutMs=20_000), {}) == 20_000
    assert default_call_timeout_ms(gw(handshakeTimeoutMs=5_000), {}) == 10_000
    assert default_call_timeout_ms({}, {"OPENCLAW_HANDSHAKE_TIMEOUT_MS": "12000"}) == 12_000


@pytest.mark.parametrize("raw, expected", [(None, 777), ("30000", 30000), (" +5000 ", 5000), (250, 250)])
def test_parse_timeout(raw, expected):
    assert parse_timeout_ms(raw, 777) == expected


@pytest.mark.parametrize("raw", ["abc", "0", "-5", "1.5", ""])
def test_parse_timeout_rejects(raw):
    with pytest.raises(UsageError, match="Invalid --timeout"):
        parse_timeout_ms(raw, 777)


# -- credentials --------------------------------------------------------------------------

def creds(cfg, env, **kw) -> Credentials:
    return resolve_credentials(cfg, env, **kw)


def test_explicit_flags_win():
    cfg = gw(auth={"token": "cfg-tok", "password": "cfg-pw"})
    env = {"OPENCLAW_GATEWAY_TOKEN": "env-tok", "OPENCLAW_GATEWAY_PASSWORD": "env-pw"}
    c = creds(cfg, env, token=" flag-tok ")
    assert (c.token, c.password, c.token_source) == ("flag-tok", None, "--token")
    c = creds(cfg, env, password="flag-pw")
    assert (c.token, c.password) == (None, "flag-pw")


def test_cli_url_requires_explicit_credentials():
    cfg = gw(auth={"token": "cfg-tok"})
    env = {"OPENCLAW_GATEWAY_TOKEN": "env-tok"}
    assert not creds(cfg, env, url_override_source="cli")
    with pytest.raises(GatewayExplicitAuthRequired, match="requires explicit credentials") as info:
        resolve_connection("sessions.cleanup", cfg, env, url="ws://127.0.0.1:1")
    assert "--token" in info.value.hint
    conn = resolve_connection("sessions.cleanup", cfg, env, url="ws://127.0.0.1:1", token="x")
    assert conn.credentials.token == "x"


def test_env_url_uses_only_env_credentials():
    cfg = gw(auth={"token": "cfg-tok"})
    with pytest.raises(GatewayExplicitAuthRequired) as info:
        resolve_connection("health", cfg, {"OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1"})
    assert "OPENCLAW_GATEWAY_TOKEN" in info.value.hint
    env = {"OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:1", "OPENCLAW_GATEWAY_PASSWORD": "env-pw"}
    conn = resolve_connection("health", cfg, env)
    assert (conn.credentials.token, conn.credentials.password) == (None, "env-pw")


def test_local_mode_is_env_first():
    cfg = gw(auth={"token": "cfg-tok", "password": "cfg-pw"}, remote={"token": "remote-tok"})
    c = creds(cfg, {"OPENCLAW_GATEWAY_TOKEN": "env-tok"})
    assert (c.token, c.token_source) == ("env-tok", "env OPENCLAW_GATEWAY_TOKEN")
    assert (c.password, c.password_source) == ("cfg-pw", "config gateway.auth.password")
    c = creds(cfg, {"OPENCLAW_GATEWAY_PASSWORD": "env-pw"})
    assert (c.token, c.password) == ("cfg-tok", "env-pw")


def test_service_kind_gateway_makes_token_config_first():
    cfg = gw(auth={"token": "cfg-tok"})
    env = {"OPENCLAW_GATEWAY_TOKEN": "env-tok", "OPENCLAW_SERVICE_KIND": "gateway"}
    assert creds(cfg, env).token == "cfg-tok"


def test_local_mode_falls_back_to_remote_values():
    cfg = gw(remote={"token": "remote-tok", "password": "remote-pw"})
    c = creds(cfg, {})
    assert (c.token, c.password) == ("remote-tok", "remote-pw")
    assert c.token_source == "config gateway.remote.token"
    # not when gateway.auth.* is configured (even with an unusable value)
    c = creds(gw(auth={"token": "x${MISSING_VAR}"}, remote={"token": "remote-tok"}), {})
    assert c.token is None
    # no remote password under trusted-proxy
    c = creds(gw(auth={"mode": "trusted-proxy"}, remote={"password": "remote-pw"}), {})
    assert c.password is None


def test_remote_mode_order():
    cfg = gw(mode="remote", remote={"url": "wss://gw.example.com", "token": "remote-tok",
                                   "password": "remote-pw"},
             auth={"token": "local-tok", "password": "local-pw"})
    env = {"OPENCLAW_GATEWAY_TOKEN": "env-tok", "OPENCLAW_GATEWAY_PASSWORD": "env-pw"}
    c = creds(cfg, env)
    assert (c.token, c.password) == ("remote-tok", "env-pw")
    cfg["gateway"]["remote"] = {"url": "wss://gw.example.com"}
    c = creds(cfg, env)
    assert (c.token, c.password) == ("env-tok", "env-pw")
    c = creds(cfg, {})
    assert (c.token, c.password) == ("local-tok", "local-pw")
    cfg["gateway"]["remote"] = {"url": "wss://gw.example.com", "password": "remote-pw"}
    assert creds(cfg, {}).password == "remote-pw"


def test_both_token_and_password_are_sent():
    c = creds(gw(auth={"token": "tok", "password": "pw"}), {})
    assert (c.token, c.password) == ("tok", "pw")


def test_unresolved_placeholder_counts_as_absent_in_local_mode():
    cfg = gw(auth={"token": "abc-${MISSING_VAR}"})
    assert creds(cfg, {}).token is None
    with pytest.raises(GatewayCredentialsRequired, match="requires credentials"):
        resolve_connection("sessions.cleanup", cfg, {})
    # an escaped placeholder is no placeholder
    assert creds(gw(auth={"token": "x$${NOT_A_VAR}"}), {}).token == "x$${NOT_A_VAR}"
    # a lone $ or a lowercase name is no placeholder
    assert creds(gw(auth={"token": "a$b${lower}"}), {}).token == "a$b${lower}"
    # remote values are only trimmed
    remote = gw(mode="remote", remote={"url": "wss://x.example.com", "token": "abc-${MISSING_VAR}"})
    assert creds(remote, {}).token == "abc-${MISSING_VAR}"


def test_whole_placeholder_is_an_env_secret_ref():
    cfg = gw(auth={"token": "${MY_GW_TOKEN}"})
    assert creds(cfg, {"MY_GW_TOKEN": "from-ref"}).token == "from-ref"
    with pytest.raises(GatewaySecretRefError) as info:
        creds(cfg, {})
    assert info.value.path == "gateway.auth.token"
    assert 'environment variable "MY_GW_TOKEN" is missing' in info.value.message
    # not needed when the env token wins
    assert creds(cfg, {"OPENCLAW_GATEWAY_TOKEN": "env"}).token == "env"


def test_env_secret_refs():
    canonical = gw(auth={"token": {"source": "env", "provider": "default", "id": "GW_TOK"}})
    legacy = gw(auth={"token": {"source": "env", "id": "GW_TOK"}})
    marker = gw(auth={"token": "secretref-env:GW_TOK"})
    shorthand = gw(auth={"token": "$GW_TOK"})
    for cfg in (canonical, legacy, marker, shorthand):
        assert creds(cfg, {"GW_TOK": "secret-value"}).token == "secret-value"
    allow = dict(canonical, secrets={"providers": {"default": {"source": "env",
                                                               "allowlist": ["OTHER"]}}})
    with pytest.raises(GatewaySecretRefError, match="not allowlisted"):
        creds(allow, {"GW_TOK": "secret-value"})
    unknown = gw(auth={"token": {"source": "env", "provider": "vault", "id": "GW_TOK"}})
    with pytest.raises(GatewaySecretRefError, match='"vault" is not configured'):
        creds(unknown, {"GW_TOK": "x"})


def test_file_secret_refs(tmp_path: Path):
    doc = tmp_path / "secrets.json"
    doc.write_text('{"gw": {"tok": "file-tok"}, "a/b": {"c~d": "escaped"}}')
    doc.chmod(0o600)
    single = tmp_path / "single.txt"
    single.write_text("single-tok\n")
    single.chmod(0o600)
    providers = {"f": {"source": "file", "path": str(doc)},
                 "s": {"source": "file", "path": str(single), "mode": "singleValue"}}

    def cfg(ref):
        return {"secrets": {"providers": providers}, "gateway": {"auth": {"token": ref}}}

    assert creds(cfg({"source": "file", "provider": "f", "id": "/gw/tok"}), {}).token == "file-tok"
    assert creds(cfg({"source": "file", "provider": "f", "id": "/a~1b/c~0d"}), {}).token == "escaped"
    assert creds(cfg({"source": "file", "provider": "s", "id": "value"}), {}).token == "single-tok"
    with pytest.raises(GatewaySecretRefError, match="does not exist"):
        creds(cfg({"source": "file", "provider": "f", "id": "/gw/nope"}), {})
    with pytest.raises(GatewaySecretRefError, match="absolute JSON pointers"):
        creds(cfg({"source": "file", "provider": "f", "id": "gw/tok"}), {})
    doc.chmod(0o644)
    with pytest.raises(GatewaySecretRefError, match="permissions are too open"):
        creds(cfg({"source": "file", "provider": "f", "id": "/gw/tok"}), {})
    providers["f"]["allowInsecurePath"] = True
    assert creds(cfg({"source": "file", "provider": "f", "id": "/gw/tok"}), {}).token == "file-tok"
    link = tmp_path / "link.json"
    os.symlink(doc, link)
    providers["f"]["path"] = str(link)
    with pytest.raises(GatewaySecretRefError, match="symlink"):
        creds(cfg({"source": "file", "provider": "f", "id": "/gw/tok"}), {})


def test_exec_secret_refs_are_unsupported():
    cfg = {"secrets": {"providers": {"x": {"source": "exec", "command": "/bin/echo"}}},
           "gateway": {"auth": {"token": {"source": "exec", "provider": "x", "id": "tok"}}}}
    with pytest.raises(GatewaySecretRefError) as info:
        creds(cfg, {})
    assert "exec secret providers are not supported" in info.value.message
    assert "OPENCLAW_GATEWAY_TOKEN" in info.value.hint
    # an env token makes the ref irrelevant
    assert creds(cfg, {"OPENCLAW_GATEWAY_TOKEN": "env"}).token == "env"


def test_refs_the_auth_mode_cannot_use_are_not_resolved():
    cfg = gw(auth={"mode": "password", "password": "pw",
                   "token": {"source": "exec", "provider": "x", "id": "tok"}})
    c = creds(cfg, {})
    assert (c.token, c.password) == (None, "pw")


def test_auth_mode():
    assert resolve_auth_mode({}, {}) == "token"
    assert resolve_auth_mode(gw(auth={"password": "pw"}), {}) == "password"
    assert resolve_auth_mode({}, {"OPENCLAW_GATEWAY_PASSWORD": "pw"}) == "password"
    assert resolve_auth_mode(gw(auth={"mode": "none", "password": "pw"}), {}) == "none"


def test_credentials_required_before_connecting():
    with pytest.raises(GatewayCredentialsRequired) as info:
        resolve_connection("sessions.cleanup", {}, {}, config_path="/cfg/openclaw.json")
    assert "gateway sessions.cleanup requires credentials before opening a websocket" in \
        info.value.message
    assert "/cfg/openclaw.json" in info.value.message
    # auth none or Tailscale: nothing to check here
    assert resolve_connection("health", gw(auth={"mode": "none"}), {})
    assert resolve_connection("health", gw(tailscale={"mode": "serve"}), {})


def test_secrets_never_in_repr():
    c = Credentials("tok-SECRET", "pw-SECRET", "--token", "--password")
    assert "SECRET" not in repr(c) and "SECRET" not in str(c)
    conn = resolve_connection("health", {}, {}, token="tok-SECRET")
    assert "SECRET" not in repr(conn)


# -- scopes -------------------------------------------------------------------------------

def test_least_privilege_scopes():
    assert scopes_for_method("sessions.cleanup") == ["operator.admin"]
    assert scopes_for_method("sessions.compact") == ["operator.admin"]
    assert scopes_for_method("sessions.list") == ["operator.read"]
    assert scopes_for_method("sessions.usage") == ["operator.read"]
    assert scopes_for_method("chat.history") == ["operator.read"]
    assert scopes_for_method("health") == ["operator.read"]
    assert scopes_for_method("chat.send") == ["operator.write"]
    assert scopes_for_method("sessions.patch", {"key": "k", "label": "x"}) == ["operator.write"]
    assert scopes_for_method("sessions.patch", {"key": "k", "model": "x"}) == ["operator.admin"]
    assert scopes_for_method("sessions.delete", {"key": "k", "archivedOnly": True}) == \
        ["operator.write"]
    assert scopes_for_method("sessions.delete", {"key": "k"}) == ["operator.admin"]
    assert scopes_for_method("no.such.method") == list(CLI_DEFAULT_SCOPES)


# -- loading the config -------------------------------------------------------------------

def test_connection_for_reads_the_config_file(tmp_path: Path):
    write_config(state_dir(tmp_path), '{ gateway: { port: 18999, auth: { token: "${MY_GW_TOK}" } } }')
    conn = rpc.connection_for("health", {"HOME": str(tmp_path), "MY_GW_TOK": "from-env-var"})
    assert conn.url == "ws://127.0.0.1:18999"
    assert (conn.credentials.token, conn.credentials.token_source) == \
        ("from-env-var", "config gateway.auth.token")
    assert conn.config_path == str(tmp_path / ".openclaw" / "openclaw.json")
    with pytest.raises(GatewaySecretRefError):
        rpc.connection_for("health", {"HOME": str(tmp_path)})


def test_connection_for_sees_the_state_dir_dotenv(tmp_path: Path):
    state = state_dir(tmp_path)
    write_config(state, '{ gateway: { auth: { token: "cfg-tok" } } }')
    (state / ".env").write_text("OPENCLAW_GATEWAY_TOKEN=dotenv-tok\n")
    env = {"HOME": str(tmp_path)}
    conn = rpc.connection_for("health", env)
    assert conn.credentials.token == "dotenv-tok"  # env-first, and the dotenv fills the env
    assert env["OPENCLAW_GATEWAY_TOKEN"] == "dotenv-tok"


def test_connection_for_explicit_url_and_token_skip_the_config(tmp_path: Path):
    write_config(state_dir(tmp_path), "{ this is not json5")
    env = {"HOME": str(tmp_path)}
    conn = rpc.connection_for("health", env, url="ws://127.0.0.1:1", token="t")
    assert conn.target.url_source == "cli --url"
    with pytest.raises(ConfigError):
        rpc.connection_for("health", env, token="t")

"""Which token and password to send, resolved in the order OpenClaw 2026.7.1 uses."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.gateway.errors import GatewaySecretRefError
from openclaw_cli.gateway.secretrefs import (
    SecretRefUnresolvable,
    coerce_secret_ref,
    is_configured,
    resolve_secret_ref,
)

ENV_TOKEN = "OPENCLAW_GATEWAY_TOKEN"
ENV_PASSWORD = "OPENCLAW_GATEWAY_PASSWORD"
AUTH_TOKEN = "gateway.auth.token"
AUTH_PASSWORD = "gateway.auth.password"
REMOTE_TOKEN = "gateway.remote.token"
REMOTE_PASSWORD = "gateway.remote.password"
SECRET_PATHS = (AUTH_TOKEN, AUTH_PASSWORD, REMOTE_TOKEN, REMOTE_PASSWORD)
_TOKEN_PATHS = (AUTH_TOKEN, REMOTE_TOKEN)
_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


@dataclass(frozen=True, repr=False)
class Credentials:
    """A token and/or password with where each came from; the values never show in repr/str."""

    token: str | None = None
    password: str | None = None
    token_source: str | None = None
    password_source: str | None = None

    def __bool__(self) -> bool:
        return bool(self.token or self.password)

    def secrets(self) -> tuple[str, ...]:
        return tuple(s for s in (self.token, self.password) if s)

    def describe(self) -> str:
        parts = []
        if self.token:
            parts.append(f"token from {self.token_source or 'unknown source'}")
        if self.password:
            parts.append(f"password from {self.password_source or 'unknown source'}")
        return " and ".join(parts) if parts else "no credentials"

    def __repr__(self) -> str:
        return f"Credentials({self.describe()})"

    __str__ = __repr__


def trim(value: Any) -> str | None:
    """A stripped non-empty string, else None."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def contains_env_reference(value: str) -> bool:
    """True when `value` holds an unescaped `${NAME}` (a placeholder left by a missing variable)."""
    i = 0
    while i < len(value):
        if value[i] != "$":
            i += 1
            continue
        if value.startswith("$${", i):
            end = value.find("}", i + 3)
            if end != -1 and _ENV_NAME.fullmatch(value[i + 3:end]):
                i = end + 1
                continue
        if value.startswith("${", i):
            end = value.find("}", i + 2)
            if end != -1 and _ENV_NAME.fullmatch(value[i + 2:end]):
                return True
        i += 1
    return False


def trim_credential(value: Any) -> str | None:
    """Like trim(), but an unresolved `${VAR}` placeholder counts as absent."""
    text = trim(value)
    return None if text is not None and contains_env_reference(text) else text


def _get(cfg: Mapping[str, Any] | None, *keys: str) -> Any:
    node: Any = cfg
    for key in keys:
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def _gateway(cfg: Mapping[str, Any] | None) -> Mapping[str, Any]:
    gw = _get(cfg, "gateway")
    return gw if isinstance(gw, Mapping) else {}


def read_slots(cfg: Mapping[str, Any] | None) -> dict[str, Any]:
    """The four configured credential inputs, keyed by config path."""
    gw = _gateway(cfg)
    return {
        AUTH_TOKEN: _get(gw, "auth", "token"),
        AUTH_PASSWORD: _get(gw, "auth", "password"),
        REMOTE_TOKEN: _get(gw, "remote", "token"),
        REMOTE_PASSWORD: _get(gw, "remote", "password"),
    }


def is_remote_mode(cfg: Mapping[str, Any] | None) -> bool:
    return _gateway(cfg).get("mode") == "remote"


def configured_auth_mode(cfg: Mapping[str, Any] | None) -> str | None:
    mode = _get(cfg, "gateway", "auth", "mode")
    return mode if isinstance(mode, str) and mode else None


def resolve_auth_mode(cfg: Mapping[str, Any] | None, env: Mapping[str, str]) -> str:
    """The Gateway auth mode as the client sees it: configured, else password if one is set, else token."""
    mode = configured_auth_mode(cfg)
    if mode:
        return mode
    slots = read_slots(cfg)
    password = trim_credential(None if coerce_secret_ref(slots[AUTH_PASSWORD], cfg)
                               else slots[AUTH_PASSWORD]) or trim(env.get(ENV_PASSWORD))
    if password:
        return "password"
    return "token"


def allows_tailscale(cfg: Mapping[str, Any] | None, env: Mapping[str, str]) -> bool:
    explicit = _get(cfg, "gateway", "auth", "allowTailscale")
    if isinstance(explicit, bool):
        return explicit
    mode = resolve_auth_mode(cfg, env)
    return _get(cfg, "gateway", "tailscale", "mode") == "serve" and mode not in ("password", "trusted-proxy")


class _RefNeeded(Exception):
    def __init__(self, path: str):
        super().__init__(path)
        self.path = path


@dataclass
class _Slot:
    path: str
    configured: bool
    value: str | None
    is_ref: bool


def _slot(slots: Mapping[str, Any], path: str, cfg: Mapping[str, Any] | None) -> _Slot:
    raw = slots.get(path)
    ref = coerce_secret_ref(raw, cfg)
    return _Slot(path, is_configured(raw, cfg), None if ref else trim(raw), ref is not None)


def _first(*candidates: tuple[str | None, str]) -> tuple[str | None, str | None]:
    for value, label in candidates:
        if value:
            return value, label
    return None, None


def _select(slots: Mapping[str, Any], cfg: Mapping[str, Any] | None, env: Mapping[str, str],
            remote: bool) -> Credentials:
    """Pick token and password from literal values; raise _RefNeeded for a ref that must be resolved."""
    auth_mode = configured_auth_mode(cfg)
    env_token, env_password = trim(env.get(ENV_TOKEN)), trim(env.get(ENV_PASSWORD))
    lt, lp = _slot(slots, AUTH_TOKEN, cfg), _slot(slots, AUTH_PASSWORD, cfg)
    rt, rp = _slot(slots, REMOTE_TOKEN, cfg), _slot(slots, REMOTE_PASSWORD, cfg)
    env_token_c = (env_token, f"env {ENV_TOKEN}")
    env_password_c = (env_password, f"env {ENV_PASSWORD}")
    if not remote:
        cfg_token = lt if lt.configured else rt
        if lp.configured:
            cfg_password: _Slot | None = lp
        else:
            cfg_password = None if auth_mode == "trusted-proxy" else rp
        token_c = (trim_credential(cfg_token.value), f"config {cfg_token.path}")
        password_c = (trim_credential(cfg_password.value) if cfg_password else None,
                      f"config {cfg_password.path}" if cfg_password else "")
        config_first = env.get("OPENCLAW_SERVICE_KIND") == "gateway"
        token, token_src = _first(token_c, env_token_c) if config_first else _first(env_token_c, token_c)
        password, password_src = _first(env_password_c, password_c)
        password_can_win = auth_mode in ("password", "trusted-proxy") or (
            auth_mode not in ("token", "none") and not token)
        token_can_win = auth_mode == "token" or (
            auth_mode not in ("password", "none", "trusted-proxy") and not password)
        if lt.is_ref and config_first and not lt.value and env_token and token_can_win:
            raise _RefNeeded(AUTH_TOKEN)
        if lt.is_ref and not token and not env_token and token_can_win:
            raise _RefNeeded(AUTH_TOKEN)
        if lp.is_ref and not password and not env_password and password_can_win:
            raise _RefNeeded(AUTH_PASSWORD)
        return Credentials(token, password, token_src, password_src)
    token, token_src = _first((rt.value, f"config {REMOTE_TOKEN}"), env_token_c,
                              (lt.value, f"config {AUTH_TOKEN}"))
    password, password_src = _first(env_password_c, (rp.value, f"config {REMOTE_PASSWORD}"),
                                    (lp.value, f"config {AUTH_PASSWORD}"))
    local_token_can_win = auth_mode not in ("password", "none", "trusted-proxy")
    if rt.is_ref and not token and not env_token and not lt.value and not password:
        raise _RefNeeded(REMOTE_TOKEN)
    if rp.is_ref and not password and not env_password and not lp.value and not token:
        raise _RefNeeded(REMOTE_PASSWORD)
    if lt.is_ref and not token and not password and not env_token and not rt.value \
            and local_token_can_win:
        raise _RefNeeded(AUTH_TOKEN)
    return Credentials(token, password, token_src, password_src)


def _mode_allows_path(auth_mode: str | None, path: str) -> bool:
    if auth_mode == "none":
        return False
    if auth_mode in ("password", "trusted-proxy"):
        return path not in _TOKEN_PATHS
    if auth_mode == "token":
        return path in _TOKEN_PATHS
    return True


def _ref_can_win(slots: dict[str, Any], path: str, cfg: Mapping[str, Any] | None,
                 env: Mapping[str, str], remote: bool) -> bool:
    """Would a value at `path` (a SecretRef) end up being sent? Probed with a sentinel value."""
    if coerce_secret_ref(slots.get(path), cfg) is None:
        return False
    auth_mode = configured_auth_mode(cfg)
    if not remote and not _mode_allows_path(auth_mode, path):
        return False
    sentinel = f"\x00probe:{path}\x00"
    probe = {p: (None if coerce_secret_ref(v, cfg) else v) for p, v in slots.items()}
    probe[path] = sentinel
    try:
        picked = _select(probe, cfg, env, remote)
    except _RefNeeded:
        return False
    local = not remote
    token_wins = picked.token == sentinel and ((local and auth_mode == "token") or not picked.password)
    password_wins = picked.password == sentinel and (
        (local and auth_mode in ("password", "trusted-proxy")) or not picked.token)
    return token_wins or password_wins


def _unavailable(path: str, reason: str | None) -> GatewaySecretRefError:
    detail = f": {reason}" if reason else ""
    return GatewaySecretRefError(
        f"{path} is configured as a secret reference but is unavailable{detail}",
        path=path,
        hint=f"set {ENV_TOKEN} or {ENV_PASSWORD}, or pass --token / --password.",
    )


def resolve_credentials(cfg: Mapping[str, Any] | None, env: Mapping[str, str], *,
                        token: str | None = None, password: str | None = None,
                        url_override_source: str | None = None) -> Credentials:
    """Token and password for a Gateway call.

    Explicit values win. With a `--url` override nothing else is used; with
    OPENCLAW_GATEWAY_URL only the env credentials are. Local mode (the default) is env-first:
    the env value, then gateway.auth.*, or gateway.remote.* when gateway.auth.* is not set
    (no remote password under trusted-proxy); OPENCLAW_SERVICE_KIND=gateway makes the token
    config-first. Remote mode: token from gateway.remote.token, env, gateway.auth.token;
    password from env, gateway.remote.password, gateway.auth.password. Both values are
    returned when both resolve. In local mode a value still holding `${VAR}` counts as absent.
    SecretRefs are resolved only when they would be the value sent; a failure then raises
    GatewaySecretRefError.
    """
    explicit_token, explicit_password = trim(token), trim(password)
    if explicit_token or explicit_password:
        return Credentials(explicit_token, explicit_password,
                           "--token" if explicit_token else None,
                           "--password" if explicit_password else None)
    if url_override_source == "cli":
        return Credentials()
    if url_override_source == "env":
        env_token, env_password = trim(env.get(ENV_TOKEN)), trim(env.get(ENV_PASSWORD))
        return Credentials(env_token, env_password,
                           f"env {ENV_TOKEN}" if env_token else None,
                           f"env {ENV_PASSWORD}" if env_password else None)
    remote = is_remote_mode(cfg)
    slots = read_slots(cfg)
    resolved = copy.copy(slots)
    reasons: dict[str, str] = {}
    for path in SECRET_PATHS:
        ref = coerce_secret_ref(resolved.get(path), cfg)
        if ref is None or not _ref_can_win(resolved, path, cfg, env, remote):
            continue
        try:
            resolved[path] = resolve_secret_ref(ref, cfg, env)
        except SecretRefUnresolvable as exc:
            reasons[path] = str(exc)
    tried: set[str] = set()
    while True:
        try:
            return _select(resolved, cfg, env, remote)
        except _RefNeeded as need:
            ref = coerce_secret_ref(resolved.get(need.path), cfg)
            if need.path in tried or ref is None:
                raise _unavailable(need.path, reasons.get(need.path)) from None
            tried.add(need.path)
            try:
                resolved[need.path] = resolve_secret_ref(ref, cfg, env)
            except SecretRefUnresolvable as exc:
                raise _unavailable(need.path, str(exc)) from None

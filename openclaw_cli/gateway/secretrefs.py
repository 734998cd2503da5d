"""SecretRef credentials in the config: recognising them and resolving env and file refs."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SOURCES = ("env", "file", "exec")
DEFAULT_PROVIDER = "default"
FILE_MAX_BYTES = 1024 * 1024
_ENV_ID = re.compile(r"^[A-Z][A-Z0-9_]{0,127}$")
_ENV_TEMPLATE = re.compile(r"^\$\{([A-Z][A-Z0-9_]{0,127})\}$")
_ENV_SHORTHAND = re.compile(r"^\$([A-Z][A-Z0-9_]{0,127})$")
_LEGACY_ENV_PREFIXES = ("secretref-env:", "__env__:")


class SecretRefUnresolvable(Exception):
    """A SecretRef that cannot be turned into a value; the message never holds the value."""


@dataclass(frozen=True)
class SecretRef:
    source: str
    provider: str
    id: str

    def label(self) -> str:
        return f"{self.source}:{self.provider}:{self.id}"


def _defaults(cfg: Mapping[str, Any] | None) -> Mapping[str, Any]:
    secrets = cfg.get("secrets") if isinstance(cfg, Mapping) else None
    defaults = secrets.get("defaults") if isinstance(secrets, Mapping) else None
    return defaults if isinstance(defaults, Mapping) else {}


def _default_provider(cfg: Mapping[str, Any] | None, source: str) -> str:
    value = _defaults(cfg).get(source)
    return value.strip() if isinstance(value, str) and value.strip() else DEFAULT_PROVIDER


def _non_blank(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def coerce_secret_ref(value: Any, cfg: Mapping[str, Any] | None = None) -> SecretRef | None:
    """The SecretRef a config value stands for, or None for plain values.

    Accepted forms: `{source, provider, id}`; `{source, id}` (provider from `secrets.defaults`);
    the strings `${NAME}` / `$NAME` and the legacy `secretref-env:NAME` / `__env__:NAME`.
    """
    if isinstance(value, Mapping):
        source = value.get("source")
        if source not in SOURCES or not _non_blank(value.get("id")):
            return None
        if len(value) == 3 and _non_blank(value.get("provider")):
            return SecretRef(source, value["provider"], value["id"])
        if "provider" not in value:
            return SecretRef(source, _default_provider(cfg, source), value["id"])
        return None
    if not isinstance(value, str):
        return None
    text = value.strip()
    for prefix in _LEGACY_ENV_PREFIXES:
        if text.startswith(prefix):
            name = text[len(prefix):]
            return SecretRef("env", _default_provider(cfg, "env"), name) if _ENV_ID.match(name) else None
    match = _ENV_TEMPLATE.match(text) or _ENV_SHORTHAND.match(text)
    if match:
        return SecretRef("env", _default_provider(cfg, "env"), match.group(1))
    return None


def is_configured(value: Any, cfg: Mapping[str, Any] | None = None) -> bool:
    """True for a non-blank string or anything that is a SecretRef."""
    return _non_blank(value) or coerce_secret_ref(value, cfg) is not None


def _provider_config(ref: SecretRef, cfg: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    secrets = cfg.get("secrets") if isinstance(cfg, Mapping) else None
    providers = secrets.get("providers") if isinstance(secrets, Mapping) else None
    conf = providers.get(ref.provider) if isinstance(providers, Mapping) else None
    if conf is None:
        if ref.source == "env" and ref.provider == _default_provider(cfg, "env"):
            return None
        raise SecretRefUnresolvable(f'secret provider "{ref.provider}" is not configured '
                                    f"(ref: {ref.label()})")
    if not isinstance(conf, Mapping):
        raise SecretRefUnresolvable(f'secret provider "{ref.provider}" is not an object')
    if conf.get("source") != ref.source:
        raise SecretRefUnresolvable(f'secret provider "{ref.provider}" has source '
                                    f'"{conf.get("source")}" but the ref asks for "{ref.source}"')
    return conf


def _resolve_env(ref: SecretRef, conf: Mapping[str, Any] | None, env: Mapping[str, str]) -> str:
    allowlist = conf.get("allowlist") if conf else None
    if isinstance(allowlist, list) and ref.id not in allowlist:
        raise SecretRefUnresolvable(f'environment variable "{ref.id}" is not allowlisted in '
                                    f"secrets.providers.{ref.provider}.allowlist")
    value = env.get(ref.id)
    if not value:
        raise SecretRefUnresolvable(f'environment variable "{ref.id}" is missing or empty')
    return value


def _read_secure_file(path: str, label: str, *, max_bytes: int, allow_insecure: bool) -> bytes:
    if not os.path.isabs(path):
        raise SecretRefUnresolvable(f"{label} must be an absolute path")
    try:
        st = os.lstat(path)
    except OSError:
        raise SecretRefUnresolvable(f"{label} is not readable: {path}") from None
    if stat.S_ISLNK(st.st_mode):
        raise SecretRefUnresolvable(f"{label} must not be a symlink: {path}")
    if not stat.S_ISREG(st.st_mode):
        raise SecretRefUnresolvable(f"{label} must be a file: {path}")
    if st.st_size > max_bytes:
        raise SecretRefUnresolvable(f"{label} exceeded maxBytes ({max_bytes})")
    if not allow_insecure and os.name == "posix":
        if st.st_mode & 0o077:
            raise SecretRefUnresolvable(f"{label} permissions are too open: {path}")
        if st.st_uid != os.getuid():
            raise SecretRefUnresolvable(f"{label} must be owned by the current user: {path}")
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError:
        raise SecretRefUnresolvable(f"{label} is not readable: {path}") from None
    if len(data) > max_bytes:
        raise SecretRefUnresolvable(f"{label} exceeded maxBytes ({max_bytes})")
    return data


def _json_pointer(root: Any, pointer: str) -> Any:
    if not pointer.startswith("/"):
        raise SecretRefUnresolvable("file-backed secret ids must be absolute JSON pointers "
                                    '(for example "/gateway/token")')
    current = root
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(current, list):
            if not token.isdigit() or int(token) >= len(current):
                raise SecretRefUnresolvable(f'JSON pointer segment "{token}" is out of bounds')
            current = current[int(token)]
        elif isinstance(current, dict) and token in current:
            current = current[token]
        else:
            raise SecretRefUnresolvable(f'JSON pointer segment "{token}" does not exist')
    return current


def _resolve_file(ref: SecretRef, conf: Mapping[str, Any] | None, env: Mapping[str, str]) -> Any:
    if conf is None or not _non_blank(conf.get("path")):
        raise SecretRefUnresolvable(f'file provider "{ref.provider}" has no path')
    path = conf["path"].strip()
    if path.startswith("~"):
        home = env.get("HOME") or os.path.expanduser("~")
        path = home + path[1:]
    max_bytes = conf.get("maxBytes")
    if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes <= 0:
        max_bytes = FILE_MAX_BYTES
    data = _read_secure_file(path, f"secrets.providers.{ref.provider}.path", max_bytes=max_bytes,
                             allow_insecure=conf.get("allowInsecurePath") is True)
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    if conf.get("mode") == "singleValue":
        if ref.id != "value":
            raise SecretRefUnresolvable(f'singleValue file provider "{ref.provider}" expects '
                                        'ref id "value"')
        return text[:-2] if text.endswith("\r\n") else text[:-1] if text.endswith("\n") else text
    try:
        payload = json.loads(text)
    except ValueError:
        raise SecretRefUnresolvable(f'file provider "{ref.provider}" payload is not JSON') from None
    if not isinstance(payload, dict):
        raise SecretRefUnresolvable(f'file provider "{ref.provider}" payload is not a JSON object')
    return _json_pointer(payload, ref.id)


def resolve_secret_ref(ref: SecretRef, cfg: Mapping[str, Any] | None,
                       env: Mapping[str, str]) -> str:
    """The string a SecretRef points at; raise SecretRefUnresolvable (never with the value)."""
    if ref.source == "exec":
        raise SecretRefUnresolvable(f"exec secret providers are not supported by this tool "
                                    f"(ref: {ref.label()})")
    conf = _provider_config(ref, cfg)
    value = _resolve_env(ref, conf, env) if ref.source == "env" else _resolve_file(ref, conf, env)
    if not isinstance(value, str) or not value:
        raise SecretRefUnresolvable(f'secret reference "{ref.label()}" resolved to a non-string '
                                    "or empty value")
    return value

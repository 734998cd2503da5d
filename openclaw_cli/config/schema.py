"""Validate a resolved config as OpenClaw does: its schema (config/models.py), then the checks across agents."""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from openclaw_cli.config import paths
from openclaw_cli.config.era import FILE_ERA, SQLITE_ERA, config_era
from openclaw_cli.config.issues import ConfigIssue, config_issues
from openclaw_cli.config.models import OpenClawConfig
from openclaw_cli.config.zod import Deferred, ZodTagged, is_number, tag_of
from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import object_at

__all__ = ["ConfigIssue", "is_number", "schema_for", "unknown_key_paths", "validate_config"]


def _duplicate_agent_dirs(cfg: dict, env: Mapping[str, str] | None) -> list[ConfigIssue]:
    from openclaw_cli.config.agents import normalize_agent_id, resolve_default_agent_id

    agents = object_at(cfg, "agents")
    entries = [e for e in agents.get("list") or [] if isinstance(e, dict)]
    ids = [resolve_default_agent_id(cfg)]  # the schema has checked that every entry has a string id
    ids += [normalize_agent_id(e["id"]) for e in entries if e.get("id")]
    for binding in cfg.get("bindings") or []:
        agent_id = binding.get("agentId") if isinstance(binding, dict) else None
        if isinstance(agent_id, str) and js_trim(agent_id):
            ids.append(normalize_agent_id(agent_id))
    state_dir: str | None = None
    by_dir: dict[str, list[str]] = {}
    for agent_id in dict.fromkeys(ids):
        entry = next((e for e in entries if normalize_agent_id(e.get("id")) == agent_id), None)
        configured = js_trim(entry.get("agentDir") or "") if entry else ""
        if configured:
            agent_dir = paths.resolve_user_path(configured, env)
        else:
            state_dir = state_dir or paths.resolve_state_dir(env)
            agent_dir = paths.join_path(state_dir, "agents", agent_id, "agent")
        by_dir.setdefault(paths.resolve_path(agent_dir), []).append(agent_id)
    clashes = [(d, a) for d, a in by_dir.items() if len(a) > 1]
    if not clashes:
        return []
    lines = ["Duplicate agentDir detected (multi-agent config).",
             "Each agent must have a unique agentDir; sharing it causes auth/session state collisions "
             "and token invalidation.", "", "Conflicts:"]
    lines += [f"- {d}: " + ", ".join(f'"{a}"' for a in agent_ids) for d, agent_ids in clashes]
    lines += ["", "Fix: remove the shared agents.list[].agentDir override (or give each agent its own "
                  "directory).",
              "If you want to share credentials, copy auth-profiles.json instead of sharing the entire agentDir."]
    return [ConfigIssue("agents.list", "\n".join(lines))]


def _is_loopback_ipv4(value: Any) -> bool:
    import ipaddress

    text = js_trim(value) if isinstance(value, str) else ""
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if not re.fullmatch(r"(?:0|[1-9][0-9]*)(?:\.(?:0|[1-9][0-9]*)){3}", text):
        return False
    try:
        return ipaddress.IPv4Address(text).is_loopback
    except ValueError:
        return False


def _gateway_tailscale_issues(cfg: dict) -> list[ConfigIssue]:
    gateway = object_at(cfg, "gateway")
    tailscale = object_at(gateway, "tailscale")
    mode = tailscale.get("mode", "off")
    if mode not in ("serve", "funnel"):
        return []
    bind = gateway.get("bind", "loopback")
    if bind != "loopback" and not (bind == "custom" and _is_loopback_ipv4(gateway.get("customBindHost"))):
        return [ConfigIssue("gateway.bind",
                            f"gateway.bind must resolve to loopback when gateway.tailscale.mode={mode} "
                            '(use gateway.bind="loopback" or gateway.bind="custom" with '
                            'gateway.customBindHost="127.0.0.1")')]
    auth = object_at(gateway, "auth")
    if auth.get("mode") == "none":
        if mode == "funnel":
            message = ("gateway.tailscale.mode=funnel requires gateway.auth.mode=password; auth.mode=none "
                       "cannot be used when exposing the gateway through Tailscale Funnel")
        else:
            message = (f"gateway.auth.mode=none cannot be used with gateway.tailscale.mode={mode}; configure "
                       "token, password, or trusted-proxy auth before exposing the gateway through Tailscale")
        return [ConfigIssue("gateway.auth.mode", message)]
    return []


def schema_for(era: str) -> type[BaseModel]:
    """The schema of a release (config/era.py): 2026.7.1's, or 2026.9.6's variant of it."""
    if era == SQLITE_ERA:
        from openclaw_cli.config.models96 import OpenClawConfig96

        return typing.cast(type[BaseModel], OpenClawConfig96)
    return typing.cast(type[BaseModel], OpenClawConfig)


def validate_config(cfg: Any, env: Mapping[str, str] | None = None, era: str | None = None) -> list[ConfigIssue]:
    """OpenClaw's accept/reject decision for a resolved config: the schema's issues, or else the
    duplicate agent folders, or else the Tailscale exposure rules. Judged by the release of `era`
    (default: the state's, config/era.py)."""
    era = config_era(cfg, env) if era is None else era
    if era == SQLITE_ERA:  # 2026.9.6 judges the config as it migrates it in memory
        from openclaw_cli.config.read96 import validation_config

        cfg = validation_config(cfg, env)
    try:
        schema_for(era).model_validate(cfg)
    except ValidationError as exc:
        return config_issues(exc, sqlite_era=era == SQLITE_ERA)
    if era == SQLITE_ERA:
        return _gateway_tailscale_issues(cfg)
    return _duplicate_agent_dirs(cfg, env) or _gateway_tailscale_issues(cfg)


def unknown_key_paths(cfg: Any, era: str = FILE_ERA) -> list[tuple[str | int, ...]]:
    """Paths of the keys the schema of `era` does not know, children before the parent's own (validator order)."""
    out: list[tuple[str | int, ...]] = []
    _walk(schema_for(era), cfg, (), out)
    if era == SQLITE_ERA:  # 2026.9.6 reads a legacy `agents.list` as `agents.entries`
        out = [path for path in out if path[:2] != ("agents", "list")]
    return out


def _walk(kind: Any, value: Any, path: tuple, out: list) -> None:
    """Follow `value` through the type `kind`, collecting the unknown keys of strict objects."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is typing.Annotated:
        deferred = next((m for m in kind.__metadata__ if isinstance(m, Deferred)), None)
        if deferred is not None:
            _walk(deferred.kind(), value, path, out)
            return
        tagged = next((m for m in kind.__metadata__ if isinstance(m, ZodTagged)), None)
        if tagged is not None:
            tag = tag_of(tagged.key)(value)
            for option in typing.get_args(args[0]):
                if tag is not None and any(getattr(m, "tag", None) == tag for m in option.__metadata__):
                    _walk(option, value, path, out)
            return
        _walk(args[0], value, path, out)
    elif isinstance(kind, type) and issubclass(kind, BaseModel):
        _walk_model(kind, value, path, out)
    elif origin is dict:
        for key, item in (value.items() if isinstance(value, dict) else ()):
            _walk(args[1], item, (*path, key), out)
    elif origin is list:
        for index, item in enumerate(value if isinstance(value, list) else ()):
            _walk(args[0], item, (*path, index), out)
    elif args and origin is not typing.Literal:  # a union: followed when it has one object branch
        objects = [a for a in args if _is_model(a)]
        if isinstance(value, dict) and len(objects) == 1:
            _walk(objects[0], value, path, out)


def _is_model(kind: Any) -> bool:
    while typing.get_origin(kind) is typing.Annotated:
        kind = typing.get_args(kind)[0]
    return isinstance(kind, type) and issubclass(kind, BaseModel)


def _walk_model(model: type[BaseModel], value: Any, path: tuple, out: list) -> None:
    if not isinstance(value, dict):
        return
    fields = {(f.alias or name): f for name, f in model.model_fields.items()}
    for key, field in fields.items():
        if key in value:
            _walk(_annotation(field), value[key], (*path, key), out)
    extra = [k for k in value if k not in fields]
    if model.model_config.get("extra") == "forbid":
        out.extend((*path, key) for key in extra)
        return
    extras = typing.get_type_hints(model).get("__pydantic_extra__")  # the type of the other keys' values
    for key in extra if extras is not None else ():
        _walk(typing.get_args(extras)[1], value[key], (*path, key), out)


def _annotation(field: Any) -> Any:
    """A field's type with its metadata (pydantic keeps them apart)."""
    if not field.metadata:
        return field.annotation
    args = (field.annotation, *field.metadata)
    return typing.Annotated[args]

"""The default agent's workspace folder and per-agent settings, resolved as OpenClaw does."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from openclaw_cli.doctor.support.legacy_shared import list_at, str_at
from openclaw_cli.js.values import object_at

if TYPE_CHECKING:
    from openclaw_cli.doctor.context import DoctorContext


def agent_entry(cfg: dict, agent_id: str) -> dict | None:
    from openclaw_cli.config.agents import normalize_agent_id

    agents = object_at(cfg, "agents")
    entries = list_at(agents, "list")
    for entry in entries:
        if isinstance(entry, dict) and normalize_agent_id(entry.get("id") if isinstance(entry.get("id"), str)
                                                          else None) == agent_id:
            return entry
    return None


def agent_setting(cfg: dict, agent_id: str, key: str) -> Any:
    """`agents.list[<agent>].<key>`, else `agents.defaults.<key>`."""
    entry = agent_entry(cfg, agent_id) or {}
    if entry.get(key) is not None:
        return entry[key]
    agents = object_at(cfg, "agents")
    defaults = object_at(agents, "defaults")
    return defaults.get(key)


def workspace_dir(ctx: DoctorContext, agent_id: str | None = None) -> str:
    from openclaw_cli.config.paths import resolve_required_home, resolve_user_path

    cfg, env = ctx.cfg, ctx.env
    agent_id = agent_id or ctx.default_agent_id
    entry = agent_entry(cfg, agent_id) or {}
    configured = str_at(entry, "workspace").strip()
    if configured:
        return resolve_user_path(configured, env).replace("\0", "")
    agents = object_at(cfg, "agents")
    defaults = object_at(agents, "defaults")
    fallback = str_at(defaults, "workspace").strip()
    if agent_id == ctx.default_agent_id:
        if fallback:
            return resolve_user_path(fallback, env).replace("\0", "")
        override = (env.get("OPENCLAW_WORKSPACE_DIR") or "").strip()
        if override:
            return os.path.abspath(override)
        home = resolve_required_home(env)
        profile = (env.get("OPENCLAW_PROFILE") or "").strip()
        if profile and profile.lower() != "default":
            return os.path.join(home, ".openclaw", f"workspace-{profile}")
        return os.path.join(home, ".openclaw", "workspace")
    if fallback:
        return os.path.join(resolve_user_path(fallback, env), agent_id)
    return os.path.join(ctx.state_dir, f"workspace-{agent_id}")

"""The agent workspace and its bootstrap files, loaded and filtered as 2026.7.1 (or, for a SQLite-era
agent, 2026.9.6) does for a session."""

from __future__ import annotations

import json
import os
import posixpath
import stat as statmod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.context.bootstrap import BootstrapFile

BOOTSTRAP_ORDER = ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md",
                   "BOOTSTRAP.md", "MEMORY.md")
SUBAGENT_ALLOW = frozenset({"AGENTS.md", "TOOLS.md"})
CRON_ALLOW = frozenset({"AGENTS.md", "TOOLS.md", "SOUL.md", "IDENTITY.md", "USER.md"})


@dataclass(frozen=True)
class BootstrapRules:
    """One release's bootstrap files: their names in prompt order, those left out when absent, the
    names a subagent and a cron session keep."""

    names: tuple[str, ...]
    optional: frozenset[str]
    subagent: frozenset[str]
    cron: frozenset[str]


FILE_ERA_RULES = BootstrapRules(BOOTSTRAP_ORDER, frozenset({"MEMORY.md"}), SUBAGENT_ALLOW, CRON_ALLOW)
# 2026.9.6 retired TOOLS.md and HEARTBEAT.md, and lists USER.md, like MEMORY.md, only when it is there.
SQLITE_ERA_RULES = BootstrapRules(("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "BOOTSTRAP.md", "MEMORY.md"),
                                  frozenset({"MEMORY.md", "USER.md"}), frozenset({"AGENTS.md"}),
                                  frozenset({"AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md"}))
MAX_FILE_BYTES = 2 * 1024 * 1024
STATE_FILENAME = "openclaw-workspace-state.json"


def _agents_section(cfg: Mapping[str, Any] | None) -> Mapping[str, Any]:
    agents = cfg.get("agents") if isinstance(cfg, Mapping) else None
    return agents if isinstance(agents, Mapping) else {}


def _agent_entry(cfg: Mapping[str, Any] | None, agent_id: str) -> Mapping[str, Any] | None:
    from openclaw_cli.config.agents import normalize_agent_id

    entries = _agents_section(cfg).get("list")
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, Mapping):
            raw = entry.get("id")
            if normalize_agent_id(raw if isinstance(raw, str) else None) == normalize_agent_id(agent_id):
                return entry
    return None


def _trimmed_str(value: Any) -> str:
    from openclaw_cli.js.strings import js_trim

    return js_trim(value) if isinstance(value, str) else ""


def default_workspace_dir(env: Mapping[str, str]) -> str:
    """`~/.openclaw/workspace` (OPENCLAW_WORKSPACE_DIR, or `workspace-<profile>` for a profile)."""
    from openclaw_cli.config import paths

    explicit = _trimmed_str(env.get("OPENCLAW_WORKSPACE_DIR"))
    if explicit:
        return paths.resolve_path(explicit)
    home = paths.resolve_required_home(env)
    profile = _trimmed_str(env.get("OPENCLAW_PROFILE"))
    if profile and profile.lower() != "default":
        return paths.join_path(home, ".openclaw", f"workspace-{profile}")
    return paths.join_path(home, ".openclaw", "workspace")


def resolve_workspace_dir(cfg: Mapping[str, Any] | None, agent_id: str, env: Mapping[str, str]) -> str:
    """`resolveAgentWorkspaceDir`: the agent's `workspace`, else defaults (+ `/<id>` for other
    agents), else `~/.openclaw/workspace` for the default agent and `<state>/workspace-<id>`.
    As Node opens it: NUL removed, a lone surrogate from a JSON escape as U+FFFD."""
    from openclaw_cli.js.strings import from_units

    return from_units(_workspace_dir(cfg, agent_id, env).replace("\0", ""))


def _workspace_dir(cfg: Mapping[str, Any] | None, agent_id: str, env: Mapping[str, str]) -> str:
    from openclaw_cli.config import paths
    from openclaw_cli.config.agents import normalize_agent_id, resolve_default_agent_id

    agent = normalize_agent_id(agent_id)
    entry = _agent_entry(cfg, agent)
    configured = _trimmed_str(entry.get("workspace")) if entry is not None else ""
    if configured:
        return paths.resolve_user_path(configured, env)
    defaults = _agents_section(cfg).get("defaults")
    fallback = _trimmed_str(defaults.get("workspace")) if isinstance(defaults, Mapping) else ""
    if agent == resolve_default_agent_id(cfg):
        return paths.resolve_user_path(fallback, env) if fallback else default_workspace_dir(env)
    if fallback:
        return paths.join_path(paths.resolve_user_path(fallback, env), agent)
    return paths.join_path(paths.resolve_state_dir(env), f"workspace-{agent}")


def _inside(root: str, target: str) -> bool:
    rel = os.path.relpath(target, root)
    return rel == "." or not (rel == ".." or rel.startswith("../") or os.path.isabs(rel))


def read_guarded(path: str, workspace: str) -> str | None:
    """The file's text when the root-confined, size-capped read of 2026.7.1 accepts it, else None.

    Rejected: missing, not a regular file, a hard-linked file, over 2 MiB, or a path (after
    symlinks) outside the workspace. Invalid UTF-8 decodes to U+FFFD like Node.
    """
    try:
        root_real = os.path.realpath(workspace)
        real = os.path.realpath(path)
        if not _inside(root_real, real):
            return None
        st = os.lstat(real)
        if not statmod.S_ISREG(st.st_mode) or st.st_nlink > 1 or st.st_size > MAX_FILE_BYTES:
            return None
        with open(real, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            return None
        return data.decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


def load_bootstrap_files(workspace: str, rules: BootstrapRules = FILE_ERA_RULES) -> list[BootstrapFile]:
    """`loadWorkspaceBootstrapFiles`: the release's names in order (2026.7.1: eight); the optional
    ones (MEMORY.md) only when listed."""
    try:
        listing = set(os.listdir(workspace))
    except OSError:
        listing = set()
    files: list[BootstrapFile] = []
    for name in rules.names:
        if name in rules.optional and name not in listing:
            continue
        path = posixpath.join(workspace, name)
        content = read_guarded(path, workspace)
        files.append(BootstrapFile(name, path, content, content is None))
    return files


def setup_completed(workspace: str) -> bool:
    """True when the workspace state file (or the legacy one) has a non-empty setupCompletedAt."""
    for candidate in (posixpath.join(workspace, STATE_FILENAME),
                      posixpath.join(workspace, ".openclaw", "workspace-state.json")):
        try:
            with open(candidate, encoding="utf-8", errors="replace") as handle:
                raw = handle.read()
        except FileNotFoundError:
            continue
        except OSError:
            return False
        try:
            state = json.loads(raw)
        except ValueError:
            state = None
        if not isinstance(state, dict):
            continue
        value = state.get("setupCompletedAt")
        if not isinstance(value, str):
            value = state.get("onboardingCompletedAt")
        return isinstance(value, str) and bool(_trimmed_str(value))
    return False


def _heartbeat_enabled(cfg: Mapping[str, Any] | None, agent_id: str) -> bool:
    """`shouldIncludeHeartbeatGuidanceForSystemPrompt` for the default agent."""
    from openclaw_cli.config.agents import normalize_agent_id
    from openclaw_cli.config.units import parse_duration_ms

    entries = [e for e in (_agents_section(cfg).get("list") or []) if isinstance(e, Mapping)] \
        if isinstance(_agents_section(cfg).get("list"), list) else []
    if any(e.get("heartbeat") for e in entries) and not any(
            e.get("heartbeat") and normalize_agent_id(e.get("id") if isinstance(e.get("id"), str) else None)
            == normalize_agent_id(agent_id) for e in entries):
        return False
    defaults = _agents_section(cfg).get("defaults")
    heartbeat: Any = defaults.get("heartbeat") if isinstance(defaults, Mapping) else None
    entry = _agent_entry(cfg, agent_id)
    override = entry.get("heartbeat") if entry is not None else None
    if heartbeat or override:
        merged: dict[str, Any] = {}
        for part in (heartbeat, override):
            if isinstance(part, Mapping):
                merged.update(part)
        heartbeat = merged
    if isinstance(heartbeat, Mapping) and heartbeat.get("includeSystemPromptSection") is False:
        return False
    every = heartbeat.get("every", "30m") if isinstance(heartbeat, Mapping) else "30m"
    every = "30m" if every is None else every
    text = _trimmed_str(every)
    if not text:
        return False
    try:
        return parse_duration_ms(text, "m") > 0
    except ValueError:
        return False


def _session_filter(files: list[BootstrapFile], session_key: str | None,
                    rules: BootstrapRules) -> list[BootstrapFile]:
    from openclaw_cli.store.keys import is_cron_key, is_subagent_key

    if not session_key:
        return files
    if is_subagent_key(session_key):
        return [f for f in files if f.name in rules.subagent]
    if is_cron_key(session_key):
        return [f for f in files if f.name in rules.cron]
    return files


def resolve_bootstrap_files(cfg: Mapping[str, Any] | None, agent_id: str, session_key: str | None,
                            workspace: str, rules: BootstrapRules = FILE_ERA_RULES) -> list[BootstrapFile]:
    """`resolveBootstrapFilesForRun` without hooks: load, filter by session kind, drop a root
    BOOTSTRAP.md once setup is complete, drop HEARTBEAT.md when the default agent has heartbeat
    guidance off, then resolve paths and drop duplicates."""
    from openclaw_cli.config.agents import normalize_agent_id, resolve_default_agent_id

    files = _session_filter(load_bootstrap_files(workspace, rules), session_key, rules)
    if setup_completed(workspace):
        root_bootstrap = posixpath.join(workspace, "BOOTSTRAP.md")
        files = [f for f in files if not (f.name == "BOOTSTRAP.md" and f.path == root_bootstrap)]
    if normalize_agent_id(agent_id) == resolve_default_agent_id(cfg) and not _heartbeat_enabled(cfg, agent_id):
        files = [f for f in files if f.name != "HEARTBEAT.md"]
    seen: set[str] = set()
    out: list[BootstrapFile] = []
    for file in files:
        key = posixpath.normpath(posixpath.relpath(file.path, workspace))
        if key in seen:
            continue
        seen.add(key)
        out.append(file)
    return out


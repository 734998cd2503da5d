"""OpenClaw 2026.7.1's core tool catalog and profile policies, as data, with its tool-policy matching.

Facts from OpenClaw's src/agents/tool-catalog.ts (the core tools: section, profiles, `group:openclaw`
membership; the `minimal`/`coding`/`messaging`/`full` profiles), src/agents/tool-policy-shared.ts (tool
name aliases, group expansion), src/agents/tool-policy.ts (`alsoAllow` merging),
src/agents/tool-policy-match.ts and src/agents/glob-pattern.ts (allow/deny matching).
"""

from __future__ import annotations

import re
from typing import Any

from openclaw_cli.js.values import lower_or_empty

# (id, section, profiles, in group:openclaw), in catalog order
CORE_TOOLS: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    ("read", "fs", ("coding",), False),
    ("write", "fs", ("coding",), False),
    ("edit", "fs", ("coding",), False),
    ("apply_patch", "fs", ("coding",), False),
    ("exec", "runtime", ("coding",), False),
    ("process", "runtime", ("coding",), False),
    ("code_execution", "runtime", ("coding",), True),
    ("web_search", "web", ("coding",), True),
    ("web_fetch", "web", ("coding",), True),
    ("x_search", "web", ("coding",), True),
    ("memory_search", "memory", ("coding",), True),
    ("memory_get", "memory", ("coding",), True),
    ("sessions_list", "sessions", ("coding", "messaging"), True),
    ("sessions_history", "sessions", ("coding", "messaging"), True),
    ("sessions_send", "sessions", ("coding", "messaging"), True),
    ("sessions_spawn", "sessions", ("coding",), True),
    ("sessions_yield", "sessions", ("coding",), True),
    ("subagents", "sessions", ("coding",), True),
    ("session_status", "sessions", ("minimal", "coding", "messaging"), True),
    ("browser", "ui", (), True),
    ("canvas", "ui", (), False),
    ("message", "messaging", ("messaging",), True),
    ("heartbeat_respond", "automation", (), True),
    ("cron", "automation", ("coding",), True),
    ("gateway", "automation", (), True),
    ("nodes", "nodes", (), True),
    ("agents_list", "agents", (), True),
    ("get_goal", "agents", ("coding",), True),
    ("create_goal", "agents", ("coding",), True),
    ("update_goal", "agents", ("coding",), True),
    ("update_plan", "agents", ("coding",), True),
    ("skill_workshop", "agents", ("coding",), True),
    ("image", "media", ("coding",), True),
    ("image_generate", "media", ("coding",), True),
    ("music_generate", "media", ("coding",), True),
    ("video_generate", "media", ("coding",), True),
    ("tts", "media", (), True),
)
CORE_TOOL_IDS = frozenset(tool[0] for tool in CORE_TOOLS)
TOOL_NAME_ALIASES = {"bash": "exec", "apply-patch": "apply_patch"}


def _profile(name: str, *extra: str) -> list[str]:
    return [tool_id for tool_id, _s, profiles, _g in CORE_TOOLS if name in profiles] + list(extra)


PROFILES: dict[str, list[str]] = {"minimal": _profile("minimal"), "coding": _profile("coding", "bundle-mcp"),
                                  "messaging": _profile("messaging", "bundle-mcp"), "full": ["*"]}


def _groups() -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {"group:openclaw": [t[0] for t in CORE_TOOLS if t[3]]}
    for tool_id, section, _p, _g in CORE_TOOLS:
        groups.setdefault(f"group:{section}", []).append(tool_id)
    return groups


TOOL_GROUPS = _groups()


def unique(values: list[str]) -> list[str]:
    """uniqueStrings: first-seen order."""
    return list(dict.fromkeys(values))


def normalize_tool_name(name: Any) -> str:
    normalized = lower_or_empty(name)
    return TOOL_NAME_ALIASES.get(normalized, normalized)


def expand_tool_groups(names: list[str] | None) -> list[str]:
    expanded: list[str] = []
    for name in (n for n in map(normalize_tool_name, names or []) if n):
        expanded.extend(TOOL_GROUPS.get(name, [name]))
    return unique(expanded)


def profile_policy(profile: str | None) -> list[str] | None:
    """The allow list of a built-in profile (None for an unknown one)."""
    allow = PROFILES.get(profile) if isinstance(profile, str) else None
    return list(allow) if allow is not None else None


def merge_also_allow(allow: list[str] | None, also_allow: list[str] | None) -> list[str] | None:
    if allow is None or not also_allow:
        return allow
    return unique(allow + also_allow)


def _pattern(raw: str) -> re.Pattern[str] | str | None:
    """A compiled glob: "*" for all, an exact name, a regex; None for an empty name."""
    normalized = normalize_tool_name(raw)
    if not normalized:
        return None
    if normalized == "*":
        return "*"
    if "*" not in normalized:
        return normalized
    # JavaScript's `.` stops at line terminators; `$` without the m flag is the very end.
    body = r"[^\n\r\u2028\u2029]*".join(re.escape(part) for part in normalized.split("*"))
    return re.compile(f"{body}\\Z")


def _matches(name: str, patterns: list) -> bool:
    for pattern in patterns:
        if pattern == "*" or pattern == name:
            return True
        if isinstance(pattern, re.Pattern) and pattern.match(name):
            return True
    return False


def tool_allowed(name: str, allow: list[str] | None) -> bool:
    """isToolAllowedByPolicyName for a policy of allow entries (no policy: allowed; an empty list
    allows everything)."""
    if allow is None:
        return True
    allowed = [p for p in map(_pattern, expand_tool_groups(allow)) if p is not None]
    normalized = normalize_tool_name(name)
    if not allowed or _matches(normalized, allowed):
        return True
    return normalized == "apply_patch" and _matches("write", allowed)

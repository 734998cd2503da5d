"""The `tools.profile-configured-sections-alsoAllow` migration of OpenClaw 2026.7.1 and its two rules.

A tool profile other than `full` filters an explicit `allow` list, so the exec/process and
read/write/edit grants a configured `tools.exec` / `tools.fs` section asks for are dropped. The
migration rewrites such an `allow` into the profile's grants plus those section grants, merges
`alsoAllow` into it and sets the profile to `full`: for `tools`, its `byProvider` policies, and each
`agents.list[]` entry's tools (inheriting the global profile, `alsoAllow` and provider policies).
Facts from OpenClaw's src/commands/doctor/shared/legacy-config-migrations.runtime.agents.ts and
src/agents/provider-tool-policy.ts; the catalog is `tool_catalog.py`.
"""

from __future__ import annotations

from typing import Any

from openclaw_cli.doctor.support.legacy_shared import BLOCKED_KEYS, rec
from openclaw_cli.doctor.support.tool_catalog import (
    CORE_TOOL_IDS,
    expand_tool_groups,
    merge_also_allow,
    profile_policy,
    tool_allowed,
    unique,
)
from openclaw_cli.js.values import lower_or_empty

Changes = list[str]

# a configured section -> the grants it needs
SECTION_GRANTS = (("exec", ("exec", "process")), ("fs", ("read", "write", "edit")))


def own_list(value: Any, key: str) -> list[str] | None:
    """readOwnToolPolicyGrantList: the strings of an array, None when it is not one."""
    tools = rec(value)
    found = tools.get(key) if tools is not None else None
    return [v for v in found if isinstance(v, str)] if isinstance(found, list) else None


def grant_list(value: Any, key: str) -> list[str]:
    return own_list(value, key) or []


def _profile(tools: dict, inherited: str | None) -> str | None:
    return tools["profile"] if isinstance(tools.get("profile"), str) else inherited


def _str_profile(policy: dict | None) -> str | None:
    return policy["profile"] if policy is not None and isinstance(policy.get("profile"), str) else None


def section_grants(tools: dict) -> list[str]:
    return unique([g for key, grants in SECTION_GRANTS if rec(tools.get(key)) is not None for g in grants])


def effective_section_grants(inherited: dict | None, tools: dict | None) -> list[str]:
    from_global = section_grants(inherited) if inherited is not None and not (
        tools is not None and isinstance(tools.get("profile"), str)) else []
    return unique(from_global + (section_grants(tools) if tools is not None else []))


def repair_grants(tools: dict, inherited_profile: str | None, inherited_also: list[str] | None,
                  configured: list[str]) -> list[str]:
    """The configured-section grants the profile filters out of the explicit allow list."""
    profile = _profile(tools, inherited_profile)
    if not profile or profile == "full":
        return []
    own_allow = grant_list(tools, "allow")
    if not own_allow:
        return []
    explicit_also = own_list(tools, "alsoAllow")
    explicit = unique(own_allow + (explicit_also or []))
    profile_allow = merge_also_allow(profile_policy(profile), explicit_also if explicit_also is not None
                                     else inherited_also if inherited_also is not None else [])
    return unique([t for t in configured if tool_allowed(t, explicit) and (
        not tool_allowed(t, profile_allow) or (explicit_also is not None and tool_allowed(t, explicit_also)))])


def _bound_allow(tools: dict, profile: str, allow: list[str], inherited_also: list[str] | None,
                 grants: list[str]) -> list[str]:
    """resolveProfileBoundAllowGrants: the profile's grants the allow list keeps, its plugin
    entries, then the section grants."""
    explicit_also = own_list(tools, "alsoAllow")
    merged = merge_also_allow(profile_policy(profile), explicit_also if explicit_also is not None
                              else inherited_also if inherited_also is not None else [])
    profile_allow = expand_tool_groups(merged)
    core = expand_tool_groups(allow) if "*" in profile_allow else [t for t in profile_allow if tool_allowed(t, allow)]
    plugin = [e for e in expand_tool_groups(allow) if e != "*" and e not in CORE_TOOL_IDS
              and not any(tool_allowed(t, [e]) for t in profile_allow)]
    return unique(core + plugin + grants)


def _rewrite(value: Any, label: str, changes: Changes, configured: list[str], inherited_profile: str | None,
             inherited_also: list[str] | None, materialize: bool = True) -> None:
    tools = rec(value)
    if tools is None:
        return
    profile = _profile(tools, inherited_profile)
    if not profile or not materialize:
        return
    grants = repair_grants(tools, inherited_profile, inherited_also, configured)
    allow = grant_list(tools, "allow")
    if not grants or not allow or profile == "full":
        return
    own_also = own_list(tools, "alsoAllow")
    tools["allow"] = _bound_allow(tools, profile, unique(allow + (own_also or [])), inherited_also, grants)
    changes.append(f'Replaced {label}.allow entries with profile "{profile}" grants plus explicit configured-section '
                   "grants.")
    if own_also is not None:
        del tools["alsoAllow"]
        changes.append(f"Merged {label}.alsoAllow into {label}.allow.")
    tools["profile"] = "full"
    changes.append(f'Set {label}.profile to "full" so {label}.allow controls explicit configured-section grants '
                   "directly.")


# -- provider policies (src/agents/provider-tool-policy.ts) --------------------------------

def provider_key(value: Any) -> str:
    """normalizeToolProviderPolicyKey: `provider` or `provider/model`, lower-cased."""
    normalized = lower_or_empty(value)
    slash = normalized.find("/")
    if slash <= 0:
        return lower_or_empty(normalized)
    provider, model = lower_or_empty(normalized[:slash]), normalized[slash + 1:]
    return f"{provider}/{model}" if model else provider


def inherited_provider_policy(by_provider: dict | None, key: str) -> dict | None:
    """The inherited `byProvider` policy for `key` (exact, then its provider; canonical keys win)."""
    lookup: dict[str, tuple[dict, bool]] = {}
    for raw_key, value in (by_provider or {}).items():
        policy = rec(value)
        normalized = provider_key(raw_key)
        if raw_key in BLOCKED_KEYS or policy is None or not normalized:
            continue
        canonical = lower_or_empty(raw_key) == normalized
        existing = lookup.get(normalized)
        if existing is None or (canonical and not existing[1]):
            lookup[normalized] = (policy, canonical)
    normalized = provider_key(key)
    slash = normalized.find("/")
    for candidate in ([normalized, normalized[:slash]] if slash > 0 else [normalized]):
        if candidate in lookup:
            return lookup[candidate][0]
    return None


def _rewrite_providers(value: Any, label: str, changes: Changes, configured: list[str] | None,
                       inherited_profile: str | None, inherited_by_provider: dict | None = None) -> None:
    # OpenClaw also walks inherited provider policies the scope does not name, with an empty
    # policy: no allow list, so never a change; left out.
    tools = rec(value)
    if tools is None:
        return
    grants = configured if configured is not None else section_grants(tools)
    if not grants:
        return
    for key, policy in list((rec(tools.get("byProvider")) or {}).items()):
        if key in BLOCKED_KEYS:
            continue
        inherited = inherited_provider_policy(inherited_by_provider, key)
        inherited_profile_here = _str_profile(inherited)
        owns = isinstance((rec(policy) or {}).get("profile"), str)
        _rewrite(policy, f"{label}.byProvider.{key}", changes, grants,
                 inherited_profile_here if inherited_profile_here is not None else inherited_profile,
                 own_list(inherited, "alsoAllow"), owns or bool(inherited_profile_here))


def _providers_need(tools: dict, configured: list[str], inherited_also: list[str] | None,
                    inherited_by_provider: dict | None) -> bool:
    for key, policy in (rec(tools.get("byProvider")) or {}).items():
        inherited = inherited_provider_policy(inherited_by_provider, key)
        inherited_profile = _str_profile(inherited)
        if not (isinstance((rec(policy) or {}).get("profile"), str) or inherited_profile):
            continue
        own_also = own_list(inherited, "alsoAllow")
        if rec(policy) is not None and repair_grants(policy, inherited_profile,
                                                     own_also if own_also is not None else inherited_also,
                                                     configured):
            return True
    return False


def needs_repair(value: Any, inherited_profile: str | None = None, inherited_also: list[str] | None = None,
                 configured: list[str] | None = None, inherited_by_provider: dict | None = None) -> bool:
    """toolProfileConfiguredSectionsNeedExplicitRepair."""
    tools = rec(value)
    if tools is None:
        return False
    grants = configured if configured is not None else section_grants(tools)
    if repair_grants(tools, inherited_profile, inherited_also, grants):
        return True
    own_also = own_list(tools, "alsoAllow")
    return _providers_need(tools, grants, own_also if own_also is not None else inherited_also,
                           inherited_by_provider)


def agents_match(value: Any, root: dict) -> bool:
    """The agents.list rule: some agent's tools (inheriting the global ones) need the repair."""
    global_tools = rec(root.get("tools"))
    inherited_profile = _str_profile(global_tools)
    inherited_also = grant_list(global_tools, "alsoAllow")
    by_provider = rec(global_tools.get("byProvider")) if global_tools is not None else None
    if not isinstance(value, list):
        return False
    for agent in value:
        agent_tools = rec((rec(agent) or {}).get("tools"))
        if needs_repair(agent_tools, inherited_profile, inherited_also,
                        effective_section_grants(global_tools, agent_tools), by_provider):
            return True
    return False


def profile_sections(raw: dict, changes: Changes) -> None:
    """The migration, in OpenClaw's order: the global tools, their providers, then each agent."""
    global_tools = rec(raw.get("tools"))
    inherited_profile = _str_profile(global_tools)
    inherited_also = grant_list(global_tools, "alsoAllow")
    if global_tools is not None:
        _rewrite(global_tools, "tools", changes, section_grants(global_tools), None, None)
    _rewrite_providers(global_tools, "tools", changes, None, inherited_profile)
    agents = rec(raw.get("agents"))
    if agents is None or not isinstance(agents.get("list"), list):
        return
    for index, agent in enumerate(agents["list"]):
        agent_tools = rec((rec(agent) or {}).get("tools"))
        configured = effective_section_grants(global_tools, agent_tools)
        label = f"agents.list.{index}.tools"
        _rewrite(agent_tools, label, changes, configured, inherited_profile, inherited_also)
        by_provider = rec(global_tools.get("byProvider")) if global_tools is not None else None
        _rewrite_providers(agent_tools, label, changes, configured,
                           _profile(agent_tools or {}, inherited_profile), by_provider)

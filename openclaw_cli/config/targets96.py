"""2026.9.6's `--all-agents` stores: one target per database file, and its collision notes (targets-collision)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from openclaw_cli.config.agents import Target, normalize_agent_id
from openclaw_cli.store.db_target import DbTarget, Owners, resolve, same_path, unsuffixed_target

PREFIX = "[sessions/targets] "  # how 2026.9.6's logger prints the notes on stderr


@dataclass(frozen=True)
class _Claim:
    target: Target
    found: DbTarget


def _group(groups: dict[str, list[_Claim]], path: str, claim: _Claim) -> None:
    """Add `claim` to the group of the file `path` names (one group per physical file)."""
    key = next((known for known in groups if same_path(known, path)), os.path.abspath(path))
    groups.setdefault(key, []).append(claim)


def print_notes(notes: list[str]) -> None:
    """The notes on stderr, as 2026.9.6's logger prints them."""
    from openclaw_cli.ui import console as output

    for note in notes:
        output.stderr_line(PREFIX + output.for_stderr(note))


def _quoted(ids: list[str]) -> str:
    return ", ".join(f'"{agent}"' for agent in ids)


def dedupe_by_database(targets: list[Target], default_agent: str,
                       env: Mapping[str, str] | None) -> tuple[list[Target], list[str]]:
    """dedupeSessionStoreTargetsBySqliteTarget: the targets, one per database file (its owner's), and
    the notes 2026.9.6 logs on a shared folder's unsuffixed file or a file several agents claim."""
    owners = Owners(env)
    grouped: dict[str, list[_Claim]] = {}
    logical: dict[str, list[_Claim]] = {}
    for target in targets:
        claim = _Claim(target, resolve(target.store_path, target.agent_id, default_agent, owners))
        _group(grouped, claim.found.path, claim)
        if not claim.found.shared:
            _group(logical, unsuffixed_target(target.store_path).path, claim)
    notes = [note for path, group in logical.items() if (note := _folder_note(path, group))]
    kept: list[Target] = []
    for path, group in grouped.items():
        selected, note = _select(path, group, default_agent, owners)
        kept += [selected] if selected else []
        notes += [note] if note else []
    return kept, notes


def _folder_note(path: str, group: list[_Claim]) -> str | None:
    """The note on a shared folder whose unsuffixed file several agents' stores name."""
    agents = list(dict.fromkeys(normalize_agent_id(claim.target.agent_id) for claim in group))
    if len(agents) <= 1 or any(not claim.found.owner_source for claim in group):
        return None
    owner, source = group[0].found.unsuffixed_owner, group[0].found.owner_source or "configured-default"
    others = _quoted([agent for agent in agents if agent != owner] if owner else agents)
    where = f"Session store target collision at {path}: "
    if owner:
        return f'{where}owner "{owner}" selected by {source}; suffixed owner(s): {others}.'
    if source == "registered-suffixed":
        return f"{where}configured default retains its registered suffixed target; all claimant(s) use suffixed targets: {others}."
    if source == "occupied-unsuffixed":
        return f"{where}unsuffixed target is occupied without a durable owner; all claimant(s) use suffixed targets: {others}."
    return f"{where}registry ownership is ambiguous; all claimant(s) use suffixed targets: {others}."


def _select(path: str, group: list[_Claim], default_agent: str, owners: Owners) -> tuple[Target | None, str | None]:
    """The target kept for one database file (its owner's), and the note when others claimed it."""
    by_agent = {normalize_agent_id(claim.target.agent_id): claim.target for claim in group}
    named = list(dict.fromkeys(claim.found.agent_id for claim in group if claim.found.agent_id))
    registered = [] if len(named) == 1 else owners.registered(path)
    where = f"Session store target collision at {path}: "
    if len(named) != 1 and len(registered) > 1:
        return None, f"{where}registry ownership is ambiguous across {_quoted(registered)}; no owner selected."
    source = "database-path" if len(named) == 1 else "database-registry" if registered else "configured-default"
    fallback = default_agent if len(by_agent) > 1 else group[0].target.agent_id
    owner = normalize_agent_id(named[0] if named else registered[0] if registered else fallback)
    selected = by_agent.get(owner) or (
        (by_agent.get(normalize_agent_id(default_agent)) or group[0].target)
        if any(claim.found.shared for claim in group) else None)
    ignored = [agent for agent in by_agent if not selected or agent != normalize_agent_id(selected.agent_id)]
    if selected and not ignored:
        return selected, None
    return selected, f'{where}owner "{owner}" selected by {source}; ignored owner(s): {_quoted(ignored)}.'

"""Which database file a store path names for an agent, as 2026.9.6 resolves it (session-sqlite-target):
a shared folder's `openclaw-agent.sqlite` for its owner, `openclaw-agent.<agent>[.<N>].sqlite` for the others."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from openclaw_cli.config.agents import DEFAULT_AGENT_ID, normalize_agent_id
from openclaw_cli.store.sqlite.connection import AGENT_DB_FILENAME, path_agent

_INDEX = re.compile(r"[1-9]\d*")
_MAX_SAFE_INTEGER = 2**53 - 1


@dataclass(frozen=True)
class DbTarget:
    """A store path's database: `agent_id` is the agent it belongs to (the folder's, a shared file's
    owner, or the requested agent); `shared` marks a `.sqlite` path that every agent names."""

    path: str
    agent_id: str | None = None
    shared: bool = False
    owner_source: str | None = None  # how the folder's unsuffixed database got its owner
    unsuffixed_owner: str | None = None


def unsuffixed_target(store_path: str) -> DbTarget:
    """resolveUnsuffixedSqliteTargetFromSessionStorePath: a `.sqlite` path is the database itself;
    `agents/<id>/sessions/sessions.json` → `agents/<id>/agent/openclaw-agent.sqlite`; any other
    sessions.json → `openclaw-agent.sqlite` beside it; any other `<name>.<ext>` → `<name>.sqlite`."""
    path = os.path.abspath(store_path)
    if path.endswith(".sqlite"):
        return DbTarget(path, path_agent(path))
    folder, name = os.path.split(path)
    if name != "sessions.json":
        return DbTarget(os.path.join(folder, f"{os.path.splitext(name)[0] or 'openclaw-agent'}.sqlite"))
    agent_dir = os.path.dirname(folder)
    if os.path.basename(folder) != "sessions" or os.path.basename(os.path.dirname(agent_dir)) != "agents":
        return DbTarget(os.path.join(folder, AGENT_DB_FILENAME))
    return DbTarget(os.path.join(agent_dir, "agent", AGENT_DB_FILENAME), normalize_agent_id(os.path.basename(agent_dir)))


def same_path(one: str, other: str) -> bool:
    """isSameOpenClawAgentDatabasePath: one file (or one place, when missing) under two names."""
    if one == other or os.path.realpath(one) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


class Owners:
    """The ownership facts one resolution reads: the registry (read once, when first asked) and each
    database's `schema_meta` owner."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self.env = env
        self._registry: list[tuple[str, str]] | None = None

    @property
    def registry(self) -> list[tuple[str, str]]:
        if self._registry is None:
            from openclaw_cli.config.paths import resolve_state_dir
            from openclaw_cli.store.sqlite.registry import registered_databases

            self._registry = registered_databases(resolve_state_dir(self.env))
        return self._registry

    def registered(self, path: str) -> list[str]:
        """The agents the registry records `path` for, each once."""
        return list(dict.fromkeys(agent for agent, registered in self.registry if same_path(registered, path)))

    def persisted(self, path: str) -> tuple[str | None, list[str]]:
        """The persisted owner (a sole registered agent, else with none registered the database's own)
        and the registered agents."""
        from openclaw_cli.store.sqlite.registry import database_owner

        registered = self.registered(path)
        if len(registered) == 1:
            return registered[0], registered
        return (database_owner(path) if not registered else None), registered


def resolve(store_path: str, agent_id: str | None, default_agent: str | None = None,
            owners: Owners | None = None, env: Mapping[str, str] | None = None) -> DbTarget:
    """resolveSqliteTargetFromSessionStorePath: the database `agent_id`'s store path names; 2026.9.6's
    CLI resolves without a configured default, so `main` stands in (`default_agent`)."""
    target = unsuffixed_target(store_path)
    if target.agent_id is not None:
        return target
    owners = owners or Owners(env)
    default = normalize_agent_id(default_agent or DEFAULT_AGENT_ID)
    if not os.path.abspath(store_path).endswith(".sqlite"):
        return _in_shared_folder(target.path, normalize_agent_id(agent_id or default), default, owners)
    from openclaw_cli.store.sqlite.registry import database_owner

    registered = owners.registered(target.path)
    owner = registered[0] if len(registered) == 1 else None
    found = database_owner(target.path) if owner is None else None
    source = ("database-registry" if owner else "database-path" if found
              else "ambiguous-registry" if registered else "configured-default")
    return DbTarget(target.path, owner or found or default, True, source)


@dataclass(frozen=True)
class _Suffixed:
    owned: bool
    path: str


def _suffixed(folder: str, base: str, agent: str, owners: Owners) -> _Suffixed:
    """An agent's `<base>.<agent>.sqlite` (or `<base>.<agent>.<N>.sqlite`): the first one it owns among
    those registered or present, else the first free one."""
    prefix = f"{base}.{agent}"

    def at(index: int) -> str:
        return os.path.join(folder, f"{prefix}.sqlite" if index == 1 else f"{prefix}.{index}.sqlite")

    occupied = {i for i in map(_index_of(prefix), _names(folder, owners)) if i is not None}
    for index in sorted(occupied):
        if owners.persisted(at(index))[0] == agent:
            return _Suffixed(True, at(index))
    index = 1
    while index in occupied:
        index += 1
    while True:
        owner, registered = owners.persisted(at(index))
        if owner == agent:
            return _Suffixed(True, at(index))
        if not registered and not os.path.lexists(at(index)):
            return _Suffixed(False, at(index))
        index += 1


def _names(folder: str, owners: Owners) -> list[str]:
    """The file names a folder holds and the registry records in it."""
    names = [os.path.basename(path) for _agent, path in owners.registry if same_path(os.path.dirname(path), folder)]
    try:
        return names + os.listdir(folder)
    except OSError:
        return names


def _index_of(prefix: str) -> Callable[[str], int | None]:
    def index(name: str) -> int | None:
        if name == f"{prefix}.sqlite":
            return 1
        if not name.startswith(f"{prefix}.") or not name.endswith(".sqlite"):
            return None
        raw = name[len(prefix) + 1:-len(".sqlite")]
        if not _INDEX.fullmatch(raw) or int(raw) > _MAX_SAFE_INTEGER:
            return None
        return int(raw) if int(raw) >= 2 else None
    return index


def _in_shared_folder(unsuffixed: str, agent: str, default: str, owners: Owners) -> DbTarget:
    """resolveCustomStoreSqlitePath: the unsuffixed file is its persisted owner's, else (while free) the
    default agent's when it owns no suffixed file; every other agent has its suffixed one."""
    folder = os.path.dirname(unsuffixed)
    base = os.path.basename(unsuffixed)[:-len(".sqlite")] or os.path.basename(unsuffixed)
    owner, registered = owners.persisted(unsuffixed)
    default_own = _suffixed(folder, base, default, owners)
    own = default_own if agent == default else _suffixed(folder, base, agent, owners)
    free = not registered and not os.path.lexists(unsuffixed)
    fallback = default if not owner and not default_own.owned and free else None
    unsuffixed_used = agent == owner or (not own.owned and agent == fallback)
    source = (("database-registry" if len(registered) == 1 else "database-path") if owner
              else "registered-suffixed" if default_own.owned else "ambiguous-registry" if len(registered) > 1
              else "occupied-unsuffixed" if not free else "configured-default")
    return DbTarget(unsuffixed if unsuffixed_used else own.path, agent, False, source, owner or fallback)


def family(store_path: str) -> list[str]:
    """listDurableSqliteTargetPathsForSessionStorePath: the store's unsuffixed database and, for a shared
    folder, each `<base>.*.sqlite` beside it that is an agent's database."""
    from openclaw_cli.store.sqlite.registry import database_owner

    target = unsuffixed_target(store_path)
    if target.agent_id is not None or os.path.abspath(store_path).endswith(".sqlite"):
        return [target.path]
    folder, name = os.path.split(target.path)
    base = name[:-len(".sqlite")]
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    stripped = (re.sub(r"-(?:wal|shm|journal)$", "", n) for n in names)
    siblings = dict.fromkeys(n for n in stripped if n != name and n.startswith(f"{base}.") and n.endswith(".sqlite"))
    return [target.path, *(os.path.join(folder, n) for n in siblings if database_owner(os.path.join(folder, n)))]

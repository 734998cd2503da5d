"""Which session `openclaw context` looks at: config, agent, session key, store entry, transcript."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from openclaw_cli.errors import CliError
from openclaw_cli.js.values import object_at
from openclaw_cli.transcript.reader import RawLine


@dataclass(frozen=True)
class SqliteTranscript:
    """A session's transcript in its agent database (OpenClaw 2026.8+): its events streamed as
    the lines of the JSONL file they were in the file era, from a read-only handle. `agent_id` is the
    agent the database belongs to (a shared `.sqlite` store's owner, which may not be the session's)."""

    db_path: str
    agent_id: str
    session_id: str

    @property
    def name(self) -> str:
        return f"{self.db_path} (session {self.session_id})"

    def lines(self) -> Iterator[RawLine]:
        from openclaw_cli.store.sqlite.connection import open_agent_db
        from openclaw_cli.store.sqlite.transcript import iter_event_lines

        with open_agent_db(self.db_path, self.agent_id) as db:
            yield from iter_event_lines(db, self.session_id)

    @contextmanager
    def as_file(self) -> Iterator[str]:
        """The events as a temporary file-era JSONL file, for readers of files (the compaction planner)."""
        from openclaw_cli.store.sqlite.connection import open_agent_db
        from openclaw_cli.store.sqlite.export import temporary_jsonl

        with open_agent_db(self.db_path, self.agent_id) as db, temporary_jsonl(db, self.session_id) as path:
            yield path

    def is_cold(self) -> bool:
        """The session is in cold storage: no events in the database, an archive of them instead."""
        from openclaw_cli.store.sqlite.cold import find_archive
        from openclaw_cli.store.sqlite.connection import open_agent_db

        with open_agent_db(self.db_path, self.agent_id) as db:
            return not db.rows("SELECT 1 FROM transcript_events WHERE session_id = ? LIMIT 1",
                               (self.session_id,)) and find_archive(db, self.session_id) is not None

    def has_events(self) -> bool:
        """Events in the database, or an archive of them in cold storage."""
        from openclaw_cli.store.sqlite.cold import find_archive
        from openclaw_cli.store.sqlite.connection import open_agent_db

        with open_agent_db(self.db_path, self.agent_id) as db:
            return bool(db.rows("SELECT 1 FROM transcript_events WHERE session_id = ? LIMIT 1", (self.session_id,))
                        or find_archive(db, self.session_id))


TranscriptSource = str | SqliteTranscript  # a JSONL file, or a session's events in its database


@dataclass
class Target:
    """The resolved session: its agent, key, store entry (if any) and where things live."""

    cfg: dict[str, Any]
    env: MutableMapping[str, str]
    agent_id: str
    session_key: str
    store_path: str
    entry: dict[str, Any] | None
    workspace_dir: str
    explicit_key: bool = False  # the key came from --session (not the default main session)
    sqlite_path: str | None = None  # the agent database when the agent keeps its sessions there
    db_agent_id: str | None = None  # the agent that database belongs to (a shared `.sqlite` store's owner)

    @property
    def session_id(self) -> str | None:
        value = (self.entry or {}).get("sessionId")
        return value if isinstance(value, str) else None

    @property
    def store_display(self) -> str:
        """The store OpenClaw names for this agent: its database in the SQLite era."""
        return self.sqlite_path or self.store_path

    def transcript_source(self) -> TranscriptSource | None:
        """Where the entry's transcript is: its events in the agent database (when it has any),
        else its JSONL file (`transcript_path`)."""
        if self.sqlite_path is None:
            return self.transcript_path()
        session_id = (self.session_id or "").strip()
        if not session_id:
            return None
        source = SqliteTranscript(self.sqlite_path, self.db_agent_id or self.agent_id, session_id)
        return source if source.has_events() else None

    def transcript_path(self) -> str | None:
        """The entry's transcript file when it exists (sessionFile first, then `<id>.jsonl`);
        None for a session kept in the agent database."""
        from openclaw_cli.store.session_files import session_file_path_or_none, transcript_path_in_dir

        session_id = (self.session_id or "").strip()
        if not session_id or self.sqlite_path is not None:
            return None
        sessions_dir = os.path.dirname(self.store_path)
        session_file = (self.entry or {}).get("sessionFile")
        for candidate in (session_file_path_or_none(session_id, session_file if isinstance(session_file, str)
                                                    else None, sessions_dir, self.env),):
            if candidate and os.path.isfile(candidate):
                return candidate
        try:
            canonical = transcript_path_in_dir(session_id, sessions_dir, self.env)
        except ValueError:
            return None
        return canonical if os.path.isfile(canonical) else None


def _main_key(cfg: Mapping[str, Any]) -> str:
    session = cfg.get("session") if isinstance(cfg, Mapping) else None
    main = session.get("mainKey") if isinstance(session, Mapping) else None
    return main.strip().lower() if isinstance(main, str) and main.strip() else "main"


def resolve_session_key(cfg: Mapping[str, Any], agent_id: str, session: str | None) -> str:
    """`agent:<id>:<mainKey>` by default; a bare key is taken inside the agent's namespace."""
    from openclaw_cli.store.keys import normalize_store_key

    if not session or not session.strip():
        return f"agent:{agent_id}:{_main_key(cfg)}"
    key = normalize_store_key(session)
    if key.startswith("agent:") or key == "global":
        return key
    return f"agent:{agent_id}:{key}"


def resolve_target(*, session: str | None = None, agent: str | None = None,
                   env: MutableMapping[str, str] | None = None) -> Target:
    from openclaw_cli.config.agents import (
        list_agent_ids,
        normalize_agent_id,
        resolve_default_agent_id,
        resolve_store_path,
        session_store_template,
    )
    from openclaw_cli.config.load import load_config
    from openclaw_cli.context.workspace import resolve_workspace_dir
    from openclaw_cli.store.keys import parse_agent_key
    from openclaw_cli.store.sessions_json import load_store

    env = os.environ if env is None else env
    cfg = load_config(env, strict=False).data
    if agent and agent.strip():
        agent_id = normalize_agent_id(agent)
        if agent_id not in list_agent_ids(cfg):
            raise CliError(f'Unknown agent id "{agent}". Use "openclaw agents list" to see configured agents.')
    else:
        agent_id = resolve_default_agent_id(cfg)
    key = resolve_session_key(cfg, agent_id, session)
    parsed = parse_agent_key(key)
    if parsed:
        if agent and agent.strip() and normalize_agent_id(parsed[0]) != agent_id:
            raise CliError(f"session {key} does not belong to agent {agent_id}")
        agent_id = normalize_agent_id(parsed[0])
    store_path = resolve_store_path(session_store_template(cfg), agent_id, env)
    from openclaw_cli.config.agents import Target as StoreTarget
    from openclaw_cli.store.era import detect

    # The database 2026.9.6 reads for the agent, as the listing finds it (store/db_target.py): a shared
    # folder's own or suffixed file, or a `.sqlite` store opened as its owner's, whoever the session's agent is.
    store = detect(cfg, StoreTarget(agent_id, store_path), env)
    sqlite_path = store.sqlite_path if store.in_sqlite else None
    if sqlite_path is not None:
        entry = _sqlite_entry(sqlite_path, store.db_agent_id, key)
    else:
        entry = load_store(store_path).store.get(key)
    return Target(cfg=cfg, env=env, agent_id=agent_id, session_key=key, store_path=store_path,
                  entry=entry if isinstance(entry, dict) else None,
                  workspace_dir=resolve_workspace_dir(cfg, agent_id, env),
                  explicit_key=bool(session and session.strip()), sqlite_path=sqlite_path,
                  db_agent_id=store.db_agent_id if sqlite_path is not None else None)


def _sqlite_entry(db_path: str, agent_id: str, key: str) -> dict[str, Any] | None:
    """The key's entry in the database `agent_id` owns (`session_nodes.entry_json`), read-only."""
    from openclaw_cli.store.sqlite.connection import open_agent_db
    from openclaw_cli.store.sqlite.entries import read_entry

    with open_agent_db(db_path, agent_id) as db:
        return read_entry(db, key)


def _own_entry(cfg: Mapping[str, Any] | None, agent_id: str) -> Mapping[str, Any]:
    """The agent's roster entry, {} when it has none."""
    from openclaw_cli.config.agents import agent_entry

    return agent_entry(cfg, agent_id) or {}


def _positive_int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        return None
    return math.floor(value)


def model_ref(target: Target) -> tuple[str, str]:
    """The session's provider/model: its overrides, else the agent's configured default."""
    from openclaw_cli.listing.model_ref import default_model_ref

    entry = target.entry or {}
    ref = default_model_ref(target.cfg, target.agent_id)
    provider, model = ref.provider, ref.model
    override_p, override_m = entry.get("providerOverride"), entry.get("modelOverride")
    if isinstance(override_m, str) and override_m.strip():
        model = override_m.strip()
        if isinstance(override_p, str) and override_p.strip():
            provider = override_p.strip()
        elif "/" in model:
            provider, model = model.split("/", 1)
    return provider, model


def context_window(target: Target, provider: str, model: str) -> int | None:
    """The live context window as far as it can be known offline: the agent's `contextTokens`
    capped by the model's configured window; the window the last run recorded on the entry
    stands in for a built-in model. None when nothing says."""
    cfg = target.cfg
    window = None
    spec = object_at(object_at(object_at(cfg, "models"), "providers"), provider)
    for item in spec.get("models") or [] if isinstance(spec.get("models"), list) else []:
        if isinstance(item, Mapping) and item.get("id") == model:
            window = _positive_int(item.get("contextTokens")) or _positive_int(item.get("contextWindow"))
            break
    if window is None:
        window = _positive_int((target.entry or {}).get("contextTokens"))
    agents = object_at(cfg, "agents")
    agent_value = _own_entry(cfg, target.agent_id).get("contextTokens")
    if agent_value is None:
        agent_value = object_at(agents, "defaults").get("contextTokens")
    agent_tokens = _positive_int(agent_value)
    if agent_tokens is not None:
        return min(agent_tokens, window) if window is not None else agent_tokens
    return window


def sandbox_status(target: Target) -> dict[str, Any]:
    """`resolveSandboxRuntimeStatus`: the agent's sandbox mode and whether this session runs in it."""
    cfg = target.cfg
    agents = object_at(cfg, "agents")
    mode = object_at(_own_entry(cfg, target.agent_id), "sandbox").get("mode")
    if mode is None:
        mode = object_at(object_at(agents, "defaults"), "sandbox").get("mode")
    mode = mode if mode is not None else "off"
    session_cfg = object_at(cfg, "session")
    main = "global" if session_cfg.get("scope") == "global" else f"agent:{target.agent_id}:{_main_key(cfg)}"
    sandboxed = False if mode == "off" else True if mode == "all" else target.session_key.strip() != main
    return {"mode": mode, "sandboxed": sandboxed}

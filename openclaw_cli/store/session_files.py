"""Where a session's transcript and sidecars live, resolved as OpenClaw resolves them."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from openclaw_cli.js import paths as jspath
from openclaw_cli.js.strings import js_trim
from openclaw_cli.store.artifacts import (
    TRAJECTORY_POINTER_SUFFIX,
    TRAJECTORY_RUNTIME_SUFFIX,
    generated_id_from_session_file,
    is_checkpoint,
)

_SAFE_TRANSCRIPT_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,127}\Z", re.IGNORECASE | re.ASCII)


class PathError(ValueError):
    """A session id or sessionFile that cannot be turned into a path inside a sessions folder."""


def plain_transcript_id(session_id) -> bool:
    """Whether `<id>.jsonl` is a valid transcript name for the id exactly as it is (nothing to trim):
    valid_transcript_id's answer without its trim, for the ids of nearly every entry."""
    return (session_id.__class__ is str and _SAFE_TRANSCRIPT_ID.match(session_id) is not None
            and ("." not in session_id or valid_transcript_id(session_id) == session_id))


def valid_transcript_id(session_id) -> str | None:
    """The trimmed id when `<id>.jsonl` is a valid transcript name, else None."""
    if not isinstance(session_id, str):
        return None
    trimmed = js_trim(session_id)
    if not _SAFE_TRANSCRIPT_ID.match(trimmed) or (".checkpoint." in trimmed.lower() and is_checkpoint(f"{trimmed}.jsonl")):
        return None
    return trimmed


def _state_agents_sessions_dir(agent_id: str, env: Mapping[str, str] | None) -> str:
    from openclaw_cli.config.agents import normalize_agent_id
    from openclaw_cli.config.paths import resolve_state_dir

    return jspath.resolve(resolve_state_dir(env), "agents", normalize_agent_id(agent_id), "sessions")


Realpath = Callable[[str], "str | None"]


def _from_agent_dir(agent_dir: str, candidate: str, rp: Realpath) -> str | None:
    base = rp(jspath.resolve(agent_dir)) or jspath.resolve(agent_dir)
    real = rp(candidate) or candidate
    rel = jspath.relative(base, real)
    if not rel or rel.startswith(("..", "/")):
        return None
    return jspath.resolve(base, rel)


def _sibling_sessions_dir(base: str, agent_id: str) -> str | None:
    from openclaw_cli.config.agents import normalize_agent_id

    base = jspath.resolve(base)
    if base.rsplit("/", 1)[-1] != "sessions":
        return None
    agents_dir = base.rsplit("/", 2)[0]
    if agents_dir.rsplit("/", 1)[-1] != "agents":
        return None
    root = agents_dir.rsplit("/", 1)[0] or "/"
    return jspath.resolve(root, "agents", normalize_agent_id(agent_id), "sessions")


def _agent_path_parts(candidate: str) -> tuple[list[str], int] | None:
    parts = [p for p in jspath.normalize(jspath.resolve(candidate)).split("/") if p]
    try:
        idx = len(parts) - 1 - parts[::-1].index("sessions")
    except ValueError:
        return None
    if idx < 2 or parts[idx - 2] != "agents":
        return None
    return parts, idx


def _structural_fallback(candidate: str, agent_id: str) -> str | None:
    from openclaw_cli.config.agents import normalize_agent_id

    parsed = _agent_path_parts(candidate)
    if not parsed:
        return None
    parts, idx = parsed
    part = parts[idx - 1]
    if not part:
        return None
    normalized = normalize_agent_id(part)
    lowered = js_trim(part).lower()
    if normalized != lowered or normalized != normalize_agent_id(agent_id):
        return None
    tail = parts[idx + 1:]
    if len(tail) != 1 or tail[0] in ("", ".", ".."):
        return None
    return jspath.normalize(jspath.resolve(candidate))


def resolve_within_sessions_dir(sessions_dir: str, candidate: str,
                                env: Mapping[str, str] | None = None,
                                rp: Realpath = jspath.realpath_or_none) -> str:
    """Resolve a sessionFile against a sessions folder; absolute paths may land in a sibling agent's folder."""
    trimmed = js_trim(candidate)
    if not trimmed:
        raise PathError("Session file path must not be empty")
    resolved_base = jspath.resolve(sessions_dir)
    real_base = rp(resolved_base) or resolved_base
    absolute = trimmed.startswith("/")
    if absolute:
        real_trimmed = rp(trimmed) or trimmed
    elif "/" not in trimmed and not trimmed.startswith("."):
        return f"{real_base}/{trimmed}" if real_base != "/" else f"/{trimmed}"
    else:
        real_trimmed = trimmed
    normalized = jspath.relative(real_base, real_trimmed) if absolute else real_trimmed
    if normalized.startswith("..") and absolute:
        parsed = _agent_path_parts(real_trimmed)
        if parsed:
            agent_id = parsed[0][parsed[1] - 1]
            if agent_id:
                sibling = _sibling_sessions_dir(real_base, agent_id)
                found = _from_agent_dir(sibling, real_trimmed, rp) if sibling else None
                if not found:
                    found = _from_agent_dir(_state_agents_sessions_dir(agent_id, env), real_trimmed, rp)
                if not found:
                    found = _structural_fallback(real_trimmed, agent_id)
                if found:
                    return found
    if not normalized or normalized.startswith(("..", "/")):
        raise PathError("Session file path must be within sessions directory")
    return jspath.resolve(real_base, normalized)


def transcript_path_in_dir(session_id: str, sessions_dir: str,
                           env: Mapping[str, str] | None = None,
                           rp: Realpath = jspath.realpath_or_none) -> str:
    """`<sessionsDir>/<sessionId>.jsonl`; PathError for an invalid transcript id."""
    safe = valid_transcript_id(session_id)
    if safe is None:
        raise PathError(f"Invalid session ID: {session_id}")
    return resolve_within_sessions_dir(sessions_dir, f"{safe}.jsonl", env, rp)


def session_file_path(session_id: str, session_file: str | None, sessions_dir: str,
                      env: Mapping[str, str] | None = None,
                      rp: Realpath = jspath.realpath_or_none) -> str:
    """The entry's transcript: its sessionFile when it resolves, else the canonical path."""
    if isinstance(session_file, str):
        candidate = js_trim(session_file)
        if candidate:
            try:
                return resolve_within_sessions_dir(sessions_dir, candidate, env, rp)
            except PathError:
                pass
    return transcript_path_in_dir(session_id, sessions_dir, env, rp)


def session_file_path_or_none(session_id: str, session_file: str | None, sessions_dir: str,
                              env: Mapping[str, str] | None = None,
                              rp: Realpath = jspath.realpath_or_none) -> str | None:
    try:
        return session_file_path(session_id, session_file, sessions_dir, env, rp)
    except PathError:
        return None


def trajectory_runtime_path(transcript: str) -> str:
    return (transcript[:-6] if transcript.endswith(".jsonl") else transcript) + TRAJECTORY_RUNTIME_SUFFIX


def trajectory_pointer_path(transcript: str) -> str:
    return (transcript[:-6] if transcript.endswith(".jsonl") else transcript) + TRAJECTORY_POINTER_SUFFIX


def safe_trajectory_file_name(session_id: str) -> str:
    # Each UTF-16 unit outside the class becomes "_" (astral characters count twice).
    safe = re.sub(r"[^A-Za-z0-9_-]", lambda m: "__" if ord(m.group()) > 0xFFFF else "_",
                  session_id)[:120]
    return safe if re.search(r"[A-Za-z0-9]", safe) else "session"


def is_stale_generated_transcript(session_id: str, session_file: str | None) -> bool:
    """sessionFile names a UUID transcript of another session id (left over from a reset)."""
    generated = generated_id_from_session_file(session_file)
    if not generated or generated == session_id:
        return False
    from openclaw_cli.store.artifacts import posix_basename

    return posix_basename(js_trim(session_file or "")) == f"{generated}.jsonl"

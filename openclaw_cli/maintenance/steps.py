"""Entry-level maintenance steps on an in-memory store: missing, dm-scope, model-run, stale, cap."""

from __future__ import annotations

from collections.abc import Callable

from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.store import keys

Removed = Callable[[str, dict], None]


def _noop(_key: str, _entry: dict) -> None:
    return None


def prune_missing(store: dict[str, dict], paths: EntryPaths, on_pruned: Removed = _noop,
                  on_repaired: Callable[[str, dict, str, str | None], None] | None = None) -> tuple[int, int]:
    """`--fix-missing`: drop entries whose transcript is missing or has no messages, repair stale names.

    A repaired entry is replaced by a copy with the new sessionFile (the original stays untouched).
    """
    from openclaw_cli.ui import progress

    with progress.task("Checking transcripts", len(store)) as advance:
        return _prune_missing(store, paths, on_pruned, on_repaired, advance)


def _prune_missing(store, paths, on_pruned, on_repaired, advance) -> tuple[int, int]:
    removed = repaired = 0
    for key, entry in list(store.items()):
        advance()
        sid = entry.get("sessionId")
        if not sid:
            if keys.parse_agent_key(key):
                continue
            del store[key]
            removed += 1
            on_pruned(key, entry)
            continue
        canonical = paths.canonical_transcript(sid)
        transcript = paths.session_file(entry)
        session_file = entry.get("sessionFile")
        if (canonical is not None and canonical != transcript
                and _is_stale_generated(sid, session_file)
                and paths.exists_with_messages(canonical)):
            fixed = dict(entry)
            fixed["sessionFile"] = canonical
            store[key] = fixed
            repaired += 1
            if on_repaired:
                on_repaired(key, fixed, canonical, session_file)
            continue
        if transcript is not None and paths.exists_with_messages(transcript):
            continue
        del store[key]
        removed += 1
        on_pruned(key, entry)
    return removed, repaired


def _is_stale_generated(session_id: str, session_file) -> bool:
    from openclaw_cli.store.session_files import is_stale_generated_transcript

    return is_stale_generated_transcript(session_id, session_file if isinstance(session_file, str) else None)


def retire_dm_scope(store: dict[str, dict], *, dm_scope: str, target_agent_id: str,
                    active_key: str | None, on_retired: Removed = _noop) -> int:
    """`--fix-dm-scope`: drop per-peer direct-DM keys once dmScope is back to main."""
    retired = 0
    for key, entry in list(store.items()):
        if keys.is_stale_direct_dm_key(key, target_agent_id=target_agent_id, active_key=active_key,
                                       dm_scope=dm_scope):
            on_retired(key, entry)
            del store[key]
            retired += 1
    return retired


def prune_model_runs(store: dict[str, dict], max_age_ms: int, now_ms: int,
                     preserve: frozenset[str] | None, on_pruned: Removed = _noop) -> int:
    cutoff = now_ms - max_age_ms
    pruned = 0
    for key, entry in list(store.items()):
        if preserve is not None and key in preserve:
            continue
        if not keys.is_model_run_key(key):
            continue
        updated = entry.get("updatedAt")
        if updated is not None and updated < cutoff:
            on_pruned(key, entry)
            del store[key]
            pruned += 1
    return pruned


def prune_stale(store: dict[str, dict], max_age_ms: int, now_ms: int,
                preserve: frozenset[str] | None, on_pruned: Removed = _noop) -> int:
    cutoff = now_ms - max_age_ms
    pruned = 0
    for key, entry in list(store.items()):
        updated = entry.get("updatedAt")
        if updated is None or not updated < cutoff:
            continue
        if keys.should_preserve(key, entry, preserve):
            continue
        on_pruned(key, entry)
        del store[key]
        pruned += 1
    return pruned


def cap_entries(store: dict[str, dict], max_entries: int, preserve: frozenset[str] | None,
                on_capped: Removed = _noop) -> int:
    """Keep the newest entries up to maxEntries; protected/preserved ones do not count as removable.

    2026.7.1: when protected entries alone fill the cap, every unprotected entry goes.
    """
    candidates: list[str] = []
    preserved = 0
    for key, entry in store.items():
        if keys.should_preserve(key, entry, preserve):
            preserved += 1
        else:
            candidates.append(key)
    max_removable = max(0, max_entries - preserved)
    if len(candidates) <= max_removable:
        return 0
    inf = float("inf")

    def newest_first(key: str) -> float:
        updated = store[key].get("updatedAt")
        return inf if updated is None else -updated

    ordered = sorted(candidates, key=newest_first)
    to_remove = ordered[max_removable:]
    for key in to_remove:
        entry = store.pop(key)
        on_capped(key, entry)
    return len(to_remove)

"""Entry-level maintenance steps on an in-memory store: missing, dm-scope, model-run, stale, cap."""

from __future__ import annotations

from collections.abc import Callable

from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.explain import Explain, protected_text, span
from openclaw_cli.store import keys

Removed = Callable[[str, dict], None]


def _noop(_key: str, _entry: dict) -> None:
    return None


def prune_missing(store: dict[str, dict], paths: EntryPaths, on_pruned: Removed = _noop,
                  on_repaired: Callable[[str, dict, str, str | None], None] | None = None,
                  why: Explain | None = None) -> tuple[int, int]:
    """`--fix-missing`: drop entries whose transcript is missing or has no messages, repair stale names.

    A repaired entry is replaced by a copy with the new sessionFile (the original stays untouched).
    """
    from openclaw_cli.ui import progress

    with progress.task("Checking transcripts", len(store)) as advance:
        return _prune_missing(store, paths, on_pruned, on_repaired, advance, why)


def _prune_missing(store, paths, on_pruned, on_repaired, advance, why: Explain | None) -> tuple[int, int]:
    removed = repaired = 0
    for key, entry in list(store.items()):
        advance()
        sid = entry.get("sessionId")
        if not sid:
            if keys.parse_agent_key(key):
                if why:
                    why.keep(key, "no-session-id", "--fix-missing: an agent key without a sessionId is kept")
                continue
            del store[key]
            removed += 1
            on_pruned(key, entry)
            if why:
                why.act(key, "prune-missing", "--fix-missing: no sessionId and not an agent key")
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
            if why:
                why.act(key, "repair-session-file",
                        f"--fix-missing: sessionFile names a stale transcript; {sid}.jsonl has the messages")
            continue
        if transcript is not None and paths.exists_with_messages(transcript):
            if why:
                why.keep(key, "has-transcript", "--fix-missing: its transcript has messages")
            continue
        del store[key]
        removed += 1
        on_pruned(key, entry)
        if why:
            why.act(key, "prune-missing", "--fix-missing: transcript missing or without messages"
                    if transcript is not None else "--fix-missing: its transcript path cannot be resolved")
    return removed, repaired


def _is_stale_generated(session_id: str, session_file) -> bool:
    from openclaw_cli.store.session_files import is_stale_generated_transcript

    return is_stale_generated_transcript(session_id, session_file if isinstance(session_file, str) else None)


def retire_dm_scope(store: dict[str, dict], *, dm_scope: str, target_agent_id: str,
                    active_key: str | None, on_retired: Removed = _noop, why: Explain | None = None) -> int:
    """`--fix-dm-scope`: drop per-peer direct-DM keys once dmScope is back to main."""
    retired = 0
    for key, entry in list(store.items()):
        if keys.is_stale_direct_dm_key(key, target_agent_id=target_agent_id, active_key=active_key,
                                       dm_scope=dm_scope):
            on_retired(key, entry)
            del store[key]
            retired += 1
            if why:
                why.act(key, "retire-dm-scope", f"--fix-dm-scope: a per-peer direct-DM key while session.dmScope is {dm_scope}")
    return retired


def prune_model_runs(store: dict[str, dict], max_age_ms: int, now_ms: int,
                     preserve: frozenset[str] | None, on_pruned: Removed = _noop, why: Explain | None = None) -> int:
    cutoff = now_ms - max_age_ms
    pruned = 0
    for key in list(store):
        if preserve is not None and key in preserve:
            continue
        if not keys.is_model_run_key(key):
            continue
        entry = store[key]
        updated = entry.get("updatedAt")
        if updated is not None and updated < cutoff:
            on_pruned(key, entry)
            del store[key]
            pruned += 1
            if why:
                why.act(key, "prune-model-run", f"model-run probe idle {span(now_ms - updated)} > {span(max_age_ms)}"
                        " (the store is over maxEntries)")
    return pruned


def prune_stale(store: dict[str, dict], max_age_ms: int, now_ms: int,
                preserve: frozenset[str] | None, on_pruned: Removed = _noop, why: Explain | None = None) -> int:
    cutoff = now_ms - max_age_ms
    pruned = 0
    for key in list(store):  # the keys alone: a list of item pairs would take 56 bytes more an entry
        entry = store[key]
        updated = entry.get("updatedAt")
        if updated is None or not updated < cutoff:
            if why:
                why.keep(key, "young", "no updatedAt: never pruned by age" if updated is None else
                         f"younger than pruneAfter ({span(now_ms - updated)} < {span(max_age_ms)})")
            continue
        if keys.should_preserve(key, entry, preserve):
            if why:
                why.keep(key, *protected_text(key, entry, preserve))
            continue
        on_pruned(key, entry)
        del store[key]
        pruned += 1
        if why:
            why.act(key, "prune-stale", f"{span(now_ms - updated)} > pruneAfter {span(max_age_ms)}")
    return pruned


def cap_entries(store: dict[str, dict], max_entries: int, preserve: frozenset[str] | None,
                on_capped: Removed = _noop, why: Explain | None = None) -> int:
    """Keep the newest entries up to maxEntries; protected/preserved ones do not count as removable.

    2026.7.1: when protected entries alone fill the cap, every unprotected entry goes. A store within
    the cap loses nothing (its candidates never outnumber the room left by its protected entries), so
    it is not classified at all.
    """
    if len(store) <= max_entries:
        return 0
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
    if why:
        _explain_cap(why, store, ordered, max_entries, preserved, max_removable, preserve)
    for key in to_remove:
        entry = store.pop(key)
        on_capped(key, entry)
    return len(to_remove)


def _explain_cap(why: Explain, store: dict[str, dict], ordered: list[str], max_entries: int, preserved: int,
                 room: int, preserve: frozenset[str] | None) -> None:
    total = len(ordered)
    room_text = f"maxEntries {max_entries}, {preserved} protected" if preserved else f"maxEntries {max_entries}"
    for rank, key in enumerate(ordered, 1):
        if rank <= room:
            why.keep(key, "within-cap", f"rank {rank:,} of {total:,} unprotected, within {room_text}")
        else:
            why.act(key, "cap-overflow", f"rank {rank:,} of {total:,} unprotected, {room_text}")
    for key, entry in store.items():
        if keys.should_preserve(key, entry, preserve):
            why.keep(key, *protected_text(key, entry, preserve))

"""The lost-index guard: transcripts beside a store with no entries are history, not garbage."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from openclaw_cli.store import artifacts

WARNING_CODE = "lost-index"
ALLOW_OPTION = "--allow-empty-store"


def is_history_file(name: str) -> bool:
    """A conversation transcript: a primary `<id>.jsonl` or a compaction checkpoint."""
    return artifacts.is_primary_transcript(name) or artifacts.is_checkpoint(name)


def swept_history(before: Mapping, removed: Iterable[str]) -> int:
    """How many non-empty transcripts a run removes from a store that had no entries as read.

    `before` is the store as loaded, before this run prunes anything: a store whose entries are
    all pruned by the same run is not a lost index. `removed` are the paths the disk budget and
    the unreferenced sweep remove (they report only files with content)."""
    if before:
        return 0
    return sum(1 for path in set(removed) if is_history_file(artifacts.posix_basename(path)))


def _situation(store_path: str, exists: bool, count: int) -> str:
    state = "has no entries" if exists else "does not exist"
    files = "1 transcript" if count == 1 else f"{count} transcripts"
    return (f"session store {store_path} {state}, yet {files} beside it would be swept as unreferenced: "
            "that looks like a lost index")


def refusal(store_path: str, exists: bool, count: int) -> str:
    """The one-line error of an applying run that refuses to sweep a lost index's transcripts."""
    return (f"{_situation(store_path, exists, count)}, so nothing was changed; restore sessions.json "
            f"from a backup, or pass {ALLOW_OPTION} if the store was emptied on purpose")


def warning(store_path: str, exists: bool, count: int) -> str:
    """The dry run's warning for the same situation."""
    return (f"{_situation(store_path, exists, count)}; an enforcing run refuses to sweep them unless "
            f"{ALLOW_OPTION} is given (restore sessions.json from a backup instead)")


def warning_json(store_path: str, exists: bool, count: int) -> dict:
    """The dry run's warning as a `warnings` item of the JSON store summary."""
    return {"code": WARNING_CODE, "transcripts": count, "message": warning(store_path, exists, count)}

"""The default agent's session store and transcript files, as the state checks read them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.doctor.support.fsutil import realpath_or_none


@dataclass
class StoreView:
    """A best-effort read of sessions.json (a corrupt or non-object store reads as empty)."""

    path: str
    sessions_dir: str
    exists: bool = False
    corrupt: bool = False
    error: str | None = None
    size_bytes: int = 0
    entries: dict[str, Any] = field(default_factory=dict)
    _real_dir: str | None = field(default=None, repr=False, compare=False)

    def items(self) -> Iterator[tuple[str, dict]]:
        for key, entry in self.entries.items():
            if isinstance(entry, dict):
                yield key, entry

    def transcript_path(self, entry: dict) -> str | None:
        from openclaw_cli.store.session_files import session_file_path_or_none

        session_id = entry.get("sessionId")
        if not isinstance(session_id, str) or not session_id:
            return None
        session_file = entry.get("sessionFile")
        return session_file_path_or_none(session_id, session_file if isinstance(session_file, str) else None,
                                         self.sessions_dir, rp=self._realpath)

    def _realpath(self, path: str) -> str | None:
        """The real path, the sessions folder's looked up once (every entry resolves against it)."""
        from openclaw_cli.js.paths import realpath_or_none as real

        if path != self.sessions_dir:
            return real(path)
        if self._real_dir is None:
            self._real_dir = real(path)  # kept once found: the folder does not move during a run
        return self._real_dir


_shared_views: dict[str, StoreView] | None = None


@contextmanager
def shared_store_reads() -> Iterator[None]:
    """While a read-only run (`doctor --lint`) lasts, each store is read once and its view shared by
    every check that asks for it."""
    global _shared_views
    outer = _shared_views
    _shared_views = {} if outer is None else outer
    try:
        yield
    finally:
        _shared_views = outer


def read_store(store_path: str) -> StoreView:
    if _shared_views is None:
        return _read_store(store_path)
    view = _shared_views.get(store_path)
    if view is None:
        view = _shared_views[store_path] = _read_store(store_path)
    return view


def _read_store(store_path: str) -> StoreView:
    from openclaw_cli.errors import StoreError
    from openclaw_cli.store.sessions_json import load_store

    view = StoreView(path=store_path, sessions_dir=os.path.dirname(os.path.abspath(store_path)))
    try:
        loaded = load_store(store_path, allow_corrupt=True)
    except StoreError as exc:
        view.exists = os.path.exists(store_path)
        view.corrupt = True
        view.error = exc.message
        return view
    except OSError as exc:
        view.exists = os.path.exists(store_path)
        view.corrupt = True
        view.error = str(exc)
        return view
    view.exists = loaded.exists
    view.corrupt = loaded.corrupt
    view.error = loaded.error
    view.size_bytes = loaded.size_bytes or (os.path.getsize(store_path) if loaded.exists else 0)
    view.entries = loaded.store if isinstance(loaded.store, dict) else {}
    return view


def comparable(path: str) -> str:
    return realpath_or_none(path) or os.path.abspath(path)


def _folder_comparable(sessions_dir: str, listing: list[os.DirEntry]) -> Callable[[str], str]:
    """`comparable` for many paths at once: a path right in the folder (by its name or its real path)
    is judged from the folder's listing, without a lookup per file: a regular file's real path is the
    folder's plus its name, a name the folder lacks does not exist. Anything else is looked up."""
    folder = os.path.abspath(sessions_dir)
    real_folder = realpath_or_none(folder)
    if real_folder is None:
        return comparable
    heads = {folder, real_folder}
    prefix = real_folder.rstrip("/") + "/"
    names = {dirent.name for dirent in listing}
    plain = set()
    for dirent in listing:
        try:
            if dirent.is_file(follow_symlinks=False):
                plain.add(dirent.name)
        except OSError:
            continue

    def judge(path: str) -> str:
        head, _, name = path.rpartition("/")
        if head in heads and name not in ("", ".", ".."):  # a normalised path right in the folder
            if name in plain:
                return prefix + name
            if name not in names:
                return path
        return comparable(path)

    return judge


def orphan_transcripts(view: StoreView, sessions_dir: str) -> list[str]:
    """Primary transcripts in `sessions_dir` that no store entry points at (directory order).

    While the store does not parse, this is every primary transcript: none of them is an orphan
    then, so callers check `view.corrupt` first."""
    from openclaw_cli.store.artifacts import is_primary_transcript

    try:
        listing = list(os.scandir(sessions_dir))
    except OSError:
        return []
    judge = _folder_comparable(sessions_dir, listing)
    referenced: set[str] = set()
    for _key, entry in view.items():
        path = view.transcript_path(entry)
        if path:
            referenced.add(judge(path))
    found = []
    for dirent in listing:
        try:
            is_file = dirent.is_file(follow_symlinks=False)
        except OSError:
            continue
        if is_file and is_primary_transcript(dirent.name):
            full = os.path.join(sessions_dir, dirent.name)
            if judge(full) not in referenced:
                found.append(full)
    return found


def skipped_orphans_message(count: int, shown_dir: str) -> str:
    """Why the orphan-transcript finding is skipped while the store does not parse (or is 0 bytes)."""
    files = "the 1 transcript file" if count == 1 else f"the {count} transcript files"
    verb = "is not an orphan" if count == 1 else "are not orphans"
    return (f"Skipped the orphan transcript check: sessions.json does not parse or cannot be read, so {files} "
            f"in {shown_dir} {verb} (they may be its live history); nothing is archived until it parses.")


def lost_index_message(count: int, shown_dir: str) -> str:
    """Why transcripts beside a store with no entries are not offered for archiving."""
    files = "the 1 transcript file" if count == 1 else f"the {count} transcript files"
    return (f"sessions.json has no entries, so {files} in {shown_dir} look like a lost index, not orphans; "
            "nothing is archived. `openclaw sessions recover` puts them back into sessions.json.")


def list_agent_session_dirs(state_dir: str) -> list[str]:
    """`<state>/agents/*/sessions`, sorted, whether or not each exists."""
    from openclaw_cli.js.strings import locale_sort_key

    agents = os.path.join(state_dir, "agents")
    try:
        names = [e.name for e in os.scandir(agents) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    dirs = [os.path.join(agents, name, "sessions") for name in names]
    return sorted(dirs, key=locale_sort_key)

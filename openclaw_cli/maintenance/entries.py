"""Per-entry file facts: transcript paths, sidecars, references, and the "has messages" test."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from openclaw_cli.js import paths as jspath
from openclaw_cli.js.strings import js_trim
from openclaw_cli.maintenance.fsview import FileInfo, FsView
from openclaw_cli.store import session_files as sessionpaths

EMPTY_TRANSCRIPT_MAX_BYTES = 4096
_MESSAGE_ROLES = frozenset(("user", "assistant", "tool", "toolResult", "system"))


class EntryPaths:
    """Resolves entry paths against one sessions folder, seen through an FsView."""

    def __init__(self, view: FsView, env: Mapping[str, str] | None):
        self.view = view
        self.env = env
        self.sessions_dir = view.sessions_dir
        self._artifacts: dict[tuple, tuple[int, tuple[str, ...], tuple[str, ...] | None]] = {}

    def rp(self, path: str) -> str | None:
        return self.view.realpath(path)

    def _plain_name(self, path: str) -> str | None:
        """`path`'s name when it is a plain, non-symlink name directly in the real folder."""
        prefix = self.view.real_dir
        if not path.startswith(prefix) or path[len(prefix):len(prefix) + 1] != "/":
            return None
        name = path[len(prefix) + 1:]
        if not name or "/" in name or name.startswith(".") or name in self.view._symlinks:
            return None
        return name

    def _fast_transcript(self, sid: str, file) -> str | None:
        """The common shapes (no sessionFile, or an absolute plain path in this folder), resolved
        without touching the disk; None when the general resolution is needed."""
        if file is None:
            # The regex admits no whitespace and no leading dot: `<id>.jsonl` is a plain name.
            if not sessionpaths.plain_transcript_id(sid):
                return None
            name = f"{sid}.jsonl"
            return None if name in self.view._symlinks else f"{self.view.real_dir}/{name}"
        elif isinstance(file, str) and file and file == file.strip() and file[0] == "/":
            path = file
        else:
            return None
        return path if self._plain_name(path) else None

    def session_file(self, entry: dict) -> str | None:
        """resolveSessionFilePath for the entry, or None when it cannot be resolved."""
        sid = entry.get("sessionId")
        if not sid or not isinstance(sid, str):
            return None
        fast = self._fast_transcript(sid, entry.get("sessionFile"))
        if fast is not None:
            return fast
        return sessionpaths.session_file_path_or_none(sid, entry.get("sessionFile"), self.sessions_dir,
                                                     self.env, self.rp)

    def canonical_transcript(self, session_id: str) -> str | None:
        try:
            return sessionpaths.transcript_path_in_dir(session_id, self.sessions_dir, self.env, self.rp)
        except sessionpaths.PathError:
            return None

    def transcript_inside(self, entry: dict) -> str | None:
        """The entry's transcript as a canonical path, only when it lies inside the folder."""
        sid = entry.get("sessionId")
        if sid and isinstance(sid, str):
            fast = self._fast_transcript(sid, entry.get("sessionFile"))
            if fast is not None:
                return fast
        resolved = self.session_file(entry)
        if resolved is None:
            return None
        path = self.view.canonical(resolved)
        base = self.view.canonical(self.sessions_dir)
        return path if jspath.is_inside(base, path) else None

    def _artifact_lists(self, entry: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(paths, canonical paths); a general resolution is cached until the view's planned effects change."""
        sid, file = entry.get("sessionId"), entry.get("sessionFile")
        paths: tuple[str, ...]
        fast = self._fast_transcript(sid, file) if sid and isinstance(sid, str) else None
        if fast is not None and not self.view._symlinks:
            # A plain transcript name resolved without the overlay; its sidecars share its folder
            # and stem, so they are plain names too, whatever effects get planned later. Built
            # afresh each time: cheap, where a cache of them grows by ~0.6 KB an entry.
            paths = self._plain_with_sidecars(fast)
            return paths, paths
        cache_key = (sid if isinstance(sid, str) else None, file if isinstance(file, str) else None)
        hit = self._artifacts.get(cache_key)
        if hit is not None and hit[0] == self.view.version:
            return hit[1], hit[2] if hit[2] is not None else hit[1]
        transcript = self.transcript_inside(entry)
        if transcript is None:
            paths = ()
        else:
            paths = _with_sidecars(transcript)
        canonical = tuple(p if self._plain_name(p) else self.view.canonical(p) for p in paths)
        same = canonical == paths
        self._artifacts[cache_key] = (self.view.version, paths, None if same else canonical)
        return paths, paths if same else canonical

    def _plain_with_sidecars(self, transcript: str) -> tuple[str, ...]:
        """A plain transcript name with its sidecars' names beside it; alone when the folder holds no file
        with a sidecar's name (then none of these paths names a file)."""
        return _with_sidecars(transcript) if self.view.has_sidecar_named_file() else (transcript,)

    def artifact_paths(self, entry: dict) -> tuple[str, ...]:
        """Transcript (canonical), trajectory pointer and runtime sidecar of an entry."""
        return self._artifact_lists(entry)[0]

    def artifact_canonical_paths(self, entry: dict) -> tuple[str, ...]:
        return self._artifact_lists(entry)[1]

    def listed_artifacts(self, entries: Iterable[dict]) -> set[str]:
        """The listed files among these entries' artifacts (canonical), as the listing's own strings."""
        listed = self.view.listed()
        found: set[str] = set()
        for entry in entries:
            found.update(_listed_of(self._artifact_lists(entry)[1], listed))
        return found

    def referenced_paths(self, store: Mapping[str, dict],
                         visit: Callable[[str, tuple[str, ...]], None] | None = None) -> set[str]:
        """The listed files the store keeps alive: transcripts, their sidecars, checkpoint files.

        Only files the view lists are in the set, as the very string objects of their listing:
        every caller asks about such files, and fresh paths for every entry would cost a new
        string per path (about 0.4 KB an entry). `visit` hears each key with its artifacts'
        canonical paths, listed or not (one resolution serves both)."""
        listed = self.view.listed()
        base = self.view.canonical(self.sessions_dir)
        referenced: set[str] = set()
        add, listed_get = referenced.add, listed.get
        fast = self._fast_transcript if not self.view._symlinks else None
        sidecars = self.view.has_sidecar_named_file()
        found: tuple[str, ...]
        for key, entry in store.items():
            sid = entry.get("sessionId")
            transcript = (fast(sid, entry.get("sessionFile")) if fast is not None and sid.__class__ is str and sid
                          else None)
            if transcript is not None:  # _artifact_lists' plain case, without its cache lookup
                found = _with_sidecars(transcript) if sidecars else (transcript,)
            else:
                found = self._artifact_lists(entry)[1]
            if visit is not None:
                visit(key, found)
            for path in found:
                if (hit := listed_get(path)) is not None:
                    add(hit.canonical)
            checkpoints = entry.get("compactionCheckpoints")
            if isinstance(checkpoints, list):
                self._add_checkpoints(checkpoints, base, listed, referenced)
        return referenced

    def _add_checkpoints(self, checkpoints: list, base: str, listed: Mapping[str, FileInfo],
                         referenced: set[str]) -> None:
        for checkpoint in checkpoints:
            for side in ("preCompaction", "postCompaction"):
                part = checkpoint.get(side) if isinstance(checkpoint, dict) else None
                file = part.get("sessionFile") if isinstance(part, dict) else None
                if isinstance(file, str):
                    trimmed = js_trim(file)
                    if trimmed:
                        path = self.view.canonical(trimmed)
                        if path in listed and jspath.is_inside(base, path):
                            referenced.add(listed[path].canonical)

    def has_no_messages(self, path: str) -> bool:
        """A regular file of at most 4 KiB whose lines all parse and none is a message record."""
        info = self.view.stat(path)
        if info is None or info[0] != "file" or info[1] > EMPTY_TRANSCRIPT_MAX_BYTES:
            return False
        raw = self.view.read_head(path, EMPTY_TRANSCRIPT_MAX_BYTES + 1)
        if raw is None:
            return False
        text = raw.decode("utf-8", errors="replace")
        for line in text.replace("\r\n", "\n").split("\n"):
            if not js_trim(line):
                continue
            try:
                record = js_parse(line)
            except ValueError:
                return False
            if _is_message_record(record):
                return False
        return True

    def exists_with_messages(self, path: str) -> bool:
        return self.view.exists(path) and not self.has_no_messages(path)


def _with_sidecars(transcript: str) -> tuple[str, str, str]:
    """A transcript with its trajectory pointer and runtime sidecar (same folder and stem)."""
    return (transcript, sessionpaths.trajectory_pointer_path(transcript),
            sessionpaths.trajectory_runtime_path(transcript))


def _listed_of(paths: tuple[str, ...], listed: Mapping[str, FileInfo]) -> Iterator[str]:
    """The paths that `listed` holds, as its strings."""
    return (listed[p].canonical for p in paths if p in listed)


def _is_message_record(record) -> bool:
    if not isinstance(record, dict):
        return False
    if "type" in record:
        return record["type"] == "message"
    message = record.get("message")
    if isinstance(message, dict) and _role(message.get("role")):
        return True
    return _role(record.get("role"))


def _role(value) -> bool:
    return isinstance(value, str) and value in _MESSAGE_ROLES


def js_parse(text: str):
    """JSON.parse for one line (NaN/Infinity literals are errors, as in JavaScript)."""
    import json

    def reject(name: str):
        raise ValueError(f"invalid literal {name}")

    return json.loads(text, parse_constant=reject)

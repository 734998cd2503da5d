"""A view of a sessions folder that records renames and deletions instead of making them."""

from __future__ import annotations

import os
import stat as stat_mod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from openclaw_cli.js import paths as jspath
from openclaw_cli.store.artifacts import TRAJECTORY_SUFFIXES, is_prompt_blob, is_prompt_blob_temp

BLOB_ROOT = ("skills-prompts", "sha256")


def ns_to_ms(ns: int) -> float:
    """Node's `mtimeMs`: seconds × 1e3 + nanoseconds / 1e6 in double arithmetic."""
    sec, nsec = divmod(ns, 1_000_000_000)
    return sec * 1e3 + nsec / 1e6


def _name_order(name: str) -> bytes:
    """readdir order as Node returns it (libuv sorts names with strcmp)."""
    return name.encode("utf-8", "surrogateescape")


def readdir_sorted(items: Iterable[Any], text: Callable[[Any], str] | None = None) -> list[Any]:
    """`items` (names, or what `text` gives a name or path of one folder) in readdir order. ASCII
    texts compare as their bytes do, so they are sorted as they are; only a folder with another
    name pays for a byte key per item."""
    out = list(items)
    texts = out if text is None else map(text, out)
    if all(t.isascii() for t in texts):
        out.sort(key=text)
    else:
        out.sort(key=lambda item: _name_order(item if text is None else text(item)))
    return out


@dataclass(slots=True)
class FileInfo:
    """A regular file found by a folder scan (OpenClaw's readSessionsDirFiles record)."""

    path: str
    canonical: str
    size: int
    mtime_ns: int

    @property
    def name(self) -> str:
        """The file's name (cut from its path when asked: a folder of 100,000 files keeps no second copy)."""
        canonical = self.canonical
        return canonical[canonical.rfind("/") + 1:]

    @property
    def mtime_ms(self) -> float:
        return ns_to_ms(self.mtime_ns)


@dataclass(slots=True)
class Virtual:
    """A file that exists only in the plan: renamed from `origin`, or written with `data`."""

    size: int
    mtime_ns: int
    origin: str | None = None
    data: bytes | None = None
    kind: str = "file"


@dataclass(slots=True)
class Effect:
    kind: str  # "rename" | "delete"
    path: str
    target: str | None = None  # rename destination
    size: int = 0
    mtime_ns: int = 0  # expected mtime of the file acted on (safety re-check before acting)
    reason: str = ""


@dataclass
class FsView:
    """Reads the real folder once, then answers queries with planned effects applied on top."""

    sessions_dir: str
    real_dir: str = ""
    _files: dict[str, FileInfo] = field(default_factory=dict)  # canonical path → the scanned regular file
    _others: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # name → (kind, size, mtime_ns)
    _symlinks: set[str] = field(default_factory=set)
    overlay: dict[str, Virtual | None] = field(default_factory=dict)
    _written_dirs: set[str] = field(default_factory=set)
    _real_cache: dict[str, str | None] = field(default_factory=dict)
    version: int = 0  # bumped by every planned effect, so callers can cache path answers
    effects: list[Effect] = field(default_factory=list)
    scanned: bool = False
    _files_cache: tuple[int, list[FileInfo]] | None = None
    _scan_files: list[FileInfo] | None = None
    _scanned_sidecar: bool | None = None  # a scanned file has a trajectory sidecar's name (asked lazily)
    _made_sidecar: bool = False  # a planned rename or write makes a file with such a name

    @classmethod
    def open(cls, sessions_dir: str, ignore: frozenset[str] = frozenset()) -> FsView:
        """Scan the folder once; names in `ignore` (our own lock file) are invisible."""
        from openclaw_cli.gcpause import paused

        view = cls(sessions_dir=jspath.resolve(sessions_dir))
        view.real_dir = jspath.realpath_or_none(view.sessions_dir) or view.sessions_dir
        with paused():  # one record per file, all kept for the run
            view._scan(ignore)
        return view

    def _scan(self, ignore: frozenset[str] = frozenset()) -> None:
        from openclaw_cli.maintenance import folder_scan

        found = folder_scan.take(self.sessions_dir)
        if found is not None:
            try:
                self._record(found, ignore)
                return
            except ValueError:  # the helper's answer broke off: the folder is scanned here instead
                self._files.clear()
                self._others.clear()
                self._symlinks.clear()
        self._record(folder_scan.entries(self.sessions_dir) or (), ignore)

    def _record(self, found: Iterable[tuple[str, int, int, int]], ignore: frozenset[str]) -> None:
        real, shown = self.real_dir, self.sessions_dir
        files, others = self._files, self._others
        for name, mode, size, mtime_ns in found:
            if name in ignore:
                continue
            if mode & _S_IFMT == _S_IFREG:
                canonical = f"{real}/{name}"
                files[canonical] = FileInfo(canonical if shown == real else f"{shown}/{name}", canonical,
                                            size, mtime_ns)
                continue
            kind = _kind(mode)
            others[name] = (kind, size, mtime_ns)
            if kind == "link":
                self._symlinks.add(name)
        self.scanned = True

    # -- path helpers -------------------------------------------------------------------

    def _top_name(self, path: str) -> str | None:
        """Name of `path` when it sits directly in the sessions folder (either spelling)."""
        head, _, name = path.rpartition("/")
        if head in (self.sessions_dir, self.real_dir) and name:
            return name
        return None

    def _key(self, path: str) -> str:
        """Overlay key: the path with the folder part spelled as the real folder."""
        head, _, name = path.rpartition("/")
        if head == self.sessions_dir and head != self.real_dir and name:
            return f"{self.real_dir}/{name}"
        return path  # already spelled with the real folder (the same string, not a copy), or not in it

    # -- stat-like queries ----------------------------------------------------------------

    def lstat(self, path: str) -> tuple[str, int, int] | None:
        """(kind, size, mtime_ns) without following a final symlink; kind in file/dir/link/other."""
        resolved = jspath.resolve(path)
        head, _, name = resolved.rpartition("/")
        top = bool(name) and (head == self.real_dir or head == self.sessions_dir)
        key = f"{self.real_dir}/{name}" if top and head != self.real_dir else resolved  # as _key spells it
        if key in self.overlay:
            v = self.overlay[key]
            return None if v is None else (v.kind, v.size, v.mtime_ns)
        if self._written_dirs and self._virtual_dir(key):
            return ("dir", 0, 0)
        if top and self.scanned:
            found = self._files.get(key)
            return ("file", found.size, found.mtime_ns) if found is not None else self._others.get(name)
        try:
            st = os.lstat(key)
        except OSError:
            return None
        return (_kind(st.st_mode), st.st_size, st.st_mtime_ns)

    def stat(self, path: str) -> tuple[str, int, int] | None:
        """Like `fs.stat`: follows symlinks; None when missing or dangling."""
        resolved = jspath.resolve(path)
        info = self.lstat(resolved)
        if info is None:
            return None
        if info[0] != "link":
            return info
        target = self.realpath(resolved)
        if target is None:
            return None
        return self.lstat(target)

    def _virtual_dir(self, path: str) -> bool:
        """A folder that exists only because the plan writes a file below it."""
        return path in self._written_dirs and not os.path.lexists(path)

    def exists(self, path: str) -> bool:
        return self.stat(path) is not None

    def is_file(self, path: str) -> bool:
        info = self.stat(path)
        return info is not None and info[0] == "file"

    def is_regular_non_symlink(self, path: str) -> bool:
        info = self.lstat(path)
        return info is not None and info[0] == "file"

    def realpath(self, path: str) -> str | None:
        """`fs.realpathSync`, or None when the path (or a link's target) does not exist."""
        resolved = jspath.resolve(path)
        key = self._key(resolved)
        if key in self.overlay:
            return key if self.overlay[key] is not None else None
        name = self._top_name(key)
        if name is not None and key.startswith(self.real_dir + "/"):
            if key not in self._files and name not in self._others:
                return None
            if name not in self._symlinks:
                return key
        if resolved in self._real_cache:
            real = self._real_cache[resolved]
        else:
            real = jspath.realpath_or_none(resolved)
            if len(self._real_cache) < 200_000:
                self._real_cache[resolved] = real
        if real is None:
            return None
        rkey = self._key(real)
        if rkey in self.overlay and self.overlay[rkey] is None:
            return None
        return real

    def canonical(self, path: str) -> str:
        resolved = jspath.resolve(path)
        return self.realpath(resolved) or resolved

    def read_head(self, path: str, limit: int) -> bytes | None:
        """First `limit` bytes of a file as it would read after the planned effects."""
        key = self._key(jspath.realpath_or_none(jspath.resolve(path)) or jspath.resolve(path))
        v = self.overlay.get(key, False)
        if v is None:
            return None
        source = key
        if isinstance(v, Virtual):
            if v.data is not None:
                return v.data[:limit]
            source = v.origin or key
        try:
            with open(source, "rb") as fh:
                return fh.read(limit)
        except OSError:
            return None

    # -- listings -----------------------------------------------------------------------------

    def list_files(self) -> list[FileInfo]:
        """Regular files directly in the folder, in readdir order (symlinks and folders excluded)."""
        cached = self._files_cache
        if cached is not None and cached[0] == self.version:
            return list(cached[1])
        out = self._list_files()
        self._files_cache = (self.version, out)
        return list(out)

    def _scanned_files(self) -> list[FileInfo]:
        """The scan's regular files in readdir order, built once (they never change)."""
        if self._scan_files is None:
            files = self._files
            self._scan_files = [files[path] for path in readdir_sorted(files)]  # one folder: as their names sort
        return self._scan_files

    def _in_folder(self, key: str) -> bool:
        """An overlay key (a canonical path) names a file directly in the folder."""
        prefix = self.real_dir
        return key.startswith(prefix) and key[len(prefix):len(prefix) + 1] == "/" and "/" not in key[len(prefix) + 1:]

    def _planned_record(self, key: str, v: Virtual) -> FileInfo:
        """The listing's record of a file the plan makes directly in the folder (`key` its canonical path)."""
        path = key if self.sessions_dir == self.real_dir else f"{self.sessions_dir}/{key[len(self.real_dir) + 1:]}"
        return FileInfo(path, key, v.size, v.mtime_ns)

    def listed(self) -> Mapping[str, FileInfo]:
        """Every file `list_files` and `list_blob_files` list, by canonical path: the scan's own map while the
        plan has changed nothing and there are no blobs, else a lookup through the planned effects (never a
        copy of the whole listing). A file the plan wrote or renamed is answered with a record of its own."""
        blobs = self.list_blob_files()
        if not self.overlay and not blobs:
            return self._files
        return _Listed(self, {f.canonical: f for f in blobs})

    def _list_files(self) -> list[FileInfo]:
        # Overlay keys are canonical paths, as a listed file's `canonical` is: no name is cut out
        # of a key unless its file is listed.
        changed = {key: v for key, v in self.overlay.items() if self._in_folder(key)}
        scanned = self._scanned_files()
        if not changed:
            return scanned
        kept = [f for f in scanned if f.canonical not in changed]
        added = []
        for key, v in changed.items():
            if v is not None and v.kind == "file":
                added.append(self._planned_record(key, v))
        if not added:
            return kept
        kept.extend(added)
        return readdir_sorted(kept, _canonical_of)  # one folder, so as the names sort; two sorted runs, merged

    def listed_sizes(self, blobs: list[FileInfo]) -> Callable[[str], int]:
        """The size of a listed file (`list_files` or the given blob files) by canonical path, 0 for any other.

        Without planned effects the folder's files are answered from the scan itself, so no
        map of every path is built."""
        blob_sizes = {f.canonical: f.size for f in blobs}
        if self.overlay:
            blob_sizes.update((f.canonical, f.size) for f in self.list_files())
            return lambda canonical: blob_sizes.get(canonical, 0)
        scanned = self._files

        def size(canonical: str) -> int:
            found = scanned.get(canonical)
            return found.size if found is not None else blob_sizes.get(canonical, 0)

        return size

    def has_sidecar_named_file(self) -> bool:
        """Whether a file in the folder has a trajectory sidecar's name: one the scan found (planned deletions
        aside: a True answer only means "look"), or one a planned rename or write makes."""
        if self._scanned_sidecar is None:
            self._scanned_sidecar = any(path.endswith(TRAJECTORY_SUFFIXES) for path in self._files)
        return self._scanned_sidecar or self._made_sidecar

    def list_names(self, directory: str) -> list[str]:
        """`fs.readdir` names (any type) of a folder, after planned effects."""
        directory = jspath.resolve(directory)
        real = self.realpath(directory) or directory
        names: set[str] = set()
        if real == self.real_dir:
            names.update(f.name for f in self._files.values())
            names.update(self._others)
        else:
            try:
                names.update(os.listdir(directory))
            except OSError:
                pass
        prefix = real + "/"
        for key, v in self.overlay.items():
            if not key.startswith(prefix):
                continue
            rest = key[len(prefix):]
            if "/" not in rest:
                if v is None:
                    names.discard(rest)
                else:
                    names.add(rest)
            elif v is not None:
                names.add(rest.split("/", 1)[0])
        return readdir_sorted(names)

    def scanned_folders(self) -> list[str]:
        """Names of the real folders (not symlinks) the scan found directly in the folder."""
        return [name for name, (kind, _size, _mtime) in self._others.items() if kind == "dir"]

    def list_blob_files(self) -> list[FileInfo]:
        """Prompt blobs and blob temps under skills-prompts/sha256/<hh>/."""
        root = f"{self.sessions_dir}/{BLOB_ROOT[0]}/{BLOB_ROOT[1]}"
        out: list[FileInfo] = []
        for prefix in self.list_names(root):
            if len(prefix) != 2 or any(c not in "0123456789abcdef" for c in prefix):
                continue
            pdir = f"{root}/{prefix}"
            info = self.lstat(pdir)
            if info is None or info[0] != "dir":
                continue
            for name in self.list_names(pdir):
                if not (is_prompt_blob(name) or is_prompt_blob_temp(name)):
                    continue
                path = f"{pdir}/{name}"
                st = self.lstat(path)
                if st is None or st[0] != "file":
                    continue
                out.append(FileInfo(path, self.canonical(path), st[1], st[2]))
        return out

    # -- planned effects ----------------------------------------------------------------

    def plan_rename(self, src: str, dst: str, reason: str) -> None:
        info = self.lstat(src)
        skey, dkey = self._key(src), self._key(dst)
        prior = self.overlay.get(skey)
        origin = prior.origin if isinstance(prior, Virtual) and prior.origin else skey
        size, mtime = (info[1], info[2]) if info else (0, 0)
        self.version += 1
        self._made_sidecar = self._made_sidecar or dkey.endswith(TRAJECTORY_SUFFIXES)
        self.overlay[dkey] = Virtual(size, mtime, origin=origin,
                                     data=prior.data if isinstance(prior, Virtual) else None,
                                     kind=info[0] if info else "file")
        self.overlay[skey] = None
        self.effects.append(Effect("rename", skey, dkey, size, mtime, reason=reason))

    def plan_delete(self, path: str, reason: str) -> None:
        info = self.lstat(path)
        key = self._key(path)
        size, mtime = (info[1], info[2]) if info else (0, 0)
        self.version += 1
        self.overlay[key] = None
        self.effects.append(Effect("delete", key, None, size, mtime, reason=reason))

    def note_written(self, path: str, data: bytes, mtime_ns: int) -> None:
        """A file the store write will create (the store itself, a prompt blob): later scans see
        it, but it is not an effect to carry out here."""
        key = self._key(path)
        self.version += 1
        self._made_sidecar = self._made_sidecar or key.endswith(TRAJECTORY_SUFFIXES)
        self.overlay[key] = Virtual(len(data), mtime_ns, data=data)
        parent = key.rsplit("/", 1)[0]
        while parent and parent not in self._written_dirs and parent != self.real_dir:
            self._written_dirs.add(parent)
            parent = parent.rsplit("/", 1)[0]


class _Listed(Mapping[str, FileInfo]):
    """FsView.listed once the plan has effects: the scan, the plan's effects on the folder, the blobs."""

    def __init__(self, view: FsView, blobs: dict[str, FileInfo]):
        self._view, self._blobs = view, blobs

    def get(self, path: str, default: Any = None) -> Any:
        found = self._blobs.get(path)
        if found is not None:
            return found
        view = self._view
        if path in view.overlay and view._in_folder(path):
            v = view.overlay[path]
            return default if v is None or v.kind != "file" else view._planned_record(path, v)
        return view._files.get(path, default)

    def __getitem__(self, path: str) -> FileInfo:
        found = self.get(path)
        if found is None:
            raise KeyError(path)
        return found

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.get(path) is not None

    def __iter__(self) -> Iterator[str]:
        return (f.canonical for f in (*self._view.list_files(), *self._blobs.values()))

    def __len__(self) -> int:
        return len(self._view.list_files()) + len(self._blobs)


def _canonical_of(f: FileInfo) -> str:
    return f.canonical


_S_IFMT, _S_IFREG = 0o170000, stat_mod.S_IFREG  # S_IFMT(mode) is mode & 0o170000
_KINDS = {stat_mod.S_IFREG: "file", stat_mod.S_IFDIR: "dir", stat_mod.S_IFLNK: "link"}


def _kind(mode: int) -> str:
    """file, dir, link or other."""
    return _KINDS.get(stat_mod.S_IFMT(mode), "other")

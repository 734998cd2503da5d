"""Load and save sessions.json byte-for-byte as OpenClaw 2026.7.1 does."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import time
import uuid
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, TypeVar

from openclaw_cli.errors import StoreError
from openclaw_cli.js import json as jsjson
from openclaw_cli.store.normalize import normalize_entry_ordered
from openclaw_cli.store.promptblobs import PromptBlob, ensure_prompt_blobs, hydrate_store, project_entry

__all__ = [
    "LoadedStore",
    "Projection",
    "SessionStore",
    "StoreFingerprint",
    "apply_migrations",
    "entry_chunk_bytes",
    "load_store",
    "measure_store_bytes",
    "normalize_store",
    "save_store",
    "serialize_store",
    "write_file_atomic",
    "write_store_text_atomic",
]

READ_ATTEMPTS = 3
READ_RETRY_SECONDS = 0.05
# OpenClaw only remembers the text it read (and so only skips an unchanged write)
# when that text is at most this many UTF-8 bytes.
SERIALIZED_CACHE_MAX_BYTES = 64 * 1024 * 1024
SERIALIZED_CACHE_ENV = "OPENCLAW_SESSION_SERIALIZED_CACHE_MAX_BYTES"
_CHUNK_ENTRIES = 1024
_STRICT_INT = re.compile(r"[+-]?[0-9]+")
_JSON_WHITESPACE = b" \t\n\r"


Bytes = bytes | bytearray | memoryview
_B = TypeVar("_B", bound=Bytes)


def _chunks(data: Bytes | str | Iterable[Bytes]) -> Iterable[Bytes]:
    """Data as byte chunks: a text as its UTF-8 (as JS encodes it), one buffer as itself, chunks as
    they come (a generator is read once, never collected)."""
    if isinstance(data, str):
        return (jsjson.js_utf8(data),)
    if isinstance(data, (bytes, bytearray, memoryview)):
        return (data,)
    return data


@dataclass(frozen=True)
class StoreFingerprint:
    """Size and SHA-256 of a store text, to tell whether a new serialisation equals it."""

    size: int
    digest: bytes

    @classmethod
    def of(cls, data: bytes | str) -> StoreFingerprint:
        if isinstance(data, str):
            data = jsjson.js_utf8(data)
        return cls(len(data), hashlib.sha256(data).digest())

    def matches(self, data: Bytes | str | Iterable[Bytes]) -> bool:
        return self == StoreFingerprint.of_chunks(_chunks(data))

    @classmethod
    def of_chunks(cls, chunks: Iterable[Bytes]) -> StoreFingerprint:
        hashing = _Hashing()
        for _chunk in hashing.passing(chunks):
            pass
        return hashing.fingerprint()

    def __eq__(self, other: object) -> bool:
        """Equal to another fingerprint with the same digest, or to a text it matches."""
        if isinstance(other, StoreFingerprint):
            return self.size == other.size and self.digest == other.digest
        if isinstance(other, (str, bytes, bytearray, memoryview, list, tuple)):
            return self.matches(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class _Hashing:
    """The size and SHA-256 of the chunks that pass through `passing`."""

    def __init__(self) -> None:
        self._sha = hashlib.sha256()
        self._size = 0

    def passing(self, chunks: Iterable[_B]) -> Iterator[_B]:
        for chunk in chunks:
            self._sha.update(chunk)
            self._size += len(chunk)
            yield chunk

    def fingerprint(self) -> StoreFingerprint:
        return StoreFingerprint(self._size, self._sha.digest())


class SessionStore(dict):
    """The loaded store: a plain dict of entries in JS key order.

    It also remembers, per entry, keys OpenClaw holds as `undefined` after
    normalising (they decide where a key goes if a later normalisation defines it).
    """

    __slots__ = ("ghost_orders",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ghost_orders: dict[str, tuple[dict, list[str]]] = {}

    def copy(self) -> SessionStore:
        """A shallow copy that keeps the undefined-key memory (dict(store) loses it)."""
        out = SessionStore(self)
        out.ghost_orders = dict(self.ghost_orders)
        return out


@dataclass
class LoadedStore:
    """A sessions.json read and normalised the way OpenClaw loads it."""

    path: str
    exists: bool
    store: SessionStore
    raw_text: str | None = None
    unchanged_serialization: StoreFingerprint | None = None
    dropped_keys: list[str] = field(default_factory=list)
    changed: bool = False
    corrupt: bool = False
    error: str | None = None
    size_bytes: int = 0


# ---------------------------------------------------------------------------------------
# load


def apply_migrations(store: dict) -> bool:
    """applySessionStoreMigrations: provider->channel, lastProvider->lastChannel, room."""
    changed = False
    for entry in store.values():
        if type(entry) is not dict:
            continue
        # Each rule starts from its legacy key, which almost no entry has.
        if "provider" in entry and type(entry["provider"]) is str and type(entry.get("channel")) is not str:
            entry["channel"] = entry.pop("provider")
            changed = True
        if ("lastProvider" in entry and type(entry["lastProvider"]) is str
                and type(entry.get("lastChannel")) is not str):
            entry["lastChannel"] = entry.pop("lastProvider")
            changed = True
        if "room" in entry:
            if type(entry["room"]) is str and type(entry.get("groupChannel")) is not str:
                entry["groupChannel"] = entry.pop("room")
            else:
                del entry["room"]
            changed = True
    return changed


def normalize_store(store: dict, dropped: list[str] | None = None) -> bool:
    """normalizeSessionStore, in place; keys of dropped entries go to `dropped`.

    Entries that are already normalised stay the same objects.
    """
    changed = False
    gone = []
    ghosts = store.ghost_orders if isinstance(store, SessionStore) else None
    for key, entry in store.items():
        order = None
        if ghosts:
            known = ghosts.get(key)
            if known is not None and known[0] is entry:
                order = known[1]
        normalized, order = normalize_entry_ordered(entry, order)
        if normalized is None:
            gone.append(key)
            continue
        if normalized is not entry:
            store[key] = normalized
            changed = True
        if ghosts is not None:
            if order is not None:
                ghosts[key] = (normalized, order)
            elif key in ghosts:
                del ghosts[key]
    for key in gone:
        del store[key]
        if ghosts:
            ghosts.pop(key, None)
    if dropped is not None:
        dropped.extend(gone)
    return changed or bool(gone)


def _serialized_cache_limit() -> int:
    value = jsjson.js_trim(os.environ.get(SERIALIZED_CACHE_ENV, ""))
    if _STRICT_INT.fullmatch(value):
        n = int(value)
        if 0 <= n <= 9007199254740991:
            return n
    return SERIALIZED_CACHE_MAX_BYTES


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _parse(data: bytes) -> tuple[Any, bytes]:
    """Parse file bytes as Node would read them: (value, the UTF-8 of the decoded text)."""
    from openclaw_cli.js.bigjson import loads_object

    try:
        return loads_object(data), data
    except ValueError:
        text = data.decode("utf-8", "replace")
        canon = text.encode("utf-8")
        if canon == data:
            raise
    return jsjson.loads(text), canon


def _oserror(path: str, err: OSError) -> StoreError:
    if isinstance(err, PermissionError):
        return StoreError(
            f"cannot read session store {path}: permission denied; fix its permissions "
            "(nothing was changed)")
    if isinstance(err, IsADirectoryError):
        return StoreError(
            f"session store {path} is a directory, not a file; move it aside so a fresh "
            "store can be created (nothing was changed)")
    return StoreError(f"cannot read session store {path}: {err.strerror or err} "
                      "(nothing was changed)")


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "a boolean"
    if type(value) is str:
        return "a string"
    if type(value) is list:
        return "an array"
    return "a number"


def load_store(path: str | os.PathLike, *, allow_corrupt: bool = False,
               keep_raw: bool = False) -> LoadedStore:
    """Read sessions.json like loadSessionStore in 2026.7.1.

    A missing file is an empty store. Unlike OpenClaw, a file that is empty (still empty
    after two 50 ms retries, as OpenClaw waits for a writer), holds only whitespace, is
    not JSON or whose root is not an object raises StoreError instead of silently
    becoming `{}` (and being overwritten); with allow_corrupt=True it is returned as an
    empty store with corrupt=True. An unreadable file or a folder in its place always
    raises StoreError.
    `raw_text` is kept only when keep_raw=True or the file is corrupt.
    """
    from openclaw_cli.gcpause import paused

    path = os.fspath(path)
    with paused():  # parsing builds millions of containers; collections would only slow it
        return _load(path, allow_corrupt, keep_raw)


def _stream(path: str) -> tuple[Any, int, StoreFingerprint | None] | None:
    """A large store read a piece at a time, never whole (js/bigjson.py): (value, bytes, the fingerprint
    when the serialised-store cache would keep one). None for a small file, one that cannot be opened,
    or one that is not a pretty-printed object or does not parse: it is then read whole, which says why."""
    from openclaw_cli.js.bigjson import PIECEWISE_MIN_BYTES, load_object_file

    limit = _serialized_cache_limit()
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size < PIECEWISE_MIN_BYTES:
                return None
            read = load_object_file(fh, digest=limit > 0 and size <= limit)
    except OSError:
        return None
    if read is None:
        return None
    value, read_size, digest = read
    # The file may have grown past the limit since its size was taken.
    fingerprint = StoreFingerprint(read_size, digest) if digest is not None and read_size <= limit else None
    return value, read_size, fingerprint


def _load(path: str, allow_corrupt: bool, keep_raw: bool) -> LoadedStore:
    streamed = None if keep_raw else _stream(path)
    if streamed is not None:
        return _normalized(path, SessionStore(streamed[0]), None, streamed[2], streamed[1])
    data: bytes | None = None
    value: Any = None
    canon = b""
    error: str | None = None
    for attempt in range(READ_ATTEMPTS):
        last = attempt == READ_ATTEMPTS - 1
        try:
            data = _read_bytes(path)
        except FileNotFoundError:
            return LoadedStore(path=path, exists=False, store=SessionStore())
        except OSError as err:
            if isinstance(err, (PermissionError, IsADirectoryError)) or last:
                raise _oserror(path, err) from None
            time.sleep(READ_RETRY_SECONDS)
            continue
        if not data.strip(_JSON_WHITESPACE):
            # OpenClaw retries such a read (a writer may be mid-way), then reads it as `{}`.
            error = "the file is empty" if not data else "the file holds only whitespace"
            if not last:
                time.sleep(READ_RETRY_SECONDS)
                continue
            break
        try:
            value, canon = _parse(data)
            error = None
            break
        except ValueError as err:
            error = str(err).splitlines()[0] if str(err) else "invalid JSON"
            if not last:
                time.sleep(READ_RETRY_SECONDS)
                continue
    assert data is not None
    if error is None and type(value) is not dict:
        error = f"its top level is {_json_kind(value)}, not an object"
    if error is not None:
        if not allow_corrupt:
            raise StoreError(
                f"session store {path} is not valid ({error}); restore it from a backup "
                "or move it aside so a fresh store is created")
        return LoadedStore(path=path, exists=True, store=SessionStore(), corrupt=True, error=error,
                           raw_text=data.decode("utf-8", "replace"), size_bytes=len(data))
    store = SessionStore(value)
    size = len(canon)
    raw_text = canon.decode("utf-8") if keep_raw else None
    fingerprint = None
    limit = _serialized_cache_limit()
    if limit > 0 and size <= limit:
        fingerprint = StoreFingerprint.of(canon)
    del data, canon, value
    return _normalized(path, store, raw_text, fingerprint, size)


def _normalized(path: str, store: SessionStore, raw_text: str | None, fingerprint: StoreFingerprint | None,
                size: int) -> LoadedStore:
    """The store as read, hydrated, migrated and normalised as OpenClaw loads it."""
    dropped: list[str] = []
    hydrated = hydrate_store(store, path)
    migrated = apply_migrations(store)
    normalized = normalize_store(store, dropped)
    changed = hydrated or migrated or normalized
    return LoadedStore(path=path, exists=True, store=store, raw_text=raw_text,
                       unchanged_serialization=None if changed else fingerprint,
                       dropped_keys=dropped, changed=changed, size_bytes=size)


# ---------------------------------------------------------------------------------------
# serialise


@dataclass
class Projection:
    """The persisted store text (as chunks of UTF-8) and the prompt blobs it refers to."""

    chunks: list[bytes]
    prompt_blobs: dict[str, PromptBlob]
    keys: list[str]
    changed: bool
    # session key -> sha256 of the prompt blob its persisted entry refers to
    blob_hashes: dict[str, str] = field(default_factory=dict)
    _members: list[tuple[int, bytes]] = field(default_factory=list, repr=False)
    fingerprint: StoreFingerprint | None = None  # fingerprint_store's: the text's size and hash, not the text

    @property
    def text(self) -> bytes:
        if len(self.chunks) != 1:
            self.chunks = [b"".join(self.chunks)]
        return self.chunks[0]

    @property
    def size_bytes(self) -> int:
        return sum(len(c) for c in self.chunks)

    def entry_chunk_sizes(self) -> dict[str, int]:
        """Bytes of each `  "key": {...}` member, as the disk budget counts them."""
        sizes = array("Q")
        for count, members in self._members:
            _add_member_sizes(sizes, count, members)
        return dict(zip(self.keys, sizes))


def _add_member_sizes(sizes: array, count: int, members: bytes) -> None:
    """Append the bytes of each of the `count` members of one block, in order."""
    starts = [0]
    find = members.find
    pos = find(b',\n  "')
    while pos >= 0:
        starts.append(pos + 2)
        pos = find(b',\n  "', pos + 2)
    if len(starts) != count:  # cannot happen for pretty JSON; measure directly
        raise AssertionError("unexpected member layout")
    starts.append(len(members) + 2)
    sizes.extend(starts[i + 1] - 2 - starts[i] for i in range(count))


@dataclass
class Measurement:
    """What the disk budget needs of the persisted store, without its text."""

    size_bytes: int
    keys: list[str]  # the store's keys, in order
    member_sizes: array  # the bytes of each key's `  "key": {...}` member, in that order
    prompt_blobs: dict[str, PromptBlob]
    blob_hashes: dict[str, str]
    _chunk_sizes: dict[str, int] | None = None

    @property
    def chunk_sizes(self) -> dict[str, int]:
        """Each member's bytes by key, as a map made when first asked: only a budget that evicts entries
        asks (100,000 sizes take 0.8 MB in the array, about 7 MB as a map)."""
        if self._chunk_sizes is None:
            self._chunk_sizes = dict(zip(self.keys, self.member_sizes))
        return self._chunk_sizes


def measure_serialized(store: dict, store_path: str | os.PathLike) -> Measurement:
    """serialize_store's sizes, blobs and hashes, one block of entries at a time (the text of
    the whole store never exists at once)."""
    blobs: dict[str, PromptBlob] = {}
    hashes: dict[str, str] = {}
    sizes = array("Q")
    keys = list(store)

    def bodies() -> Iterator[bytes]:
        for count, body, _changed in _iter_members(store, os.fspath(store_path), blobs, hashes):
            _add_member_sizes(sizes, count, body)
            yield body

    size = sum(len(piece) for piece in _text_pieces(bodies()))
    return Measurement(size, keys, sizes, blobs, hashes)


def _pretty_members(store: dict, store_path: str | None, blobs: dict[str, PromptBlob] | None,
                    hashes: dict[str, str] | None = None
                    ) -> tuple[list[tuple[int, bytes]], bool]:
    """The pretty JSON of the store, projected when store_path is given, as member blocks
    of up to _CHUNK_ENTRIES entries (so the projection never copies the whole store)."""
    members: list[tuple[int, bytes]] = []
    changed = False
    for count, body, block_changed in _iter_members(store, store_path, blobs, hashes):
        members.append((count, body))
        changed = changed or block_changed
    return members, changed


def _iter_members(store: dict, store_path: str | None, blobs: dict[str, PromptBlob] | None,
                  hashes: dict[str, str] | None) -> Iterator[tuple[int, bytes, bool]]:
    """(entries, pretty member text, projection changed an entry) per block of entries."""
    items = iter(store.items())
    while True:
        chunk = dict(islice(items, _CHUNK_ENTRIES))
        if not chunk:
            break
        changed = False
        if store_path is not None:
            for key, entry in chunk.items():
                projected = project_entry(entry, store_path, blobs)
                if projected is not entry:
                    chunk[key] = projected
                    changed = True
                if hashes is not None and type(projected) is dict:
                    snapshot = projected.get("skillsSnapshot")
                    if type(snapshot) is dict:
                        ref = snapshot.get("promptRef")
                        if (type(ref) is dict and ref.get("algorithm") == "sha256"
                                and type(ref.get("hash")) is str):
                            hashes[key] = ref["hash"]
        yield len(chunk), jsjson.dumps_pretty_bytes(chunk)[2:-2], changed


def _join_members(members: list[tuple[int, bytes]]) -> list[bytes]:
    return list(_text_pieces(body for _count, body in members))


def _text_pieces(bodies: Iterable[bytes]) -> Iterator[bytes]:
    """The store text around its member blocks: `{}`, or `{\n`, the blocks joined by `,\n`, `\n}`."""
    first = True
    for body in bodies:
        yield b"{\n" if first else b",\n"
        first = False
        yield body
    yield b"{}" if first else b"\n}"


def serialize_store(store: dict, store_path: str | os.PathLike) -> Projection:
    """Prompt-blob projection then `JSON.stringify(store, null, 2)`, without copying the
    whole store."""
    blobs: dict[str, PromptBlob] = {}
    hashes: dict[str, str] = {}
    members, changed = _pretty_members(store, os.fspath(store_path), blobs, hashes)
    return Projection(chunks=_join_members(members), prompt_blobs=blobs, keys=list(store),
                      changed=changed, blob_hashes=hashes, _members=members)


def fingerprint_store(store: dict, store_path: str | os.PathLike) -> Projection:
    """serialize_store's prompt blobs with the size and SHA-256 of its text instead of the text, made a
    block of entries at a time (the text of a 100,000-entry store, about 30 MB, is never held);
    `store_text` makes the text again for the write."""
    blobs: dict[str, PromptBlob] = {}
    hashes: dict[str, str] = {}
    changed = False

    def bodies() -> Iterator[bytes]:
        nonlocal changed
        for _count, body, block_changed in _iter_members(store, os.fspath(store_path), blobs, hashes):
            changed = changed or block_changed
            yield body

    fingerprint = StoreFingerprint.of_chunks(_text_pieces(bodies()))
    return Projection(chunks=[], prompt_blobs=blobs, keys=[], changed=changed, blob_hashes=hashes,
                      fingerprint=fingerprint)


def store_text(store: dict, store_path: str | os.PathLike, expect: StoreFingerprint) -> Iterator[bytes]:
    """The text `fingerprint_store` measured, made again a block at a time for a streamed write. It must
    be the same text: a StoreError after the last piece when it is not (the write then never lands)."""
    path = os.fspath(store_path)
    hashing = _Hashing()
    yield from hashing.passing(_text_pieces(body for _count, body, _changed in _iter_members(store, path, {}, None)))
    if hashing.fingerprint() != expect:
        raise StoreError(f"the text of {path} changed after the cleanup was planned; it was not written")


def measure_store_bytes(projected_store: dict) -> int:
    """UTF-8 length of `JSON.stringify(projected_store, null, 2)`."""
    members, _ = _pretty_members(projected_store, None, None)
    return sum(len(c) for c in _join_members(members))


def entry_chunk_bytes(key: str, projected_entry: Any) -> int:
    """Bytes of the `  "key": {...}` member of the pretty single-entry store."""
    text = jsjson.dumps_pretty_bytes({key: projected_entry})
    if text.startswith(b"{\n") and text.endswith(b"\n}"):
        return len(text) - 4
    return measure_store_bytes({key: projected_entry}) - 4


# ---------------------------------------------------------------------------------------
# write


def _umask() -> int:
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _copy_fallback(src: str, dest: str) -> None:
    st = os.lstat(src)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, f"Refusing copy fallback from non-file source: {src}")
    try:
        dst = os.lstat(dest)
    except FileNotFoundError:
        dst = None
    if dst is not None:
        if stat.S_ISLNK(dst.st_mode):
            raise OSError(errno.EINVAL,
                          f"Refusing copy fallback through symlink destination: {dest}")
        os.unlink(dest)
    with open(src, "rb") as fh:
        content = fh.read()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(dest, flags, st.st_mode & 0o777)
    try:
        _write_all(fd, (content,))
    finally:
        os.close(fd)
    try:
        os.unlink(src)
    except OSError:
        pass


def _write_all(fd: int, chunks: Iterable[Bytes]) -> None:
    for chunk in chunks:
        view = memoryview(chunk)
        while view:
            n = os.write(fd, view)
            view = view[n:]


def write_file_atomic(path: str | os.PathLike, data: Bytes | str | Iterable[Bytes], *,
                      durable: bool, mode: int = 0o600, temp_prefix: str | None = None,
                      before_rename: Callable[[], None] | None = None) -> None:
    """replaceFileAtomic as OpenClaw uses it: temp `<prefix>.<pid>.<uuid>.tmp` in the
    same folder (exclusive create, `mode`), optional fsync, rename over, chmod `mode`.

    A missing folder is created with mode 0o777 & ~umask like OpenClaw. Unlike OpenClaw
    (which also chmods an existing folder to that mode, turning 0700 into 0755),
    an existing folder's permissions are never loosened.
    """
    path = os.fspath(path)
    if not path or "\0" in path:
        raise ValueError("Atomic replace file path must be non-empty.")
    chunks = _chunks(data)
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, mode=0o777 & ~_umask(), exist_ok=True)
    prefix = temp_prefix or ".fs-safe-replace"
    temp = os.path.join(folder, f"{prefix}.{os.getpid()}.{uuid.uuid4()}.tmp")
    temp_exists = True
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     mode)
        try:
            _write_all(fd, chunks)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if before_rename is not None:
            before_rename()
        try:
            os.rename(temp, path)
        except (PermissionError, FileExistsError):
            _copy_fallback(temp, path)
        temp_exists = False
        try:
            os.chmod(path, mode)
        except OSError:
            pass
        if durable:
            try:
                dfd = os.open(folder, os.O_RDONLY)
                try:
                    os.fsync(dfd)
                finally:
                    os.close(dfd)
            except OSError:
                pass
    finally:
        if temp_exists:
            try:
                os.unlink(temp)
            except OSError:
                pass


def write_store_text_atomic(path: str | os.PathLike, text: bytes | str | Iterable[bytes], *,
                            durable: bool, before_rename: Callable[[], None] | None = None
                            ) -> None:
    """writeSessionStoreAtomic: the store through `sessions.json.<pid>.<uuid>.tmp`, 0600."""
    path = os.fspath(path)
    write_file_atomic(path, text, durable=durable, mode=0o600,
                      temp_prefix=os.path.basename(path), before_rename=before_rename)


def save_store(path: str | os.PathLike, store: dict, *,
               unchanged_serialization: StoreFingerprint | bytes | str | None = None,
               normalize: bool = True, durable: bool = False,
               projection: Projection | None = None) -> bool:
    """saveSessionStoreUnlocked without maintenance. Returns whether the file was written.

    Normalises the store again (as OpenClaw does on save) unless normalize=False,
    then projects prompts to blobs and serialises. When the text equals
    `unchanged_serialization` (from load_store) only the blobs are ensured; otherwise the
    blobs are written and the store replaced atomically. A missing folder is created.
    """
    path = os.fspath(path)
    if normalize:
        normalize_store(store)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    if projection is None:
        projection = serialize_store(store, path)
    if unchanged_serialization is not None:
        if not isinstance(unchanged_serialization, StoreFingerprint):
            unchanged_serialization = StoreFingerprint.of(unchanged_serialization)
        if unchanged_serialization.matches(projection.chunks):
            ensure_prompt_blobs(projection.prompt_blobs, path)
            return False

    def write_blobs() -> None:
        ensure_prompt_blobs(projection.prompt_blobs, path, write_file_atomic)

    try:
        write_store_text_atomic(path, projection.chunks, durable=durable,
                                before_rename=write_blobs)
    except FileNotFoundError:
        write_store_text_atomic(path, projection.chunks, durable=durable,
                                before_rename=write_blobs)
    return True

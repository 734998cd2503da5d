"""Skill-prompt blobs: long skillsSnapshot prompts kept beside sessions.json by content hash."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from openclaw_cli.js.json import js_utf8, js_utf16_len
from openclaw_cli.store.normalize import UNDEF, js_truthy

__all__ = [
    "BLOB_ALGORITHM",
    "BLOB_DIR",
    "MAX_BLOB_BYTES",
    "MIN_BLOB_CHARS",
    "PromptBlob",
    "blob_path",
    "build_prompt_ref",
    "ensure_prompt_blobs",
    "hydrate_store",
    "is_sha256_hex",
    "project_entry",
    "project_store",
    "read_valid_blob",
    "should_store_as_blob",
]

BLOB_DIR = "skills-prompts"
BLOB_ALGORITHM = "sha256"
BLOB_VERSION = 1
MIN_BLOB_CHARS = 512
MAX_BLOB_BYTES = 512 * 1024
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class PromptBlob:
    """A prompt that the persisted store refers to by hash."""

    ref: dict
    path: str | None
    prompt: str


def is_sha256_hex(value: str) -> bool:
    return len(value) == 64 and _HEX.issuperset(value)


def blob_path(store_path: str | os.PathLike, digest: str) -> str | None:
    """`<sessionsDir>/skills-prompts/sha256/<hh>/<hash>.txt`; None for a malformed hash."""
    if not is_sha256_hex(digest):
        return None
    base = os.path.dirname(os.path.abspath(os.fspath(store_path)))
    return os.path.join(base, BLOB_DIR, BLOB_ALGORITHM, digest[:2], digest + ".txt")


_REF_CACHE: dict[str, dict] = {}


def build_prompt_ref(prompt: str) -> dict:
    """`{version, algorithm, hash, bytes}` for a prompt (shared object per prompt text)."""
    ref = _REF_CACHE.get(prompt)
    if ref is None:
        data = js_utf8(prompt)
        ref = {"version": BLOB_VERSION, "algorithm": BLOB_ALGORITHM,
               "hash": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        if len(_REF_CACHE) >= 256:
            _REF_CACHE.pop(next(iter(_REF_CACHE)))
        _REF_CACHE[prompt] = ref
    return ref


def should_store_as_blob(prompt: str) -> bool:
    """At least 512 UTF-16 units and at most 512 KiB of UTF-8."""
    if js_utf16_len(prompt) < MIN_BLOB_CHARS:
        return False
    if len(prompt) * 4 <= MAX_BLOB_BYTES:
        return True
    return len(js_utf8(prompt)) <= MAX_BLOB_BYTES


# Blobs already verified, by path: (mtime_ns, size, prompt).
_VALID_CACHE: dict[str, tuple[int, int, str]] = {}


def _remember(path: str, st: os.stat_result, prompt: str) -> None:
    _VALID_CACHE.pop(path, None)
    _VALID_CACHE[path] = (st.st_mtime_ns, st.st_size, prompt)
    while len(_VALID_CACHE) > 256:
        _VALID_CACHE.pop(next(iter(_VALID_CACHE)))


def _is_num(v: Any) -> TypeGuard[int | float]:
    return type(v) is int or type(v) is float


def read_valid_blob(store_path: str | os.PathLike, ref: dict) -> str | None:
    """The prompt a ref points at, or None when the blob is missing, resized or altered."""
    size = ref.get("bytes")
    digest = ref.get("hash")
    if (not (_is_num(ref.get("version")) and ref["version"] == BLOB_VERSION)
            or ref.get("algorithm") != BLOB_ALGORITHM or type(digest) is not str
            or not is_sha256_hex(digest) or not _is_num(size)
            or not (0 <= size <= MAX_BLOB_BYTES)):
        return None
    path = blob_path(store_path, digest)
    if path is None:
        return None
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != size:
            _VALID_CACHE.pop(path, None)
            return None
        cached = _VALID_CACHE.get(path)
        if cached is not None and cached[0] == st.st_mtime_ns and cached[1] == st.st_size:
            return cached[2]
        with open(path, "rb") as fh:
            raw = fh.read()
        try:
            prompt = raw.decode("utf-8")
            data = raw
        except UnicodeDecodeError:
            prompt = raw.decode("utf-8", "replace")
            data = prompt.encode("utf-8")
        if hashlib.sha256(data).hexdigest() != digest or len(data) != size:
            _VALID_CACHE.pop(path, None)
            return None
        _remember(path, st, prompt)
        return prompt
    except (OSError, ValueError):
        _VALID_CACHE.pop(path, None)
        return None


def _parse_ref(value: Any) -> dict | None:
    if type(value) is not dict:
        return None
    version, digest, size = value.get("version"), value.get("hash"), value.get("bytes")
    if (_is_num(version) and version == BLOB_VERSION and value.get("algorithm") == BLOB_ALGORITHM
            and type(digest) is str and _is_num(size)):
        return {"version": version, "algorithm": BLOB_ALGORITHM, "hash": digest, "bytes": size}
    return None


def hydrate_store(store: dict, store_path: str | os.PathLike) -> bool:
    """Replace each skillsSnapshot.promptRef by its prompt (appended last).

    A snapshot without a string prompt whose ref is missing or does not verify is
    deleted whole. Returns whether anything changed.
    """
    changed = False
    seen: dict[tuple, str | None] = {}  # one verification per blob per pass
    for key, entry in store.items():
        if type(entry) is not dict:
            continue
        snapshot = entry.get("skillsSnapshot", UNDEF)
        if not js_truthy(snapshot):
            continue
        if type(snapshot) is dict and type(snapshot.get("prompt")) is str:
            continue
        ref = _parse_ref(snapshot.get("promptRef")) if type(snapshot) is dict else None
        if ref is None:
            prompt = None
        else:
            memo = (ref["hash"], type(ref["bytes"]), ref["bytes"])
            prompt = seen.get(memo, seen)
            if prompt is seen:
                prompt = seen[memo] = read_valid_blob(store_path, ref)
        if not prompt:
            store[key] = {k: v for k, v in entry.items() if k != "skillsSnapshot"}
        else:
            rest = {k: v for k, v in snapshot.items() if k != "promptRef"}
            rest["prompt"] = prompt
            new_entry = dict(entry)
            new_entry["skillsSnapshot"] = rest
            store[key] = new_entry
        changed = True
    return changed


def _prompt_to_blob(entry: Any) -> str | None:
    if type(entry) is not dict:
        return None
    snapshot = entry.get("skillsSnapshot")
    if type(snapshot) is not dict:
        return None
    prompt = snapshot.get("prompt")
    if type(prompt) is not str or not prompt or not should_store_as_blob(prompt):
        return None
    return prompt


def _strip_prompt(entry: dict, ref: dict) -> dict:
    snapshot = {k: v for k, v in entry["skillsSnapshot"].items() if k != "prompt"}
    snapshot["promptRef"] = ref
    out = dict(entry)
    out["skillsSnapshot"] = snapshot
    return out


def project_entry(entry: Any, store_path: str | os.PathLike,
                  blobs: dict[str, PromptBlob] | None = None) -> Any:
    """The persisted form of one entry (prompt replaced by promptRef, appended last)."""
    prompt = _prompt_to_blob(entry)
    if prompt is None:
        return entry
    ref = build_prompt_ref(prompt)
    if blobs is not None:
        known = blobs.get(ref["hash"])
        if known is None or known.prompt is not prompt:
            blobs[ref["hash"]] = PromptBlob(ref, blob_path(store_path, ref["hash"]), prompt)
    return _strip_prompt(entry, ref)


def project_store(store: dict, store_path: str | os.PathLike
                  ) -> tuple[dict, dict[str, PromptBlob], bool]:
    """projectSessionStoreForPersistence: (persisted store, blobs by hash, changed).

    The persisted store is `store` itself when no prompt goes to a blob, else a shallow
    copy in the same key order.
    """
    blobs: dict[str, PromptBlob] = {}
    persisted = store
    for key, entry in store.items():
        projected = project_entry(entry, store_path, blobs)
        if projected is not entry:
            if persisted is store:
                persisted = dict(store)
            persisted[key] = projected
    return persisted, blobs, persisted is not store


def ensure_prompt_blobs(blobs: dict[str, PromptBlob] | list[PromptBlob],
                        store_path: str | os.PathLike,
                        write_atomic: Callable[..., None] | None = None) -> None:
    """Make each blob exist with the right content: touch a valid one, else write it."""
    if write_atomic is None:
        from openclaw_cli.store.sessions_json import write_file_atomic

        write_atomic = write_file_atomic
    items = blobs.values() if isinstance(blobs, dict) else blobs
    for blob in items:
        ref = build_prompt_ref(blob.prompt)
        path = blob_path(store_path, ref["hash"])
        if path is None:
            continue
        if read_valid_blob(store_path, ref) == blob.prompt:
            try:
                os.utime(path)
                _remember(path, os.stat(path), blob.prompt)
                continue
            except OSError:
                pass
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_atomic(path, js_utf8(blob.prompt), durable=False, mode=0o600,
                     temp_prefix=os.path.basename(path))
        _remember(path, os.stat(path), blob.prompt)

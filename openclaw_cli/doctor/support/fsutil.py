"""Small filesystem helpers with OpenClaw's error-swallowing behaviour."""

from __future__ import annotations

import os
import stat


def exists_dir(path: str) -> bool:
    try:
        return os.path.isdir(path)
    except (OSError, ValueError):
        return False


def exists_file(path: str) -> bool:
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):
        return False


def can_write(path: str) -> bool:
    try:
        return os.access(path, os.W_OK)
    except (OSError, ValueError):
        return False


def realpath_or_none(path: str) -> str | None:
    try:
        if not os.path.lexists(path):
            return None
        return os.path.realpath(path, strict=True)
    except (OSError, ValueError):
        return None


def mode_too_open(path: str) -> bool | None:
    """True when group/other have any permission bit (symlinks followed; /nix/store exempt).

    None when the mode cannot be read.
    """
    try:
        lst = os.lstat(path)
        is_link = stat.S_ISLNK(lst.st_mode)
        st = os.stat(path) if is_link else lst
        real = os.path.realpath(path) if is_link else path
    except OSError:
        return None
    if real.startswith("/nix/store/"):
        return False
    return (st.st_mode & 0o077) != 0


def count_jsonl_lines(path: str) -> int:
    """Newlines, plus one when the text does not end with one; an empty file has 0 lines."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return 0
    if not data:
        return 0
    count = data.count(b"\n")
    return count if data.endswith(b"\n") else count + 1


def dir_permission_hint(path: str) -> str | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f'Owner mismatch (uid {st.st_uid}). Run: sudo chown -R $USER "{path}"'
    if hasattr(os, "getgid") and st.st_gid != os.getgid():
        return f'Group mismatch (gid {st.st_gid}). If access fails, run: sudo chown -R $USER "{path}"'
    return None


def count_label(count: int, singular: str, plural: str | None = None) -> str:
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"

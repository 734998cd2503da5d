"""Byte-exact snapshots of a folder tree, to prove that a run changed nothing on disk."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path


def folder_digest(root: Path | str, *, mtimes: bool = False) -> dict[str, tuple]:
    """Every entry under root (not following symlinks): relative path -> (kind, size, mode, sha256),
    and with `mtimes` each file's mtime (ns) too, to show a rewrite of the same bytes.

    Folders and symlinks are included, so a created or removed folder or link shows up too."""
    root = Path(root)
    found: dict[str, tuple] = {}
    if not os.path.lexists(root):
        return found
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in sorted(dirnames + filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            st = os.lstat(path)
            mode = stat.S_IMODE(st.st_mode)
            if stat.S_ISLNK(st.st_mode):
                found[rel] = ("link", 0, mode, os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                found[rel] = ("dir", 0, mode, "")
            else:
                with open(path, "rb") as handle:
                    digest = hashlib.sha256(handle.read()).hexdigest()
                found[rel] = ("file", st.st_size, mode, digest, st.st_mtime_ns) if mtimes else \
                    ("file", st.st_size, mode, digest)
    return found

"""Node's POSIX `path` semantics (resolve, relative, normalize) and a non-throwing realpath."""

from __future__ import annotations

import os
import posixpath


def normalize(path: str) -> str:
    if not path:
        return "."
    out = posixpath.normpath(path)
    if out.startswith("//"):
        out = "/" + out.lstrip("/")
    if path.endswith("/") and out != "/":
        out += "/"
    return out


_RESOLVED: dict[str, str] = {}


def _resolve_joined(joined: str) -> str:
    out = posixpath.normpath(joined)
    if out.startswith("//"):
        out = "/" + out.lstrip("/")
    return out


def _is_normal_absolute(path: str) -> bool:
    """An absolute path with no empty, `.` or `..` segment and no trailing slash."""
    return (path.startswith("/") and "//" not in path and "/./" not in path and "/../" not in path
            and not path.endswith(("/", "/.", "/..")))


def resolve(*segments: str) -> str:
    """`path.resolve`: absolute, normalised, no trailing slash (relative to the current folder)."""
    if len(segments) == 1:
        seg = segments[0]
        if _is_normal_absolute(seg):
            return seg  # normalising would give it back unchanged: nothing to compute or to cache
        cached = _RESOLVED.get(seg)
        if cached is not None:
            return cached
        if not seg.startswith("/"):
            return _resolve_joined(_cwd() + "/" + seg)  # depends on the current folder: not cached
        out = _resolve_joined(seg)
        if len(_RESOLVED) < 500_000:
            _RESOLVED[seg] = out
        return out
    joined = ""
    for seg in reversed(segments):
        if not seg:
            continue
        joined = seg if not joined else seg + "/" + joined
        if seg.startswith("/"):
            break
    else:
        joined = _cwd() + ("/" + joined if joined else "")
    return _resolve_joined(joined)


def _cwd() -> str:
    """The current folder, or `/` when it no longer exists."""
    try:
        return os.getcwd()
    except OSError:
        return "/"


def relative(from_path: str, to_path: str) -> str:
    """`path.relative`: '' when both resolve to the same path."""
    a = resolve(from_path)
    b = resolve(to_path)
    if a == b:
        return ""
    if b.startswith(a) and (a == "/" or b[len(a)] == "/"):
        return b[len(a):].lstrip("/")
    return posixpath.relpath(b, a)


def is_inside(parent: str, child: str) -> bool:
    """True when `child` is strictly inside `parent` (OpenClaw's `relative` test).

    A child outside the parent's prefix gives a relative path that climbs (`..`), so only a child
    below it needs the test (a name that itself starts with `..` counts as outside, as there)."""
    a, b = resolve(parent), resolve(child)
    if a == b or not (a == "/" or b.startswith(a + "/")):
        return False
    rel = b[len(a):].lstrip("/")
    return bool(rel) and not rel.startswith("..")


def realpath_or_none(path: str) -> str | None:
    try:
        return os.path.realpath(path, strict=True)
    except (OSError, ValueError):
        return None


def canonical(path: str) -> str:
    """`realpath(resolve(path))`, or the resolved path when it does not exist."""
    resolved = resolve(path)
    return realpath_or_none(resolved) or resolved


def is_inside_or_equal(root: str, target: str) -> bool:
    """`isPathInside`: equal counts as inside; only a first segment of exactly `..` is outside."""
    rel = relative(root, target)
    if rel == "":
        return True
    return rel.split("/", 1)[0] != ".." and not rel.startswith("/")


def contains(root: str, path: str) -> bool:
    """Strict containment on normalised absolute paths (a name like `..x` is inside)."""
    root = resolve(root)
    path = resolve(path)
    return path != root and path.startswith(root.rstrip("/") + "/")

"""Where the state folder physically lives: macOS cloud sync, Linux SD/eMMC or tmpfs/ramfs."""

from __future__ import annotations

import os
import posixpath
import re
import sys
from dataclasses import dataclass

VOLATILE_FS_TYPES = frozenset({"tmpfs", "ramfs"})
_MMC = re.compile(r"^mmcblk\d+(?:p\d+)?$")


@dataclass(frozen=True)
class MountEntry:
    mount_point: str
    fs_type: str
    source: str


def _decode(value: str) -> str:
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), value)


def parse_mountinfo(text: str) -> list[MountEntry]:
    entries: list[MountEntry] = []
    for line in text.split("\n"):
        trimmed = line.strip()
        if not trimmed or " - " not in trimmed:
            continue
        left, right = trimmed.split(" - ", 1)
        left_fields, right_fields = left.split(" "), right.split(" ")
        if len(left_fields) < 5 or len(right_fields) < 2:
            continue
        entries.append(MountEntry(_decode(left_fields[4]), right_fields[0], _decode(right_fields[1])))
    return entries


def _under(target: str, root: str) -> bool:
    target, root = posixpath.normpath(target), posixpath.normpath(root)
    if root == "/":
        return target.startswith("/")
    return target == root or target.startswith(root + "/")


def mount_for(path: str, entries: list[MountEntry]) -> MountEntry | None:
    best: MountEntry | None = None
    for entry in entries:
        if _under(path, entry.mount_point) and (best is None or len(posixpath.normpath(entry.mount_point))
                                                > len(posixpath.normpath(best.mount_point))):
            best = entry
    return best


def resolve_through_ancestor(path: str) -> str:
    """realpath of the nearest existing ancestor, with the missing tail appended."""
    missing: list[str] = []
    candidate = os.path.abspath(path)
    while True:
        if os.path.lexists(candidate):
            try:
                return os.path.join(os.path.realpath(candidate), *missing) if missing else os.path.realpath(candidate)
            except OSError:
                return os.path.abspath(path)
        parent = os.path.dirname(candidate)
        if parent == candidate:
            return os.path.abspath(path)
        missing.insert(0, os.path.basename(candidate))
        candidate = parent


def read_mountinfo() -> str | None:
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


@dataclass(frozen=True)
class StorageIssue:
    kind: str  # cloud | sd | volatile
    path: str
    mount_point: str = ""
    fs_type: str = ""
    source: str = ""
    storage: str = ""


def detect_storage(state_dir: str, home: str, *, platform: str | None = None,
                   mountinfo: str | None = None) -> list[StorageIssue]:
    platform = platform or sys.platform
    issues: list[StorageIssue] = []
    if platform == "darwin":
        roots = (("iCloud Drive", os.path.join(home, "Library", "Mobile Documents", "com~apple~CloudDocs")),
                 ("CloudStorage provider", os.path.join(home, "Library", "CloudStorage")))
        try:
            real = os.path.realpath(state_dir, strict=True)
        except OSError:
            real = os.path.abspath(state_dir)
        for storage, root in roots:
            if _under(real, root):
                issues.append(StorageIssue("cloud", real, storage=storage))
                break
        return issues
    if not platform.startswith("linux"):
        return issues
    text = mountinfo if mountinfo is not None else read_mountinfo()
    if not text:
        return issues
    resolved = resolve_through_ancestor(state_dir)
    entry = mount_for(resolved, parse_mountinfo(text))
    if entry is None:
        return issues
    sources = [entry.source]
    if entry.source.startswith("/dev/"):
        try:
            sources.append(os.path.realpath(entry.source, strict=True))
        except OSError:
            pass
    if any(_MMC.match(posixpath.basename(s)) for s in sources):
        issues.append(StorageIssue("sd", resolved, posixpath.normpath(entry.mount_point), entry.fs_type,
                                   entry.source))
    if entry.fs_type in VOLATILE_FS_TYPES:
        issues.append(StorageIssue("volatile", resolved, posixpath.normpath(entry.mount_point),
                                   entry.fs_type))
    return issues


def escape_controls(value: str) -> str:
    out = []
    for ch in value:
        code = ord(ch)
        if ch == "\x1b":
            out.append("\\x1b")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif code <= 8 or code in (11, 12) or 14 <= code <= 31:
            out.append(f"\\x{code:02x}")
        elif code == 127:
            out.append("\\x7f")
        else:
            out.append(ch)
    return "".join(out)

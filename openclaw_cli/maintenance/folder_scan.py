"""One pass over a sessions folder (each entry's name, mode, size and mtime); for a large folder it runs
in a helper process started before the store is read, so the two overlap.

This file is also that helper's script: it imports only the standard library, and runs with `-I -S`.
"""

from __future__ import annotations

import os
import sys
from array import array
from collections.abc import Iterable, Iterator
from typing import Any

# A store this large (about 3,000 entries) has a folder whose scan is worth a process of its own.
HELPER_MIN_STORE_BYTES = 1 << 20
MAX_HELPERS = 4
_NAME_BLOCK_BYTES = 1 << 16
_HEAD_BYTES = 17  # b"+", then the entry count and the names' length as 8-byte integers

Entry = tuple[Any, int, int, int]  # (name, st_mode, st_size, st_mtime_ns); the name is str, or bytes in the helper
_pending: dict[str, Any] = {}  # folder (as FsView spells it) -> the helper's Popen


def entries(folder: str | bytes) -> Iterable[Entry] | None:
    """Every entry of the folder, not following symlinks, in readdir order; one that vanishes
    between the listing and its lstat is left out. None when the folder cannot be listed."""
    try:
        it = os.scandir(folder)
    except OSError:
        return None
    return _lstat_each(it)


def _lstat_each(it: Any) -> Iterator[Entry]:
    with it:
        for entry in it:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            yield entry.name, st.st_mode, st.st_size, st.st_mtime_ns


def start(folder: str, store_path: str) -> None:
    """Begin scanning `folder` in a helper process when its store is large (FsView.open takes the scan).
    Where that cannot be done (not POSIX, no interpreter path, file names not UTF-8, helpers for
    `MAX_HELPERS` folders already running), the scan stays in this process."""
    from openclaw_cli.js.paths import resolve

    folder = resolve(folder)  # as FsView spells it
    if folder in _pending or len(_pending) >= MAX_HELPERS or os.name != "posix" or not sys.executable:
        return
    if sys.getfilesystemencoding() != "utf-8" or sys.getfilesystemencodeerrors() != "surrogateescape":
        return
    try:
        if os.stat(store_path).st_size < HELPER_MIN_STORE_BYTES or not os.path.isfile(__file__):
            return
        import subprocess

        _pending[folder] = subprocess.Popen(
            [sys.executable, "-I", "-S", __file__, folder], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except (OSError, ValueError):
        return


def take(folder: str) -> Iterable[Entry] | None:
    """The helper's entries of `folder` (once), or None when no helper scanned it or it did not finish
    cleanly: the caller then scans the folder itself. A folder that cannot be listed gives no entries.
    The entries raise ValueError if the answer turns out not to be whole while they are read."""
    proc = _pending.pop(folder, None)
    if proc is None:
        return None
    try:
        with proc:
            data = _read(proc.stdout)
        if proc.returncode != 0:
            return None
        return _decode(data)
    except (OSError, ValueError):
        return None


def _read(stream: Any) -> Any:
    """The helper's whole answer. A scan is read into an anonymous mapping of its exact size, handed back
    to the system as soon as the scan is taken (on the heap, 7 MB at 100,000 files would stay behind)."""
    head = stream.read(_HEAD_BYTES)
    layout = _layout(head)
    if layout is None:
        return head + stream.read()  # "-", or not an answer: _decode says which
    import mmap

    count, names_end = layout
    size = names_end + 24 * count
    answer = mmap.mmap(-1, size)
    answer.write(head)
    pos = _HEAD_BYTES
    while pos < size and (n := stream.readinto(memoryview(answer)[pos:])):
        pos += n
    if pos < size or stream.read(1):
        answer.close()
        raise ValueError("a partial scan")
    return answer


def discard() -> None:
    """Stop the helpers whose scans were not taken (a run that failed before it planned)."""
    while _pending:
        _, proc = _pending.popitem()
        try:
            proc.kill()
            with proc:
                pass
        except OSError:
            pass


def _encode(found: Iterable[Entry] | None) -> bytes:
    """The helper's answer: b"-" for a folder that cannot be listed, else b"+", the count, the length
    of the NUL-joined names, the names, then modes, sizes and mtimes as native 64-bit arrays."""
    if found is None:
        return b"-"
    names: list[bytes] = []
    modes, sizes, mtimes = array("Q"), array("q"), array("q")
    for name, mode, size, mtime_ns in found:
        names.append(name)
        modes.append(mode)
        sizes.append(size)
        mtimes.append(mtime_ns)
    joined = b"\0".join(names)
    return b"".join((b"+", len(names).to_bytes(8, "little"), len(joined).to_bytes(8, "little"), joined,
                     modes.tobytes(), sizes.tobytes(), mtimes.tobytes()))


def _decode(data: Any) -> Iterable[Entry]:
    """The entries `_encode` wrote (`data`: bytes, or the mapping `_read` filled, closed once they are
    read), their names decoded a block at a time as they are asked for; ValueError when the answer is
    not whole."""
    view = memoryview(data)
    if view.nbytes == 1 and view[0] == ord("-"):
        return ()
    layout = _layout(bytes(view[:_HEAD_BYTES]))
    if layout is None:
        raise ValueError("no scan")
    count, end = layout
    if view.nbytes != end + 24 * count:
        raise ValueError("a partial scan")
    return _entries(data, view, count, end)


def _layout(head: bytes) -> tuple[int, int] | None:
    """(entry count, where the names end) from the head of a scan's answer; None when it is not one."""
    if head[:1] != b"+" or len(head) < _HEAD_BYTES:
        return None
    return int.from_bytes(head[1:9], "little"), _HEAD_BYTES + int.from_bytes(head[9:17], "little")


def _entries(data: Any, view: memoryview, count: int, end: int) -> Iterator[Entry]:
    step = 8 * count
    columns = [view[end:end + step].cast("Q"), view[end + step:end + 2 * step].cast("q"),
               view[end + 2 * step:end + 3 * step].cast("q")]
    try:
        yield from zip(_names(data, view, _HEAD_BYTES, end), *columns, strict=True)
    finally:
        for column in columns:
            column.release()
        view.release()
        if not isinstance(data, bytes):
            data.close()


def _names(data: Any, view: memoryview, start: int, end: int) -> Iterator[str]:
    """The NUL-separated names of data[start:end]. Names hold no NUL, so a block cut at one decodes
    each name as its own decode would."""
    while start < end:
        cut = data.find(b"\0", min(start + _NAME_BLOCK_BYTES, end), end)
        if cut < 0:
            cut = end
        yield from str(view[start:cut], "utf-8", "surrogateescape").split("\0")
        start = cut + 1


if __name__ == "__main__":
    sys.stdout.buffer.write(_encode(entries(os.fsencode(sys.argv[1]))))

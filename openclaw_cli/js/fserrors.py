"""A failed file read in Node's words: `EISDIR: illegal operation on a directory, read`."""

from __future__ import annotations

import errno

# libuv's descriptions of the errors a read of one file can meet
_DESCRIPTIONS = {
    errno.EACCES: "permission denied",
    errno.EBUSY: "resource busy or locked",
    errno.EIO: "i/o error",
    errno.EISDIR: "illegal operation on a directory",
    errno.ELOOP: "too many symbolic links encountered",
    errno.EMFILE: "too many open files",
    errno.ENAMETOOLONG: "name too long",
    errno.ENFILE: "file table overflow",
    errno.ENOENT: "no such file or directory",
    errno.ENOTDIR: "not a directory",
    errno.ENXIO: "no such device or address",
    errno.EPERM: "operation not permitted",
}


def read_file_error(exc: OSError, path: str) -> str:
    """The message of Node's readFileSync(path) failing as `exc` did (`String(err)` puts `Error: ` before
    it). Opening a folder succeeds in Node and its read fails (no path named); every other failure is
    the open's, naming the path."""
    code = errno.errorcode.get(exc.errno or 0)
    if code is None:
        return str(exc.strerror or exc)
    description = _DESCRIPTIONS.get(exc.errno or 0, (exc.strerror or code).lower())
    if exc.errno == errno.EISDIR:
        return f"{code}: {description}, read"
    return f"{code}: {description}, open '{path}'"

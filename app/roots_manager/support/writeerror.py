"""A failed write, named for the file being written, and saying it was a write.

The system's error for a full disk names no file, and one for a folder closed to a new file
names the temporary file beside the one being saved; and a permission denied reads the same
whether a file was being read or written. Each place that writes the per-user directory (a
save, the store's lock, a folder made) raises :func:`named` instead, so that a front end can
say "no permission to write /the/file" and mean it.
"""

from __future__ import annotations

import errno
import os


class WriteRefused(PermissionError):
    """Writing :attr:`filename` was refused (EACCES, EPERM): a :class:`PermissionError`, as
    before, that also says it was a write."""


def named(exc: OSError, path: str | os.PathLike[str]) -> OSError:
    """*exc* as the same kind of error naming *path*: a :class:`WriteRefused` for a denied
    permission, else what ``OSError(errno, ...)`` makes (the same subclass); *exc* itself
    when it has no errno (then it is ours, and says what it means already)."""
    if exc.errno is None:
        return exc
    kind = WriteRefused if exc.errno in (errno.EACCES, errno.EPERM) else OSError
    return kind(exc.errno, exc.strerror, os.fspath(path))

"""Linux: two names swapped in one step, ``renameat2(RENAME_EXCHANGE)``.

``rename`` puts a file in the place of another and tells nothing of what it replaced; the
exchange leaves the replaced file under the other name, where it can be read. The call is made
through the process's own symbols (glibc 2.28 and later have it); the kernel has had it since
3.15, and most local file systems take it (ext4, XFS, Btrfs, tmpfs), network ones often not.
"""

from __future__ import annotations

import ctypes
import errno
import os
from typing import Any

AT_FDCWD = -100
RENAME_EXCHANGE = 1 << 1
UNSUPPORTED = frozenset({errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP})
"""What the kernel, or the file system, answers when it cannot swap."""

_libc: list[Any] = []


def _renameat2() -> Any:
    if not _libc:
        call = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
        if call is not None:
            path, fd = ctypes.c_char_p, ctypes.c_int
            call.argtypes = [fd, path, fd, path, ctypes.c_uint]
        _libc.append(call)
    return _libc[0]


def exchange(a: str, b: str) -> bool:
    """Swap the files named *a* and *b* (both must exist) in one step; False, having done
    nothing, where the C library, the kernel or the file system cannot."""
    call = _renameat2()
    if call is None:
        return False
    if call(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    number = ctypes.get_errno()
    if number in UNSUPPORTED:
        return False
    raise OSError(number, os.strerror(number), b)

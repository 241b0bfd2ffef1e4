"""A full disk, a permission denied or a read-only file system, said as one sentence naming the
file: "the disk holding /home/me/.local/share/roots-manager/store.json is full", not
"[Errno 28] No space left on device".

These are the failures a user fixes themselves, so the message says what to fix and where;
every other error keeps its own text. The CLI and the bridge both say them so, from here.
"""

from __future__ import annotations

import errno
import os

from roots_manager.support.writeerror import WriteRefused


def explained(exc: OSError) -> str | None:
    """One sentence for *exc* if it is a full disk, a denied permission or a read-only file
    system with a known file; None for any other error."""
    cause = exc if exc.errno is not None else exc.__cause__
    if not isinstance(cause, OSError) or cause.errno is None:
        return None
    path = getattr(exc, "path", None) or cause.filename
    if path is None:
        return None
    path = os.fsdecode(path)
    if cause.errno == errno.ENOSPC:
        return f"the disk holding {path} is full: free some space and try again"
    if cause.errno == getattr(errno, "EDQUOT", None):
        return (
            f"your disk quota is used up on the disk holding {path}: free some space and try again"
        )
    if cause.errno == errno.EROFS:
        return f"{path} is on a read-only file system, so it cannot be written"
    if cause.errno in (errno.EACCES, errno.EPERM) and (
        isinstance(cause, WriteRefused) or getattr(exc, "path", None) is not None
    ):
        # only a write said to be one (a save, a lock, a folder made, a host file written):
        # a read refused reads the same, and its own message says so already
        return (
            f"no permission to write {path}: check the owner and permissions of the file and "
            "of its folder"
        )
    return None


def message(exc: OSError) -> str:
    """What to print for *exc*: :func:`explained`, or the error's own text."""
    return explained(exc) or str(exc)

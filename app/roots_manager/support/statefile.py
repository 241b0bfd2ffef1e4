"""Reading a file of the per-user directory without trusting what it is.

Everything Roots Manager keeps is a small regular file. Whatever else stands in its place must be
refused, not read: a named pipe blocks its reader until some writer comes (for ever, usually),
a link to ``/dev/zero`` never ends, and a huge file only costs memory. Each refusal is an
:class:`OSError` naming the path, so a caller that already copes with unreadable files copes.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)

# O_NONBLOCK: opening a FIFO waits for a writer otherwise. O_NOCTTY: a terminal device must not
# become this process's controlling terminal. Neither exists on Windows, nor O_CLOEXEC there.
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class NotRegularFile(OSError):
    """The path is a folder, a pipe, a device or a socket; :attr:`kind` says which."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(f"{path} is {kind}, not a regular file")
        self.kind = kind


class TooLarge(OSError):
    """The file holds more than the limit; :attr:`size` is at least what it holds."""

    def __init__(self, path: Path, size: int, limit: int) -> None:
        super().__init__(f"{path} holds more than {limit} bytes")
        self.size = size


class DanglingLink(OSError):
    """The path is a symbolic link to nothing; :attr:`target` is what it points to."""

    def __init__(self, path: Path, target: str) -> None:
        super().__init__(f"{path} is a symbolic link to {target}, which does not exist")
        self.target = target


def described(path: Path) -> str:
    """*path* for a message, with what it points to if it is a symbolic link."""
    if os.path.islink(path):
        return f"{path} (a symbolic link to {os.readlink(path)})"
    return str(path)


def _check(path: Path, st: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "a special file")
        raise NotRegularFile(path, kind)
    if st.st_size > limit:
        raise TooLarge(path, st.st_size, limit)


SHARING_PAUSES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5)
"""Pauses between tries of a file operation Windows refuses while another process has the file
open (a reader of the store while it is replaced): about a second in all."""

T = TypeVar("T")


def retrying(
    op: Callable[[], T],
    *,
    windows: bool = os.name == "nt",
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """*op*, tried again while Windows refuses it with :class:`PermissionError` because another
    process has the file open (a sharing violation); elsewhere a refusal is final at once."""
    if windows:
        for pause in SHARING_PAUSES:
            try:
                return op()
            except PermissionError:
                sleep(pause)
    return op()


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file *path* (symbolic links followed), at most *limit* of them.

    Raises :class:`FileNotFoundError` if there is nothing at *path*, :class:`DanglingLink`,
    :class:`NotRegularFile` or :class:`TooLarge` instead of reading, and :class:`OSError` for
    the rest.
    """
    try:
        # checked before opening as well: opening a device can act on it (a tape rewinds)
        _check(path, os.stat(path), limit)
        fd = retrying(lambda: os.open(path, _OPEN_FLAGS))
    except FileNotFoundError:
        if os.path.islink(path):
            raise DanglingLink(path, os.readlink(path)) from None
        raise
    with os.fdopen(fd, "rb") as f:
        _check(path, os.fstat(fd), limit)  # what was opened may not be what was checked
        data = f.read(limit + 1)  # the size said nothing of a file still growing
    if len(data) > limit:
        raise TooLarge(path, len(data), limit)
    return data

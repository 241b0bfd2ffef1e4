"""inotify: the kernel's notices of changes to directories and their entries, on a descriptor.

The calls are made through the process's own symbols (libc's among them): ``find_library``
would run ``ldconfig`` in a subprocess. The descriptor is non-blocking and closed on exec, so a
server started after it never holds it.
"""

from __future__ import annotations

import ctypes
import os
import struct
from collections.abc import Callable
from typing import Any, NamedTuple

IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000

IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000

_HEADER = struct.Struct("iIII")
"""``struct inotify_event``: wd, mask, cookie, len; the name (NUL-padded to len) follows."""
READ_SIZE = 65536

_libc: Any = None


def _load() -> Any:
    global _libc
    if _libc is None:
        lib = ctypes.CDLL(None, use_errno=True)
        lib.inotify_init1.argtypes = [ctypes.c_int]
        lib.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        lib.inotify_rm_watch.argtypes = [ctypes.c_int, ctypes.c_int]
        _libc = lib
    return _libc


def _error(what: str, path: str | None = None) -> OSError:
    number = ctypes.get_errno()
    return OSError(number, f"{what}: {os.strerror(number)}", path)


class Event(NamedTuple):
    wd: int
    """The watch it is about; -1 for :data:`IN_Q_OVERFLOW` (events were lost)."""
    mask: int
    name: str
    """The entry it is about; empty when it is about the watched directory itself."""


class Inotify:
    """One inotify descriptor and its watches."""

    def __init__(self) -> None:
        self._lib = _load()
        self.fd = int(self._lib.inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
        if self.fd < 0:
            raise _error("inotify_init1")

    def fileno(self) -> int:
        return self.fd

    def add(self, path: str, mask: int) -> int:
        """Watch *path* for *mask*; its watch descriptor (the same one for the same inode)."""
        wd = int(self._lib.inotify_add_watch(self.fd, os.fsencode(path), mask))
        if wd < 0:
            raise _error("inotify_add_watch", path)
        return wd

    def remove(self, wd: int) -> None:
        """Stop watch *wd* (already gone with its inode: nothing to do)."""
        self._lib.inotify_rm_watch(self.fd, wd)

    def read(self) -> list[Event] | None:
        """The events queued now (empty when none); None when the descriptor failed."""
        try:
            data = os.read(self.fd, READ_SIZE)
        except BlockingIOError:
            return []
        except OSError:
            return None
        if not data:
            return None
        events = []
        at = 0
        while at + _HEADER.size <= len(data):
            wd, mask, _cookie, size = _HEADER.unpack_from(data, at)
            at += _HEADER.size
            name = os.fsdecode(data[at : at + size].rstrip(b"\0"))
            at += size
            events.append(Event(wd, mask, name))
        return events

    def drain(self, matters: Callable[[Event], bool] | None = None) -> bool:
        """Read every event queued; True if there was one that *matters* (any, when None), or
        the descriptor failed."""
        seen = False
        while True:
            events = self.read()
            if events is None:
                return True
            if not events:
                return seen
            seen = seen or matters is None or any(matters(e) for e in events)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

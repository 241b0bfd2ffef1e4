"""The C library, for the system calls and ``prctl`` options the standard library lacks.

Loaded once, on first use (the modules that use it import anywhere, even where there is no such
library to load: Windows), with one set of prototypes for every caller.
"""

from __future__ import annotations

import ctypes
import os

SYS_PIDFD_GETFD = 438
"""The same on every architecture (numbered after the tables were unified)."""

_loaded: ctypes.CDLL | None = None


def libc() -> ctypes.CDLL:
    """This process's C library, its ``errno`` kept for :func:`ctypes.get_errno`."""
    global _loaded
    if _loaded is None:
        lib = ctypes.CDLL(None, use_errno=True)
        lib.syscall.restype = ctypes.c_long
        lib.prctl.restype = ctypes.c_int
        lib.prctl.argtypes = (ctypes.c_int, *(ctypes.c_ulong,) * 4)
        lib.fchownat.argtypes = (
            ctypes.c_int,
            ctypes.c_char_p,
            ctypes.c_uint,
            ctypes.c_uint,
            ctypes.c_int,
        )
        lib.utimensat.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int)
        _loaded = lib
    return _loaded


def checked(ret: int, error: type[OSError] = OSError) -> int:
    """*ret* from a C call, or *error* with its ``errno`` when it is negative."""
    if ret < 0:
        err = ctypes.get_errno()
        raise error(err, os.strerror(err))
    return ret


def syscall(number: int, *args: object, error: type[OSError] = OSError) -> int:
    """System call *number*; raises *error* with its ``errno`` when it fails."""
    return checked(int(libc().syscall(ctypes.c_long(number), *args)), error)


def prctl(option: int, value: int = 0) -> None:
    """``prctl(option, value, 0, 0, 0)``; raises :class:`OSError` when it fails."""
    checked(libc().prctl(option, value, 0, 0, 0))


def pidfd_getfd(pidfd: int, fd: int) -> int:
    """A copy, in this process, of descriptor *fd* of the process *pidfd* names."""
    return syscall(SYS_PIDFD_GETFD, pidfd, fd, 0)

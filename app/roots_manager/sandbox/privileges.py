"""Dropping every capability, so that a confined server run as root gains nothing from it.

A process run by root holds every capability: it could read any file the rules leave open
whatever its mode, change owners, send signals anywhere, inject into a terminal. Before the
server runs, its process drops them all: the bounding set (so that no ``exec`` gives any back),
the ambient set, and the effective, permitted and inheritable sets. As root the ``noroot``
secure bits are also set and locked, so that ``exec`` does not grant root its capabilities again.
An ordinary user has none to drop; the calls that need a capability to be made are skipped.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys

assert sys.platform == "linux", "imported only where Landlock confines (Linux)"

PR_CAPBSET_DROP = 24
PR_SET_SECUREBITS = 28
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
SECBITS_LOCKED_NOROOT = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80
"""noroot, no_setuid_fixup, keep_caps locked off, no_cap_ambient_raise: each with its lock."""
CAPABILITY_VERSION_3 = 0x20080522


class _Header(ctypes.Structure):
    _fields_ = (("version", ctypes.c_uint32), ("pid", ctypes.c_int))


class _Data(ctypes.Structure):
    _fields_ = (
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    )


def _libc() -> ctypes.CDLL:
    lib = ctypes.CDLL(None, use_errno=True)
    lib.prctl.restype = ctypes.c_int
    lib.prctl.argtypes = (
        ctypes.c_int,
        ctypes.c_ulong,
        ctypes.c_ulong,
        ctypes.c_ulong,
        ctypes.c_ulong,
    )
    return lib


def last_capability() -> int:
    """The highest capability number this kernel knows."""
    try:
        with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 63


def drop_bounding() -> None:
    """Lock root out of its capabilities at ``exec`` and empty the bounding set (as root).

    Needs ``CAP_SETPCAP``: an ordinary user's process has it not, and has no capability that
    an ``exec`` could give it under no-new-privileges either.
    """
    lib = _libc()
    failed = lib.prctl(PR_SET_SECUREBITS, SECBITS_LOCKED_NOROOT, 0, 0, 0) != 0
    if failed and ctypes.get_errno() != errno.EPERM:
        raise OSError(ctypes.get_errno(), "the secure bits cannot be set")
    for cap in range(last_capability() + 1):
        if lib.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            err = ctypes.get_errno()
            if err == errno.EINVAL:  # past what this kernel knows
                break
            if err != errno.EPERM:
                raise OSError(err, f"capability {cap} cannot be dropped: {os.strerror(err)}")


def drop_all() -> None:
    """Empty the ambient, effective, permitted and inheritable capability sets of this thread."""
    lib = _libc()
    failed = lib.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0
    if failed and ctypes.get_errno() != errno.EINVAL:  # a kernel without ambient capabilities
        raise OSError(ctypes.get_errno(), "the ambient capabilities cannot be cleared")
    header = _Header(CAPABILITY_VERSION_3, 0)
    data = (_Data * 2)()
    if lib.capset(ctypes.byref(header), data) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"the capabilities cannot be dropped: {os.strerror(err)}")


def held() -> dict[str, int]:
    """This process's capability sets as ``/proc/self/status`` shows them (for reports, tests)."""
    out: dict[str, int] = {}
    with open("/proc/self/status", encoding="ascii", errors="replace") as f:
        for line in f:
            if line.startswith("Cap"):
                key, value = line.split(":", 1)
                out[key] = int(value.strip(), 16)
    return out

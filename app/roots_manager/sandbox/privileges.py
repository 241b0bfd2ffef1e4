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

from roots_manager.sandbox import libc

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
    try:
        libc.prctl(PR_SET_SECUREBITS, SECBITS_LOCKED_NOROOT)
    except PermissionError:
        return  # not CAP_SETPCAP: an ordinary user's, with nothing to lock or drop
    for cap in range(last_capability() + 1):
        try:
            libc.prctl(PR_CAPBSET_DROP, cap)
        except PermissionError:
            return  # not CAP_SETPCAP: an ordinary user's, which an exec gives nothing
        except OSError as exc:
            if exc.errno == errno.EINVAL:  # past what this kernel knows
                return
            raise


def drop_all() -> None:
    """Empty the ambient, effective, permitted and inheritable capability sets of this thread."""
    try:
        libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    except OSError as exc:
        if exc.errno != errno.EINVAL:  # EINVAL: a kernel without ambient capabilities
            raise
    header = _Header(CAPABILITY_VERSION_3, 0)
    data = (_Data * 2)()
    libc.checked(libc.libc().capset(ctypes.byref(header), data))


def map_own_ids(uid: int, gid: int) -> None:
    """In a user namespace this process just made: its user and group ids map to themselves,
    and to nothing else (no group may be added: ``setgroups`` denied first, as the kernel
    requires of an unprivileged mapping)."""
    for path, text in (
        ("/proc/self/setgroups", "deny"),
        ("/proc/self/uid_map", f"{uid} {uid} 1"),
        ("/proc/self/gid_map", f"{gid} {gid} 1"),
    ):
        fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)

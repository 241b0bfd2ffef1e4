"""The seccomp filter a confined server runs under, and the notifications it raises.

Landlock decides which files a server may open; it has no right for what is done to a file
without opening it, nor for a Unix socket named by path. The filter closes those ways out:

- **metadata**: ``chmod``, ``chown``, ``utime`` and the ``*xattr`` calls, in every form (by
  path, by descriptor, relative to a folder), raise a *user notification*: the supervisor
  (:mod:`roots_manager.sandbox.metadata`) decides from the object named and performs the change
  itself, so that it is made inside the writable grants only;
- **Unix sockets**: ``socket(AF_UNIX, ...)`` is refused (``socketpair`` is not a ``socket``
  call and keeps working); when the user allowed named sockets, the socket may be made and each
  ``connect`` is decided by the supervisor, which connects to the allowed path itself;
- **the terminal**: ``ioctl(TIOCSTI)`` and ``ioctl(TIOCLINUX)`` are refused;
- ``io_uring_setup`` is refused: its operations (``setxattr`` among them) never pass the filter;
- a system call of another architecture (x32, or 32-bit code) is refused as not implemented.

x86-64 and AArch64; the filter is the kernel's classic BPF, built here.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_BIT = 0x40000000

METADATA = (
    *("chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "lchown", "fchown", "fchownat"),
    *("utime", "utimes", "futimesat", "utimensat"),
    *("setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr"),
)
"""The calls decided by the supervisor."""
_NAMES = (
    *METADATA,
    *("setxattrat", "removexattrat", "ioctl", "socket", "connect", "io_uring_setup", "seccomp"),
)
# the numbers of the calls the filter names, per architecture (None: the call does not exist)
_X86_64: tuple[int | None, ...] = (
    *(90, 91, 268, 452, 92, 94, 93, 260, 132, 235, 261, 280),
    *(188, 189, 190, 197, 198, 199, 463, 466, 16, 41, 42, 425, 317),
)
_AARCH64: tuple[int | None, ...] = (
    *(None, 52, 53, 452, None, None, 55, 54, None, None, None, 88),
    *(5, 6, 7, 14, 15, 16, 463, 466, 29, 198, 203, 425, 277),
)
SYSCALLS: dict[str, dict[str, int | None]] = {
    "x86_64": dict(zip(_NAMES, _X86_64, strict=True)),
    "aarch64": dict(zip(_NAMES, _AARCH64, strict=True)),
}
NOT_IMPLEMENTED = ("setxattrat", "removexattrat")
"""Newer forms the supervisor does not decide: refused as absent (libc falls back)."""

TIOCSTI = 0x5412
TIOCLINUX = 0x541C
AF_UNIX = 1
SOCK_STREAM = 1

_LD_ABS_W = 0x20
_AND = 0x54
_JEQ = 0x15
_JGE = 0x35
_RET = 0x06
RET_ALLOW = 0x7FFF0000
RET_NOTIFY = 0x7FC00000
RET_ERRNO = 0x00050000

SET_MODE_FILTER = 1
GET_NOTIF_SIZES = 3
FLAG_NEW_LISTENER = 1 << 3


class SeccompError(OSError):
    """The filter cannot be built or installed here."""


def machine() -> str:
    """This machine's architecture, as :data:`SYSCALLS` names it."""
    name = os.uname().machine.lower()  # not the platform module: 2.5 ms of the wrapper's start
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(name, name)


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k & 0xFFFFFFFF)


def _errno(code: int) -> int:
    return RET_ERRNO | code


def program(arch: str, *, sockets: bool) -> bytes:
    """The filter for *arch*; *sockets*: Unix sockets may be made, and their ``connect``
    is decided by the supervisor (the user allowed some by path)."""
    if arch not in SYSCALLS:
        raise SeccompError(errno.ENOSYS, f"no seccomp filter for the {arch} architecture")
    nr = SYSCALLS[arch]
    ops = [
        _op(_LD_ABS_W, 4),  # arch
        _op(_JEQ, AUDIT_ARCH[arch], 1, 0),
        _op(_RET, _errno(errno.ENOSYS)),
        _op(_LD_ABS_W, 0),  # nr
    ]
    if arch == "x86_64":
        ops += [_op(_JGE, X32_BIT, 0, 1), _op(_RET, _errno(errno.ENOSYS))]

    def one(number: int | None, action: int) -> None:
        if number is not None:
            ops.extend((_op(_JEQ, number, 0, 1), _op(_RET, action)))

    for name in METADATA:
        one(nr[name], RET_NOTIFY)
    for name in NOT_IMPLEMENTED:
        one(nr[name], _errno(errno.ENOSYS))
    one(nr["io_uring_setup"], _errno(errno.EPERM))
    # a second filter could not be refused by this one's notifier: only this one is installed
    one(nr["seccomp"], _errno(errno.EPERM))
    ioctl = nr["ioctl"]
    assert ioctl is not None
    # ioctl(fd, request): the request is an unsigned int, so only its low 32 bits are compared
    ops += [
        _op(_JEQ, ioctl, 0, 6),
        _op(_LD_ABS_W, 16 + 8 * 1),
        _op(_JEQ, TIOCSTI, 0, 1),
        _op(_RET, _errno(errno.EPERM)),
        _op(_JEQ, TIOCLINUX, 0, 1),
        _op(_RET, _errno(errno.EPERM)),
        _op(_RET, RET_ALLOW),
    ]
    socket = nr["socket"]
    assert socket is not None
    if sockets:
        # a stream socket only: a datagram one could send to any path without a connect
        ops += [
            _op(_JEQ, socket, 0, 7),
            _op(_LD_ABS_W, 16),
            _op(_JEQ, AF_UNIX, 0, 4),
            _op(_LD_ABS_W, 16 + 8 * 1),
            _op(_AND, 0xF),
            _op(_JEQ, SOCK_STREAM, 1, 0),
            _op(_RET, _errno(errno.EACCES)),
            _op(_RET, RET_ALLOW),
        ]
        one(nr["connect"], RET_NOTIFY)
    else:
        ops += [
            _op(_JEQ, socket, 0, 4),
            _op(_LD_ABS_W, 16),
            _op(_JEQ, AF_UNIX, 0, 1),
            _op(_RET, _errno(errno.EACCES)),
            _op(_RET, RET_ALLOW),
        ]
    ops.append(_op(_RET, RET_ALLOW))
    return b"".join(ops)


class _Fprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


def _libc() -> ctypes.CDLL:
    lib = ctypes.CDLL(None, use_errno=True)
    lib.syscall.restype = ctypes.c_long
    return lib


def install(arch: str, *, sockets: bool) -> int:
    """Install the filter on this thread's process; returns the notification descriptor.

    No-new-privileges must already be set. The descriptor must reach the supervisor and be
    closed here before the server runs: whoever holds it answers the notifications.
    """
    code = program(arch, sockets=sockets)
    buf = ctypes.create_string_buffer(code, len(code))
    prog = _Fprog(len(code) // 8, ctypes.cast(buf, ctypes.c_void_p))
    number = SYSCALLS[arch]["seccomp"]
    assert number is not None
    fd = int(
        _libc().syscall(
            ctypes.c_long(number),
            ctypes.c_uint(SET_MODE_FILTER),
            ctypes.c_uint(FLAG_NEW_LISTENER),
            ctypes.byref(prog),
        )
    )
    if fd < 0:
        err = ctypes.get_errno()
        raise SeccompError(err, f"the seccomp filter cannot be installed: {os.strerror(err)}")
    return fd


def names(arch: str) -> dict[int, str]:
    """The filtered calls by number, on *arch*."""
    return {n: name for name, n in SYSCALLS[arch].items() if n is not None}


TEST_OFF_ENV = "ROOTS_MANAGER_TEST_NO_SECCOMP"
"""Test-only: pretend this kernel has no seccomp user notification (as Linux before 5.0)."""


def available() -> str | None:
    """Why the filter cannot be used on this machine, or None."""
    if os.environ.get(TEST_OFF_ENV):
        return "this kernel's seccomp has no user notification (Linux 5.0)"
    if machine() not in SYSCALLS:
        return f"no seccomp filter is written for the {machine()} architecture"
    try:
        with open("/proc/sys/kernel/seccomp/actions_avail", encoding="ascii") as f:
            actions = f.read().split()
    except OSError:
        return "this kernel has no seccomp filters"
    if "user_notif" not in actions:
        return "this kernel's seccomp has no user notification (Linux 5.0)"
    return None

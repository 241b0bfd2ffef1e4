"""The seccomp filter a confined server runs under.

Landlock decides which files a server may open; it has no right for what is done to a file
without opening it, nor for a Unix socket named by path, nor for the rest of what a process of
the user can reach. The filter closes those ways out:

- **metadata**: ``chmod``, ``chown``, ``utime`` and the ``*xattr`` calls, in every form (by
  path, by descriptor, relative to a folder), raise a *user notification*: the supervisor
  (:mod:`roots_manager.sandbox.notified_calls`) decides from the object named and performs the
  change itself, so that it is made inside the writable grants only. The file systems' own ioctls
  (attributes, versions, encryption keys, btrfs subvolumes) and ``file_setattr`` are refused
  but for those that only read or clone; no file is made set-user-ID or set-group-ID; no lease;
- **Unix sockets**: ``socket(AF_UNIX, ...)`` makes stream sockets only, and ``socketpair``
  stream or sequenced pairs (an unconnected datagram socket could send to any path); each
  ``bind`` is made by the supervisor (no abstract name, a path in a writable grant only), and
  each ``connect`` is decided by it (a socket the user allowed, or one the server bound in its
  own temporary folder); with neither, ``socket(AF_UNIX)`` is refused;
- **the terminal**: ``ioctl(TIOCSTI)`` and ``ioctl(TIOCLINUX)`` are refused;
- **other processes**: a user namespace (and so mounts of its own), ``setns``, and changing the
  limits, priority or CPUs of any process but itself are refused; so are the keyrings and System
  V IPC, which every process of the user shares;
- ``io_uring`` is refused: its operations never pass the filter; a second listening filter is
  refused; the newer calls whose arguments sit in memory (``clone3``, ``openat2``,
  ``setxattrat``...) are "not implemented", and libc falls back to the older ones;
- a system call of another architecture (x32, or 32-bit code) is refused as not implemented.

x86-64 and AArch64; the filter is the kernel's classic BPF, built here.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
import sys

from roots_manager.sandbox import libc

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_BIT = 0x40000000

METADATA = (
    *("chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "lchown", "fchown", "fchownat"),
    *("utime", "utimes", "futimesat", "utimensat"),
    *("setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr"),
)
"""The calls decided by the supervisor."""
NOT_IMPLEMENTED = ("setxattrat", "removexattrat", "file_setattr", "clone3", "openat2")
"""Refused as absent (libc and runtimes fall back to the older call, which the filter sees):
newer forms whose arguments sit in memory, where the filter cannot read them."""
REFUSED = (
    # io_uring's operations (setxattr among them) never pass the filter
    *("io_uring_setup", "io_uring_enter", "io_uring_register"),
    # a second listener would answer for this filter
    "seccomp",
    # the user's keyrings are shared with everything else the user runs
    *("keyctl", "add_key", "request_key"),
    # namespaces and mounts: a mount of its own would mislead the supervisor's checks
    *("setns", "mount", "umount2", "pivot_root", "open_tree", "open_tree_attr", "move_mount"),
    *("fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr"),
    # System V IPC is shared with every process of the user (a segment is found by its number)
    *("shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semctl", "semtimedop"),
    *("msgget", "msgsnd", "msgrcv", "msgctl"),
)
"""Refused outright (``EPERM``)."""

# the numbers, per architecture; a name missing from one does not exist there
SYSCALLS: dict[str, dict[str, int]] = {
    "x86_64": {
        **{"chmod": 90, "fchmod": 91, "fchmodat": 268, "fchmodat2": 452, "chown": 92},
        **{"lchown": 94, "fchown": 93, "fchownat": 260, "utime": 132, "utimes": 235},
        **{"futimesat": 261, "utimensat": 280, "setxattr": 188, "lsetxattr": 189},
        **{"fsetxattr": 190, "removexattr": 197, "lremovexattr": 198, "fremovexattr": 199},
        **{"setxattrat": 463, "removexattrat": 466, "file_setattr": 469, "clone3": 435},
        **{"openat2": 437, "io_uring_setup": 425, "io_uring_enter": 426},
        **{"io_uring_register": 427, "seccomp": 317, "keyctl": 250, "add_key": 248},
        **{"request_key": 249, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155},
        **{"open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431},
        **{"fsmount": 432, "fspick": 433, "mount_setattr": 442, "ioctl": 16, "socket": 41},
        **{
            "socketpair": 53,
            "connect": 42,
            "bind": 49,
            "clone": 56,
            "fork": 57,
            "vfork": 58,
            "unshare": 272,
            "prlimit64": 302,
        },
        **{"setpriority": 141, "sched_setaffinity": 203, "sched_setscheduler": 144},
        **{"sched_setparam": 142, "sched_setattr": 314, "ioprio_set": 251},
        **{"open": 2, "openat": 257, "creat": 85, "mkdir": 83, "mkdirat": 258, "mknod": 133},
        **{"mknodat": 259, "open_tree_attr": 467, "fcntl": 72, "shmget": 29, "shmat": 30},
        **{"shmctl": 31, "shmdt": 67, "semget": 64, "semop": 65, "semctl": 66},
        **{"semtimedop": 220, "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71},
        **{"execve": 59, "execveat": 322, "unlink": 87, "unlinkat": 263, "rmdir": 84},
        **{"truncate": 76, "symlink": 88, "symlinkat": 266, "rename": 82, "renameat": 264},
        **{"renameat2": 316, "link": 86, "linkat": 265},
    },
    "aarch64": {
        **{"fchmod": 52, "fchmodat": 53, "fchmodat2": 452, "fchown": 55, "fchownat": 54},
        **{"utimensat": 88, "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7, "removexattr": 14},
        **{"lremovexattr": 15, "fremovexattr": 16, "setxattrat": 463, "removexattrat": 466},
        **{"file_setattr": 469, "clone3": 435, "openat2": 437, "io_uring_setup": 425},
        **{"io_uring_enter": 426, "io_uring_register": 427, "seccomp": 277, "keyctl": 219},
        **{"add_key": 217, "request_key": 218, "setns": 268, "mount": 40, "umount2": 39},
        **{"pivot_root": 41, "open_tree": 428, "move_mount": 429, "fsopen": 430},
        **{"fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "ioctl": 29},
        **{
            "socket": 198,
            "socketpair": 199,
            "connect": 203,
            "bind": 200,
            "clone": 220,
            "unshare": 97,
        },
        **{"prlimit64": 261, "setpriority": 140, "sched_setaffinity": 122},
        **{"sched_setscheduler": 119, "sched_setparam": 118, "sched_setattr": 274},
        **{"ioprio_set": 30, "openat": 56, "mkdirat": 34, "mknodat": 33},
        **{"open_tree_attr": 467, "fcntl": 25, "msgget": 186, "msgctl": 187, "msgrcv": 188},
        **{"msgsnd": 189, "semget": 190, "semctl": 191, "semtimedop": 192, "semop": 193},
        **{"shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197},
        **{"execve": 221, "execveat": 281, "unlinkat": 35, "truncate": 45, "symlinkat": 36},
        **{"renameat": 38, "renameat2": 276, "linkat": 37},
    },
}

SETID = 0o6000
"""The set-user-ID and set-group-ID bits: a confined server makes no such file."""
CREATING = {"openat": 3, "open": 2, "creat": 1, "mkdir": 1, "mkdirat": 2, "mknod": 1, "mknodat": 2}
"""Calls that make a file with a mode, and which argument the mode is."""
OPEN_FLAGS = {"openat": 2, "open": 1}
"""The calls of :data:`CREATING` that make a file only with ``O_CREAT``, and which argument
their flags are."""
O_CREAT = 0o100
NAMING = (*("rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat"),)
"""Calls that give a new name to an object (besides :data:`CREATING`): with names kept from
being made (``--guard``), these and the creating calls wait for the supervisor, which makes
each itself."""
REMOVING = ("unlink", "unlinkat", "rmdir")
EMPTYING = ("truncate",)
"""A file emptied by its name, made by the supervisor where removals are (*removes*)."""
"""Calls that remove a name: with repositories kept beneath a grant, these wait for the
supervisor too, which removes each name itself unless it is kept."""
WRITE_ACCESS = 0o3 | 0o1000  # O_WRONLY, O_RDWR, O_TRUNC
"""The open flags that write an existing file: with repositories kept beneath a grant, an open
with any of them waits for the supervisor, which opens the file itself unless it is kept."""
OTHERS_ONLY = {
    "prlimit64": (0,),
    "setpriority": (0, 1),
    "sched_setaffinity": (0,),
    "sched_setscheduler": (0,),
    "sched_setparam": (0,),
    "sched_setattr": (0,),
    "ioprio_set": (1,),
}
"""Calls that may name another process (or a group, or a user), and the arguments that do:
refused unless they are 0, this process (the limits, priority and CPUs of a process outside the
server's tree, its supervisor's among them, are not the server's to change)."""
CLONE_NEWUSER = 0x10000000
CLONE_THREAD = 0x00010000
FORKS = ("clone", "fork", "vfork")
"""The calls that make a process (``clone3`` is "not implemented"): with a limit of processes,
each that makes one (not a thread) waits for the supervisor, which counts the tree."""
TIOCSTI = 0x5412
TIOCLINUX = 0x541C
FS_IOCTL_TYPES = (0x66, 0x76, 0x94, 0x58, 0xF5)
"""The ioctl families of file systems (``f``: ext4, fscrypt, fs-verity and the generic flags;
``v``: versions; btrfs; ``X``: XFS; f2fs): they set attributes, versions, keys, delete
subvolumes, none of which Landlock hooks on a file or folder. Refused, but :data:`FS_IOCTLS_KEPT`."""
FS_IOCTLS_KEPT = (
    *(0x80086601, 0x80046601),  # FS_IOC_GETFLAGS
    *(0x80087601, 0x80047601, 0x80086603, 0x80046603),  # FS_IOC_GETVERSION, EXT4's
    0xC020660B,  # FS_IOC_FIEMAP (cp reads where a file's data is)
    *(0x400C6615, 0xC0096616),  # FS_IOC_GET_ENCRYPTION_POLICY(_EX)
    *(0xC0046686, 0xC0286687),  # fs-verity: measure, read its metadata
    *(0x40049409, 0x4020940D, 0xC0189436),  # FICLONE, FICLONERANGE, FIDEDUPERANGE (copies)
    0x801C581F,  # FS_IOC_FSGETXATTR
)
"""What of those families only reads, or clones into a file already opened for writing."""
F_SETLEASE = 1024
"""A lease on a file it may only read would let the server stall every writer of it."""
AF_UNIX = 1
AF_INET = 2
AF_INET6 = 10
AF_NETLINK = 16
NAMESPACED = (AF_NETLINK, AF_INET, AF_INET6)
INET = (AF_INET, AF_INET6)
"""The socket families a server in a network namespace of its own may make (*families*): each
reaches only that namespace. The others (vsock to the host, packet, Bluetooth, ...) do not
know namespaces, and stay refused."""
SOCK_STREAM = 1
SOCK_SEQPACKET = 5

_LD_ABS_W = 0x20
_AND = 0x54
_JEQ = 0x15
_JGE = 0x35
_RET = 0x06
RET_ALLOW = 0x7FFF0000
RET_NOTIFY = 0x7FC00000
RET_ERRNO = 0x00050000

SET_MODE_FILTER = 1
FLAG_NEW_LISTENER = 1 << 3
FLAG_WAIT_KILLABLE_RECV = 1 << 5
"""A call the supervisor has received waits for its answer killable only (Linux 5.19)."""
TEST_INTERRUPTIBLE_ENV = "ROOTS_MANAGER_TEST_INTERRUPTIBLE_WAIT"
"""Test-only: install the filter without :data:`FLAG_WAIT_KILLABLE_RECV`, as an older kernel
would, so that a test shows what the flag holds (a held call cut by a signal, without it)."""


class SeccompError(OSError):
    """The filter cannot be built or installed here."""


def machine() -> str:
    """This machine's architecture, as :data:`SYSCALLS` names it."""
    if sys.platform == "win32":  # nothing is confined there
        return "unknown"
    name = os.uname().machine.lower()  # not the platform module: 2.5 ms of the wrapper's start
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(name, name)


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k & 0xFFFFFFFF)


def _errno(code: int) -> int:
    return RET_ERRNO | code


def _arg(index: int) -> bytes:
    # an argument's low 32 bits: every one compared here is a C int or unsigned int
    return _op(_LD_ABS_W, 16 + 8 * index)


def _block(number: int | None, body: list[bytes]) -> list[bytes]:
    """*body* run for call *number* (it ends in a return); other calls skip it."""
    if number is None:
        return []
    return [_op(_JEQ, number, 0, len(body)), *body]


def _nonzero(
    conditions: list[tuple[int, int]], action: int, otherwise: int = RET_ALLOW
) -> list[bytes]:
    """*action* when any (argument & mask) is not 0; *otherwise* (allowed) if none is."""
    body: list[bytes] = []
    for index, mask in conditions:
        body += [_arg(index), _op(_AND, mask), _op(_JEQ, 0, 1, 0), _op(_RET, action)]
    return [*body, _op(_RET, otherwise)]


def _one_of(index: int, values: tuple[int, ...], action: int) -> list[bytes]:
    """*action* when argument *index* is one of *values*; allowed otherwise."""
    body = [_arg(index)]
    for value in values:
        body += [_op(_JEQ, value, 0, 1), _op(_RET, action)]
    return [*body, _op(_RET, RET_ALLOW)]


def _ioctl(action: int) -> list[bytes]:
    """The terminal's injections refused, and the file systems' families but what they keep."""
    body = [_arg(1)]
    for value in (TIOCSTI, TIOCLINUX):
        body += [_op(_JEQ, value, 0, 1), _op(_RET, action)]
    for value in FS_IOCTLS_KEPT:
        body += [_op(_JEQ, value, 0, 1), _op(_RET, RET_ALLOW)]
    body.append(_op(_AND, 0xFF00))
    for kind in FS_IOCTL_TYPES:
        body += [_op(_JEQ, kind << 8, 0, 1), _op(_RET, action)]
    return [*body, _op(_RET, RET_ALLOW)]


OBSERVED = (
    *("execve", "execveat", "unlink", "unlinkat", "rmdir", "truncate", "symlink", "symlinkat"),
)
"""With *observe*, passed to the supervisor's observer too (besides :data:`CREATING`), which
always lets them go on (:mod:`roots_manager.sandbox.observer`)."""


def program(
    arch: str,
    *,
    sockets: bool,
    network: bool = True,
    observe: bool = False,
    processes: bool = False,
    guard: bool = False,
    writes: bool = False,
    removes: bool = False,
    families: tuple[int, ...] | None = None,
    streams: tuple[int, ...] = (),
) -> bytes:
    """The filter for *arch*; *sockets*: Unix stream sockets may be made, and every
    ``connect`` is decided by the supervisor (the user allowed some sockets by path);
    *network* False: no socket of any family but Unix and the kernel's netlink (no TCP, UDP,
    ICMP, raw or packet socket, no vsock to a host); *families* (with *network* True): no
    socket of any family but Unix and these (:data:`NAMESPACED`), and of the *streams* families
    among them (:data:`INET`) stream sockets only (TCP: no UDP, no raw); *observe*: the path-taking calls are shown
    to the supervisor, which tells the refusals Landlock will make and lets each go on;
    *processes*: each new process (not a thread) waits for the supervisor, which refuses it
    past the server's limit of processes; *guard*: each call that makes a name (a file, a
    folder, a link, a rename) waits for the supervisor, which makes it itself unless the name
    is one the server may not make; *writes* (with *guard*): so does each open that writes an
    existing file; *removes* (with *guard*): so does each removal of a name, and each
    ``truncate`` by a name."""
    if arch not in SYSCALLS:
        raise SeccompError(errno.ENOSYS, f"no seccomp filter for the {arch} architecture")
    nr = SYSCALLS[arch].get
    eperm, eacces = _errno(errno.EPERM), _errno(errno.EACCES)
    ops = [
        _op(_LD_ABS_W, 4),  # arch
        _op(_JEQ, AUDIT_ARCH[arch], 1, 0),
        _op(_RET, _errno(errno.ENOSYS)),
        _op(_LD_ABS_W, 0),  # nr
    ]
    if arch == "x86_64":
        ops += [_op(_JGE, X32_BIT, 0, 1), _op(_RET, _errno(errno.ENOSYS))]
    # the calls that look at their arguments come first, the most frequent (openat) first; each
    # block ends in a return, so the number is loaded again after none of them
    seen = RET_NOTIFY if observe else RET_ALLOW
    for name, index in CREATING.items():
        if guard and name in OPEN_FLAGS:  # an open makes a name only with O_CREAT
            made = _nonzero([(index, SETID)], eperm)[:-1]
            asks = O_CREAT | (WRITE_ACCESS if writes else 0)
            ops += _block(
                nr(name), [*made, *_nonzero([(OPEN_FLAGS[name], asks)], RET_NOTIFY, seen)]
            )
        else:
            ops += _block(
                nr(name), _nonzero([(index, SETID)], eperm, RET_NOTIFY if guard else seen)
            )
    ops += _block(nr("ioctl"), _ioctl(eperm))
    ops += _block(nr("fcntl"), _one_of(1, (F_SETLEASE,), eperm))
    new_process = RET_NOTIFY if processes else RET_ALLOW
    ops += _block(
        nr("clone"),
        [
            *_nonzero([(0, CLONE_NEWUSER)], eperm, RET_ALLOW)[:-1],
            *_nonzero([(0, CLONE_THREAD)], RET_ALLOW, new_process),
        ],
    )
    ops += _block(nr("unshare"), _nonzero([(0, CLONE_NEWUSER)], eperm))
    if processes:
        for name in ("fork", "vfork"):
            ops += _block(nr(name), [_op(_RET, RET_NOTIFY)])
    for name, indexes in OTHERS_ONLY.items():
        ops += _block(nr(name), _nonzero([(i, 0xFFFFFFFF) for i in indexes], eperm))
    if sockets:  # a stream socket only: a datagram one could send to any path unconnected
        unix = [_arg(1), _op(_AND, 0xF), _op(_JEQ, SOCK_STREAM, 1, 0), _op(_RET, eacces)]
    else:
        unix = [_op(_RET, eacces)]
    # a Unix stream socket allowed above skips one: to the return that allows it
    others = [_op(_RET, RET_ALLOW)]
    allowed = (AF_NETLINK,) if not network else families
    if allowed is not None:
        # observed, a network socket is refused by the supervisor, which tells it (and
        # refuses it all the same: with no supervisor left the call fails, ENOSYS)
        network_socket = RET_NOTIFY if observe else eacces
        any_kind = [f for f in allowed if f not in streams]
        stream = [f for f in allowed if f in streams]
        # [checks of any_kind][checks of stream] ALLOW REFUSE [type check: stream ALLOW, REFUSE]
        checks = [*any_kind, *stream]
        last = len(checks) - 1
        for i, family in enumerate(checks):
            to_allow = last - i
            to_type = to_allow + 2 if family in streams else to_allow
            others.append(_op(_JEQ, family, to_type, 1 if i == last else 0))
        others += [_op(_RET, RET_ALLOW), _op(_RET, network_socket)]
        if stream:
            others += [_arg(1), _op(_AND, 0xF), _op(_JEQ, SOCK_STREAM, 0, 1)]
            others += [_op(_RET, RET_ALLOW), _op(_RET, network_socket)]
    ops += _block(
        nr("socket"),
        [_arg(0), _op(_JEQ, AF_UNIX, 0, len(unix) + (0 if allowed is None else 1)), *unix, *others],
    )
    # a connected pair is private; an unconnected datagram one could send to any path
    pair = [_op(_JEQ, SOCK_STREAM, 2, 0), _op(_JEQ, SOCK_SEQPACKET, 1, 0), _op(_RET, eacces)]
    ops += _block(nr("socketpair"), [_arg(1), _op(_AND, 0xF), *pair, _op(_RET, RET_ALLOW)])
    # bind too: an abstract name bound inside would be taken by a client outside for another's
    whole = [(name, RET_NOTIFY) for name in (*METADATA, "bind")]
    whole += [(name, _errno(errno.ENOSYS)) for name in NOT_IMPLEMENTED]
    whole += [(name, eperm) for name in REFUSED]
    if sockets:
        whole.append(("connect", RET_NOTIFY))
    if observe or guard:
        waiting = {*(OBSERVED if observe else ()), *(NAMING if guard else ())}
        waiting |= set((*REMOVING, *EMPTYING) if guard and removes else ())
        whole += [(name, RET_NOTIFY) for name in sorted(waiting)]
    for name, action in whole:
        ops += _block(nr(name), [_op(_RET, action)])
    ops.append(_op(_RET, RET_ALLOW))
    return b"".join(ops)


class _Fprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


def install(
    arch: str,
    *,
    sockets: bool,
    network: bool = True,
    observe: bool = False,
    processes: bool = False,
    guard: bool = False,
    writes: bool = False,
    removes: bool = False,
    families: tuple[int, ...] | None = None,
    streams: tuple[int, ...] = (),
) -> int:
    """Install the filter on this thread's process; returns the notification descriptor.

    No-new-privileges must already be set. The descriptor must reach the supervisor and be
    closed here before the server runs: whoever holds it answers the notifications.
    """
    code = program(
        arch,
        sockets=sockets,
        network=network,
        observe=observe,
        processes=processes,
        guard=guard,
        writes=writes,
        removes=removes,
        families=families,
        streams=streams,
    )
    buf = ctypes.create_string_buffer(code, len(code))
    prog = _Fprog(len(code) // 8, ctypes.cast(buf, ctypes.c_void_p))
    number = SYSCALLS[arch]["seccomp"]
    assert number is not None
    # once the supervisor has taken a call, a signal no longer interrupts it (Linux 5.19):
    # without, a fork that waits for it fails with EINTR at the caller's next SIGCHLD (a
    # shell's pipeline: 140 of 300 forks of a process handling SIGCHLD; with it, 1 to 11)
    tried = (FLAG_NEW_LISTENER | FLAG_WAIT_KILLABLE_RECV, FLAG_NEW_LISTENER)
    for flags in tried[1:] if os.environ.get(TEST_INTERRUPTIBLE_ENV) else tried:
        try:
            return libc.syscall(
                number, ctypes.c_uint(SET_MODE_FILTER), ctypes.c_uint(flags), ctypes.byref(prog)
            )
        except OSError as exc:
            if exc.errno == errno.EINVAL and flags & FLAG_WAIT_KILLABLE_RECV:
                continue  # an older kernel: the calls stay interruptible while they wait
            raise SeccompError(
                exc.errno, f"the seccomp filter cannot be installed: {exc.strerror}"
            ) from exc
    raise AssertionError("unreachable")


def names(arch: str) -> dict[int, str]:
    """The filtered calls by number, on *arch*."""
    return {n: name for name, n in SYSCALLS[arch].items()}


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

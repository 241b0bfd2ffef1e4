"""The three Landlock system calls, through ``ctypes``, with best-effort ABI compatibility.

A ruleset names the file-system rights it *handles* (everything else stays allowed) and then,
per folder or file, which of them are allowed beneath it. Each ABI version knows more rights;
a right the running kernel does not know is masked out of both the handled set and every rule,
which is the kernel documentation's best-effort compatibility: ``refer`` from ABI 2,
``truncate`` from ABI 3, ``ioctl_dev`` from ABI 5, ``resolve_unix`` from ABI 9 (a Unix socket
connected to by its path only where a rule allows it). Network rights are handled only for a
server whose network is blocked: then no TCP port (ABI 4), and no UDP port (ABI 10), may be
bound, connected to or sent to. The seccomp filter and the supervisor keep refusing the same
on every kernel (:mod:`~roots_manager.sandbox.availability` says which holds what on this one).

The syscall numbers 444-446 are the same on every architecture (they were added after the
tables were unified).
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat

from roots_manager.sandbox import libc

TYPE_CHECKING = False  # not typing's: the exec wrapper must not pay for importing it
if TYPE_CHECKING:
    from collections.abc import Iterable

SYS_CREATE_RULESET = 444
SYS_ADD_RULE = 445
SYS_RESTRICT_SELF = 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13
TRUNCATE = 1 << 14
IOCTL_DEV = 1 << 15
RESOLVE_UNIX = 1 << 16
RESOLVE_UNIX_ABI = 9
"""From ABI 9 (Linux 7.1) connecting to a Unix socket by its path (``connect``, ``sendmsg`` to
it) needs this right on the socket; one the server made itself needs none."""

_ABI_1 = (1 << 13) - 1
ALL_BY_ABI = {1: _ABI_1, 2: _ABI_1 | REFER, 3: _ABI_1 | REFER | TRUNCATE}
"""Every file-system right each ABI knows; ABI 4 added network rights, 5 ioctl on devices,
6 to 8 scopes, logging and threads (no new file-system right), 9 Unix sockets by path, 10 UDP
(no new file-system right)."""
for _abi in range(4, 11):
    ALL_BY_ABI[_abi] = (
        ALL_BY_ABI[3]
        | (IOCTL_DEV if _abi >= 5 else 0)
        | (RESOLVE_UNIX if _abi >= RESOLVE_UNIX_ABI else 0)
    )

FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV | RESOLVE_UNIX
"""The rights that apply to a file itself; a rule on a file may hold no other."""
READ = READ_FILE | READ_DIR
READ_EXECUTE = READ | EXECUTE
READ_WRITE = ALL_BY_ABI[7]
"""Everything a granted root allows: reading, writing, creating, removing, renaming into it
(not connecting to another program's socket there: only a socket the user allowed is)."""
SOCKET = RESOLVE_UNIX
"""A Unix socket the user allowed the server (``servers confine --allow-socket``)."""
DEVICE = READ_FILE | WRITE_FILE | IOCTL_DEV
OWN_FILE = READ_FILE | WRITE_FILE | TRUNCATE
"""A file named on the command line that the server writes (a database), and its companions
there at the start."""
"""A terminal or /dev/null: read, write and the ioctls a terminal needs."""


class LandlockError(OSError):
    """Landlock cannot be used, or the ruleset could not be applied."""


def handled(abi: int) -> int:
    """The file-system rights a ruleset handles under *abi* (the newest known past ABI 10)."""
    if abi < 1:
        raise ValueError(f"Landlock ABI versions start at 1, not {abi}")
    return ALL_BY_ABI[min(abi, max(ALL_BY_ABI))]


MIN_ABI = 3
"""ABI 3 added the truncate right: below it, a confined server could still empty any file it
can name (``truncate(2)`` needs no open for writing), so it would not be confined."""
TEST_ABI_ENV = "ROOTS_MANAGER_TEST_LANDLOCK_ABI"
"""Test-only: the Landlock ABI to pretend the kernel has (0: none). Tests use it to check the
refusal on a kernel without Landlock; it can only lower what the kernel has, never raise it."""

Rule = tuple[str, int]
"""A path, and the rights allowed beneath it (on it, if it is a file)."""


SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1
SCOPES_ABI = 6
"""From ABI 6 a domain can be *scoped*: no connecting to an abstract Unix socket made outside
it, no signal to a process outside it."""


class _RulesetAttr(ctypes.Structure):
    # the kernel reads a shorter struct as if the rest were zero: below ABI 6 only the first
    # field is passed, unless the network is blocked (handled_access_net, from ABI 4)
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _NetPortAttr(ctypes.Structure):
    _fields_ = (("allowed_access", ctypes.c_uint64), ("port", ctypes.c_uint64))


RULE_NET_PORT = 2


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # packed in the kernel's header
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def _syscall(number: int, *args: object) -> int:
    return libc.syscall(number, *args, error=LandlockError)


def abi_version() -> int:
    """The running kernel's Landlock ABI version; 0 when it has no Landlock (or it is off)."""
    try:
        return _syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), CREATE_RULESET_VERSION)
    except LandlockError as exc:
        if exc.errno in (errno.ENOSYS, errno.EOPNOTSUPP):
            return 0
        raise


def usable_abi() -> int:
    """:func:`abi_version`, lowered to the test-only :data:`TEST_ABI_ENV` when that is set."""
    real = abi_version()
    pretend = os.environ.get(TEST_ABI_ENV, "")
    return min(real, int(pretend)) if pretend.isdigit() else real


def refusal(abi: int) -> str | None:
    """Why Landlock at *abi* cannot confine a server, or None if it can."""
    if abi == 0:
        return (
            "this Linux kernel has no Landlock (it needs 5.13 or newer with Landlock enabled "
            "in the lsm= boot list)"
        )
    if abi < MIN_ABI:
        return (
            f"this Linux kernel's Landlock is ABI {abi}; confinement needs ABI {MIN_ABI} "
            "(Linux 6.2 or newer), which can refuse truncating files outside the grants"
        )
    return None


def scopes(abi: int) -> int:
    """The scopes a ruleset asks for under *abi*: abstract sockets and signals, from ABI 6."""
    return SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= SCOPES_ABI else 0


NET_BIND_TCP = 1 << 0
NET_CONNECT_TCP = 1 << 1
NET_ABI = 4
"""From ABI 4 a ruleset can handle TCP ``bind`` and ``connect``: with no rule for any port, both
are refused."""
NET_BIND_UDP = 1 << 2
NET_CONNECT_SEND_UDP = 1 << 3
UDP_ABI = 10
"""From ABI 10 (Linux 7.2) it can handle UDP too: binding a port, and connecting or sending a
datagram to one."""


def handled_net(abi: int, *, network: bool, proxy: int | None = None) -> int:
    """The network rights a ruleset handles under *abi*: none for a server whose network is
    allowed; for a blocked one, TCP's from ABI 4 and UDP's from ABI 10 (with no rule for any
    port, every one is refused); for one limited to domains whose proxy listens on the
    machine's loopback (*proxy*, its port), TCP's, with a rule for that port alone."""
    if network and proxy is None:
        return 0
    tcp = NET_BIND_TCP | NET_CONNECT_TCP if abi >= NET_ABI else 0
    udp = NET_BIND_UDP | NET_CONNECT_SEND_UDP if abi >= UDP_ABI else 0
    return tcp | udp


def restrict_self(
    rules: Iterable[tuple[int, int]], abi: int, *, network: bool = True, proxy: int | None = None
) -> None:
    """Confine this process (and all it execs or starts) to *rules*: descriptors, each opened
    on the very folder or file to allow, with the rights allowed beneath it.

    The descriptors are the caller's: each was opened without following links and checked, so
    the rule is made from the object that was checked, never from a path opened again. From ABI
    6 the domain is also scoped (:func:`scopes`). With *network* False, from ABI 4 every TCP
    ``bind`` and ``connect`` is refused too (the seccomp filter refuses the sockets themselves);
    with *proxy*, every one but a ``connect`` to that port.
    """
    made = ruleset(rules, abi, network=network, proxy=proxy)
    try:
        enforce(made)
    finally:
        os.close(made)


def ruleset(
    rules: Iterable[tuple[int, int]], abi: int, *, network: bool = True, proxy: int | None = None
) -> int:
    """A ruleset descriptor holding *rules* (see :func:`restrict_self`), not enforced yet."""
    mask = handled(abi)
    scoped = scopes(abi)
    net = handled_net(abi, network=network, proxy=proxy)
    attr = _RulesetAttr(mask, net, scoped)
    size = ctypes.sizeof(attr) if scoped or net else ctypes.sizeof(ctypes.c_uint64)
    made = _syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), 0)
    try:
        for fd, allowed in rules:
            access = allowed & mask
            if not stat.S_ISDIR(os.fstat(fd).st_mode):
                access &= FILE_RIGHTS
            if not access:  # a right this kernel does not know (a socket's, before ABI 9)
                continue
            beneath = _PathBeneathAttr(access, fd)
            _syscall(SYS_ADD_RULE, made, RULE_PATH_BENEATH, ctypes.byref(beneath), 0)
        if proxy is not None and net & NET_CONNECT_TCP:
            port = _NetPortAttr(NET_CONNECT_TCP, proxy)
            _syscall(SYS_ADD_RULE, made, RULE_NET_PORT, ctypes.byref(port), 0)
    except BaseException:
        os.close(made)
        raise
    return made


def enforce(made: int) -> None:
    """Confine the calling thread (and what it starts from now) to the ruleset *made*.
    No-new-privileges is set first, as the kernel requires of a thread without CAP_SYS_ADMIN
    (and so that a set-uid program cannot shed the domain)."""
    set_no_new_privs()
    _syscall(SYS_RESTRICT_SELF, made, 0)


def set_no_new_privs() -> None:
    """Set no-new-privileges on this process (needed before Landlock and seccomp)."""
    try:
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1)
    except OSError as exc:
        raise LandlockError(exc.errno, exc.strerror) from exc

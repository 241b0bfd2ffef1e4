"""The supervisor's observer: each refusal Landlock is about to make, told as it happens.

Landlock refuses silently: a confined server that needs one more file fails with ``EACCES`` and
nobody sees why. Its own audit records (Linux 6.15) reach only a reader with ``CAP_AUDIT_READ``
and need audit enabled for the whole machine, so they are no source for an ordinary user (see
``docs/confinement-refusals.md``). This is the source that works for everyone: the seccomp
filter passes each path-taking call (``open``, ``openat``, ``creat``, ``execve``, ``mkdir``,
``mknod``, ``unlink``, ``rmdir``, ``symlink``, their ``*at`` forms, and ``truncate``) to the
supervisor, which reads the
path from the caller, resolves it from the caller's working folder or descriptor, judges it
against the very rules the server runs under, writes one JSON line for each refusal, and lets
the kernel go on (``SECCOMP_USER_NOTIF_FLAG_CONTINUE``). ``rename`` and ``link`` are not
observed (yet).

Landlock still decides every call, alone: whatever goes wrong here (a race, a path read while
another thread changes it, a bug) can at worst hide a refusal or tell one that did not happen,
never allow or refuse anything. A call the observer cannot read is let through untold.

Each line says when (``time``, seconds since the epoch), which process (``pid``, ``tid``,
``comm``), what (``operation``: read, write, list, execute, create, remove; ``path``) and the
call. Joining a refusal to the MCP request that caused it is the bridge's part: it knows which
requests were in flight at that time, and the process is its server's. Floods are folded: within
:data:`WINDOW` seconds only the first refusal per folder and operation is told; the next one told
for them carries ``repeated``, how many were folded before it.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import stat
import sys
import time

from roots_manager.sandbox import landlock as ll
from roots_manager.sandbox import libc, notified_calls
from roots_manager.support.paths import inside

TYPE_CHECKING = False  # not typing's: the supervisor must not pay for importing it
if TYPE_CHECKING:
    from collections.abc import Callable

    from roots_manager.sandbox._fastobserve import FastObserver

assert sys.platform == "linux", "imported only where Landlock confines (Linux)"

AT_FDCWD = -100
AT_REMOVEDIR = 0x200
AT_SYMLINK_NOFOLLOW = 0x100
O_ACCMODE = 0o3
O_CREAT = 0o100
O_EXCL = 0o200
O_TRUNC = 0o1000
O_NOFOLLOW = 0o400000
O_PATH = 0o10000000
PATH_MAX = 4096
WINDOW = 1.0
"""Seconds over which the refusals of one folder and operation are folded into one line."""
KEYS_KEPT = 4096
"""Folders and operations remembered for folding; past that the oldest windows are forgotten
(memory stays flat however wide the walk)."""

OPERATIONS = (
    (ll.EXECUTE, "execute"),
    (ll.READ_FILE, "read"),
    (ll.READ_DIR, "list"),
    (ll.WRITE_FILE | ll.TRUNCATE, "write"),
    (ll.REMOVE_DIR | ll.REMOVE_FILE, "remove"),
    (ll.MAKE_CHAR | ll.MAKE_DIR | ll.MAKE_REG | ll.MAKE_SOCK | ll.MAKE_FIFO, "create"),
    (ll.MAKE_BLOCK | ll.MAKE_SYM, "create"),
)
"""Each Landlock right, by the word a user reads for it."""

_MAKE = {
    stat.S_IFCHR: ll.MAKE_CHAR,
    stat.S_IFBLK: ll.MAKE_BLOCK,
    stat.S_IFIFO: ll.MAKE_FIFO,
    stat.S_IFSOCK: ll.MAKE_SOCK,
}


def operation(rights: int) -> str:
    """The word for the first of *rights* a user would recognise."""
    for mask, word in OPERATIONS:
        if rights & mask:
            return word
    return "access"


class Rule:
    """A Landlock rule, by the real path of what it was opened on."""

    __slots__ = ("folder", "path", "rights")

    def __init__(self, path: str, rights: int, folder: bool) -> None:
        self.path = path.rstrip("/") or "/"
        self.rights = rights
        self.folder = folder


def rules_of(opened: list[tuple[int, int]], abi: int) -> list[Rule]:
    """The rules as :func:`landlock.restrict_self` applies them, read from their descriptors
    (call before they are closed)."""
    mask = ll.handled(abi)
    out = []
    for fd, allowed in opened:
        folder = stat.S_ISDIR(os.fstat(fd).st_mode)
        rights = allowed & mask if folder else allowed & mask & ll.FILE_RIGHTS
        out.append(Rule(os.readlink(f"/proc/self/fd/{fd}"), rights, folder))
    return out


class Observer:
    """Judges the observed calls of one confined server's tree, and tells the refusals."""

    def __init__(self, rules: list[Rule], abi: int, events: int) -> None:
        self.rules = rules
        self.handled = ll.handled(abi)
        self.on: dict[str, int] = {}
        """The rights of the rules on each path (a file's or a folder's)."""
        self.beneath: dict[str, int] = {}
        """The rights of the folder rules on each path, for what lies beneath it."""
        for rule in rules:
            self.on[rule.path] = self.on.get(rule.path, 0) | rule.rights
            if rule.folder:
                self.beneath[rule.path] = self.beneath.get(rule.path, 0) | rule.rights
        self.above: dict[str, int] = {}
        """Each folder met: the rights of the folder rules on it and on every folder above it
        (what they allow a path inside it), so a call is judged by one look-up, not one per
        rule (a server has some 200 rules: its grants, the runtime, ``/etc``)."""
        self.events = events
        """Where each refusal is written, a JSON line (non-blocking: a reader that falls behind
        loses lines, counted in ``lost``, and never stalls the server)."""
        self.windows: dict[tuple[str, str], list[float]] = {}
        """(folder, operation): when its window opened, and how many were folded since."""
        self.lost = 0
        self.failed = False
        self.named = ""
        """The path the last call judged named, before any link on its way was followed."""

    def allowed(self, path: str) -> int:
        """The rights Landlock allows on *path* (a real path): those of every rule on it or on
        a folder above it, and every right the ruleset does not handle."""
        # "/" is above every path, "//x" too (which os.path does not climb to "/")
        rights = ~self.handled | self.on.get(path, 0) | self.beneath.get("/", 0)
        return rights | self._above(os.path.dirname(path))

    def _above(self, folder: str) -> int:
        """The rights of the folder rules on *folder* and on every folder above it."""
        climbed = []
        rights = 0
        at = folder
        while True:
            known = self.above.get(at)
            if known is not None:
                rights = known
                break
            climbed.append(at)
            parent = os.path.dirname(at)
            if parent == at:
                break
            at = parent
        if len(self.above) + len(climbed) > KEYS_KEPT:
            self.above.clear()  # memory stays flat however wide the walk
        for at in reversed(climbed):
            rights |= self.beneath.get(at, 0)
            self.above[at] = rights
        return rights

    def observe(self, caller: notified_calls._Caller, name: str, args: tuple[int, ...]) -> None:
        """Judge one call; tell it if Landlock will refuse it. Never raises: a failure is told
        once on stderr and the calls go on, observed as well as can be."""
        if name == "socket":  # only a network socket of a server whose network is blocked
            self.named = _network(args)
            self._tell(caller, name, self.named, 0, word="connect")
            return
        found = self.judge(caller, name, args)
        if found is not None:
            self._tell(caller, name, *found)

    def tell(
        self, caller: notified_calls._Caller, name: str, path: str, refused: int, *, waits: float
    ) -> bool:
        """Tell a refusal :meth:`judge` found, whose call waits *waits* seconds for the user's
        answer (:mod:`~roots_manager.sandbox.asking`): told whatever was folded before it.
        False: the line could not be written (the pipe is full, or nobody reads it)."""
        window = self.windows.get((os.path.dirname(path), operation(refused)))
        if window is not None:
            window[0] = 0.0  # over: told now, with what was folded in it
        return self._tell(caller, name, path, refused, waits=waits)

    def judge(
        self, caller: notified_calls._Caller, name: str, args: tuple[int, ...]
    ) -> tuple[str, int] | None:
        """The path and the rights Landlock will refuse this call, or None (allowed, or not
        judged: a caller gone, a path that cannot be read; a failure is told once)."""
        try:
            # by the names first (no look-up on the file system: most calls are allowed), and
            # a refusal confirmed on the real path, links followed as the kernel follows them
            found = self._judge(caller, name, args, real=False)
            if found is not None:
                found = self._judge(caller, name, args, real=True)
        except (OSError, notified_calls.Refused):
            return None  # a caller gone, a path that cannot be read: let through untold
        except Exception as exc:
            if not self.failed:
                self.failed = True
                os.write(2, f"roots-manager confine: a refusal may go untold: {exc!r}\n".encode())
            return None
        return found

    def tell_kept(self, caller: notified_calls._Caller, name: str, path: str) -> None:
        """Tell that call *name* was refused making *path*: a protected place, kept from
        being made (:mod:`roots_manager.sandbox.making`), which no grant opens."""
        self.named = path
        self._tell(caller, name, path, ll.MAKE_REG, word="create", protected=True)

    def tell_network(self, caller: notified_calls._Caller, address: str) -> None:
        """Tell that a server limited to domains was refused connecting to *address* past its
        proxy (:mod:`roots_manager.sandbox.proxy`): by its number, or to a name server."""
        self.named = f"network: {address}"
        self._tell(caller, "connect", self.named, 0, word="connect")

    def _judge(
        self, c: notified_calls._Caller, name: str, a: tuple[int, ...], *, real: bool
    ) -> tuple[str, int] | None:
        """The path and the rights refused, if Landlock will refuse this call; judged on the
        path as named (*real* False) or as the kernel reaches it."""
        if name.startswith("symlink"):  # (target, [dirfd,] the link's path)
            dirfd, address = (_int(a[1]), a[2]) if name == "symlinkat" else (AT_FDCWD, a[1])
            path = self._path(c, dirfd, address, follow=False, real=real)
            if os.path.lexists(path):
                return None  # EEXIST
            return self._needs(path, ll.MAKE_SYM, parent=True)
        at = name.endswith("at") and name != "creat"
        dirfd = _int(a[0]) if at else AT_FDCWD
        address = a[1] if at else a[0]
        rest = a[2:] if at else a[1:]
        if name == "truncate":
            path = self._path(c, dirfd, address, follow=True, real=real)
            if not os.path.isfile(path):
                return None  # ENOENT, EISDIR, EINVAL: not Landlock's
            return self._needs(path, ll.TRUNCATE)
        if name in ("open", "openat", "creat"):
            flags = O_CREAT | 1 | O_TRUNC if name == "creat" else _int(rest[0])
            if flags & O_PATH:
                return None  # no right is needed to hold a path
            path = self._path(c, dirfd, address, follow=not flags & O_NOFOLLOW, real=real)
            return self._open(path, flags)
        if name in ("execve", "execveat"):
            follow = not (name == "execveat" and _int(a[4]) & AT_SYMLINK_NOFOLLOW)
            path = self._path(c, dirfd, address, follow=follow, real=real)
            if not os.path.isfile(path):
                return None  # not found, or not a program: refused for that, not by Landlock
            return self._needs(path, ll.EXECUTE)
        if name in ("mkdir", "mkdirat", "mknod", "mknodat"):
            path = self._path(c, dirfd, address, follow=False, real=real)
            if os.path.lexists(path):
                return None  # EEXIST
            kind = stat.S_IFMT(rest[0]) if name.startswith("mknod") else stat.S_IFDIR
            right = ll.MAKE_DIR if kind == stat.S_IFDIR else _MAKE.get(kind, ll.MAKE_REG)
            return self._needs(path, right, parent=True)
        if name in ("unlink", "unlinkat", "rmdir"):
            path = self._path(c, dirfd, address, follow=False, real=real)
            if not os.path.lexists(path):
                return None  # ENOENT
            folder = name == "rmdir" or (name == "unlinkat" and _int(a[2]) & AT_REMOVEDIR)
            right = ll.REMOVE_DIR if folder else ll.REMOVE_FILE
            return self._needs(path, right, parent=True)
        return None

    def _open(self, path: str, flags: int) -> tuple[str, int] | None:
        mode = flags & O_ACCMODE
        if not flags & (O_CREAT | O_TRUNC) and not self._needs(
            path, _access(mode, False) | (ll.READ_DIR if mode == 0 else 0)
        ):
            return None  # allowed whether it is a file or a folder: no need to look
        try:
            st = os.stat(path)
        except OSError:
            if not flags & O_CREAT:
                return None  # ENOENT, not a refusal
            # a new file: made in its folder, then opened as what lies beneath that folder
            made = self._needs(path, ll.MAKE_REG, parent=True)
            if made is not None:
                return made
            return self._needs(path, _access(mode, False))
        if flags & O_CREAT and flags & O_EXCL:
            return None  # EEXIST
        if stat.S_ISDIR(st.st_mode):
            return self._needs(path, ll.READ_DIR if mode != 1 else 0)
        # only a regular file is emptied by O_TRUNC (a device ignores it)
        return self._needs(path, _access(mode, bool(flags & O_TRUNC) and stat.S_ISREG(st.st_mode)))

    def _needs(self, path: str, rights: int, *, parent: bool = False) -> tuple[str, int] | None:
        where = os.path.dirname(path) if parent else path
        refused = rights & ~self.allowed(where)
        return (path, refused) if refused else None

    def _path(
        self, c: notified_calls._Caller, dirfd: int, address: int, *, follow: bool, real: bool
    ) -> str:
        """The path the call names for the caller, from its working folder or *dirfd*: as named
        (``..`` taken away; its last link followed if *follow*: a link's target is what the
        kernel judges), or with *real* as the kernel reaches it (every link on the way)."""
        raw = os.fsdecode(_string(c.tid, address))
        if not raw:
            raise OSError(errno.ENOENT, "an empty path")
        if raw.startswith(("/proc/self/", "/proc/thread-self/")):
            raw = f"/proc/{c.tid}/" + raw.split("/", 3)[3]  # the caller's, not the supervisor's
        if not raw.startswith("/"):
            base = f"/proc/{c.tid}/cwd" if dirfd == AT_FDCWD else f"/proc/{c.tid}/fd/{dirfd}"
            raw = os.readlink(base).rstrip("/") + "/" + raw
        self.named = os.path.normpath(raw)
        if not real and follow:
            try:
                real = stat.S_ISLNK(os.lstat(self.named).st_mode)
            except OSError:
                real = False  # nothing there yet: named as it will be made
        if not real:
            return self.named
        if follow:
            return _theirs(os.path.realpath(raw), c.tid)
        head, tail = os.path.split(raw.rstrip("/") or "/")
        return os.path.join(_theirs(os.path.realpath(head), c.tid), tail)

    def _tell(
        self,
        c: notified_calls._Caller,
        name: str,
        path: str,
        refused: int,
        word: str = "",
        *,
        protected: bool = False,
        waits: float = 0.0,
    ) -> bool:
        """Write the refusal's line (folded into the last within :data:`WINDOW` of its folder
        and operation); False: it was not written."""
        word = word or operation(refused)
        now = time.time()
        # a file's refusals fold by its folder; the network's by the address refused
        key = (path if path.startswith("network: ") else os.path.dirname(path), word)
        window = self.windows.get(key)
        if window is not None and now - window[0] < WINDOW:
            window[1] += 1
            return False
        repeated = int(window[1]) if window is not None else 0
        self.windows[key] = [now, 0]
        if len(self.windows) > KEYS_KEPT:
            for old in [k for k, w in self.windows.items() if now - w[0] >= WINDOW]:
                del self.windows[old]
            while len(self.windows) > KEYS_KEPT:  # all within one window: forget the oldest
                del self.windows[next(iter(self.windows))]
        event: dict[str, object] = {
            "time": round(now, 6),
            "pid": _tgid(c.tid),
            "tid": c.tid,
            "comm": _comm(c.tid),
            "operation": word,
            "path": path,
            "call": name,
        }
        if self.named != path:
            event["named"] = self.named  # through a link
        if repeated:
            event["repeated"] = repeated
        if protected:
            event["protected"] = True
        if waits:
            event["waits"] = waits
        return self._write(event)

    def close(self) -> None:
        """Tell what was folded and not told yet (at the server's end)."""
        for (folder, word), (_, folded) in self.windows.items():
            if folded:
                self._write({"time": round(time.time(), 6), "operation": word, "folder": folder,
                             "repeated": int(folded)})  # fmt: skip
        self.windows.clear()

    def _write(self, event: dict[str, object]) -> bool:
        if self.lost:
            event["lost"] = self.lost
        try:
            os.write(self.events, json.dumps(event).encode() + b"\n")
        except BlockingIOError:
            self.lost += 1
            return False
        except OSError:
            return False  # nobody reads any more: the server goes on, untold
        self.lost = 0
        return True


PURE_ENV = "ROOTS_MANAGER_PURE_OBSERVER"
"""Set: the Python observer judges every call, even where the hot path in C was built."""
FLOOR_ENV = "ROOTS_MANAGER_BENCH_OBSERVER_FLOOR"
"""Benchmarks only: the hot path lets every observed call through unjudged, and tells nothing
(what receiving and answering a notification alone costs, ``bench/bench_denials.py``). Landlock
decides every call as ever: this can only hide refusals."""


def fast_path(
    observer: Observer, listener: int, arch: str, *, writes: bool = False
) -> FastObserver | None:
    """The observer's hot path in C for *listener* (``_fastobserve.c``), built from
    *observer*'s own rights tables; None where it was not built or :data:`PURE_ENV` is set
    (the supervisor then waits in ``select.poll`` and Python judges every call).

    It lets through untold only ``open``, ``openat``, ``execve`` and ``execveat`` calls in
    which :meth:`Observer.judge` would find no refusal, judged by the same steps (the names,
    then the path the kernel reaches), and hands every other call to the Python observer: so
    every refusal is still told, by Python, in the same words. With *writes* (the supervisor
    opens every file opened to write), an open that writes is handed on too; a build of it
    that cannot (an older one) is not used."""
    if os.environ.get(PURE_ENV):
        return None
    try:
        from roots_manager.sandbox._fastobserve import FastObserver
    except ImportError:  # not built (no compiler at install): Python judges every call
        return None
    from roots_manager.sandbox import seccomp

    numbers = seccomp.SYSCALLS.get(arch, {})
    try:
        return FastObserver(
            listener,
            {os.fsencode(path): rights for path, rights in observer.on.items()},
            {os.fsencode(path): rights for path, rights in observer.beneath.items()},
            observer.handled,
            numbers.get("open", -1),
            numbers.get("openat", -1),
            [numbers[name] for name in notified_calls.OBSERVED if name in numbers],
            bool(os.environ.get(FLOOR_ENV)),
            writes,
            numbers.get("execve", -1),
            numbers.get("execveat", -1),
        )
    except TypeError:  # built before it could judge execve (or hand on the opens that write)
        return None


class _IoVec(ctypes.Structure):
    _fields_ = (("base", ctypes.c_void_p), ("len", ctypes.c_size_t))


def _string(tid: int, address: int) -> bytes:
    """The NUL-ended string at *address* in process *tid*, read a page at a time with
    ``process_vm_readv`` (one call, no descriptor: the observer's reads are the hot path)."""
    if not 0 < address < 1 << 63:
        raise OSError(errno.EFAULT, "no path")
    out = b""
    local, remote = _VECTORS
    while len(out) < PATH_MAX:
        size = 4096 - (address + len(out)) % 4096
        local.len = remote.len = size
        remote.base = address + len(out)
        got = libc.checked(_readv(tid, _BY_REF[0], 1, _BY_REF[1], 1, 0))
        chunk = ctypes.string_at(_BUFFER, got)
        end = chunk.find(b"\0")
        if end >= 0:
            return out + chunk[:end]
        if got < size:
            raise OSError(errno.EFAULT, "a path past its mapping")
        out += chunk
    raise OSError(errno.ENAMETOOLONG, "a path too long")


_BUFFER = ctypes.create_string_buffer(4096)
_VECTORS = (_IoVec(ctypes.cast(_BUFFER, ctypes.c_void_p), 0), _IoVec(0, 0))
"""The one page :func:`_string` reads into, and where from: made once (the observer answers
one call at a time)."""
_BY_REF = (ctypes.byref(_VECTORS[0]), ctypes.byref(_VECTORS[1]))
_READV: list[Callable[..., int]] = []


def _readv(*args: object) -> int:
    if not _READV:
        function = libc.libc().process_vm_readv
        function.restype = ctypes.c_ssize_t
        _READV.append(function)
    return int(_READV[0](*args))


def _theirs(path: str, tid: int) -> str:
    """*path* with a ``/proc/self`` met on the way (``/proc/mounts`` leads there) made the
    caller's again: resolved here, it led to the supervisor's."""
    mine = f"/proc/{os.getpid()}"
    if inside(path, mine):
        return f"/proc/{tid}" + path[len(mine) :]
    return path


def _access(mode: int, truncate: bool) -> int:
    rights = {0: ll.READ_FILE, 1: ll.WRITE_FILE, 2: ll.READ_FILE | ll.WRITE_FILE}.get(mode, 0)
    if truncate and mode:
        rights |= ll.TRUNCATE
    return rights


def _int(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


_FAMILIES = {2: "IPv4", 10: "IPv6", 17: "packet", 40: "vsock"}
_TYPES = {1: "TCP", 2: "UDP", 3: "raw", 5: "SCTP"}


def _network(args: tuple[int, ...]) -> str:
    """What a refused ``socket(family, type, protocol)`` would have reached, in words (the
    address is not known yet: the socket is refused before any ``connect``)."""
    family, kind = _int(args[0]), _int(args[1]) & 0xF
    return (
        f"network: {_TYPES.get(kind, f'type {kind}')} over "
        f"{_FAMILIES.get(family, f'family {family}')}"
    )


def _tgid(tid: int) -> int:
    try:
        with open(f"/proc/{tid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"Tgid:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return tid


def _comm(tid: int) -> str:
    try:
        with open(f"/proc/{tid}/comm", "rb") as f:
            return f.read().decode(errors="replace").strip()
    except OSError:
        return ""

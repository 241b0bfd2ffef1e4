"""The supervisor's side of the seccomp notifications: decide each call, and make it itself.

A confined process that calls ``chmod``, ``chown``, ``utime`` or a ``*xattr`` call (in any
form), ``bind``, or ``connect`` when the user allowed it some Unix sockets, waits while this
decides. The decision is made on an object, never on a path read twice: the path (or
descriptor) the caller named is opened here, from the caller's working folder or descriptor,
and the change is then made *here*, on that very object, with the caller's own credentials (the supervisor has dropped
every capability, as the server has). So there is no window between the check and the use, and
the kernel's ordinary permission checks still apply; the only thing added is the boundary:

- a metadata change is made only on an object beneath a folder the server may write (its
  writable grants, its temporary folder); anywhere else it fails with ``EACCES``, as a write
  would;
- a ``connect`` to a Unix socket is made only to a path the user allowed; other families
  (the network) are connected as asked: the network is not restricted;
- a ``bind`` of a Unix socket is made only by path, in a writable grant (never an abstract name,
  which a client outside would take for another's); other families are bound as asked;
- a server whose network is blocked has every ``connect`` and ``bind`` of a network family
  refused here too: made by the supervisor, outside the server's Landlock domain, they would
  not meet its network rules (the filter already refuses such sockets; this is the second
  wall).

A caller that is gone, or whose memory cannot be read, gets ``EPERM`` or nothing.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import re
import stat
import struct
import sys
import threading

from roots_manager.sandbox import libc, seccomp
from roots_manager.support.nofollow import open_no_follow
from roots_manager.support.paths import inside

assert sys.platform == "linux", "imported only where Landlock confines (Linux)"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    class Namer(Protocol):
        """What makes the server's names (:class:`roots_manager.sandbox.making.Namer`)."""

        def makes(self, name: str, args: tuple[int, ...]) -> bool: ...

        def answer(self, c: _Caller, name: str, a: tuple[int, ...]) -> int | None: ...

        def keeps(self, folder: int, name: bytes) -> bool: ...

        def keeps_object(self, fd: int) -> bool: ...

        def owns(self, c: _Caller, name: str, a: tuple[int, ...]) -> bool: ...

    Observe = Callable[["_Caller", str, tuple[int, ...]], None]

    class Asker(Protocol):
        """What holds the reads the rules refuse while the user is asked
        (:class:`roots_manager.sandbox.asking.Asker`)."""

        def takes(self, caller: _Caller, name: str, args: tuple[int, ...]) -> bool: ...


AT_FDCWD = -100
AT_SYMLINK_NOFOLLOW = 0x100
AT_EMPTY_PATH = 0x1000
PATH_MAX = 4096
ADDRESS_LIMIT = 1 << 63
"""No user-space address reaches this far; a larger one is the caller's fault (EFAULT)."""
XATTR_NAME_MAX = 255
XATTR_SIZE_MAX = 65536
_O_PATH = getattr(os, "O_PATH", 0) | os.O_CLOEXEC


NOTIF_RECV = 0xC0502100
NOTIF_SEND = 0xC0182101
NOTIF_ID_VALID = 0x40082102
NOTIF = struct.Struct("=QIIiIQ6Q")
"""struct seccomp_notif: id, pid, flags, then seccomp_data (nr, arch, ip, args[6])."""
RESPONSE = struct.Struct("=QqiI")
"""struct seccomp_notif_resp: id, val, error, flags."""


class Notification:
    """One system call a confined process waits in, for the supervisor to decide."""

    __slots__ = ("args", "id", "nr", "pid", "raw")

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        """As received (``struct seccomp_notif``): handed on whole to the C maker."""
        fields = NOTIF.unpack(raw)
        self.id: int = fields[0]
        self.pid: int = fields[1]
        self.nr: int = fields[3]
        self.args: tuple[int, ...] = fields[6:12]


def receive(listener: int) -> Notification | None:
    """The next notification (call when *listener* is readable); None if its caller is gone."""
    buf = bytearray(NOTIF.size)
    try:
        fcntl.ioctl(listener, NOTIF_RECV, buf, True)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.EINTR):
            return None
        raise
    return Notification(bytes(buf))


def still_waiting(listener: int, note: Notification) -> bool:
    """Whether *note*'s caller still waits (its pid was not reused since it was received)."""
    try:
        fcntl.ioctl(listener, NOTIF_ID_VALID, struct.pack("=Q", note.id))
    except OSError:
        return False
    return True


NOTIF_SET_FLAGS = 0x40082104
FD_SYNC_WAKE_UP = 1
"""SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (Linux 6.6): each waiting call wakes the supervisor on
the caller's CPU, and the answer wakes the caller on the supervisor's."""


def synchronous(listener: int) -> bool:
    """Have *listener*'s notifications and answers passed on one CPU; False where the kernel
    cannot (before 6.6), which only costs time.

    Without it, each observed call wakes the supervisor on the other CPU and waits for it to
    come out of idle, then the same back: measured on a 2-CPU machine, 90 µs a call instead of
    30 (``bench/bench_denials.py``, the walk), most of a walk's time.
    """
    try:
        fcntl.ioctl(listener, NOTIF_SET_FLAGS, FD_SYNC_WAKE_UP)
    except OSError:
        return False
    return True


FLAG_CONTINUE = 1
"""SECCOMP_USER_NOTIF_FLAG_CONTINUE: the kernel makes the call as if never filtered."""


def respond(
    listener: int, note: Notification, value: int = 0, error: int = 0, flags: int = 0
) -> None:
    """Let *note*'s call return *value*, or fail with errno *error*; or, with
    :data:`FLAG_CONTINUE`, be made by the kernel itself."""
    try:
        fcntl.ioctl(listener, NOTIF_SEND, RESPONSE.pack(note.id, value, -error, flags))
    except OSError:
        # the caller was killed while we decided (ENOENT), or its answer is not wanted any
        # more: nothing is left to answer, and the supervision goes on
        return


class Refused(Exception):
    """The call is answered with this errno."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _int(value: int) -> int:
    """A register's low 32 bits as a C ``int`` (descriptors, flags)."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


class _Caller:
    """The process a notification came from: its memory, its descriptors, its working folder."""

    def __init__(self, listener: int, note: Notification, *, again: bool = False) -> None:
        self.listener = listener
        self.note = note
        self.again = again
        """The call is answered again, from the start, here: nothing of it is handed on."""
        self.tid = note.pid
        self._mem: int | None = None
        self._pidfd: int | None = None
        self._status: bytes | None = None
        self.opened: list[int] = []

    def close(self) -> None:
        for fd in (self._mem, self._pidfd, *self.opened):
            if fd is not None:
                os.close(fd)

    def _checked(self) -> None:
        # the tid may have been reused between the notification and our opening its files
        if not still_waiting(self.listener, self.note):
            raise Refused(errno.ESRCH)

    def read(self, address: int, size: int) -> bytes:
        if self._mem is None:
            try:
                self._mem = os.open(f"/proc/{self.tid}/mem", os.O_RDONLY | os.O_CLOEXEC)
            except OSError as exc:
                raise Refused(errno.EPERM) from exc
            self._checked()
        if not 0 < address < ADDRESS_LIMIT or size > ADDRESS_LIMIT - address:
            raise Refused(errno.EFAULT)
        try:
            data = os.pread(self._mem, size, address)
        except OSError as exc:
            raise Refused(errno.EFAULT) from exc
        if len(data) != size:  # the caller's memory ends before what it named
            raise Refused(errno.EFAULT)
        return data

    def _some(self, address: int, size: int) -> bytes:
        """Up to *size* bytes at *address*, fewer where a mapping ends (for strings)."""
        if not 0 < address < ADDRESS_LIMIT:
            raise Refused(errno.EFAULT)
        self.read(address, 1)  # opens the memory and checks the first byte is there
        assert self._mem is not None
        try:
            return os.pread(self._mem, size, address)
        except OSError as exc:
            raise Refused(errno.EFAULT) from exc

    def string(self, address: int, limit: int = PATH_MAX) -> bytes:
        """The NUL-ended string at *address*, read a page at a time (never past a mapping)."""
        if address == 0:
            raise Refused(errno.EFAULT)
        out = b""
        while len(out) < limit:
            page = 4096 - (address + len(out)) % 4096
            chunk = self._some(address + len(out), min(page, limit - len(out)))
            if not chunk:
                raise Refused(errno.EFAULT)
            end = chunk.find(b"\0")
            if end >= 0:
                return out + chunk[:end]
            out += chunk
        raise Refused(errno.ENAMETOOLONG)

    def descriptor(self, fd: int) -> int:
        """A copy, here, of the caller's descriptor *fd* (the same open file)."""
        if self._pidfd is None:
            try:
                # the calling thread's own table (one that unshared it has its own), Linux 6.9
                self._pidfd = os.pidfd_open(self.tid, PIDFD_THREAD)
            except OSError:
                try:
                    self._pidfd = os.pidfd_open(_tgid(self.tid))
                except OSError as exc:
                    raise Refused(errno.ESRCH) from exc
            self._checked()
        try:
            copy = libc.pidfd_getfd(self._pidfd, fd)
        except OSError as exc:
            raise Refused(errno.EBADF) from exc
        self.opened.append(copy)
        return copy

    def base(self, dirfd: int) -> int:
        """The folder a relative path of the caller starts from."""
        if dirfd != AT_FDCWD:
            return self.descriptor(dirfd)
        try:
            fd = os.open(f"/proc/{self.tid}/cwd", _O_PATH | os.O_DIRECTORY)
        except OSError as exc:
            raise Refused(errno.ESRCH) from exc
        self.opened.append(fd)
        self._checked()
        return fd

    def target_at(self, dirfd: int, path_address: int, flags: int) -> int:
        """:meth:`target` for the ``*at`` forms, whose *flags* may say ``AT_SYMLINK_NOFOLLOW``
        and ``AT_EMPTY_PATH``."""
        follow = not flags & AT_SYMLINK_NOFOLLOW
        return self.target(dirfd, path_address, follow=follow, empty=bool(flags & AT_EMPTY_PATH))

    def target(self, dirfd: int, path_address: int, *, follow: bool, empty: bool = False) -> int:
        """The object a path argument names, opened here as the kernel would reach it.

        *path_address* 0 (``utimensat`` on a descriptor) or an empty path with *empty*
        (``AT_EMPTY_PATH``) names *dirfd* itself.
        """
        if path_address == 0:
            if dirfd == AT_FDCWD:
                raise Refused(errno.EFAULT)
            return self.descriptor(dirfd)
        return self.resolve(dirfd, self.string(path_address), follow=follow, empty=empty)

    def resolve(self, dirfd: int, path: bytes, *, follow: bool, empty: bool = False) -> int:
        """The object *path* names for the caller (from *dirfd*), opened here."""
        if not path:
            if not empty:
                raise Refused(errno.ENOENT)
            return self.base(dirfd)
        own = _OWN_DESCRIPTOR.match(path)
        if own is not None and own.group(1) in (b"self", b"thread-self", None, b"%d" % self.tgid):
            # /proc/self/fd/N (glibc's fchmodat without following links) names the caller's
            # descriptor N, never the supervisor's
            return self.descriptor(int(own.group(2)))
        path = self.theirs(path)
        base = self.base(dirfd) if not path.startswith(b"/") else AT_FDCWD
        flags = _O_PATH | (0 if follow else os.O_NOFOLLOW)
        try:
            # no magic link on the way: /proc/self would be the supervisor, and any other
            # process's descriptors are not the caller's to name
            fd = _open_how(base, path, flags, RESOLVE_NO_MAGICLINKS)
        except OSError as exc:
            raise Refused(exc.errno or errno.ENOENT) from exc
        self.opened.append(fd)
        return fd

    def theirs(self, path: bytes) -> bytes:
        """*path* with ``/proc/self`` and ``/proc/thread-self`` made the caller's (here they
        would name the supervisor)."""
        if not path.startswith(b"/proc/"):
            return path
        for own in (b"/proc/self", b"/proc/thread-self"):
            if path == own or path.startswith(own + b"/"):
                theirs = b"/proc/%d" % self.tgid
                if own == b"/proc/thread-self":
                    theirs += b"/task/%d" % self.tid
                return theirs + path[len(own) :]
        return path

    def status(self, field: bytes) -> bytes:
        """A field of the caller's ``/proc`` status (``Tgid``, ``Umask``), read once."""
        if self._status is None:
            try:
                fd = os.open(f"/proc/{self.tid}/status", os.O_RDONLY | os.O_CLOEXEC)
            except OSError as exc:
                raise Refused(errno.ESRCH) from exc
            try:
                text = os.read(fd, 1024)  # the fields wanted are in its first lines
            finally:
                os.close(fd)
            self._status = b"\n" + text
        # found, not split into lines: this is read for each name a server makes
        at = self._status.find(b"\n" + field + b":")
        if at < 0:
            raise Refused(errno.ESRCH)
        start = at + len(field) + 2
        end = self._status.find(b"\n", start)
        return self._status[start : end if end >= 0 else None].strip()

    @property
    def tgid(self) -> int:
        return int(self.status(b"Tgid"))


def _tgid(tid: int) -> int:
    with open(f"/proc/{tid}/status", encoding="ascii", errors="replace") as f:
        for line in f:
            if line.startswith("Tgid:"):
                return int(line.split()[1])
    raise Refused(errno.ESRCH)


def _proc(fd: int) -> str:
    return f"/proc/self/fd/{fd}"


SYS_OPENAT2 = 437
PIDFD_THREAD = os.O_EXCL
_OWN_DESCRIPTOR = re.compile(rb"^/(?:proc/(self|thread-self|\d+)(?:/task/\d+)?|dev)/fd/(\d+)$")
"""A path that names a descriptor of the caller's (``/dev/fd/N`` too)."""
RESOLVE_NO_XDEV = 0x01
RESOLVE_NO_MAGICLINKS = 0x02
RESOLVE_NO_SYMLINKS = 0x04
RESOLVE_BENEATH = 0x08
OBSERVED = frozenset((*seccomp.CREATING, *seccomp.OBSERVED))
"""The calls only observed: the kernel makes each (Landlock decides it)."""
CONNECTS = 64
"""Connections made for a server at once; past that its ``connect`` fails with EAGAIN."""


class _OpenHow(ctypes.Structure):
    _fields_ = (("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64))


def _open_how(base: int, path: bytes, flags: int, resolve: int) -> int:
    """``openat2(base, path, flags, resolve)``."""
    how = _OpenHow(flags | os.O_CLOEXEC, 0, resolve)
    return libc.syscall(
        SYS_OPENAT2, base, ctypes.c_char_p(path), ctypes.byref(how), ctypes.sizeof(how)
    )


def _beneath(folder_fd: int, relative: str) -> int:
    """*relative* opened from *folder_fd* without leaving it: no link, no ``..`` above it,
    no other mount."""
    resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV
    return _open_how(folder_fd, os.fsencode(relative), os.O_PATH | os.O_NOFOLLOW, resolve)


def _mount_id(fd: int) -> int:
    with open(f"/proc/self/fdinfo/{fd}", encoding="ascii") as f:
        for line in f:
            if line.startswith("mnt_id:"):
                return int(line.split()[1])
    raise OSError(errno.EINVAL, "no mount id")


def _same(a: int, b: int) -> bool:
    """Whether descriptors *a* and *b* are the same object on the same mount."""
    sa, sb = os.fstat(a), os.fstat(b)
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino) and _mount_id(a) == _mount_id(b)


class NotifiedCalls:
    """Decides and makes the calls of one confined server's tree (see the module's text)."""

    def __init__(
        self,
        listener: int,
        writable: list[tuple[str, int]],
        sockets: list[str],
        arch: str,
        network: bool = True,
        observe: Observe | None = None,
        max_processes: int | None = None,
        namer: Namer | None = None,
        own: str | None = None,
        proxy: int | None = None,
        on_network: Callable[[_Caller, str], None] | None = None,
    ) -> None:
        self.listener = listener
        self.proxy = proxy
        """A server limited to domains (:mod:`~roots_manager.sandbox.proxy`): the port its
        proxy listens on, the only address beyond its own loopback it may connect to (0: in
        a network namespace of its own, where its loopback is its own; None: not limited).
        Not 0, the proxy is on the machine's loopback: no other port there, and no bind."""
        self.on_network = on_network
        """Told each connection refused for going past the proxy, with its address."""
        self.namer = namer
        """Makes every name the server makes, but the kept ones (None: the server has none
        kept, and the kernel makes its names)."""
        self.max_processes = max_processes
        """The most processes the server's tree (every process below this one) may hold."""
        self.limit_said = False
        self.network = network
        """Network families may be connected and bound (False: the user blocked them)."""
        self.observe = observe
        """Shown each observed call (:mod:`roots_manager.sandbox.observer`), which the kernel
        then makes: whatever it does, it never decides one."""
        self.writable = [(w.rstrip("/") or "/", fd) for w, fd in writable]
        """Each writable folder's real path, and a descriptor of it held since the start."""
        self.sockets = set(sockets)
        own_real = os.path.realpath(own).rstrip("/") if own is not None else None
        self.own = [(w, fd) for w, fd in self.writable if w == own_real]
        """The server's own temporary folder, and its descriptor: a Unix socket it bound there
        is its own to connect to (a pipe of ``tsx``, a browser's)."""
        self.names = seccomp.names(arch)
        self.asker: Asker | None = None
        """Holds the reads the rules refuse while the user is asked, and serves those of the
        folders granted since the start (:mod:`~roots_manager.sandbox.asking`); None: every
        refusal is the kernel's at once."""
        self.connecting = threading.BoundedSemaphore(CONNECTS)
        self._connectors = _Workers("connect")

    def beneath_writable(self, fd: int) -> bool:
        """Whether the object open as *fd* lies in a folder the server may write, now.

        Decided on the object, not on a name: where the kernel says it is, reached again from
        the writable folder's own descriptor without leaving it (no link, no other mount), must
        be that very object, on that very mount.
        """
        return self.beneath(fd, self.writable)

    def beneath(self, fd: int, folders: list[tuple[str, int]]) -> bool:
        """Whether the object open as *fd* lies in one of *folders* (each a real path and its
        descriptor), decided on the object as :meth:`beneath_writable` says."""
        try:
            where = os.readlink(_proc(fd))
        except OSError:
            return False
        if not where.startswith("/") or where.endswith(" (deleted)"):
            return False
        for folder, folder_fd in folders:
            if where == folder:
                return _same(fd, folder_fd)
            if inside(where, folder):
                try:
                    again = _beneath(folder_fd, where[len(folder) + 1 :])
                except OSError:
                    return False
                try:
                    return _same(fd, again)
                finally:
                    os.close(again)
        return False

    def handle(self) -> None:
        """Answer the next notification (call when the listener is readable)."""
        note = receive(self.listener)
        if note is not None:
            self.answer(note)

    def answer(self, note: Notification, *, again: bool = False) -> None:
        """Answer *note*, received here or by the observer's hot path in C (which hands on
        every call it does not let through itself); *again*: a call handed on to the C thread
        that makes names and returned from it (:mod:`~roots_manager.sandbox.making`), answered
        here at once."""
        caller = _Caller(self.listener, note, again=again)
        name = self.names.get(note.nr, "")
        if self.namer is not None and self.namer.makes(name, note.args):
            # judged by the observer only once refused: most names made are allowed, and
            # the thread that makes them meets the server's very rules
            self._decided(caller, name, self.namer.answer, self._made_refused)
            return
        if name in OBSERVED:
            if self.asker is not None and self._asked(caller, name, note.args):
                return
            try:
                if self.observe is not None:
                    self.observe(caller, name, note.args)
            finally:
                caller.close()
                respond(self.listener, note, flags=FLAG_CONTINUE)
            return
        if name == "socket":
            # sent here only when the network is blocked and refusals are observed: refused
            # as the filter refuses it, and told
            try:
                if self.observe is not None:
                    self.observe(caller, name, note.args)
            finally:
                caller.close()
                respond(self.listener, note, error=errno.EACCES)
            return
        if name == "connect":
            self._connect_later(caller)
            return
        if name in seccomp.FORKS:
            caller.close()
            self._new_process(note)
            return
        self._decided(caller, name, self._bind if name == "bind" else self._decide)

    def _asked(self, caller: _Caller, name: str, args: tuple[int, ...]) -> bool:
        """Whether the asker answers this call (now or later); never raises."""
        assert self.asker is not None
        try:
            return self.asker.takes(caller, name, args)
        except Exception:  # the call goes on as without it: the kernel decides
            return False

    def _decided(
        self,
        caller: _Caller,
        name: str,
        decide: Callable[[_Caller, str, tuple[int, ...]], int | None],
        refused: Callable[[_Caller, str, tuple[int, ...]], None] | None = None,
    ) -> None:
        """Answer *caller*'s call as *decide* makes it (None: answered there already); a call
        it fails is shown to *refused* first, while its caller still waits."""
        note = caller.note
        try:
            try:
                value = decide(caller, name, note.args)
            except Refused as exc:
                error = exc.code
            except OSError as exc:
                error = exc.errno or errno.EPERM
            except Exception:  # whatever a hostile caller passed: never the supervisor's end
                error = errno.EINVAL
            else:
                if value is not None:
                    respond(self.listener, note, value)
                return
            try:
                if refused is not None:
                    refused(caller, name, note.args)
            finally:
                respond(self.listener, note, error=error)
        finally:
            caller.close()

    def _made_refused(self, caller: _Caller, name: str, args: tuple[int, ...]) -> None:
        """Tell a name the supervisor did not make for the server, if the rules refuse it
        (the observer's judgement: a name kept is told by the namer)."""
        assert self.namer is not None
        if self.observe is not None and not self.namer.owns(caller, name, args):
            self.observe(caller, name, args)

    def _connect_later(self, caller: _Caller) -> None:
        """Make a ``connect`` in a thread of its own: a blocking one may take minutes, and the
        supervisor must go on watching the bridge and the tree meanwhile."""
        note = caller.note
        if not self.connecting.acquire(blocking=False):
            caller.close()
            respond(self.listener, note, error=errno.EAGAIN)
            return

        def run() -> None:
            try:
                respond(self.listener, note, self._connect(caller, note.args))
            except Refused as refused:
                respond(self.listener, note, error=refused.code)
            except OSError as exc:
                respond(self.listener, note, error=exc.errno or errno.EPERM)
            except Exception:
                respond(self.listener, note, error=errno.EINVAL)
            finally:
                caller.close()
                self.connecting.release()

        self._connectors.run(run)

    def _new_process(self, note: Notification) -> None:
        """Let a new process be made, unless the tree holds :attr:`max_processes` already
        (then the call fails with ``EAGAIN``, as at the user's own limit, and it is said once).

        Counted from the process table when the call comes: calls waiting at once may each
        pass before the others' processes exist, so the tree may pass the limit by as many
        calls as wait together (its threads at most), never by a loop of forks."""
        if self.max_processes is None or tree_size(os.getpid()) < self.max_processes:
            respond(self.listener, note, flags=FLAG_CONTINUE)
            return
        respond(self.listener, note, error=errno.EAGAIN)
        if not self.limit_said:
            self.limit_said = True
            message = (
                f"roots-manager confine: the server's processes reached their limit "
                f"({self.max_processes:,}): each new one is refused (servers confine NAME "
                "--max-processes N)\n"
            )
            try:
                os.write(2, message.encode())
            except OSError:
                return  # no stderr to say it on: the refusal stands

    def _object(self, fd: int) -> None:
        """Refuse the change unless the object open as *fd* is the server's to write, and not
        a git folder's config, ``commondir`` or hook (the namer :meth:`keeps_object
        <roots_manager.sandbox.making.Namer.keeps_object>`)."""
        if not self.beneath_writable(fd):
            raise Refused(errno.EACCES)
        if self.namer is not None and self.namer.keeps_object(fd):
            raise Refused(errno.EACCES)

    def _decide(self, c: _Caller, name: str, a: tuple[int, ...]) -> int:
        follow = not name.startswith("l")
        if name in ("chmod", "fchmod", "fchmodat", "fchmodat2"):
            if name == "chmod":
                obj, mode = c.target(AT_FDCWD, a[0], follow=True), a[1]
            elif name == "fchmod":
                obj, mode = c.descriptor(_int(a[0])), a[1]
            else:
                flags = _int(a[3]) if name == "fchmodat2" else 0
                obj = c.target_at(_int(a[0]), a[1], flags)
                mode = a[2]
            self._object(obj)
            if stat.S_ISLNK(os.fstat(obj).st_mode):
                raise Refused(errno.EOPNOTSUPP)
            # no set-user-ID or set-group-ID file: another user running it would become this one
            os.chmod(_proc(obj), mode & 0o1777)
            return 0
        if name in ("chown", "lchown", "fchown", "fchownat"):
            if name == "fchown":
                obj, uid, gid = c.descriptor(_int(a[0])), a[1], a[2]
            elif name == "fchownat":
                obj = c.target_at(_int(a[0]), a[1], _int(a[4]))
                uid, gid = a[2], a[3]
            else:
                obj, uid, gid = c.target(AT_FDCWD, a[0], follow=follow), a[1], a[2]
            self._object(obj)
            owner = (uid & 0xFFFFFFFF, gid & 0xFFFFFFFF)
            libc.checked(libc.libc().fchownat(obj, b"", *owner, AT_EMPTY_PATH))
            return 0
        if name in ("utime", "utimes", "futimesat", "utimensat"):
            return self._times(c, name, a)
        if name.endswith("setxattr") or name.endswith("removexattr"):
            if name.startswith("f"):
                obj = c.descriptor(_int(a[0]))
            else:
                obj = c.target(AT_FDCWD, a[0], follow=follow)
            self._object(obj)
            if stat.S_ISLNK(os.fstat(obj).st_mode):
                raise Refused(errno.EPERM)
            attr = os.fsdecode(c.string(a[1], XATTR_NAME_MAX + 1))
            if name.endswith("removexattr"):
                os.removexattr(_proc(obj), attr)
            else:
                size = a[3]
                if size > XATTR_SIZE_MAX:
                    raise Refused(errno.E2BIG)
                value = c.read(a[2], size) if size else b""
                os.setxattr(_proc(obj), attr, value, _int(a[4]))
            return 0
        raise Refused(errno.ENOSYS)

    def _times(self, c: _Caller, name: str, a: tuple[int, ...]) -> int:
        times: bytes | None
        if name == "utimensat":
            obj = c.target_at(_int(a[0]), a[1], _int(a[3]))
            times = c.read(a[2], 32) if a[2] else None
        else:
            if name == "futimesat":
                obj, address = c.target(_int(a[0]), a[1], follow=True), a[2]
            else:
                obj, address = c.target(AT_FDCWD, a[0], follow=True), a[1]
            times = None
            if address:
                if name == "utime":  # struct utimbuf: two longs
                    at, mt = struct.unpack("=qq", c.read(address, 16))
                    times = struct.pack("=qqqq", at, 0, mt, 0)
                else:  # two struct timeval
                    at, au, mt, mu = struct.unpack("=qqqq", c.read(address, 32))
                    times = struct.pack("=qqqq", at, au * 1000, mt, mu * 1000)
        self._object(obj)
        if stat.S_ISLNK(os.fstat(obj).st_mode):
            raise Refused(errno.EPERM)
        buf = ctypes.create_string_buffer(times, 32) if times is not None else None
        libc.checked(libc.libc().utimensat(AT_FDCWD, os.fsencode(_proc(obj)), buf, 0))
        return 0

    def _connect(self, c: _Caller, a: tuple[int, ...]) -> int:
        import socket  # only here: most confined servers are never allowed a socket

        family, address = _address(c, a)
        sock = socket.socket(fileno=os.dup(c.descriptor(_int(a[0]))))
        try:
            target: str | tuple[str, int] | tuple[str, int, int, int]
            if family == socket.AF_UNIX:
                path = os.fsdecode(address[2:].split(b"\0", 1)[0])
                if not path:  # abstract names are never allowed
                    raise Refused(errno.EACCES)
                allowed = path in self.sockets
                if not allowed and os.path.isabs(path) and self.sockets:
                    # named through a link among its folders (/var/run/docker.sock): the
                    # allowed socket itself is what is opened below, whatever the name led to
                    head, leaf = os.path.split(path)
                    real = os.path.join(os.path.realpath(head), leaf)
                    allowed = real in self.sockets
                    path = real if allowed else path
                if not allowed and not self.own:
                    raise Refused(errno.EACCES)
                # the socket itself, reached without a link (one swapped in leads on): one the
                # user allowed, or one the server bound in its own temporary folder (a link
                # made there to another's socket would have a second name: refused)
                if allowed:
                    try:
                        found = open_no_follow(path)
                    except OSError as exc:
                        raise Refused(errno.EACCES) from exc
                    c.opened.append(found)
                else:  # as the caller names it; where it really lies is checked below
                    found = c.resolve(AT_FDCWD, os.fsencode(path), follow=True)
                st = os.fstat(found)
                if not allowed and not (st.st_nlink == 1 and self.beneath(found, self.own)):
                    raise Refused(errno.EACCES)
                if not stat.S_ISSOCK(st.st_mode):
                    raise Refused(errno.ECONNREFUSED)
                target = _proc(found)
            elif not self.network:
                raise Refused(errno.EACCES)
            else:
                target = _inet(family, address)
                if self.proxy is not None and not self._through_proxy(target):
                    if self.on_network is not None:
                        host, port = target[0], target[1]
                        self.on_network(c, f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
                    raise Refused(errno.EACCES)
            # the very socket the caller holds: connecting it here connects it there
            code = sock.connect_ex(target)
        finally:
            sock.close()  # the copy only: the caller's descriptor stays open
        if code:
            raise Refused(code)
        return 0

    def _through_proxy(self, target: tuple[str, int] | tuple[str, int, int, int]) -> bool:
        """Whether a server limited to domains may connect to *target*: its own loopback in a
        namespace of its own, else the proxy's port on the machine's loopback alone."""
        import ipaddress

        try:
            loopback = ipaddress.ip_address(target[0]).is_loopback
        except ValueError:
            return False
        return loopback and (self.proxy == 0 or target[1] == self.proxy)

    def _bind(self, c: _Caller, name: str, a: tuple[int, ...]) -> int:
        """``bind``, made here on the caller's socket: a Unix socket by path only in a writable
        grant (as Landlock would allow), never by an abstract name; the network as asked."""
        import socket

        family, address = _address(c, a)
        sock = socket.socket(fileno=os.dup(c.descriptor(_int(a[0]))))
        try:
            if family == socket.AF_UNIX:
                sock.bind(self._unix_name(c, address))
            elif family == socket.AF_NETLINK:  # libc asks the kernel its addresses this way
                sock.bind(struct.unpack("=2xII", address[:12].ljust(12, b"\0")))
            elif not self.network or self.proxy:  # limited, on the machine's loopback
                raise Refused(errno.EACCES)
            else:
                sock.bind(_inet(family, address))
        finally:
            sock.close()
        return 0

    def _unix_name(self, c: _Caller, address: bytes) -> str:
        if len(address) == 2:
            return ""  # the kernel picks an abstract name no one else knows
        name = address[2:]
        if name[:1] == b"\0":
            raise Refused(errno.EACCES)
        path = name.split(b"\0", 1)[0]
        folder, base = os.path.split(path)
        if not base:
            raise Refused(errno.EINVAL)
        parent = c.resolve(AT_FDCWD, folder or b".", follow=True)
        self._object(parent)
        if self.namer is not None and self.namer.keeps(parent, base):
            raise Refused(errno.EACCES)
        where = f"{_proc(parent)}/{os.fsdecode(base)}"
        if len(os.fsencode(where)) > 107:
            raise Refused(errno.ENAMETOOLONG)
        return where


class _Workers:
    """Daemon threads kept for the next piece of work once theirs is done: starting a thread is
    most of what a mediated ``connect`` costs. Daemons, so that a connect that hangs keeps no
    supervisor from ending (the callers bound how many run at once)."""

    def __init__(self, name: str) -> None:
        import queue

        self.name = name
        self.work: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.idle = 0
        self.lock = threading.Lock()

    def run(self, job: Callable[[], None]) -> None:
        with self.lock:
            start = self.idle == 0
            if not start:
                self.idle -= 1
        self.work.put(job)
        if start:
            threading.Thread(target=self._serve, name=self.name, daemon=True).start()

    def _serve(self) -> None:
        while True:
            self.work.get()()
            with self.lock:
                self.idle += 1


def tree_size(root: int) -> int:
    """How many processes are below process *root* (its children, theirs, ...), from each
    thread's list of children in ``/proc``."""
    count = 0
    todo = [root]
    while todo:
        pid = todo.pop()
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue  # ended meanwhile
        for tid in threads:
            try:
                with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                    children = f.read().split()
            except OSError:
                continue
            count += len(children)
            todo += map(int, children)
    return count


def _address(c: _Caller, a: tuple[int, ...]) -> tuple[int, bytes]:
    """The socket address a ``connect`` or ``bind`` names (arguments 1 and 2), and its family."""
    length = a[2] & 0xFFFFFFFF
    if length < 2 or length > 128:
        raise Refused(errno.EINVAL)
    address = c.read(a[1], length)
    return struct.unpack("=H", address[:2])[0], address


def _inet(family: int, address: bytes) -> tuple[str, int] | tuple[str, int, int, int]:
    import socket

    if family == socket.AF_INET and len(address) >= 8:
        port = int.from_bytes(address[2:4], "big")
        return socket.inet_ntop(socket.AF_INET, address[4:8]), port
    if family == socket.AF_INET6 and len(address) >= 28:
        port = int.from_bytes(address[2:4], "big")
        flow = struct.unpack("!I", address[4:8])[0]  # the socket module takes host order
        scope = struct.unpack("=I", address[24:28])[0]
        return socket.inet_ntop(socket.AF_INET6, address[8:24]), port, flow, scope
    raise Refused(errno.EAFNOSUPPORT)

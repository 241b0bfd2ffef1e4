"""The names a confined server makes, made by its supervisor: so that some are never made.

A protected place that a mount cannot hold is kept by its name: one that is not there (a
project's ``.envrc`` or ``.vscode``, ``~/.ssh`` where there is none) or that is a symbolic link
(``~/.bashrc`` kept in a dotfiles folder). A server granted the folder holding one could make
it, and the kernel has no rule for "any name but these" in a folder. So with such places
(:attr:`~roots_manager.core.confinement.rules.Rules.guard`), every call of the server's that
makes a name (``open`` with ``O_CREAT``, ``creat``, ``mkdir``, ``mknod``, ``symlink``, ``link``,
``rename``, in every form) waits for the supervisor (seccomp's user notification), which:

1. opens the folder the new name goes in, from the caller's working folder or descriptor, here
   (:meth:`~roots_manager.sandbox.notified_calls._Caller.resolve`): that object is what is checked
   and what is used, never a path read twice;
2. refuses the call (``EACCES``) if that folder and that name are kept (:class:`Kept`), and
   tells it as a refusal;
3. makes the call itself, on that descriptor, in a thread of its own confined by the server's
   very Landlock rules (:class:`Maker`): what the kernel would refuse the server, it refuses
   there, with the same errno. A file opened so is put into the caller's descriptors
   (``SECCOMP_IOCTL_NOTIF_ADDFD``), which answers its call with the descriptor's number.

A path the caller changes after the check changes nothing: the call is made in the folder that
was checked. A name that is a link, opened with ``O_CREAT``, is followed here as the kernel
follows it, each step checked (a dangling ``x -> .envrc`` does not make ``.envrc``). The mode
is the caller's, less the caller's ``umask`` (the thread has a ``umask`` of 0 of its own).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import queue
import stat
import struct
import sys
import threading

from roots_manager.core.confinement.rules import COMPANIONS
from roots_manager.sandbox import gitfolder, landlock, libc, notified_calls, seccomp
from roots_manager.support.paths import inside

try:
    from roots_manager.sandbox import _fastmake
except ImportError:  # not built (no C compiler, a pure wheel): the thread runs in Python
    _fastmake = None  # type: ignore[assignment]

assert sys.platform == "linux", "imported only where Landlock confines (Linux)"

PURE_ENV = "ROOTS_MANAGER_PURE_MAKER"
"""Set: a server's names are made by the thread in Python (:class:`Maker`), as where its C
thread is not built; ``bench/bench_confine.py --only-making`` measures both."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import NoReturn

    Tell = Callable[[notified_calls._Caller, str, str], None]

NOTIF_ADDFD = 0x40182103
"""SECCOMP_IOCTL_NOTIF_ADDFD: struct seccomp_notif_addfd is id, flags, srcfd, newfd,
newfd_flags."""
ADDFD = struct.Struct("=QIIII")
ADDFD_FLAG_SEND = 1 << 1
"""Add the descriptor and answer the call with its number, at once (Linux 5.14)."""
AT_SYMLINK_FOLLOW = 0x400
AT_REMOVEDIR = 0x200
RENAME_NOREPLACE = 1 << 0
RENAME_EXCHANGE = 1 << 1
CLONE_FS = 0x200
WAITING = 64
"""Opens of a FIFO's end waiting at once for the other end; past that, ``EAGAIN``."""
OWN_PATHS: dict[str, tuple[int | None, int]] = {
    "open": (None, 0),
    "creat": (None, 0),
    "openat": (0, 1),
    "unlink": (None, 0),
    "unlinkat": (0, 1),
}
"""Where each call that may make, open or remove an own file has its folder's descriptor
(None: the working folder) and its path, by argument."""
LINKS_FOLLOWED = 40
"""As the kernel: past this many links on the way, ``ELOOP``."""
_O_PATH = os.O_PATH | os.O_CLOEXEC
GIT = b".git"
GIT_KEPT = (b"config", b"hooks")
"""What git runs, or runs what it names, in a repository's ``.git``."""


class Kept:
    """The names the server may not make: each a folder (its device and inode, which a rename
    does not change) and a name in it."""

    def __init__(
        self,
        names: Iterable[tuple[int, int, bytes]] = (),
        beneath: Iterable[str] = (),
        *,
        git: bool = False,
    ) -> None:
        self.names = set(names)
        self.leaves = {name for _, _, name in self.names}
        """The names alone: most names made are none of them, and need no look at the folder."""
        self.beneath = tuple(beneath)
        """Writable grants whose repositories were not all found: beneath them, each
        repository's hooks and config are kept by their names (:meth:`repository`)."""
        self.own: set[tuple[int, int]] = set()
        """The ``.git`` folders the server made itself (a ``git init``): its own."""
        self.git = git
        """Every git folder is held to :mod:`~roots_manager.sandbox.gitfolder`'s rules (the
        server may write somewhere): whoever made it, nothing in it runs the server's
        commands at the user's next ``git``."""
        self.files: dict[tuple[int, int], dict[bytes, bool]] = {}
        """The server's own files (:attr:`~roots_manager.core.confinement.rules.Rules.
        own_files`), by their folder (its device and inode) and name: each with whether it is
        a companion (which may be removed) rather than the file itself."""

    def own_files(self, files: Iterable[str]) -> None:
        """Let the server make and write *files* (real and absolute) and their SQLite
        companions, each in the folder it names now (opened without following links; a folder
        that cannot be is left out: nothing is made there)."""
        from roots_manager.support.nofollow import open_no_follow

        for path in files:
            folder, name = os.path.split(path)
            try:
                fd = open_no_follow(folder)
            except OSError:
                continue
            st = os.fstat(fd)
            os.close(fd)
            if stat.S_ISDIR(st.st_mode) and name:
                names = self.files.setdefault((st.st_dev, st.st_ino), {})
                names[os.fsencode(name)] = False
                for companion in COMPANIONS:
                    names[os.fsencode(name + companion)] = True

    def owned(self, folder: int, name: bytes) -> bool | None:
        """Whether *name* in the folder open as *folder* is one of the server's own files:
        None if it is not, False for the file itself, True for a companion of it."""
        if not self.files:
            return None
        st = os.fstat(folder)
        return self.files.get((st.st_dev, st.st_ino), {}).get(name)

    @property
    def writes(self) -> bool:
        """Whether each open that writes an existing file is made here too (a git folder's
        config made here needs none of it: see :meth:`Namer._settle`)."""
        return bool(self.beneath)

    def git_refusal(self, folder: int, name: bytes, how: str) -> str | None:
        """Why *name* may not be made in the folder open as *folder* (*how*: ``open``, to
        make or write a file; ``mkdir``; ``link``, any other new name; ``rename``, the name a
        rename gives), by :mod:`~roots_manager.sandbox.gitfolder`'s rules; None if it may."""
        if not self.git:
            return None
        name = name.rstrip(b"/")
        where = _place(folder)
        if where is None:
            return "a folder whose place is not known"
        if not gitfolder.in_git_folder(where):
            if name == gitfolder.BARE:
                return "a bare repository's HEAD outside a .git folder"
            return None
        if name in gitfolder.CONFIGS and how != "rename":
            return "a git folder's config, made only by a rename that is checked"
        if name in gitfolder.NEVER_MADE:
            return "a worktree's commondir"
        if name == gitfolder.HOOKS and how != "mkdir":
            return "a git folder's hooks, made only as a new folder"
        if os.path.basename(where) == "hooks" and not name.endswith(gitfolder.SAMPLE):
            return "a hook"
        return None

    def git_object(self, fd: int) -> bool:
        """Whether the object open as *fd* is, by its name now, a git folder's config,
        ``commondir`` or hook: never given a second name, opened again to write, or changed
        in its mode, owner or extended attributes (an ACL that lets the server write)."""
        if not self.git:
            return False
        where = _place(fd)
        if where is None:  # a pipe, a socket, a file no name leads to: nothing git reads
            return False
        folder, name = os.path.split(where)
        if not gitfolder.in_git_folder(folder):
            return False
        leaf = os.fsencode(name)
        return (
            leaf in gitfolder.CONFIGS
            or leaf in gitfolder.NEVER_MADE
            or os.path.basename(folder) == "hooks"
        )

    @classmethod
    def of(cls, paths: Iterable[str]) -> tuple[Kept, list[str]]:
        """The names of *paths* (real and absolute), each kept in the folder it names now; and
        the paths whose folder cannot be opened (gone since, or a link on the way)."""
        from roots_manager.support.nofollow import open_no_follow

        folders: dict[str, tuple[int, int] | None] = {}
        names: set[tuple[int, int, bytes]] = set()
        missed: list[str] = []
        for path in paths:
            folder, name = os.path.split(path)
            if folder not in folders:
                try:
                    fd = open_no_follow(folder)
                except OSError:
                    folders[folder] = None
                else:
                    st = os.fstat(fd)
                    os.close(fd)
                    folders[folder] = (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None
            where = folders[folder]
            if where is None or not name:
                missed.append(path)
                continue
            names.add((*where, os.fsencode(name)))
        return cls(names), missed

    def repository(self, folder: int, name: bytes) -> bool:
        """Whether *name* in the folder open as *folder*, beneath :attr:`beneath`, is a place of
        a repository that was there before the server: its ``.git`` itself, the ``config`` and
        ``hooks`` of its git folder and of each submodule's (``.git/modules/...``), or anything
        in such ``hooks``. Judged on the folder's own path now (a held descriptor: what is
        checked is what the call is made in), and the ``.git``'s identity (one the server made
        is its own)."""
        if not self.beneath:
            return False
        name = name.rstrip(b"/")
        try:
            where = os.readlink(f"/proc/self/fd/{folder}")
        except OSError:
            return True  # not known where: kept, to be safe
        if not any(inside(where, grant) for grant in self.beneath):
            return False
        if name == GIT:
            try:
                st = os.stat(name, dir_fd=folder, follow_symlinks=False)
            except FileNotFoundError:
                return False  # a repository being made: the server's own
            return (st.st_dev, st.st_ino) not in self.own
        at = (where + "/").find("/.git/")
        if at < 0:
            return False
        base = os.path.basename(where)
        gitdir = base == ".git" or "/modules/" in where[at:]
        if not (base == "hooks" or (gitdir and name in GIT_KEPT)):
            return False
        try:
            git = os.open(where[: at + 5], _O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            return True
        try:
            return not self._own(git)
        finally:
            os.close(git)

    def repository_object(self, fd: int) -> bool:
        """:meth:`repository` for the object open as *fd* (by the name it has now)."""
        if not self.beneath:
            return False
        try:
            where = os.readlink(f"/proc/self/fd/{fd}")
            folder = os.open(os.path.dirname(where), _O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            return True
        try:
            return self.repository(folder, os.fsencode(os.path.basename(where)))
        finally:
            os.close(folder)

    def made(self, folder: int, name: bytes) -> None:
        """The server made *name* in *folder*: a ``.git`` so made is its own."""
        if self.beneath and name.rstrip(b"/") == GIT:
            with contextlib.suppress(OSError):
                st = os.stat(GIT, dir_fd=folder, follow_symlinks=False)
                self.own.add((st.st_dev, st.st_ino))

    def _own(self, folder: int) -> bool:
        st = os.fstat(folder)
        return (st.st_dev, st.st_ino) in self.own

    def holds(self, folder: int, name: bytes) -> bool:
        """Whether *name* in the folder open as *folder* is kept."""
        name = name.rstrip(b"/")
        if name not in self.leaves:
            return False
        st = os.fstat(folder)
        return (st.st_dev, st.st_ino, name) in self.names


class Maker:
    """A thread of the supervisor's, confined to the server's Landlock ruleset, that makes the
    server's names: each method makes one call there and returns its result, or raises its
    :class:`OSError`. If the thread cannot be confined, every call fails with ``EPERM``:
    nothing is ever made here outside the server's rules.

    This is the thread in Python, where ``_fastmake.c`` is not built: the same methods, each
    call handed over through queues (and the interpreter lock) where C hands it over through a
    futex (:func:`maker`)."""

    def __init__(self, ruleset: int) -> None:
        self._todo: queue.SimpleQueue[tuple[Callable[..., object], tuple[object, ...]]]
        self._todo = queue.SimpleQueue()
        self._done: queue.SimpleQueue[tuple[bool, object]] = queue.SimpleQueue()
        self._ruleset = ruleset
        self._one = threading.Lock()
        self.failed: str | None = None
        """Why the thread is not confined (None: it is), known once this returns."""
        confined = threading.Event()
        threading.Thread(target=self._run, args=(confined,), name="maker", daemon=True).start()
        confined.wait()

    def _run(self, confined: threading.Event) -> None:
        try:
            # a umask of its own (0: the caller's is applied to each mode here)
            libc.checked(libc.libc().unshare(CLONE_FS))
            os.umask(0)
            landlock.enforce(self._ruleset)
        except OSError as exc:
            self.failed = str(exc)
        finally:
            os.close(self._ruleset)
            confined.set()
        while True:
            call, args = self._todo.get()
            if self.failed is not None:
                self._done.put((False, OSError(errno.EPERM, self.failed)))
                continue
            try:
                self._done.put((True, call(*args)))
            except OSError as exc:
                self._done.put((False, exc))
            except Exception as exc:  # whatever the caller's arguments made of it
                self._done.put((False, OSError(errno.EINVAL, repr(exc))))

    def _call(self, call: Callable[..., object], *args: object) -> object:
        with self._one:  # each answer to its own call
            self._todo.put((call, args))
            ok, result = self._done.get()
        if not ok:
            assert isinstance(result, OSError)
            raise result
        return result

    def open(self, leaf: bytes, flags: int, mode: int, folder: int | None) -> int:
        made = self._call(_open, leaf, flags, mode, folder)
        assert isinstance(made, int)
        return made

    def mkdir(self, leaf: bytes, mode: int, folder: int) -> None:
        self._call(_mkdir, leaf, mode, folder)

    def mknod(self, leaf: bytes, mode: int, device: int, folder: int) -> None:
        self._call(_mknod, leaf, mode, device, folder)

    def symlink(self, target: bytes, leaf: bytes, folder: int) -> None:
        self._call(_symlink, target, leaf, folder)

    def link(self, source: int, leaf: bytes, folder: int) -> None:
        self._call(_link, source, leaf, folder)

    def rename(self, old_folder: int, old: bytes, folder: int, leaf: bytes, flags: int) -> None:
        self._call(_renameat2, old_folder, old, folder, leaf, flags)

    def unlink(self, leaf: bytes, folder: int) -> None:
        self._call(_unlink, leaf, folder)

    def rmdir(self, leaf: bytes, folder: int) -> None:
        self._call(_rmdir, leaf, folder)

    def later(
        self, leaf: bytes, flags: int, mode: int, folder: int, then: Callable[[int | OSError], None]
    ) -> None:
        """Open *leaf* in a new thread started from the confined one (so confined as it is),
        and give *then* the descriptor or the error; returns at once."""

        def wait() -> None:
            try:
                result: int | OSError = _open(leaf, flags, mode, folder)
            except OSError as exc:
                result = exc
            except Exception as exc:  # whatever the caller's arguments made of it
                result = OSError(errno.EINVAL, repr(exc))
            then(result)

        def start() -> None:
            threading.Thread(target=wait, name="maker-wait", daemon=True).start()

        self._call(start)


def maker(ruleset: int) -> Maker | _fastmake.Maker:
    """The thread that makes a server's names under *ruleset* (taken: closed there): in C
    where it is built (:data:`PURE_ENV` not set), else in Python; the same methods."""
    if _fastmake is not None and not os.environ.get(PURE_ENV):
        return _fastmake.Maker(ruleset)
    return Maker(ruleset)


def _renameat2(old_dir: int, old: bytes, new_dir: int, new: bytes, flags: int) -> int:
    lib = libc.libc()
    return libc.checked(lib.renameat2(old_dir, old, new_dir, new, ctypes.c_uint(flags)))


class Namer:
    """Answers the calls that make names (see the module's text) for one server's tree."""

    def __init__(
        self, listener: int, kept: Kept, maker: Maker | _fastmake.Maker, tell: Tell | None = None
    ) -> None:
        self.listener = listener
        self.kept = kept
        self.maker = maker
        self.tell = tell
        """Told each call refused for a kept name (the caller, the call, the path)."""
        self.waiting = threading.BoundedSemaphore(WAITING)
        self._fast = None if isinstance(maker, Maker) else maker
        """The C thread, which makes an open and answers it while the supervisor goes on."""

    def keeps(self, folder: int, name: bytes) -> bool:
        """Whether *name* in the folder open as *folder* may not be made (:class:`Kept`)."""
        return self.kept.holds(folder, name)

    def keeps_object(self, fd: int) -> bool:
        """Whether the object open as *fd* may not be changed in its mode, owner or extended
        attributes: a git folder's config, ``commondir`` or hook (:meth:`Kept.git_object`)."""
        return self.kept.git_object(fd)

    def makes(self, name: str, args: tuple[int, ...]) -> bool:
        """Whether call *name* with *args* is made here: one that makes a name (an open only
        with ``O_CREAT``), and with repositories kept (:attr:`Kept.beneath`) one that opens a
        file to write it, or removes a name."""
        if name in seccomp.OPEN_FLAGS:
            # with O_PATH the kernel ignores O_CREAT (and the flags are a register: the caller
            # cannot change them while the call waits)
            flags = notified_calls._int(args[seccomp.OPEN_FLAGS[name]])
            asks = seccomp.O_CREAT | (seccomp.WRITE_ACCESS if self.kept.writes else 0)
            return bool(flags & asks) and not flags & os.O_PATH
        if name in seccomp.REMOVING or name in seccomp.EMPTYING:
            return bool(self.kept.beneath or self.kept.files)
        return name in seccomp.CREATING or name in seccomp.NAMING

    def owns(self, c: notified_calls._Caller, name: str, a: tuple[int, ...]) -> bool:
        """Whether call *name* names one of the server's own files (:meth:`Kept.owned`): made
        here, it is no refusal to tell, though the rules give nothing in its folder."""
        where = OWN_PATHS.get(name) if self.kept.files else None
        if where is None:
            return False
        dirfd = notified_calls.AT_FDCWD if where[0] is None else notified_calls._int(a[where[0]])
        try:
            folder, leaf = _split(c, dirfd, c.string(a[where[1]]))
        except (notified_calls.Refused, OSError):
            return False
        return self.kept.owned(folder, leaf) is not None

    def answer(self, c: notified_calls._Caller, name: str, a: tuple[int, ...]) -> int | None:
        """Make call *name* for caller *c*; its return value, or None when the call was
        answered already (a descriptor sent into the caller, with its number)."""
        if name in ("open", "openat", "creat"):
            self._open(c, name, a)
            return None
        if name in ("mkdir", "mkdirat", "mknod", "mknodat"):
            at = name.endswith("at")
            dirfd = notified_calls._int(a[0]) if at else notified_calls.AT_FDCWD
            rest = a[1:] if at else a
            how = "mkdir" if name.startswith("mkdir") else "link"
            folder, leaf = self._where(c, dirfd, c.string(rest[0]), name, how)
            mode = rest[1] & 0xFFFFFFFF
            umask = _umask(c)
            if name.startswith("mkdir"):
                bits = mode & 0o1777 & ~umask
                if self._answers_later(c, leaf, bits, folder):
                    return None
                self.maker.mkdir(leaf, bits, folder)
                self.kept.made(folder, leaf)
            else:
                kind, bits = stat.S_IFMT(mode), mode & 0o1777 & ~umask
                self.maker.mknod(leaf, (kind or stat.S_IFREG) | bits, rest[2], folder)
            return 0
        if name in ("symlink", "symlinkat"):
            target = c.string(a[0])
            dirfd, address = (
                (notified_calls._int(a[1]), a[2])
                if name == "symlinkat"
                else (notified_calls.AT_FDCWD, a[1])
            )
            folder, leaf = self._where(c, dirfd, c.string(address), name, "link")
            self.maker.symlink(target, leaf, folder)
            return 0
        if name in ("link", "linkat"):
            return self._link(c, name, a)
        if name in seccomp.REMOVING:
            return self._remove(c, name, a)
        if name in seccomp.EMPTYING:
            return self._truncate(c, a)
        return self._rename(c, name, a)

    def _where(
        self, c: notified_calls._Caller, dirfd: int, path: bytes, call: str, how: str
    ) -> tuple[int, bytes]:
        """The folder (opened here) a new name of *path* goes in, and the name; refused if it
        is kept (*how*: see :meth:`Kept.git_refusal`)."""
        folder, leaf = _split(c, dirfd, path)
        self._check(c, folder, leaf, call, how=how)
        return folder, leaf

    def _check(
        self,
        c: notified_calls._Caller,
        folder: int,
        leaf: bytes,
        call: str,
        *,
        removed: bool = False,
        how: str = "open",
    ) -> None:
        """Refuse the call, and tell it, if *leaf* in *folder* is kept: a name never made
        (but a link kept may be *removed*), a repository's place (:meth:`Kept.repository`),
        or a git folder's place made *how* (:meth:`Kept.git_refusal`)."""
        kept = not removed and self.kept.holds(folder, leaf)
        git = None if removed else self.kept.git_refusal(folder, leaf, how)
        if kept or git is not None or self.kept.repository(folder, leaf):
            self._refuse(c, folder, leaf, call)

    def _refuse(self, c: notified_calls._Caller, folder: int, leaf: bytes, call: str) -> NoReturn:
        """Tell that *call* was refused for *leaf* in *folder*, and refuse it."""
        if self.tell is not None:
            where = _place(folder)
            if where is not None:  # refused all the same
                self.tell(c, call, os.path.join(where, os.fsdecode(leaf.rstrip(b"/"))))
        raise notified_calls.Refused(errno.EACCES)

    def _open(self, c: notified_calls._Caller, name: str, a: tuple[int, ...]) -> None:
        if name == "creat":
            dirfd, address, flags, mode = (
                notified_calls.AT_FDCWD,
                a[0],
                os.O_CREAT | os.O_WRONLY | os.O_TRUNC,
                a[1],
            )
        elif name == "open":
            dirfd, address, flags, mode = (
                notified_calls.AT_FDCWD,
                a[0],
                notified_calls._int(a[1]),
                a[2],
            )
        else:
            dirfd, address, flags, mode = (
                notified_calls._int(a[0]),
                a[1],
                notified_calls._int(a[2]),
                a[3],
            )
        follow = not flags & (os.O_NOFOLLOW | os.O_EXCL)
        mode = mode & 0o1777 & ~_umask(c)
        path = c.string(address)
        if self._reopen(c, path, flags):
            return
        folder, leaf = _split(c, dirfd, path)
        if self.kept.owned(folder, leaf) is not None:
            self._check(c, folder, leaf, name)
            self._open_own(c, folder, leaf, flags, mode, name)
            return
        # never waiting here for a FIFO's other end (the supervisor would stop with it): such
        # an open waits in a thread of its own (:meth:`_open_later`)
        blocking = not flags & os.O_NONBLOCK
        for _ in range(LINKS_FOLLOWED):
            self._check(c, folder, leaf, name)
            asked = flags | os.O_NOFOLLOW
            if blocking and flags & os.O_ACCMODE == os.O_RDONLY and _fifo(leaf, folder):
                self._open_later(c, leaf, asked, mode, folder)  # it waits for a writer
                return
            if self._answers_later(c, leaf, mode, folder, asked, blocking=blocking):
                return
            try:
                made = self.maker.open(leaf, asked | os.O_NONBLOCK, mode, folder)
            except OSError as refused:
                if refused.errno == errno.ENXIO and blocking:  # a FIFO with no reader yet
                    self._open_later(c, leaf, asked, mode, folder)
                    return
                if refused.errno != errno.ELOOP or not follow:
                    raise
                # the name is a link: what it leads to is made, as the kernel would
                target = os.readlink(leaf, dir_fd=folder)
                if self._reopen(c, c.theirs(target), flags):  # /dev/stderr
                    return
                folder, leaf = _split_from(c, folder, target)
                continue
            if blocking:  # opened: a FIFO's writer found its reader, as it would have waited
                os.set_blocking(made, True)
            self._send(c, made, cloexec=bool(flags & os.O_CLOEXEC))
            return
        raise notified_calls.Refused(errno.ELOOP)

    def _answers_later(
        self,
        c: notified_calls._Caller,
        leaf: bytes,
        mode: int,
        folder: int,
        open_flags: int | None = None,
        *,
        blocking: bool = False,
    ) -> bool:
        """Whether the ``mkdir`` of *leaf* in *folder* (or with *open_flags*, its ``open``),
        checked, was handed on to the C thread with its answer: the supervisor goes on
        meanwhile. One that must be answered here (refused, a link, a FIFO) comes back
        (:attr:`returned_fd`) and is answered again from the start."""
        if self._fast is None or c.again:
            return False
        if open_flags is None:
            if self.kept.beneath and leaf.rstrip(b"/") == GIT:
                return False  # a repository being made: its own once made (Kept.made)
            return self._fast.answer_mkdir(leaf, mode, folder, c.note.raw, self.listener)
        cloexec = bool(open_flags & os.O_CLOEXEC)
        flags = open_flags | os.O_NONBLOCK
        note = c.note.raw
        return self._fast.answer_open(
            leaf, flags, mode, folder, note, self.listener, cloexec, blocking
        )

    @property
    def returned_fd(self) -> int:
        """Readable while calls handed on to the C thread come back (-1: none is)."""
        return -1 if self._fast is None else self._fast.returned_fd

    def returned(self) -> list[notified_calls.Notification]:
        """The calls handed on to the C thread that came back, to answer again from the
        start."""
        assert self._fast is not None
        return [notified_calls.Notification(note) for note in self._fast.returned()]

    def _open_own(
        self, c: notified_calls._Caller, folder: int, leaf: bytes, flags: int, mode: int, call: str
    ) -> None:
        """Open (making it if it is not there) the server's own file *leaf* in *folder*, here,
        outside the server's rules, which give it nothing else in that folder: a regular file
        only, made new by ``O_EXCL`` (never through a link), or that very file as it is if it
        has no second name; never a link, a folder, a device or a FIFO found under that
        name."""
        if flags & (os.O_DIRECTORY | os.O_PATH):  # O_TMPFILE holds O_DIRECTORY
            self._refuse(c, folder, leaf, call)
        asked = flags & ~(os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW)
        for _ in range(LINKS_FOLLOWED):
            try:
                found = os.open(leaf, _O_PATH | os.O_NOFOLLOW, dir_fd=folder)
            except FileNotFoundError:
                new = asked | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
                try:
                    made = os.open(leaf, new, mode, dir_fd=folder)
                except FileExistsError:
                    continue  # made meanwhile: opened as it is now
                self._send(c, made, cloexec=bool(flags & os.O_CLOEXEC))
                return
            try:
                st = os.fstat(found)
                if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
                    self._refuse(c, folder, leaf, call)
                if flags & os.O_EXCL:
                    raise notified_calls.Refused(errno.EEXIST)
                # the very file checked, opened again for what the call asks
                made = os.open(f"/proc/self/fd/{found}", asked | os.O_CLOEXEC)
            finally:
                os.close(found)
            self._send(c, made, cloexec=bool(flags & os.O_CLOEXEC))
            return
        raise notified_calls.Refused(errno.EEXIST)

    def _reopen(self, c: notified_calls._Caller, path: bytes, flags: int) -> bool:
        """If *path* names one of the caller's own descriptors (``/proc/self/fd/2``, reached
        from ``/dev/stderr`` too), open that very object again for it and answer the call: no
        name is made (the object is there: ``O_CREAT`` makes nothing), and a pipe has no name
        to make it by. A pipe's end it holds, for what it holds it for, is that end again;
        anything else is opened again in the thread confined by the server's rules, which say
        whether it may be. False for any other path."""
        own = notified_calls._OWN_DESCRIPTOR.match(path)
        if own is None or own.group(1) not in (b"self", b"thread-self", None, b"%d" % c.tgid):
            return False
        copy = c.descriptor(int(own.group(2)))
        asked = flags & ~(os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW)
        if asked & seccomp.WRITE_ACCESS and (
            self.kept.repository_object(copy) or self.kept.git_object(copy)
        ):
            raise notified_calls.Refused(errno.EACCES)
        if stat.S_ISFIFO(os.fstat(copy).st_mode) and _grants(copy, asked):
            # a pipe end it holds, for what it may do with it already: that end again
            made = os.dup(copy)
        else:
            # the thread's own table: /proc/self is the process, outside the thread's rules
            made = self.maker.open(b"/proc/thread-self/fd/%d" % copy, asked, 0, None)
        self._send(c, made, cloexec=bool(flags & os.O_CLOEXEC))
        return True

    def _open_later(
        self, c: notified_calls._Caller, leaf: bytes, flags: int, mode: int, folder: int
    ) -> None:
        """Open *leaf* (a FIFO's end, which waits for the other) in a thread of its own, under
        the server's rules as every name made here, and answer the call when it opens; past
        :data:`WAITING` such opens at once, ``EAGAIN``."""
        if not self.waiting.acquire(blocking=False):
            raise notified_calls.Refused(errno.EAGAIN)
        note = c.note
        held = os.dup(folder)  # the caller's descriptors are closed once this returns

        def opened(result: int | OSError) -> None:
            try:
                if isinstance(result, OSError):
                    notified_calls.respond(self.listener, note, error=result.errno or errno.EPERM)
                else:
                    # a caller gone, or no longer waiting: nothing is left to answer
                    with contextlib.suppress(notified_calls.Refused):
                        self._send_note(note, result, cloexec=bool(flags & os.O_CLOEXEC))
            finally:
                os.close(held)
                self.waiting.release()

        try:
            self.maker.later(leaf, flags, mode, held, opened)
        except BaseException:
            os.close(held)
            self.waiting.release()
            raise

    def _send(self, c: notified_calls._Caller, fd: int, *, cloexec: bool) -> None:
        """Put *fd* into the caller's descriptors, answering its call with the number."""
        self._send_note(c.note, fd, cloexec=cloexec)

    def _send_note(self, note: notified_calls.Notification, fd: int, *, cloexec: bool) -> None:
        send_descriptor(self.listener, note, fd, cloexec)

    def _link(self, c: notified_calls._Caller, name: str, a: tuple[int, ...]) -> int:
        if name == "linkat":
            old_dir, old, new_dir, new, flags = (
                notified_calls._int(a[0]),
                a[1],
                notified_calls._int(a[2]),
                a[3],
                notified_calls._int(a[4]),
            )
        else:
            old_dir, old, new_dir, new, flags = (
                notified_calls.AT_FDCWD,
                a[0],
                notified_calls.AT_FDCWD,
                a[1],
                0,
            )
        folder, leaf = self._where(c, new_dir, c.string(new), name, "link")
        # the object linked, reached here as the kernel reaches it for the caller (its own
        # /proc/self/fd/N too), and linked in through this process's own descriptor of it
        source = c.resolve(
            old_dir,
            c.string(old),
            follow=bool(flags & AT_SYMLINK_FOLLOW),
            empty=bool(flags & notified_calls.AT_EMPTY_PATH),
        )
        # a second name to write it by
        if self.kept.repository_object(source) or self.kept.git_object(source):
            raise notified_calls.Refused(errno.EACCES)
        self.maker.link(source, leaf, folder)
        return 0

    def _rename(self, c: notified_calls._Caller, name: str, a: tuple[int, ...]) -> int:
        if name == "rename":
            old_dir, old, new_dir, new, flags = (
                notified_calls.AT_FDCWD,
                a[0],
                notified_calls.AT_FDCWD,
                a[1],
                0,
            )
        else:
            old_dir, old, new_dir, new = (
                notified_calls._int(a[0]),
                a[1],
                notified_calls._int(a[2]),
                a[3],
            )
            flags = notified_calls._int(a[4]) if name == "renameat2" else 0
        folder, leaf = self._where(c, new_dir, c.string(new), name, "rename")
        old_folder, old_leaf = _split(c, old_dir, c.string(old))
        exchange = bool(flags & RENAME_EXCHANGE)
        if exchange:  # the old name gets the new one's object
            self._check(c, old_folder, old_leaf, name, how="rename")
        else:  # a repository's place is not moved away (and another made in its stead)
            self._check(c, old_folder, old_leaf, name, removed=True)
        if self.kept.git:
            self._git_move(c, (old_folder, old_leaf), (folder, leaf), name, exchange=exchange)
            if leaf.rstrip(b"/") in gitfolder.CONFIGS and _in_git_folder(folder):
                self._settle(c, (old_folder, old_leaf), (folder, leaf), name, flags)
                return 0
        self.maker.rename(old_folder, old_leaf, folder, leaf, flags)
        self.kept.made(folder, leaf)
        return 0

    def _git_move(
        self,
        c: notified_calls._Caller,
        old: tuple[int, bytes],
        new: tuple[int, bytes],
        call: str,
        *,
        exchange: bool,
    ) -> None:
        """Refuse a rename that moves a folder into a git folder or out of one (as ``.git``
        or inside it): a git folder is only made where it is, each of its names checked as
        it is made, and what is in it is never moved out to be a bare repository."""
        sides = [old, new] if exchange else [old]
        if _git_side(*old) == _git_side(*new):
            return
        for folder, leaf in sides:
            try:
                st = os.stat(leaf.rstrip(b"/"), dir_fd=folder, follow_symlinks=False)
            except OSError:
                continue  # the rename itself says what is missing
            if stat.S_ISDIR(st.st_mode):
                self._refuse(c, new[0], new[1], call)

    def _settle(
        self,
        c: notified_calls._Caller,
        old: tuple[int, bytes],
        new: tuple[int, bytes],
        call: str,
        flags: int,
    ) -> None:
        """A file renamed to be a git folder's ``config``: read here, refused if it holds a
        setting a confined server may not write (:func:`gitfolder.refused_setting`), else
        written as a new file of the supervisor's with those very bytes, read-only
        (:data:`gitfolder.MODE`), renamed into place, and the server's file removed: a
        descriptor it kept on its file writes nothing that git reads, and the server, which
        has no capability to pass a file's mode and may not change this one's, cannot open
        the new one to write (git itself, the user's too, replaces a config by a rename, which
        its mode does not stop)."""
        (old_folder, old_leaf), (folder, leaf) = old, new
        if flags & RENAME_EXCHANGE:
            self._refuse(c, folder, leaf, call)
        opened = self.maker.open(
            old_leaf, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, 0, old_folder
        )
        with os.fdopen(opened, "rb") as source:
            st = os.fstat(source.fileno())
            data = source.read(gitfolder.SIZE + 1) if stat.S_ISREG(st.st_mode) else None
        if data is None or gitfolder.refused_setting(data) is not None:
            self._refuse(c, folder, leaf, call)
        temporary = leaf.rstrip(b"/") + b".checked-" + os.urandom(6).hex().encode()
        made = self.maker.open(
            temporary,
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
            gitfolder.MODE,
            folder,
        )
        try:
            with os.fdopen(made, "wb") as copy:
                copy.write(data)
            self.maker.rename(folder, temporary, folder, leaf, flags & RENAME_NOREPLACE)
        except BaseException:
            with contextlib.suppress(OSError, notified_calls.Refused):
                self.maker.unlink(temporary, folder)
            raise
        with contextlib.suppress(OSError, notified_calls.Refused):
            self.maker.unlink(old_leaf, old_folder)

    def _truncate(self, c: notified_calls._Caller, a: tuple[int, ...]) -> int:
        """``truncate`` by a name, made here unless the file is a repository's place or a git
        folder's config: opened to write in the thread confined by the server's rules (which
        say whether it may be, as the kernel would), and cut to the length asked."""
        length = a[1] - (1 << 64) if a[1] >= 1 << 63 else a[1]
        if length < 0:
            raise notified_calls.Refused(errno.EINVAL)
        target = c.target(notified_calls.AT_FDCWD, a[0], follow=True)
        mode = os.fstat(target).st_mode
        if stat.S_ISDIR(mode):
            raise notified_calls.Refused(errno.EISDIR)
        if not stat.S_ISREG(mode):
            raise notified_calls.Refused(errno.EINVAL)
        if self.kept.repository_object(target) or self.kept.git_object(target):
            raise notified_calls.Refused(errno.EACCES)
        opened = self.maker.open(
            b"/proc/thread-self/fd/%d" % target, os.O_WRONLY | os.O_NONBLOCK, 0, None
        )
        try:
            os.ftruncate(opened, length)
        finally:
            os.close(opened)
        return 0

    def _remove(self, c: notified_calls._Caller, name: str, a: tuple[int, ...]) -> int:
        """``unlink``, ``unlinkat`` or ``rmdir``, made here unless the name is a repository's
        place (a link kept is removed: it is not made again)."""
        if name == "unlinkat":
            dirfd, address, flags = notified_calls._int(a[0]), a[1], notified_calls._int(a[2])
            folder_too = bool(flags & AT_REMOVEDIR)
        else:
            dirfd, address, folder_too = notified_calls.AT_FDCWD, a[0], name == "rmdir"
        folder, leaf = _split(c, dirfd, c.string(address))
        self._check(c, folder, leaf, name, removed=True)
        if not folder_too and self.kept.owned(folder, leaf):
            # a companion of the server's own file, which SQLite removes as it ends a write:
            # removed here (the rules give nothing in that folder), if it is a regular file
            found = os.stat(leaf, dir_fd=folder, follow_symlinks=False)
            if not stat.S_ISREG(found.st_mode):
                self._refuse(c, folder, leaf, name)
            os.unlink(leaf, dir_fd=folder)
            return 0
        (self.maker.rmdir if folder_too else self.maker.unlink)(leaf, folder)
        return 0


def send_descriptor(
    listener: int, note: notified_calls.Notification, fd: int, cloexec: bool
) -> None:
    """Put *fd* (closed here) into the descriptors of the caller of *note*, answering its call
    with the number (``SECCOMP_IOCTL_NOTIF_ADDFD``); :class:`~roots_manager.sandbox.notified_calls.
    Refused` if the caller is gone."""
    request = bytearray(ADDFD.pack(note.id, ADDFD_FLAG_SEND, fd, 0, os.O_CLOEXEC if cloexec else 0))
    try:
        fcntl.ioctl(listener, NOTIF_ADDFD, request, True)
    except OSError as exc:
        raise notified_calls.Refused(exc.errno or errno.EBADF) from exc  # the caller is gone
    finally:
        os.close(fd)


def _place(fd: int) -> str | None:
    """The path of the object open as *fd* now, or None if it has none (gone)."""
    try:
        where = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    return where if where.startswith("/") and not where.endswith(" (deleted)") else None


def _in_git_folder(folder: int) -> bool:
    """Whether the folder open as *folder* is a git folder (an unknown place counts)."""
    where = _place(folder)
    return where is None or gitfolder.in_git_folder(where)


def _git_side(folder: int, leaf: bytes) -> bool:
    """Whether *leaf* in *folder* is in a git folder's side: ``.git`` itself, or in one."""
    return leaf.rstrip(b"/") == gitfolder.GIT or _in_git_folder(folder)


def _parts(path: bytes) -> tuple[bytes, bytes]:
    """*path*'s folder part (empty: the folder it starts from) and its last part, with any
    ``/`` after it (which the call judges)."""
    if not path:
        raise notified_calls.Refused(errno.ENOENT)
    stripped = path.rstrip(b"/")
    if not stripped:  # "/" itself: nothing is made there
        raise notified_calls.Refused(errno.EEXIST)
    head, leaf = stripped.rsplit(b"/", 1) if b"/" in stripped else (b"", stripped)
    if not head and path.startswith(b"/"):
        head = b"/"
    return head, leaf + path[len(stripped) :]


def _split(c: notified_calls._Caller, dirfd: int, path: bytes) -> tuple[int, bytes]:
    """The folder *path* names its last part in, opened here as the kernel reaches it from the
    caller's *dirfd*, and that last part (:func:`_parts`)."""
    head, leaf = _parts(path)
    folder = c.resolve(dirfd, head, follow=True) if head else c.base(dirfd)
    if not stat.S_ISDIR(os.fstat(folder).st_mode):
        raise notified_calls.Refused(errno.ENOTDIR)
    return folder, leaf


def _split_from(c: notified_calls._Caller, folder: int, target: bytes) -> tuple[int, bytes]:
    """:func:`_split` for a link's *target*, from the *folder* the link is in."""
    # a link's /proc/self is the caller's, as the kernel reads it
    head, leaf = _parts(c.theirs(target))
    if not head:
        return folder, leaf
    try:
        # an absolute head is resolved from the root whatever the folder
        base = notified_calls._open_how(
            folder, head, _O_PATH | os.O_DIRECTORY, notified_calls.RESOLVE_NO_MAGICLINKS
        )
    except OSError as exc:
        raise notified_calls.Refused(exc.errno or errno.ENOENT) from exc
    c.opened.append(base)
    return base, leaf


def _grants(fd: int, flags: int) -> bool:
    """Whether the open file *fd* allows what an open with *flags* asks (read, write)."""
    held, asked = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE, flags & os.O_ACCMODE
    return held == os.O_RDWR or held == asked


def _umask(c: notified_calls._Caller) -> int:
    """The caller's ``umask`` (``/proc``'s status, Linux 4.7), or 0o022 if it cannot be read."""
    try:
        return int(c.status(b"Umask"), 8)
    except (notified_calls.Refused, ValueError):
        return 0o022


def _fifo(leaf: bytes, folder: int) -> bool:
    """Whether *leaf* in *folder* is a FIFO now (not following a link)."""
    try:
        return stat.S_ISFIFO(os.stat(leaf, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _open(leaf: bytes, flags: int, mode: int, folder: int | None) -> int:
    return os.open(leaf, flags | os.O_CLOEXEC, mode, dir_fd=folder)


def _unlink(leaf: bytes, folder: int) -> None:
    os.unlink(leaf, dir_fd=folder)


def _rmdir(leaf: bytes, folder: int) -> None:
    os.rmdir(leaf, dir_fd=folder)


def _mkdir(leaf: bytes, mode: int, folder: int) -> None:
    os.mkdir(leaf, mode, dir_fd=folder)


def _mknod(leaf: bytes, mode: int, device: int, folder: int) -> None:
    os.mknod(leaf, mode, device, dir_fd=folder)


def _symlink(target: bytes, leaf: bytes, folder: int) -> None:
    if len(target) >= notified_calls.PATH_MAX:
        raise OSError(errno.ENAMETOOLONG, "too long")
    os.symlink(target, leaf, dir_fd=folder)


def _link(source: int, leaf: bytes, folder: int) -> None:
    os.link(f"/proc/self/fd/{source}", leaf, dst_dir_fd=folder, follow_symlinks=True)

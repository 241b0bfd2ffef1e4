"""Read-only and hidden places inside a writable grant, held by the kernel's mounts.

Landlock adds rights down the tree: a folder granted for writing gives every file beneath it
the same rights, and no rule can take them back for one name inside it. So what a confined
server must never rewrite, though it lies inside what it was granted (Roots Manager's own store,
the user's shell start files, a project's ``.git/hooks``), is held by mounts instead, in a mount
namespace of the supervisor's own (and a user namespace for an ordinary user, who needs one to
mount), made before the Landlock rules are opened and before the server is forked:

- a **protected** path is bound onto itself read-only: a write fails with ``EROFS``, whatever
  the Landlock rules allow, and, being a mount point, it cannot be renamed, replaced or removed
  (``EBUSY``);
- a **hidden** path (a secret: ``~/.ssh``) is covered by an empty read-only ``tmpfs`` (a folder)
  or by ``/dev/null`` (a file);
- a **pinned** path (a folder on the way from a grant to a protected path, such as the project's
  ``.git`` above ``.git/hooks``) is bound onto itself as it is, writable: a mount point cannot be
  renamed, so the server cannot move the protected path's parents away and build a look-alike
  in their place.

- a **layered** path (a shared package cache the server's ``npx`` or ``uvx`` fills: ``~/.npm``)
  is covered by an overlay whose lower layer is the cache itself and whose upper layer is a
  folder of the server's own: the server sees the cache as it is and writes what it likes, and
  every write lands in its own folder, never in what the user's and other servers' next ``npx``
  runs. The layer stays for the server's next starts (a warm cache of its own).

- an **own tmpfs** (``/dev/shm``) is an empty tmpfs of the server's own over the machine's:
  its shared memory and semaphores are made there, and nobody else's are seen.

Every mount is made with the new mount API on descriptors (``open_tree``, ``mount_setattr``,
``move_mount``): each source is opened without following links, cloned before any mount is
made, and moved onto the object reopened at its path, which must be the same file (device and
inode): a path swapped for a link in between is refused, never followed. Mounts are placed
shallowest first, so a pinned or writable folder inside a protected one (the server's own
``TMPDIR`` inside Roots Manager's folder) is placed on top of it.

The server's seccomp filter refuses ``mount``, ``umount2``, ``open_tree``, ``move_mount``,
``mount_setattr`` and new user namespaces, and Landlock refuses any change to the mounts of a
confined process: the server cannot take them down.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
import sys

from roots_manager.sandbox import libc, privileges

assert sys.platform == "linux", "imported only where Landlock confines (Linux)"

TYPE_CHECKING = False  # not typing's: the exec wrapper must not pay for importing it
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# numbered after the tables were unified: the same on every architecture
SYS_OPEN_TREE = 428
SYS_MOVE_MOUNT = 429
SYS_FSOPEN = 430
SYS_FSCONFIG = 431
SYS_FSMOUNT = 432
SYS_MOUNT_SETATTR = 442

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
OPEN_TREE_CLONE = 1
OPEN_TREE_CLOEXEC = os.O_CLOEXEC
AT_EMPTY_PATH = 0x1000
AT_RECURSIVE = 0x8000
MOVE_MOUNT_F_EMPTY_PATH = 0x4
MOVE_MOUNT_T_EMPTY_PATH = 0x40
MOUNT_ATTR_RDONLY = 0x1
MOUNT_ATTR_NOSUID = 0x2
MOUNT_ATTR_NODEV = 0x4
MOUNT_ATTR_NOEXEC = 0x8
FSCONFIG_SET_FLAG = 0
FSCONFIG_SET_STRING = 1
FSCONFIG_CMD_CREATE = 6
FSMOUNT_CLOEXEC = 1
MS_REC = 0x4000
MS_PRIVATE = 1 << 18

PROTECT = "protect"
HIDE = "hide"
PIN = "pin"
LAYER = "layer"
OWN_TMPFS = "own tmpfs"
KINDS = (PIN, PROTECT, HIDE, LAYER, OWN_TMPFS)
SHARED_MEMORY = "/dev/shm"
"""Where POSIX shared memory and semaphores are made (``sem_open``, Python's
``multiprocessing``, Chromium): a confined server gets a tmpfs of its own there."""

_O_PATH = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC


class MountError(OSError):
    """The protected places cannot be held by mounts here (no namespace, or a mount failed)."""


class _MountAttr(ctypes.Structure):
    _fields_ = (
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    )


def _sys(number: int, *args: object) -> int:
    return libc.syscall(number, *args, error=MountError)


def _unshare(flags: int) -> None:
    libc.checked(libc.libc().unshare(ctypes.c_int(flags)), MountError)


def enter_namespace() -> None:
    """Give this process a mount namespace of its own, whose mounts nobody else sees: as root
    (who may mount), a mount namespace alone; as an ordinary user, inside a user namespace of
    its own, where its ids map to themselves (and nothing else)."""
    uid, gid = os.geteuid(), os.getegid()
    if uid == 0:
        _unshare(CLONE_NEWNS)
    else:
        _unshare(CLONE_NEWUSER | CLONE_NEWNS)
        privileges.map_own_ids(uid, gid)
    # nothing made here propagates back out to the namespace it was copied from
    libc.checked(
        libc.libc().mount(b"none", b"/", None, ctypes.c_ulong(MS_REC | MS_PRIVATE), None),
        MountError,
    )


def _set(mount_fd: int, attrs: int) -> None:
    attr = _MountAttr(attrs, 0, 0, 0)
    _sys(
        SYS_MOUNT_SETATTR,
        mount_fd,
        b"",
        AT_EMPTY_PATH | AT_RECURSIVE,
        ctypes.byref(attr),
        ctypes.c_size_t(ctypes.sizeof(attr)),
    )


def _clone(fd: int) -> int:
    # with what is mounted beneath it: a clone without would show what those mounts cover
    flags = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE
    return _sys(SYS_OPEN_TREE, fd, b"", flags)


def _empty_folder() -> int:
    """A detached, empty, read-only tmpfs that nobody may enter."""
    fs = _sys(SYS_FSOPEN, b"tmpfs", FSMOUNT_CLOEXEC)
    try:
        _sys(SYS_FSCONFIG, fs, FSCONFIG_SET_STRING, b"mode", b"000", 0)
        _sys(SYS_FSCONFIG, fs, FSCONFIG_SET_STRING, b"size", b"4k", 0)
        _sys(SYS_FSCONFIG, fs, FSCONFIG_CMD_CREATE, None, None, 0)
        attrs = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC
        return _sys(SYS_FSMOUNT, fs, FSMOUNT_CLOEXEC, attrs)
    finally:
        os.close(fs)


def _own_tmpfs() -> int:
    """A detached, empty tmpfs anyone may make files in (sticky), as ``/dev/shm`` is."""
    fs = _sys(SYS_FSOPEN, b"tmpfs", FSMOUNT_CLOEXEC)
    try:
        _sys(SYS_FSCONFIG, fs, FSCONFIG_SET_STRING, b"mode", b"1777", 0)
        _sys(SYS_FSCONFIG, fs, FSCONFIG_CMD_CREATE, None, None, 0)
        return _sys(SYS_FSMOUNT, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)
    finally:
        os.close(fs)


def _empty_file() -> int:
    """A detached mount of ``/dev/null`` that opens for nobody (no devices on it): a file
    that cannot be read or written."""
    null = os.open("/dev/null", _O_PATH)
    try:
        mount = _clone(null)
    finally:
        os.close(null)
    _set(mount, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC)
    return mount


class Placed:
    """What :func:`hold` did: each path held and how, and each it could not hold, with why."""

    __slots__ = ("held", "missed")

    def __init__(self) -> None:
        self.held: list[tuple[str, str]] = []
        self.missed: list[tuple[str, str, str]] = []


LAYERED_FOR = "layered"
"""The file in a layer's folder that names the folder it covers."""


def _kept_for(folder: str, lower: int) -> None:
    """Put aside the layer in *folder* if it was kept for another folder than the one open at
    *lower* (the server's command names another project now): its files would cover the new
    folder's. A layer kept before it was named is taken to be this folder's."""
    covered = os.readlink(f"/proc/self/fd/{lower}")
    marker = os.path.join(folder, LAYERED_FOR)
    try:
        with open(marker, encoding="utf-8") as f:
            was: str | None = f.read()
    except FileNotFoundError:
        was = None
    if was == covered:
        return
    os.makedirs(folder, mode=0o700, exist_ok=True)
    if was is not None:
        import shutil  # only here: the wrapper does not pay for it at each start
        import tempfile

        for name in ("upper", "work"):
            if os.path.lexists(os.path.join(folder, name)):
                aside = tempfile.mkdtemp(prefix="stale-", dir=folder)
                os.rename(os.path.join(folder, name), os.path.join(aside, name))
                shutil.rmtree(aside, ignore_errors=True)  # overlayfs's work/work may stay
    with open(marker + ".new", "w", encoding="utf-8") as f:
        f.write(covered)
    os.replace(marker + ".new", marker)


def _overlay(lower: int, folder: str) -> int:
    """A detached overlay of the folder open at *lower*, whose writes go to *folder*'s
    ``upper`` (with its ``work`` beside it, as overlayfs needs), both made if missing. Every
    layer is named by a descriptor (``/proc/self/fd``): what was opened is what is layered."""
    from roots_manager.support.nofollow import open_no_follow

    layers = []
    try:
        _kept_for(folder, lower)
        for name in ("upper", "work"):
            os.makedirs(os.path.join(folder, name), mode=0o700, exist_ok=True)
            layers.append(open_no_follow(os.path.join(folder, name)))
        fs = _sys(SYS_FSOPEN, b"overlay", FSMOUNT_CLOEXEC)
        try:
            for key, fd in (("lowerdir", lower), ("upperdir", layers[0]), ("workdir", layers[1])):
                value = f"/proc/self/fd/{fd}".encode()
                _sys(SYS_FSCONFIG, fs, FSCONFIG_SET_STRING, key.encode(), value, 0)
            # its own bookkeeping in user.* attributes: an ordinary user's namespace may not
            # write trusted.* ones
            _sys(SYS_FSCONFIG, fs, FSCONFIG_SET_FLAG, b"userxattr", None, 0)
            _sys(SYS_FSCONFIG, fs, FSCONFIG_CMD_CREATE, None, None, 0)
            return _sys(SYS_FSMOUNT, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)
        finally:
            os.close(fs)
    finally:
        for fd in layers:
            os.close(fd)


def _prepare(kind: str, path: str, folder: str | None = None) -> tuple[int, tuple[int, int]]:
    """The detached mount for *path* (made before any is placed), and the identity of the
    object it is to cover (*folder*: where a layered path's layer is kept)."""
    from roots_manager.support.nofollow import open_no_follow

    fd = open_no_follow(path)
    try:
        st = os.fstat(fd)
        if kind == OWN_TMPFS:
            if not stat.S_ISDIR(st.st_mode):
                raise MountError(errno.ENOTDIR, "only a folder gets a tmpfs of its own")
            mount = _own_tmpfs()
        elif kind == LAYER:
            if folder is None or not stat.S_ISDIR(st.st_mode):
                raise MountError(errno.ENOTDIR, "only a folder is layered, in a layer folder")
            mount = _overlay(fd, folder)
        elif kind in (HIDE, PROTECT) and stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
            # a mount holds one name; a hard link made before is another way in
            raise MountError(errno.EMLINK, "it has another name (a hard link) no mount holds")
        elif kind == HIDE:
            mount = _empty_folder() if stat.S_ISDIR(st.st_mode) else _empty_file()
        else:
            mount = _clone(fd)
            if kind == PROTECT:
                _set(mount, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID)
        return mount, (st.st_dev, st.st_ino)
    finally:
        os.close(fd)


def hold(entries: Sequence[tuple[str, str]], layers: Mapping[str, str] | None = None) -> Placed:
    """Place a mount for each ``(kind, path)`` of *entries* in this process's (own) mount
    namespace (:func:`enter_namespace` first), shallowest first; *layers* maps each layered path
    to the folder its layer is kept in. A path that is missing now is passed over (nothing is
    there to rewrite); one that cannot be held is in :attr:`Placed.missed`, and the caller
    decides (the wrapper fails closed)."""
    placed = Placed()
    ordered = sorted(dict.fromkeys(entries), key=lambda e: (e[1].count("/"), e[1]))
    prepared: list[tuple[str, str, int, tuple[int, int]]] = []
    for kind, path in ordered:
        try:
            mount, identity = _prepare(kind, path, (layers or {}).get(path))
        except FileNotFoundError:
            continue
        except OSError as exc:
            placed.missed.append((kind, path, exc.strerror or str(exc)))
            continue
        prepared.append((kind, path, mount, identity))
    for kind, path, mount, identity in prepared:
        try:
            _place(path, mount, identity)
        except OSError as exc:
            placed.missed.append((kind, path, exc.strerror or str(exc)))
        else:
            placed.held.append((kind, path))
        finally:
            os.close(mount)
    return placed


def _place(path: str, mount: int, identity: tuple[int, int]) -> None:
    from roots_manager.support.nofollow import open_no_follow

    target = open_no_follow(path)
    try:
        st = os.fstat(target)
        if (st.st_dev, st.st_ino) != identity:
            raise MountError(errno.ESTALE, "it was replaced while it was being protected")
        _sys(
            SYS_MOVE_MOUNT,
            mount,
            b"",
            target,
            b"",
            MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH,
        )
    finally:
        os.close(target)


def namespace_refusal() -> str | None:
    """Why this process could not hold protected places here (no mount namespace of its own
    may be made), or None if it could: tried in a child process, which then ends."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        os.close(read)
        try:
            enter_namespace()
        except BaseException as exc:
            os.write(write, str(exc).encode(errors="replace")[:500])
            os._exit(1)
        os._exit(0)
    os.close(write)
    try:
        said = b""
        while chunk := os.read(read, 512):
            said += chunk
    finally:
        os.close(read)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return None
    return said.decode(errors="replace") or "the namespace could not be made"

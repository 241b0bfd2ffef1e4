"""Opening a path without following a symbolic link anywhere in it, and naming what was opened.

A confined server's rules are made from paths that a server may be able to change between the
moment they are checked and the moment they are used (a granted folder swapped for a link to
``/`` while its server restarts). So a rule's path is opened once, one component at a time, each
with ``O_NOFOLLOW``: a link anywhere in it fails the open, and the descriptor is the very object
that was checked. Its device and inode (:class:`Identity`) travel with the rule, so that the exec
wrapper can prove that the folder it hands to the kernel is the one the bridge checked.

Pure standard library, light enough for the exec wrapper; POSIX only (there is no ``O_PATH`` or
``O_NOFOLLOW`` on Windows, where nothing is confined).
"""

from __future__ import annotations

import os
import stat

_PATH = getattr(os, "O_PATH", os.O_RDONLY)
_FLAGS = _PATH | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_DIR = getattr(os, "O_DIRECTORY", 0)


class LinkInPath(OSError):
    """A component of the path is a symbolic link (or the path is not absolute)."""


def open_no_follow(path: str) -> int:
    """An ``O_PATH`` descriptor of *path*, reached without following any symbolic link.

    Raises :class:`LinkInPath` when a component is a link, :class:`OSError` when it is missing.
    The caller closes the descriptor.
    """
    if not os.path.isabs(path):
        raise LinkInPath(f"{path!r} is not an absolute path")
    parts = [p for p in os.path.normpath(path).split(os.sep) if p]
    fd = os.open(os.sep, _FLAGS | _DIR)
    try:
        for i, name in enumerate(parts):
            last = i == len(parts) - 1
            try:
                nxt = os.open(name, _FLAGS | (0 if last else _DIR), dir_fd=fd)
            except OSError as exc:
                if not last and exc.errno in (20, 40):  # ENOTDIR, ELOOP: a link or a file
                    raise LinkInPath(
                        f"{os.sep.join(['', *parts[: i + 1]])} is a symbolic link or not a folder"
                    ) from exc
                raise
            os.close(fd)
            fd = nxt
        if stat.S_ISLNK(os.fstat(fd).st_mode):
            raise LinkInPath(f"{path} is a symbolic link")
    except BaseException:
        os.close(fd)
        raise
    return fd


class Identity:
    """Which file-system object a path named when it was checked: its device and inode."""

    __slots__ = ("dev", "ino", "path")

    def __init__(self, path: str, dev: int, ino: int) -> None:
        self.path = path
        self.dev = dev
        self.ino = ino

    def matches(self, fd: int) -> bool:
        """Whether descriptor *fd* is the object this identity names."""
        st = os.fstat(fd)
        return (st.st_dev, st.st_ino) == (self.dev, self.ino)

    def to_arg(self) -> str:
        """``DEV:INO:PATH``, read back by :meth:`from_arg`."""
        return f"{self.dev}:{self.ino}:{self.path}"

    @classmethod
    def from_arg(cls, arg: str) -> Identity:
        dev, ino, path = arg.split(":", 2)
        return cls(path, int(dev), int(ino))


def identify(path: str) -> Identity:
    """The identity of *path* now, reached without following links (raises :class:`OSError`)."""
    fd = open_no_follow(path)
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    return Identity(path, st.st_dev, st.st_ino)

"""Which folder a path names: by the file system's identity of it, not by its spelling.

On macOS (and on Windows) the file system ignores case and Unicode normalisation:
``/Users/me/Code``, ``/users/me/code`` and an NFD spelling of a Japanese name are one folder.
Compared as strings they would be two roots, both answered, and ``roots add /users/me`` would get
past the home-folder guard. Compared by ``(st_dev, st_ino)`` they are one, wherever the code runs.
The stat function is a parameter, so that a case-insensitive or normalising file system can be
simulated on Linux.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Callable
from stat import S_ISLNK

from roots_manager.core.roots.uri import plain_windows_path

Stat = Callable[[str], os.stat_result]


def identity(path: str, stat: Stat = os.stat) -> tuple[int, int] | None:
    """The device and inode of the folder at *path* (links followed); None if it cannot be read."""
    try:
        st = stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def same(a: str, b: str, stat: Stat = os.stat) -> bool:
    """Whether *a* and *b* name the same folder."""
    if a == b:
        return True
    ia = identity(a, stat)
    return ia is not None and ia == identity(b, stat)


def respelled(a: str, b: str, stat: Stat = os.stat) -> bool:
    """Whether *a* and *b* are one folder spelled two ways: they differ only in case or Unicode
    normalisation, and the file system says they are the same (a link is not a respelling)."""
    fold = unicodedata.normalize("NFC", a).casefold() == unicodedata.normalize("NFC", b).casefold()
    return fold and same(a, b, stat)


def holds(folder: str, path: str, stat: Stat = os.stat) -> bool:
    """Whether *folder* is one of *path*'s ancestors (not *path* itself)."""
    target = identity(folder, stat)
    if target is None:
        return False
    current = os.path.dirname(path)
    while True:
        if identity(current, stat) == target:
            return True
        parent = os.path.dirname(current)
        if parent == current:
            return False
        current = parent


def spelled(path: str, platform: str = sys.platform) -> str:
    r"""*path* as it is kept and shown: NFC on macOS, whose file system takes either spelling,
    so that one folder gets one URI; without the long-path prefix on Windows (``\\?\C:\x`` is
    ``C:\x``); as it is elsewhere, where two spellings are two files."""
    if platform == "darwin":
        return unicodedata.normalize("NFC", path)
    if platform == "win32":
        return plain_windows_path(path)
    return path


def watch_key(path: str, platform: str = sys.platform) -> str:
    """*path* folded for comparing a file-change event's path with a folder's path.

    macOS reports events under the spelling the disk holds (another case, NFD) and Windows
    under any case; both are folded away there. Folding can make two folders of a
    case-sensitive volume compare equal: the cost is one extra check, never a missed change.
    """
    if platform == "darwin":
        return unicodedata.normalize("NFC", path).casefold()
    if platform == "win32":
        return plain_windows_path(path).casefold()
    return path


Resolve = Callable[[str], str]


def _realpath(path: str) -> str:
    """:func:`os.path.realpath` of *path*, or *path* as it is when a part changes under it.

    It looks at each part (``lstat``), then reads the links among them (``readlink``): a link
    swapped for a folder between the two raises ``EINVAL``, one removed raises ``ENOENT``
    (Python 3.11 and 3.12). Such a part is kept as it is, as realpath keeps one it cannot read;
    whoever opens the path opens it without following links, or is told it is gone.
    """
    try:
        return os.path.realpath(path)
    except OSError:
        return path


class RealPaths:
    """:func:`os.path.realpath` of many paths, each folder above them resolved once.

    Resolving a path from the top takes a ``lstat`` per level; most roots sit in a few folders,
    and resolving 30,000 of them each from the top took seconds. The real path of a folder is
    the real path of its parent joined with its name, unless that is itself a link (then
    resolved as :func:`os.path.realpath` does): one ``lstat`` per path. What is resolved is
    kept for the life of this object: make one per pass, so that a link swapped in later is
    seen by the next.
    """

    def __init__(self) -> None:
        self._reals: dict[str, str] = {}
        self._stats: dict[str, os.stat_result] = {}

    def stat_of(self, path: str) -> os.stat_result | None:
        """The ``lstat`` taken while *path* was resolved, if its last part is not a link: the
        ``stat`` of what the path leads to then, without a second call (None otherwise)."""
        return self._stats.get(path)

    def realpath(self, path: str) -> str:
        """The real path of *path*, as :func:`os.path.realpath` gives it."""
        return self.resolve(path)[0]

    def resolve(self, path: str) -> tuple[str, os.stat_result | None]:
        """The real path of *path* and what :meth:`stat_of` gives for it, in one call (the
        look at each of 30,000 roots makes both)."""
        reals = self._reals
        known = reals.get(path)
        if known is not None:
            return known, self._stats.get(path)
        if os.name != "posix" or not path.startswith("/"):  # isabs, as posixpath has it
            real = reals[path] = _realpath(path)
            return real, None
        parent, _, name = path.rpartition("/")
        base = reals.get(parent or "/")
        if base is not None and name not in ("", ".", "..") and "//" not in path:
            # its folder resolved already (most roots share a few): what the loop below does
            # for it, without splitting and joining (a third of a pass over 30,000 roots)
            joined = base + "/" + name if base != "/" else "/" + name
            try:
                st: os.stat_result | None = os.lstat(joined)
            except (OSError, ValueError):
                st = None
            if st is None or not S_ISLNK(st.st_mode):
                if st is not None:
                    self._stats[path] = st
                reals[path] = joined
                return joined, st
            real = reals[path] = _realpath(joined)
            return real, None
        # up to a folder already resolved (or the top), then down again
        chain: list[tuple[str, str, str]] = []
        current = path
        while current not in reals:
            parent, name = os.path.split(current)
            if not name or name in (".", "..") or parent == current:
                reals[current] = _realpath(current)
                break
            chain.append((current, parent, name))
            current = parent
        for current, parent, name in reversed(chain):
            joined = os.path.join(reals[parent], name)
            try:
                link = S_ISLNK(os.lstat(joined).st_mode)
            except (OSError, ValueError):
                link = False  # as realpath does: a part that cannot be read is kept as it is
            reals[current] = _realpath(joined) if link else joined
        return reals[path], self._stats.get(path)


def watched_as(path: str, realpath: Resolve = os.path.realpath) -> frozenset[str]:
    """The paths under which a change to the folder *path* can be reported.

    A watch reports the resolved path of the directory it watches (macOS' FSEvents reports
    ``/private/tmp/x`` for ``/tmp/x``): the folder's own name under its resolved parent, and,
    when the folder is itself a link, the folder it leads to.
    """
    parent, name = os.path.split(os.path.normpath(path))
    return frozenset({os.path.join(realpath(parent), name), realpath(path)})

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
    """*path* as it is kept and shown: NFC on macOS, whose file system takes either spelling,
    so that one folder gets one URI; as it is elsewhere, where two spellings are two files."""
    return unicodedata.normalize("NFC", path) if platform == "darwin" else path

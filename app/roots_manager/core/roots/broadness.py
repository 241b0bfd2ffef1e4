"""Which folders are too broad to be roots: the file system's root, the home folder, and the
folders that hold it. Decided once, here, and shown by each front end in its own words
(:data:`roots_manager.core.roots.root.BROAD_REFUSALS` for the CLI, the app's confirmation).

Each folder is known by its identity, not its spelling: on macOS ``/users/ME`` is the home
folder ``/Users/me``, and a link to the home folder is as broad as the home folder.
"""

from __future__ import annotations

import enum
import os

from roots_manager.core.roots import identity


class Broad(enum.Enum):
    """Why a folder is too broad to be a root."""

    FS_ROOT = "fs-root"
    """The root of a file system (a drive on Windows)."""
    HOME = "home"
    """The home folder."""
    HOLDS_HOME = "holds-home"
    """A folder that holds the home folder (``/home``, ``/Users``)."""


def home() -> str:
    """The home folder's real path."""
    return os.path.realpath(os.path.expanduser("~"))


class Broadness:
    """:func:`broadness` for many folders: the broad folders are looked up once, when this is
    made, so that checking many folders costs one ``stat`` each rather than one per folder
    holding the home folder, every time."""

    def __init__(self) -> None:
        self.home = home()
        self._fs_root = identity.identity(os.sep)
        self._home = identity.identity(self.home)
        holding: set[tuple[int, int]] = set()
        if os.path.dirname(self.home) != self.home:
            current = os.path.dirname(self.home)
            while True:
                held = identity.identity(current)
                if held is not None:
                    holding.add(held)
                parent = os.path.dirname(current)
                if parent == current:
                    break
                current = parent
        self._holding = frozenset(holding)

    def kind(self, real: str, same: tuple[int, int] | None) -> Broad | None:
        """Why the folder at the real path *real* is too broad, or None; *same* is its identity
        (:func:`roots_manager.core.roots.identity.identity`)."""
        if os.path.dirname(real) == real or real == os.sep:
            return Broad.FS_ROOT
        if same is not None and same == self._fs_root:
            return Broad.FS_ROOT
        if real == self.home or (same is not None and same == self._home):
            return Broad.HOME
        if same is not None and same in self._holding:
            return Broad.HOLDS_HOME
        return None


def broadness(path: str) -> Broad | None:
    """Why *path* is too broad to be a root, or None (links followed)."""
    real = os.path.realpath(path)
    return Broadness().kind(real, identity.identity(real))

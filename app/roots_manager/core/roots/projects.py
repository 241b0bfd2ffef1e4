"""Finding project folders under a folder the user picks, to offer them as roots.

A folder is a project when it holds one of the files build tools and version control leave at
a project's top (``.git``, ``pyproject.toml``, ``package.json``, ...). The scan does not descend
into a project it found (its sub-folders belong to it), nor into dependency, build and virtual
environment folders, which are huge and never the user's projects. Below the folder the user
picked, hidden folders are not searched either: ``~/.cargo``, ``~/.npm``, ``~/.local`` and their
kind hold thousands of downloaded packages that each look like a project. It never follows
symbolic links to folders, so a link loop cannot make it run forever.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable
from dataclasses import dataclass, field

MARKERS: tuple[str, ...] = (
    ".git",
    ".hg",
    ".svn",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "package.json",
    "deno.json",
    "Cargo.toml",
    "go.mod",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "settings.gradle",
    "CMakeLists.txt",
    "meson.build",
    "Gemfile",
    "composer.json",
    "mix.exs",
    "Package.swift",
    "pubspec.yaml",
    "stack.yaml",
    "dune-project",
    "Project.toml",
    "build.sbt",
    "flake.nix",
)
"""Names whose presence (file or folder) makes a folder a project."""

MARKER_PATTERNS: tuple[str, ...] = ("*.sln", "*.csproj", "*.fsproj", "*.cabal", "*.xcodeproj")
"""Glob patterns that make a folder a project."""

SKIP_DIRS: frozenset[str] = frozenset(
    {
        "node_modules",
        ".git",
        ".hg",
        ".svn",
        "venv",
        ".venv",
        ".tox",
        ".nox",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "site-packages",
        "target",
        "build",
        "dist",
        ".gradle",
        ".idea",
        ".vscode",
        ".cache",
        "AppData",
    }
)
"""Folders never searched: dependencies, build output, caches, virtual environments."""

GO_MODULE_CACHE = ("pkg", "mod")
"""``$GOPATH/pkg/mod``: every module Go ever downloaded, each with its ``go.mod``."""


@dataclass(frozen=True)
class Project:
    """A project folder found by a scan."""

    path: str
    markers: tuple[str, ...]
    """What made it a project, e.g. ``(".git", "pyproject.toml")``."""

    @property
    def name(self) -> str:
        return os.path.basename(self.path) or self.path


@dataclass
class ScanProgress:
    """How far a scan got: top-level folders done out of the total, and folders visited."""

    done: int = 0
    total: int = 0
    visited: int = 0
    current: str = ""


@dataclass
class ScanResult:
    """The projects found, and whether the scan was cancelled before it finished."""

    projects: list[Project] = field(default_factory=list)
    cancelled: bool = False
    visited: int = 0


def project_markers(path: str) -> tuple[str, ...]:
    """The project markers the folder at *path* holds (empty when it is not a project)."""
    try:
        names = os.listdir(path)
    except OSError:
        return ()
    return _markers_in(names)


def _markers_in(names: list[str]) -> tuple[str, ...]:
    present = set(names)
    found = [m for m in MARKERS if m in present]
    for pattern in MARKER_PATTERNS:
        found.extend(sorted(n for n in names if fnmatch.fnmatch(n, pattern)))
    return tuple(found)


def _is_virtualenv(path: str, names: list[str]) -> bool:
    return "pyvenv.cfg" in names


def _worth_searching(parent: str, name: str) -> bool:
    if name in SKIP_DIRS or name.startswith("."):
        return False
    return (os.path.basename(parent), name) != GO_MODULE_CACHE


def _subdirs(path: str) -> tuple[list[str], list[str]]:
    """The names in *path* and the paths of its real (non-link) sub-folders worth searching."""
    names: list[str] = []
    dirs: list[str] = []
    try:
        with os.scandir(path) as it:
            for entry in it:
                names.append(entry.name)
                if not _worth_searching(path, entry.name):
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        dirs.append(entry.path)
                except OSError:
                    continue
    except OSError:
        return [], []
    dirs.sort()
    return names, dirs


def scan(
    top: str,
    *,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[ScanProgress], None] | None = None,
    max_depth: int = 8,
) -> ScanResult:
    """Find the project folders under *top* (*top* itself included).

    *cancelled* is polled between folders; when it returns True the scan stops and returns
    what it found so far. *progress* is called as each top-level folder is finished, and every
    few hundred folders visited. Folders deeper than *max_depth* below *top* are not searched.
    """
    top = os.path.normpath(os.path.abspath(os.path.expanduser(top)))
    result = ScanResult()
    state = ScanProgress()
    names, children = _subdirs(top)
    markers = _markers_in(names)
    if markers:
        result.projects.append(Project(top, markers))
        state.visited = result.visited = 1
        if progress:
            progress(state)
        return result
    state.total = len(children)
    state.visited = 1
    if progress:
        progress(state)
    for child in children:
        if cancelled():
            result.cancelled = True
            break
        state.current = child
        if not _walk(child, 1, max_depth, result, state, cancelled, progress):
            result.cancelled = True
            break
        state.done += 1
        if progress:
            progress(state)
    result.visited = state.visited
    return result


def _walk(
    path: str,
    depth: int,
    max_depth: int,
    result: ScanResult,
    state: ScanProgress,
    cancelled: Callable[[], bool],
    progress: Callable[[ScanProgress], None] | None,
) -> bool:
    """Search *path* depth first; returns False when the scan was cancelled."""
    stack = [(path, depth)]
    while stack:
        if cancelled():
            return False
        current, level = stack.pop()
        names, children = _subdirs(current)
        state.visited += 1
        if progress and state.visited % 200 == 0:
            state.current = current
            progress(state)
        markers = _markers_in(names)
        if markers:
            result.projects.append(Project(current, markers))
            continue
        if _is_virtualenv(current, names) or level >= max_depth:
            continue
        # reversed so that the stack pops sub-folders in name order
        stack.extend((c, level + 1) for c in reversed(children))
    return True

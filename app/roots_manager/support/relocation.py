"""Moving what an earlier version kept in the per-user directory to where it belongs now.

Up to 0.x on Linux everything lived in ``$XDG_DATA_HOME/roots-manager``; the logs belong in
``$XDG_STATE_HOME`` and the app's settings in ``$XDG_CONFIG_HOME``
(:meth:`roots_manager.core.directory.layout.Layout.relocations` says which file goes where). Whichever
program of this version starts first (the app, a bridge, a command) moves them, once: what is
no longer in the old place is not looked for again.

A move is one ``rename`` where both places are on one file system: a bridge of the old version
that still writes its log keeps writing to the same file, now in the new place. Across file
systems the file or folder is copied beside its new place under a temporary name, renamed into
place, and only then removed from the old one; a move that fails on the way removes its
temporary copy and leaves the old files where they were. Either way it is said on stderr,
which is where a bridge's words reach the host's log (the app's log is not open yet).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Outcome:
    """What became of one file or folder to move."""

    source: Path
    target: Path
    moved: bool
    """It is in its new place (its old one may still hold what failed, see *problem*)."""
    problem: str = ""
    """Why (some of) it was not moved, and was left in its old place."""


def move(source: Path, target: Path) -> Outcome | None:
    """Move *source* to *target* (whose folder exists), never over something already there;
    a folder whose new place exists already is moved into it name by name. None when there
    is nothing at *source* (moved before, by this program or another)."""
    try:
        st = os.lstat(source)
    except FileNotFoundError:
        return None
    if os.path.lexists(target):
        if stat.S_ISDIR(st.st_mode) and target.is_dir() and not target.is_symlink():
            return _merge(source, target)
        return Outcome(source, target, False, f"{target} exists already")
    try:
        os.rename(source, target)
    except FileNotFoundError:
        return None  # another program moved it a moment ago
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            return Outcome(source, target, False, str(exc))
        return copy_then_rename(source, target)
    return Outcome(source, target, True)


def _merge(source: Path, target: Path) -> Outcome:
    problems = []
    for name in sorted(os.listdir(source)):
        done = move(source / name, target / name)
        if done is not None and done.problem:
            problems.append(done.problem)
    with contextlib.suppress(OSError):
        os.rmdir(source)  # only once it is empty: what could not be moved stays in it
    return Outcome(source, target, not problems, "; ".join(problems))


def copy_then_rename(source: Path, target: Path) -> Outcome:
    """Move *source* to *target* on another file system: a copy under a temporary name beside
    *target*, renamed into place, then the original removed. A failure before the rename
    removes the copy and leaves *source* as it was."""
    import shutil  # here: only a move across file systems needs it

    is_dir = source.is_dir() and not source.is_symlink()
    temporary = target.with_name(f".{target.name}.moving-{secrets.token_hex(4)}")
    try:
        if is_dir:
            shutil.copytree(source, temporary, symlinks=True)
        else:
            shutil.copy2(source, temporary, follow_symlinks=False)
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "it was made meanwhile", str(target))
        os.rename(temporary, target)
    except OSError as exc:
        if is_dir:
            shutil.rmtree(temporary, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        return Outcome(source, target, False, str(exc))
    try:
        if is_dir:
            shutil.rmtree(source)
        else:
            os.unlink(source)
    except OSError as exc:
        return Outcome(source, target, True, f"the old copy could not be removed: {exc}")
    return Outcome(source, target, True)


def said(outcome: Outcome) -> str:
    """The line that tells what became of *outcome*'s file."""
    if outcome.moved and not outcome.problem:
        return f"roots-manager: moved {outcome.source} to {outcome.target}, where it is kept now"
    if outcome.moved:
        return (
            f"roots-manager: moved {outcome.source} to {outcome.target}, where it is kept "
            f"now, but {outcome.problem}; delete it by hand"
        )
    return (
        f"roots-manager: {outcome.source} could not be moved to {outcome.target} "
        f"({outcome.problem}); it is left where it was, and {outcome.target} is used from "
        "now on: move what it holds there by hand"
    )


def _stderr(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # a closed stderr must not stop a start
        print(line, file=sys.stderr, flush=True)


def move_all(
    moves: Iterable[tuple[Path, Path]], say: Callable[[str], None] = _stderr
) -> list[Outcome]:
    """Move each ``(source, target)`` of *moves* that is still there, saying what was done."""
    outcomes = [done for done in (move(s, t) for s, t in moves) if done is not None]
    for done in outcomes:
        say(said(done))
    return outcomes

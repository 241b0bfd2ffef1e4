"""A new file put in the place of one that another program may write: only if it is still what
was read, and never over a write made in between.

The store (an editor may save it by hand) and every host's own file (the host rewrites it
while it runs: Claude Code saves ``~/.claude.json`` after each prompt) are replaced the same
way: the new file is written beside the old one, then :func:`replace_unchanged` looks at the old
one once more (its bytes must be those the change was made from) and puts the new one in its
place. The look and the rename are two steps, and a write landing between them would be lost
under ours without a word. So:

- the look ends with the file's stamp (its inode, size and time, microseconds before the
  rename), not with the read of its bytes, which takes milliseconds for a big file;
- on Linux the two files then swap places in one step (``renameat2(RENAME_EXCHANGE)``), and the
  one taken away is looked at: if it is not the file that was read (another program renamed
  its own over it meanwhile, or wrote into it), the two are swapped back at once, a few
  microseconds later, and :class:`Changed` is raised. The other program's file is in place,
  whole; ours is not. If by then the other program has put a newer file of its own over ours
  (ours stood in place, for microseconds), that newest one stays, as over any write of ours,
  and nothing of it is set aside. The caller may read it again and make its change from it, or refuse.
  A file renamed in is told by its inode alone: nothing slower (a read, a write, an fsync)
  happens while ours stands in its place, so only a program reading the file in those
  microseconds, and saving what it read later, could carry ours on. (A write into the file read
  is found by reading it again, and swapped back the same way.)
- elsewhere (macOS, Windows, a file system that cannot swap) the rename is plain: a write into
  the old file itself still shows in the file held open, and is put back if ours is still in
  place; a rename over it in the microseconds after the last look is not seen.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from roots_manager.support import statefile, trace

_HOLD_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class Changed(OSError):
    """The file is not what was read: the other program's file is in place, and ours is not."""


@dataclass(frozen=True)
class Read:
    """What a file held when a change was made from it: its bytes, or None if it did not
    exist."""

    data: bytes | None


def _stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def replace_unchanged(
    tmp: str,
    target: Path,
    read: Read,
    *,
    limit: int,
    before_rename: Callable[[], None] | None = None,
) -> None:
    """Put the new file *tmp* in the place of *target* if *target* still holds what was
    *read*; raises :class:`Changed` if not, leaving the other program's file in place.

    *tmp* must be beside *target*, written and synced. When this returns, *tmp* no longer
    exists; when it raises, what is left under that name is the caller's to remove. A file of
    more than *limit* bytes is not read whole (it cannot be what was read). *before_rename*
    runs after the last look, right before the rename (tests make another program write there).
    """
    if read.data is None:
        _create(tmp, target)
        return
    try:
        held = os.open(target, _HOLD_FLAGS)
    except FileNotFoundError:
        raise Changed(f"{target} was removed while it was being edited") from None
    try:
        seen = os.fstat(held)
        if not stat.S_ISREG(seen.st_mode) or _read_all(held, limit) != read.data:
            raise Changed(f"{target} changed while it was being edited")
        # the last look: the name still leads to the file read, unchanged since
        if _stamp(os.stat(target)) != _stamp(seen):
            raise Changed(f"{target} changed while it was being edited")
        if before_rename is not None:
            before_rename()
        if os.name == "nt":
            # Windows replaces no file that is held open, and swaps none: the moment between
            # the look and the rename stays unwatched there
            os.close(held)
            held = -1
            statefile.retrying(lambda: os.replace(tmp, target))
        else:
            ours = os.lstat(tmp)
            if _exchanged(tmp, target):
                _check_swapped(tmp, target, held, seen, ours, read.data, limit)
            else:
                os.replace(tmp, target)
                _check_replaced(target, held, ours, read.data, limit)
    finally:
        if held >= 0:
            os.close(held)


def _create(tmp: str, target: Path) -> None:
    """Put *tmp* where there was no file; refuses if one has come."""
    if os.path.lexists(target):
        raise Changed(f"{target} was made by another program meanwhile")
    statefile.retrying(lambda: os.replace(tmp, target))


def _check_swapped(
    tmp: str,
    target: Path,
    held: int,
    seen: os.stat_result,
    ours: os.stat_result,
    expected: bytes,
    limit: int,
) -> None:
    """Ours (*ours*) is in place, and what it took the place of is under the name *tmp*: if
    that is not the file read (*seen*, open as *held*) as it was read, swap the two back at
    once."""
    away = os.lstat(tmp)
    if _stamp(away) == _stamp(seen) and _read_all(held, limit) == expected:
        os.unlink(tmp)  # the file read, as read: ours stays
        return
    # another program renamed its file in after the last look, or wrote into the file read:
    # theirs goes back at once, before anything slower; unless ours is no longer in place
    # either: it stood there, and the other program has since put its newest file over it
    # (made from ours, or not), which stays, as it would over any write of ours
    if not _is(target, ours):
        os.unlink(tmp)  # an older file of the other program's, replaced by its own newest
        return
    if not _exchanged(tmp, target):  # pragma: no cover - it swapped a moment ago
        raise Changed(f"{target} changed while it was being edited, and could not be put back")
    trace.debug("%s changed just before our rename: the other program's file is put back", target)
    out = os.lstat(tmp)
    if (out.st_dev, out.st_ino) != (ours.st_dev, ours.st_ino):
        # not ours that came out: a write in the microseconds between the look and the swap
        # back had put the other program's newest file over ours; it is the one that stays
        _exchanged(tmp, target)
        os.unlink(tmp)
        return
    raise Changed(f"{target} changed while it was being edited")


def _is(path: Path, st: os.stat_result) -> bool:
    """Whether *path* names the file *st* was taken of (by its device and inode)."""
    try:
        now = os.lstat(path)
    except FileNotFoundError:
        return False
    return (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino)


def _check_replaced(
    target: Path, held: int, ours: os.stat_result, expected: bytes, limit: int
) -> None:
    """Ours has replaced the file open as *held*: a write into that file since the read shows
    there, and is put back while ours is still in place."""
    lost = _read_all(held, limit)
    if lost == expected:
        return
    back = _new_beside(target, lost, stat.S_IMODE(os.fstat(held).st_mode))
    try:
        now = os.stat(target)
        if (now.st_dev, now.st_ino) == (ours.st_dev, ours.st_ino):
            os.replace(back, target)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(back)
    raise Changed(f"{target} changed while it was being edited")


def _new_beside(target: Path, data: bytes, mode: int) -> str:
    import tempfile  # only here: the bridges, which save markers, never load it

    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(name, mode)
    return name


def _exchanged(a: str, b: Path) -> bool:
    if sys.platform.startswith("linux"):
        from roots_manager.platform.linux.rename_exchange import exchange

        return exchange(a, str(b))
    return False


def _read_all(fd: int, limit: int) -> bytes:
    """The whole of the file open as *fd*, from its start, at most *limit* (and one byte)."""
    os.lseek(fd, 0, os.SEEK_SET)
    parts, size = [], 0
    while size <= limit and (chunk := os.read(fd, 1 << 20)):
        parts.append(chunk)
        size += len(chunk)
    return b"".join(parts)

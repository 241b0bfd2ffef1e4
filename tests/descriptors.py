"""Running out of file descriptors on purpose, as a process that hit its inotify instances'
limit does: ``inotify_init1`` then fails with ``EMFILE`` ("Too many open files"), as it does when
``fs.inotify.max_user_instances`` is reached. Lowering that limit is root-only and global, and
taking every instance of the user would starve every other process of the user (the other test
workers among them); the descriptors of this process are its own."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


class Exhausted:
    """The descriptors held; :meth:`free` gives them back (the limit stays low)."""

    def __init__(self) -> None:
        self.held: list[int] = []

    def free(self) -> None:
        while self.held:
            os.close(self.held.pop())


@contextmanager
def descriptors_exhausted(spare: int) -> Iterator[Exhausted]:
    """Hold every descriptor this process may open but *spare*, until :meth:`Exhausted.free`
    or the end of the block (when the limit is put back too).

    A :class:`~roots_manager.support.dirwatch.DirWatch` takes two descriptors for its wake sockets
    and then one for inotify: with ``spare=2`` it is refused at ``inotify_init1``, and a poll of a
    directory (one descriptor for a moment) still works."""
    import resource  # POSIX only: imported where it is used, as tests/test_portable.py asks

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    highest = max(int(n) for n in os.listdir("/proc/self/fd"))
    resource.setrlimit(resource.RLIMIT_NOFILE, (highest + 64, hard))
    held = Exhausted()
    try:
        try:
            while True:
                held.held.append(os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC))
        except OSError:
            pass
        for _ in range(spare):
            os.close(held.held.pop())
        yield held
    finally:
        held.free()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

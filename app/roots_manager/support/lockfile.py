"""A cross-process lock on a file: the store's, and the record of host changes'.

On POSIX it is the lock :mod:`filelock` takes there, ``flock(LOCK_EX)`` on the lock file, taken
here with the system call itself: every bridge holds the store's lock to record its start and
end, and filelock 4 brings the ``platform``, ``decimal`` and ``logging`` modules and its own
registries, 1.2 MiB of an idle bridge's memory (a sixth of what the bridge adds to a bare
Python) and milliseconds of its start. The two interoperate: a process of an older version,
holding the lock through filelock, excludes this one and is excluded by it, as are the threads
of one process (each thread opens the file itself, and ``flock`` locks belong to an open file,
not to a process). On Windows, filelock's lock is used as it is.

As filelock's, the lock is re-entrant in a thread (a transaction inside another does not wait
for itself) and the file stays in place when released, so that waiters share one inode.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

FIRST_POLL = 0.001
"""The first wait between two tries when the lock is held; it doubles up to :data:`LAST_POLL`,
so that a short save by another process (most are) costs a waiter about its own length."""
LAST_POLL = 0.05


class LockFile:
    """The lock on *path*, taken by :meth:`acquire` within *timeout* seconds (else
    :class:`TimeoutError`) and made with *mode* if it does not exist yet. Opening the file can
    fail as any open does (:class:`PermissionError` for a lock file left by another user)."""

    def __init__(self, path: str | os.PathLike[str], timeout: float, mode: int = 0o600) -> None:
        self.path = os.fspath(path)
        self.timeout = timeout
        self.mode = mode
        self._held = threading.local()  # this thread's file and depth, while it holds the lock

    def acquire(self) -> None:
        if getattr(self._held, "depth", 0):
            self._held.depth += 1
            return
        if sys.platform == "win32":
            from filelock import FileLock

            lock = FileLock(self.path, timeout=self.timeout, mode=self.mode)
            lock.acquire()
            self._held.lock = lock
        else:
            self._held.fd = _flocked(self.path, self.timeout, self.mode)
        self._held.depth = 1

    def release(self) -> None:
        self._held.depth -= 1
        if self._held.depth:
            return
        if sys.platform == "win32":
            self._held.lock.release()
            del self._held.lock
        else:
            os.close(self._held.fd)  # closing the only descriptor of the open file unlocks it
            del self._held.fd

    @contextmanager
    def held(self) -> Iterator[None]:
        self.acquire()
        try:
            yield
        finally:
            self.release()


if sys.platform != "win32":
    import fcntl

    def _flocked(path: str, timeout: float, mode: int) -> int:
        """A descriptor of *path* holding its ``flock``, within *timeout* seconds."""
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(path, flags, mode)
        deadline = time.monotonic() + timeout
        wait = FIRST_POLL
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return fd
                except BlockingIOError:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError(
                            f"the lock {path} stayed held for {timeout:g} s"
                        ) from None
                    time.sleep(min(wait, left))
                    wait = min(wait * 2, LAST_POLL)
        except BaseException:
            os.close(fd)
            raise

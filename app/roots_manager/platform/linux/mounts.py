"""The mount table's changes: what inotify does not report (a file system mounted over a folder or
one of its parents, or taken away).

``/proc/self/mountinfo`` is always readable; ``poll`` reports ``POLLPRI`` (with ``POLLERR``) on it
once the mount table of this process's namespace has changed since it was last read. A thread
waiting for that, and for a pipe that ends the wait, sleeps in the kernel until one of them comes.
"""

from __future__ import annotations

import os
import select
import sys

assert sys.platform == "linux", "imported only where /proc/self/mountinfo reports changes"

MOUNTINFO = "/proc/self/mountinfo"


class MountWatch:
    """Waits for the mount table to change; raises :class:`OSError` where it cannot be watched."""

    def __init__(self, path: str = MOUNTINFO) -> None:
        self._fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        self._stop_r, self._stop_w = os.pipe2(os.O_CLOEXEC)
        self._poll = select.poll()
        self._poll.register(self._fd, select.POLLPRI)
        self._poll.register(self._stop_r, select.POLLIN)
        self._read()

    def _read(self) -> None:
        """Read the table through: a change is reported once, until it is read again."""
        os.lseek(self._fd, 0, os.SEEK_SET)
        while os.read(self._fd, 65536):
            pass

    def wait(self) -> bool:
        """Block until the mount table changes (True) or :meth:`close` is called (False)."""
        while True:
            events = dict(self._poll.poll())
            if self._stop_r in events:
                return False
            if events.get(self._fd, 0) & (select.POLLPRI | select.POLLERR):
                self._read()
                return True

    def close(self) -> None:
        """End a :meth:`wait` in progress (or the next one) and release the descriptors once
        it has returned."""
        os.write(self._stop_w, b"x")

    def release(self) -> None:
        """Close the descriptors (after the last :meth:`wait` returned)."""
        for fd in (self._fd, self._stop_r, self._stop_w):
            os.close(fd)

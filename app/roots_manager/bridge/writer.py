"""One destination stream of the bridge, shared by a relay and by the bridge's own messages."""

from __future__ import annotations

import select
import threading
from collections import deque
from collections.abc import Callable

_poll = getattr(select, "poll", None)
_POLLOUT = getattr(select, "POLLOUT", 4)
_PIPE_BUF = getattr(select, "PIPE_BUF", 512)

Chunk = bytes | bytearray | memoryview
"""Bytes on their way out: a slice of what was read, a line gathered across reads, or bytes."""


class LineWriter:
    """One destination stream, shared by a relay and by messages the bridge makes up itself.

    Safe to use from several threads: the relay's pump writes relayed bytes, the event loop
    injects the bridge's own messages. The bridge's messages are whole lines; they wait while the
    relay is in the middle of a line it is streaming, so that they never land inside someone
    else's message, and one lock is held around every write so two writes never interleave.

    With *background* set, :meth:`inject` never blocks its caller (the event loop) on a
    destination that is not reading: a line that cannot be written at once is left to a sender
    thread of this writer.
    """

    def __init__(
        self,
        write: Callable[[Chunk], None],
        *,
        background: bool = False,
        fd: int | None = None,
    ) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._mid_line = False
        self._held: deque[bytes] = deque()
        self._after: list[Callable[[], None]] = []
        self._background = background
        self._fd = fd
        self._wake = threading.Event()
        self._sender: threading.Thread | None = None
        self._closed = False
        # bytes injected and not yet written, under a lock of their own: the write lock is held
        # for as long as a write blocks
        self._backlog = 0
        self._level = threading.Condition()

    def relay(self, data: Chunk, *, mid_line: bool) -> None:
        """Write relayed bytes; *mid_line* says whether they stop inside a line."""
        with self._lock:
            if self._held and not self._mid_line:
                self._write_held()  # lines injected before these bytes arrived go first
            if data and not self._closed:
                self._write(data)
            self._mid_line = mid_line
            if not mid_line and self._held:
                self._write_held()
        if self._after:
            after, self._after = self._after, []
            for fn in after:
                fn()

    def after_next_write(self, fn: Callable[[], None]) -> None:
        """Call *fn* after the relay's next write (the one carrying the line being handled)."""
        self._after.append(fn)

    def inject(self, line: bytes) -> None:
        """Write a whole message the bridge made (it must end with a newline)."""
        with self._level:
            self._backlog += len(line)
        self._held.append(line)
        if not self._background:
            with self._lock:
                if not self._mid_line:
                    self._write_held()
            return
        if self._lock.acquire(blocking=False):
            try:
                if not self._mid_line and self._fits_now():
                    self._write_held()
                    return
            finally:
                self._lock.release()
        self._send_later()

    def close(self, closer: Callable[[], None]) -> None:
        """Write what is held, then call *closer* and drop anything written later.

        Blocks until a write in progress ends: call it off the event loop.
        """
        with self._lock:
            if self._closed:
                return
            if not self._mid_line and self._held:
                self._write_held()
            self._closed = True
            self._held.clear()
            closer()
        self._wake.set()
        with self._level:
            self._backlog = 0
            self._level.notify_all()

    def reopen(self, fd: int | None) -> None:
        """Take writes again after :meth:`close`: the destination was replaced (a restarted
        server) and now writes to *fd*."""
        with self._lock:
            self._closed = False
            self._mid_line = False
            self._held.clear()
            self._fd = fd
            self._sender = None  # the old one ended with the close
        with self._level:
            self._backlog = 0

    @property
    def backlog(self) -> int:
        """Bytes of the bridge's own messages not written yet."""
        return self._backlog

    def wait_below(self, limit: int) -> bool:
        """Block until fewer than *limit* bytes of injected messages wait (or the writer is
        closed); True if it had to wait. This is the back-pressure on a peer that keeps asking
        and never reads the answers."""
        with self._level:
            if self._backlog < limit or self._closed:
                return False
            while self._backlog >= limit and not self._closed:
                self._level.wait(1.0)
            return True

    def _fits_now(self) -> bool:
        # a write of at most PIPE_BUF bytes to a pipe that polls writable cannot block, so the
        # event loop may do it itself and save a thread hand-over on the roots/list answer
        if self._fd is None or _poll is None:
            return False
        if sum(len(x) for x in self._held) > _PIPE_BUF:
            return False
        poller = _poll()
        poller.register(self._fd, _POLLOUT)
        try:
            return bool(poller.poll(0))
        except OSError:
            return False

    def _write_held(self) -> None:
        lines = []
        while self._held:
            lines.append(self._held.popleft())
        if lines and not self._closed:
            self._write(lines[0] if len(lines) == 1 else b"".join(lines))
        if lines:
            with self._level:
                self._backlog -= sum(map(len, lines))
                self._level.notify_all()

    def _send_later(self) -> None:
        if self._sender is None:
            self._sender = threading.Thread(target=self._send_loop, name="inject", daemon=True)
            self._sender.start()
        self._wake.set()

    def _send_loop(self) -> None:
        while not self._closed:
            self._wake.wait()
            self._wake.clear()
            with self._lock:
                # mid-line, the relay writes the held lines itself when the line ends
                if not self._mid_line and self._held:
                    self._write_held()

"""One destination stream of the bridge, shared by a relay and by the bridge's own messages."""

from __future__ import annotations

import os
import select
import threading
from collections import deque
from collections.abc import Callable
from types import ModuleType
from typing import Any

_poll = getattr(select, "poll", None)
_POLLOUT = getattr(select, "POLLOUT", 4)
_PIPE_BUF = getattr(select, "PIPE_BUF", 512)

Chunk = bytes | bytearray | memoryview
"""Bytes on their way out: a slice of what was read, a line gathered across reads, or bytes."""


def _hot_path() -> ModuleType | None:
    """The relay's hot path in C (:mod:`roots_manager.bridge.transport._fastrelay`), where it was built
    and ``ROOTS_MANAGER_PURE_RELAY`` does not ask for the Python relay alone."""
    if os.name != "posix" or os.environ.get("ROOTS_MANAGER_PURE_RELAY"):
        return None
    try:
        from roots_manager.bridge.transport import _fastrelay
    except ImportError:  # not built (no compiler at install): the Python relay does it all
        return None
    return _fastrelay


fastrelay = _hot_path()


def _nothing() -> None:
    pass


note_change: Callable[[], None] = _nothing if fastrelay is None else fastrelay.note_change
"""Tells the hot path that what a direction looks for may have changed (its
:class:`~roots_manager.bridge.protocol.direction.Lookout`): the hot path asks the relays' ``triage``
again. Called in one place, :meth:`~roots_manager.bridge.transport.carrier.Carrier.published`,
through which every line handled, held line released, action and wake-up of the protocol
passes; never by the protocol."""


class PyGate:
    """One destination's descriptor, write lock and state: the Python twin of the C ``Gate``.

    The lock is the :class:`LineWriter`'s; the flags are read by whoever holds it (and, with the
    C hot path, by that path, which writes to :attr:`fd` under the same lock).
    """

    __slots__ = ("_lock", "acquire", "broken", "closed", "fd", "mid_line", "release")

    def __init__(self, fd: int = -1) -> None:
        self.fd = fd
        self.closed = False
        self.broken = False
        self.mid_line = False
        self._lock = threading.Lock()
        self.acquire = self._lock.acquire
        self.release = self._lock.release

    def __enter__(self) -> bool:
        return self._lock.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def make_gate(fd: int = -1) -> Any:
    """A gate for *fd*: the C one when the hot path is there, else :class:`PyGate`."""
    return PyGate(fd) if fastrelay is None else fastrelay.Gate(fd)


class FdSink:
    """Blocking writes to one file descriptor; the first failure ends it quietly.

    A failed write means the reader is gone (``EPIPE``): what follows is dropped, and
    *on_broken* is told once. The descriptor and that state live in :attr:`gate`, which the
    :class:`LineWriter` writing here locks around every write.
    """

    def __init__(self, fd: int, on_broken: Callable[[OSError], None] | None = None) -> None:
        self.gate = make_gate(fd)
        self.on_broken = on_broken

    @property
    def fd(self) -> int:
        return int(self.gate.fd)

    @property
    def broken(self) -> bool:
        return bool(self.gate.broken)

    def write(self, data: Chunk) -> None:
        """Write all of *data*, or nothing more once the reader is gone."""
        gate = self.gate
        if gate.broken:
            return
        fd = gate.fd
        try:
            n = os.write(fd, data)
        except BlockingIOError:
            n = 0
        except OSError as exc:
            self.broke(exc)
            return
        if n == len(data):
            return
        view = memoryview(data)[n:]
        try:
            while view:
                try:
                    n = os.write(fd, view)
                except BlockingIOError:
                    select.select([], [fd], [])
                    continue
                view = view[n:]
        except OSError as exc:
            self.broke(exc)

    def retarget(self, fd: int) -> None:
        """Write to *fd* from now on (a restarted server's stdin)."""
        self.gate.fd = fd
        self.gate.broken = False

    def broke(self, exc: OSError) -> None:
        """A write failed (here, or in the C hot path): drop what follows, and say so once."""
        self.gate.broken = True
        if self.on_broken is not None:
            self.on_broken(exc)


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
        write: Callable[[Chunk], None] | None = None,
        *,
        sink: FdSink | None = None,
        background: bool = False,
        fd: int | None = None,
    ) -> None:
        if sink is not None:
            write, fd = sink.write, sink.fd
        assert write is not None, "a writer needs a write function or a sink"
        self._write = write
        self.sink = sink
        """The descriptor written to, when the writer writes to one (and then the C hot path
        may write there too, under the same gate)."""
        self.gate = sink.gate if sink is not None else make_gate(-1 if fd is None else fd)
        """The write lock and the state of the destination (:class:`PyGate` or the C one)."""
        self._held: deque[bytes] = deque()
        self._after: list[Callable[[], None]] = []
        self._background = background
        self._wake = threading.Event()
        self._sender: threading.Thread | None = None
        # bytes injected and not yet written, under a lock of their own: the write lock is held
        # for as long as a write blocks
        self._backlog = 0
        self._level = threading.Condition()

    def relay(self, data: Chunk, *, mid_line: bool) -> None:
        """Write relayed bytes; *mid_line* says whether they stop inside a line."""
        with self.gate:
            if self._held and not self.gate.mid_line:
                self._write_held()  # lines injected before these bytes arrived go first
            if data and not self.gate.closed:
                self._write(data)
            self.gate.mid_line = mid_line
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
            with self.gate:
                if not self.gate.mid_line:
                    self._write_held()
            return
        if self.gate.acquire(blocking=False):
            try:
                if not self.gate.mid_line and self._fits_now():
                    self._write_held()
                    return
            finally:
                self.gate.release()
        self._send_later()

    def close(self, closer: Callable[[], None]) -> None:
        """Write what is held, then call *closer* and drop anything written later.

        Blocks until a write in progress ends: call it off the event loop.
        """
        with self.gate:
            if self.gate.closed:
                return
            if not self.gate.mid_line and self._held:
                self._write_held()
            self.gate.closed = True
            self._held.clear()
            closer()
        self._wake.set()
        with self._level:
            self._backlog = 0
            self._level.notify_all()

    def reopen(self, fd: int | None) -> None:
        """Take writes again after :meth:`close`: the destination was replaced (a restarted
        server) and now writes to *fd*."""
        with self.gate:
            self.gate.closed = False
            self.gate.mid_line = False
            self._held.clear()
            self.gate.fd = -1 if fd is None else fd
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
            if self._backlog < limit or self.gate.closed:
                return False
            while self._backlog >= limit and not self.gate.closed:
                self._level.wait(1.0)
            return True

    def _fits_now(self) -> bool:
        # a write of at most PIPE_BUF bytes to a pipe that polls writable cannot block, so the
        # event loop may do it itself and save a thread hand-over on the roots/list answer
        fd = self.gate.fd
        if fd < 0 or _poll is None:
            return False
        if sum(len(x) for x in self._held) > _PIPE_BUF:
            return False
        poller = _poll()
        poller.register(fd, _POLLOUT)
        try:
            return bool(poller.poll(0))
        except OSError:
            return False

    def _write_held(self) -> None:
        lines = []
        while self._held:
            lines.append(self._held.popleft())
        if lines and not self.gate.closed:
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
        while not self.gate.closed:
            self._wake.wait()
            self._wake.clear()
            with self.gate:
                # mid-line, the relay writes the held lines itself when the line ends
                if not self.gate.mid_line and self._held:
                    self._write_held()

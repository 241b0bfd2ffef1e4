"""The byte pumps: one blocking thread per direction, the event loop only for what needs thought.

Relaying must cost close to a pipe, so each direction is a thread that reads up to 1 MiB with
one blocking ``os.read`` and writes with blocking ``os.write`` calls; framing and the byte-level
triage (:class:`~roots_manager.bridge.transport.relay.LineRelay`) run inline in that thread. An event loop
would add its own bookkeeping and wake-ups to every message, and almost no message needs it.

Where the hot path in C was built (:mod:`roots_manager.bridge.transport._fastrelay`), it does the reads and
the ordinary lines' framing, triage and writes without the interpreter lock, and hands the relay
only the chunks that need it; the relay decides those exactly as it would have.

The rare line that must be parsed, rewritten or answered is handed to the event loop, where the
protocol logic, the store watcher and the timers live (so the mediator is only ever touched by
one thread), and the pump waits for the outcome: later lines never overtake it. The outcome may
be a line the mediator holds back until something else has happened (a
:class:`~roots_manager.bridge.protocol.held_line.HeldLine`, which the protocol releases on the
loop): the pump waits for it through a future of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import mmap
import os
import select
import sys
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Future

from roots_manager.bridge.protocol.direction import Direction
from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.transport.carrier import Carrier
from roots_manager.bridge.transport.relay import LineRelay
from roots_manager.bridge.transport.writer import LineWriter, fastrelay

TYPE_CHECKING = False  # not typing's: see roots_manager.bridge.main
if TYPE_CHECKING:
    from roots_manager.bridge.transport._fastrelay import Ledger

READ_SIZE = 1024 * 1024
"""Bytes one read may take: a whole 1 MiB message in one go when the pipe holds it."""

HOLD_LIMIT = 10.0
"""Seconds a line held back by the mediator may wait before the mediator is asked to let it go."""


def make_ledger(
    methods: tuple[bytes, ...], answered_kept: int, elided_over: int = 0
) -> Ledger | None:
    """Where the hot path notes the lines it relays only counted (a relay's
    :class:`~roots_manager.bridge.transport.relay.Counting`): *methods*, those whose lines it
    hands over instead, *answered_kept*, how many requests answered it keeps, *elided_over*,
    how long a string nested below a request's params' own members may be before the record
    leaves its text out (0: never); None where the hot path was not built (the relay in Python
    notes them one by one)."""
    return (
        None
        if fastrelay is None
        else fastrelay.Ledger(methods, answered_kept, elided_over=elided_over)
    )


class Reader:
    """Blocking reads of up to *size* bytes into one buffer kept for the life of the pump.

    ``os.read(fd, 1 MiB)`` would allocate a fresh 1 MiB object for every message, small or
    not, and shrink it afterwards: page faults and a remapping per read, which cost a small
    message more than the rest of its relaying. Reading into a kept buffer and copying out
    what came costs a copy of the bytes actually read. The buffer is an anonymous mapping, so
    its pages take memory only once a read has reached them: a bridge relaying small messages
    holds a few pages, not 1 MiB per direction.
    """

    def __init__(self, fd: int, size: int = READ_SIZE) -> None:
        self.fd = fd
        self._buf = mmap.mmap(-1, size)
        self._view = memoryview(self._buf)
        self._readv = getattr(os, "readv", None)  # not on Windows

    def read(self) -> bytes:
        """The next bytes; b"" at the end of the stream or when the descriptor is unusable."""
        while True:
            try:
                if self._readv is None:  # pragma: no cover - Windows
                    return os.read(self.fd, len(self._buf))
                n = self._readv(self.fd, [self._buf])
                return bytes(self._view[:n])
            except BlockingIOError:
                # a descriptor someone else made non-blocking: wait for it rather than spin
                select.select([self.fd], [], [])
            except OSError:
                return b""


class HandOff:
    """Which destination the line being handled on the event loop will be written to.

    The carrier's wake-ups after a write use it (an :attr:`~roots_manager.bridge.protocol.
    actions.Kind.AFTER_WRITE` action): work deferred while a line is handled runs once the pump
    has written that line (a ``list_changed`` must follow the ``initialized`` that allows it).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.current: LineWriter | None = None

    def call(self, fn: Callable[[], object]) -> None:
        """Run *fn* on the event loop, from any thread (dropped once the loop is closed)."""
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(fn)

    def defer(self, fn: Callable[[], object]) -> None:
        """Run *fn* on the loop after the line being handled is written (or soon, if none is)."""
        writer = self.current
        if writer is None:
            self.loop.call_soon(fn)
        else:
            writer.after_next_write(lambda: self.call(fn))


class LoopRunner:
    """How the relay of a pump thread reaches its direction: on the event loop, where the
    protocol logic lives, waiting for what to relay in place of each line handled; the line is
    handled through the run's :class:`~roots_manager.bridge.transport.carrier.Carrier`, which
    tells the hot path to ask again what to look for."""

    def __init__(
        self,
        handoff: HandOff,
        writer: LineWriter,
        *,
        carrier: Carrier,
        on_error: Callable[[str], None],
        on_overdue: Callable[[], None] | None = None,
        hold_limit: float = HOLD_LIMIT,
        throttle: Callable[[], None] | None = None,
    ) -> None:
        self.handoff = handoff
        self.writer = writer
        self.carrier = carrier
        self.on_error = on_error
        self.on_overdue = on_overdue
        self.hold_limit = hold_limit
        self.throttle = throttle
        """Called in the pump thread after each handled line; may block (back-pressure)."""

    def handle(self, direction: Direction, line: bytes) -> bytes:
        out = self._handle(direction, line)
        if self.throttle is not None:
            self.throttle()
        return out

    def _handle(self, direction: Direction, line: bytes) -> bytes:
        done: Future[bytes | Future[bytes]] = Future()

        def run() -> None:
            self.handoff.current = self.writer
            try:
                out = self.carrier.handle(direction, line)
                if isinstance(out, HeldLine):
                    # released on the loop too, so the waiter is in place before it can be
                    waiting: Future[bytes] = Future()
                    out.when_released(lambda got: waiting.set_result(self.carrier.released(got)))
                    done.set_result(waiting)
                else:
                    done.set_result(out)
            except Exception as exc:  # a bug here must not stop the traffic, nor open the gate
                outcome = direction.failed(line)
                what = "relayed as it is" if outcome is line else "not relayed"
                self.on_error(f"a message could not be handled ({exc!r}); {what}")
                done.set_result(outcome)
            finally:
                self.handoff.current = None

        try:
            self.handoff.loop.call_soon_threadsafe(run)
        except RuntimeError:  # the loop is closed: the bridge is ending
            return line
        outcome = done.result()
        if not isinstance(outcome, Future):
            return outcome
        try:
            return outcome.result(timeout=self.hold_limit)
        except TimeoutError:
            if self.on_overdue is not None:
                self.handoff.call(self.on_overdue)
            return outcome.result()

    def note(self, call: Callable[[], object]) -> None:
        self.handoff.call(call)


class Pump:
    """One direction: a thread reading a descriptor into a :class:`LineRelay` until it ends."""

    def __init__(
        self,
        name: str,
        fd: int,
        relay: LineRelay,
        on_end: Callable[[], None],
        *,
        first: bytes = b"",
        ended: bool = False,
    ) -> None:
        """*first*: what was read from *fd* already, relayed before the rest
        (:mod:`~roots_manager.bridge.transport.early`); *ended*: its end was read too."""
        self.name = name
        self.fd = fd
        self.relay = relay
        self.on_end = on_end
        self.first = first
        self.ended = ended
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        """Start pumping."""
        self._thread.start()

    def _run(self) -> None:
        try:
            feed = self.relay.feed
            first, self.first = self.first, b""
            if first:
                feed(first)
            read = self._reader() if not self.ended else _ended
            writer = self.relay.writer
            while data := read():
                if isinstance(data, int):  # the C hot path's write failed: the reader is gone
                    assert writer.sink is not None
                    writer.sink.broke(OSError(data, os.strerror(data)))
                    continue
                feed(data)
            self.relay.eof()
        except Exception:  # pragma: no cover - a bug; say so and end this direction cleanly
            print(f"roots-bridge: the {self.name} relay failed:", file=sys.stderr)
            traceback.print_exc()
        finally:
            self.on_end()

    def _reader(self) -> Callable[[], bytes | int]:
        """The C hot path where it was built and the destination is a descriptor; else reads
        for the Python relay alone."""
        writer = self.relay.writer
        if fastrelay is None or writer.sink is None:
            return Reader(self.fd).read
        counting = self.relay.counting
        fast = fastrelay.FastPump(
            self.fd,
            writer.gate,
            self.relay,
            READ_SIZE,
            ledger=None if counting is None else counting.ledger,
            from_host=counting is not None and counting.from_host,
        )
        return fast.next  # type: ignore[no-any-return]


def _ended() -> bytes:
    """The read of a stream whose end was read already."""
    return b""

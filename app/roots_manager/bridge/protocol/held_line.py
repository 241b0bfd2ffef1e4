"""A line the protocol holds back: what it relays once something else has happened.

The protocol answers a line it cannot let go yet with a :class:`HeldLine` (the host's early
``notifications/initialized``, the first request waiting for the server's roots, the host's
messages past a restart's limit) and releases it itself when what it waits for arrives. How the
side that relays the line waits for it is the transport's business
(:meth:`HeldLine.when_released`): the protocol knows neither threads nor futures.
"""

from __future__ import annotations

from collections.abc import Callable


class HeldLine:
    """A line held back by the protocol, released once with what to relay in its place."""

    __slots__ = ("_line", "_waiters")

    def __init__(self) -> None:
        self._line: bytes | None = None
        self._waiters: list[Callable[[bytes], object]] = []

    @property
    def released(self) -> bool:
        """What to relay is known."""
        return self._line is not None

    @property
    def line(self) -> bytes:
        """What to relay in place of the held line (only once :attr:`released`)."""
        if self._line is None:
            raise LookupError("the line is still held")
        return self._line

    def release(self, line: bytes) -> None:
        """Let the held line go as *line* (b"" for nothing); each waiter is told now, in the
        order they came."""
        if self._line is not None:
            raise RuntimeError("a held line is released once")
        self._line = line
        waiters, self._waiters = self._waiters, []
        for call in waiters:
            call(line)

    def when_released(self, call: Callable[[bytes], object]) -> None:
        """Call *call* with what to relay once the line is released (now, if it is)."""
        if self._line is not None:
            call(self._line)
        else:
            self._waiters.append(call)

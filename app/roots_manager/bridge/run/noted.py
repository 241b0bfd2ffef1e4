"""The lines a confined server's relay only counts, noted in the relay's thread, counted later.

A bridge whose server may be restarted, or whose refusals are tied to the host's requests, must
know every request open (its id, and for a refusal its method, tool and time) and the settings
a new server is told again. Handed to the loop one by one, each line of such a run cost two
thread switches and about 230 µs of CPU a round trip, five times the relay's own. Most lines
need nothing more than counting: while the protocol says so
(:meth:`~roots_manager.bridge.protocol.mediator.Mediator.counting_only`), the relay's thread
notes the line with the time it went (:meth:`Noted.note`), writes it at once, and the loop
counts the lines noted a moment later, together (:meth:`Noted.count`), or before anything that
depends on them: a line it handles, a restart, a refusal's attribution.

A restart that holds the host's messages does so under the lock a line is noted under
(:meth:`Noted.exclusive`): a line is noted before the hold, and counted as sent to the old
server, or it meets the hold and is held, never both.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable

from roots_manager.bridge.protocol.mediator import Mediator

COUNT_AFTER = 0.05
"""Seconds after a line is noted that the loop counts it, with those noted since."""


class Noted:
    """The lines one run's relays noted to be counted (see the module's text)."""

    def __init__(
        self, mediator: Mediator, clock: Callable[[], float], loop: asyncio.AbstractEventLoop
    ) -> None:
        """*clock*: the wall clock the host's requests are timed on; *loop*: where the lines
        are counted."""
        self._mediator = mediator
        self._clock = clock
        self._loop = loop
        self._lock = threading.Lock()
        self._lines: deque[tuple[bool, bytes, float]] = deque()
        self._due = False
        mediator.note_later = self.note
        mediator.count_noted = self.count
        mediator.exclusive = self.exclusive

    def note(self, from_host: bool, line: bytes) -> bool:
        """Note *line*, if the protocol would only count it now: True, and the relay writes
        it as it is (a relay's thread)."""
        with self._lock:
            if not self._mediator.counting_only():
                return False
            self._lines.append((from_host, line, self._clock()))
            due, self._due = self._due, True
        if not due:
            # a burst of lines is counted once, a moment after its first: the relay's thread
            # never waits for the loop for a line it only counts
            try:
                self._loop.call_soon_threadsafe(self._loop.call_later, COUNT_AFTER, self.count)
            except RuntimeError:  # the loop has closed: the run is over, nothing to count
                return True
        return True

    def count(self) -> None:
        """Count every line noted so far, in order (the loop)."""
        with self._lock:
            lines, self._lines = self._lines, deque()
            self._due = False
        for from_host, line, at in lines:
            self._mediator.count(from_host, line, at)

    def exclusive(self, call: Callable[[], None]) -> None:
        """Run *call* (the restart's hold of the host's messages) while no line is noted."""
        with self._lock:
            call()

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

Where the relay's hot path in C was built, it relays the lines only counted itself, without the
interpreter lock, and notes them in the run's ledger (``_fastrelay.Ledger``): a strict scan of
each line for its id and method, where a request answered cancels out with its answer (the
last few kept, for a refusal's attribution) and anything it cannot be sure of is handed to the
relay in Python. A long line is scanned as its reads arrive, and kept as a record without the
text of its long nested strings (longer than
:data:`~roots_manager.core.log.denials.LONGEST_NAMING`, which no path is and which nothing
counted reads): a 1 MiB call is counted from a few hundred bytes. Nothing is decided there: the
loop takes the ledger, in order, whenever it counts (:meth:`Noted.count`), and counts each line
it holds as :meth:`Mediator.count` always has. So a round trip costs the relay what an
unconfined one does, and the loop nothing until something depends on what is open.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import deque
from collections.abc import Callable

from roots_manager.bridge.protocol.inflight import ANSWERED_KEPT
from roots_manager.bridge.protocol.mediator import LASTING_METHODS, Mediator
from roots_manager.bridge.transport.pump import make_ledger
from roots_manager.bridge.transport.writer import note_change
from roots_manager.core.log.denials import LONGEST_NAMING

TYPE_CHECKING = False  # not typing's: see roots_manager.bridge.main
if TYPE_CHECKING:
    from roots_manager.bridge.transport._fastrelay import Ledger

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
        self._lines: deque[tuple[bool, bytes | None, float, bytes | None]] = deque()
        self._due = False
        self.ledger: Ledger | None = make_ledger(
            tuple(m.encode() for m in LASTING_METHODS), ANSWERED_KEPT, LONGEST_NAMING
        )
        """Where the hot path notes the lines it relays only counted (None: not built)."""
        mediator.note_later = self.note
        mediator.count_noted = self.count
        mediator.exclusive = self.exclusive

    def note(self, from_host: bool, line: bytes) -> bool:
        """Note *line*, if the protocol would only count it now: True, and the relay writes
        it as it is (a relay's thread)."""
        with self._lock:
            if not self._mediator.counting_only():
                return False
            ledger = self.ledger
            # scanned in C, after what the hot path noted before it, if the ledger can take it
            if ledger is None or not ledger.note(from_host, line):
                self._take_ledger()  # what the hot path noted before it comes first
                self._lines.append((from_host, line, self._clock(), None))
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
            self._take_ledger()
            lines, self._lines = self._lines, deque()
            self._due = False
        mediator = self._mediator
        for from_host, line, at, answered in lines:
            if line is not None:
                mediator.count(from_host, line, at)
            else:
                assert answered is not None
                # the id as the server wrote it: an integer, or a string without an escape
                mediator.count_answer(json.loads(answered), at)

    def _take_ledger(self) -> None:
        if self.ledger is not None and self.ledger.entries:
            self._lines.extend(self.ledger.take())

    def exclusive(self, call: Callable[[], None]) -> None:
        """Run *call* (the restart's hold of the host's messages) while no line is noted,
        here or by the hot path, which asks again what to look for before it notes another."""
        with self._lock:
            if self.ledger is None:
                call()
                return
            with self.ledger:
                call()
                note_change()

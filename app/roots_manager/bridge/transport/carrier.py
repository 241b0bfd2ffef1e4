"""Where the protocol's actions are carried out, and where the C hot path learns that what it
looks for may have changed: one place for both, so no call site has to remember either.

The protocol writes nothing and sets no timer (:mod:`~roots_manager.bridge.protocol.actions`):
what it decides reaches the transport as the outcome of a line it handled, a held line it
released, or an :class:`~roots_manager.bridge.protocol.actions.Action`; and it changes only while
it handles a line, is woken, or is handed the server's roots (which it turns into actions). Each of
these passes here (:meth:`Carrier.handle`, :meth:`Carrier.released`, :meth:`Carrier.__call__`,
:meth:`Carrier.woken`), and each tells the hot path to take its direction's
:class:`~roots_manager.bridge.protocol.direction.Lookout` afresh before anything it decided is
written (:meth:`Carrier.published`): a pattern set the hot path relays with cannot outlive the
change that made it stale, whichever part of the protocol made it.

It tells the hot path rather than comparing the lookout the hot path took with the direction's
now: the comparison costs the event loop two lookouts at each of these points (about 9 us more
for each roots/list answered, 16 against 25 us, measured), while the hot path asks again at its
next read for about what one lookout costs, in its own thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from roots_manager.bridge.protocol.actions import Action, Kind, Wake
from roots_manager.bridge.protocol.direction import Direction
from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.transport.writer import LineWriter, note_change


class Deferrer(Protocol):
    """Runs a function on the event loop once the line being handled has been written
    (:class:`~roots_manager.bridge.transport.pump.HandOff`)."""

    def defer(self, fn: Callable[[], object]) -> None: ...


class Carrier:
    """Carries out the protocol's actions for one bridge run, on the event loop."""

    def __init__(self, to_server: LineWriter, to_host: LineWriter) -> None:
        self.to_server = to_server
        self.to_host = to_host
        self.deferrer: Deferrer | None = None
        """Where a wake-up after the line being handled is deferred to (the pumps' hand-off,
        once they run); before that, the next turn of the loop."""
        self._wake: Callable[[Wake], object] | None = None
        self._roots_wanted: Callable[[], object] | None = None

    def serve(
        self, wake: Callable[[Wake], object], roots_wanted: Callable[[], object] | None = None
    ) -> None:
        """Feed the wake-ups the protocol asks for to *wake* (:meth:`Mediator.wake`), and its
        requests for the server's roots to *roots_wanted* (the run's, which hands them in)."""
        self._wake = wake
        self._roots_wanted = roots_wanted

    # ---- what the protocol decided reaches the transport here --------------------------------

    def __call__(self, action: Action) -> None:
        """Carry out *action*."""
        kind = action.kind
        if kind is Kind.ROOTS_WANTED:
            # at once: an answer written now goes before the next line (it writes nothing
            # itself: the actions it leads to are published as they come)
            assert self._roots_wanted is not None, "a carrier serves a protocol before it asks"
            self._roots_wanted()
            return
        # what a direction looks for may have grown before this message (a retry whose answer
        # must be caught): the hot path learns it before the far side can answer
        self.published()
        if kind is Kind.TO_SERVER:
            self.to_server.inject(action.line)
        elif kind is Kind.TO_HOST:
            self.to_host.inject(action.line)
        elif kind is Kind.AFTER_WRITE:
            wake = action.wake
            assert wake is not None
            if self.deferrer is None:
                asyncio.get_running_loop().call_soon(self.woken, wake)
            else:
                self.deferrer.defer(lambda: self.woken(wake))
        else:
            assert action.wake is not None
            asyncio.get_running_loop().call_later(action.delay, self.woken, action.wake)

    def woken(self, wake: Wake) -> None:
        """Feed a wake-up back to the protocol."""
        assert self._wake is not None, "a carrier serves a protocol before it is woken"
        try:
            self._wake(wake)
        finally:
            self.published()

    def handle(self, direction: Direction, line: bytes) -> bytes | HeldLine:
        """What *direction* relays in place of *line* (told to the hot path before the relay
        writes it)."""
        try:
            return direction.handle(line)
        finally:
            self.published()

    def released(self, line: bytes) -> bytes:
        """A held line was let go as *line* (on the event loop, as the protocol releases it)."""
        self.published()
        return line

    @staticmethod
    def published() -> None:
        """What either direction looks for may have changed: the hot path takes it afresh."""
        note_change()

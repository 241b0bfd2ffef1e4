"""Where the protocol's actions are carried out, and where the C hot path learns that a lookout
it relays with has gone stale: one place for both, so no call site has to remember either.

The protocol writes nothing and sets no timer (:mod:`~roots_manager.bridge.protocol.actions`):
what it decides reaches the transport as the outcome of a line it handled, a held line it
released, or an :class:`~roots_manager.bridge.protocol.actions.Action`. Each passes here
(:meth:`Carrier.handle`, :meth:`Carrier.released`, :meth:`Carrier.__call__`, and the wake-ups
fed back through :meth:`Carrier.woken`), and each ends with :meth:`Carrier.published`: the
lookout each relay's hot path took last (:meth:`~roots_manager.bridge.transport.relay.LineRelay.
triage`) is compared with its direction's lookout now, and where they differ the hot path is
told to ask again (:data:`~roots_manager.bridge.transport.writer.note_change`). What a direction
looks for changes only while the protocol handles a line, is woken, or makes a message of its
own, so a pattern set the hot path relays with cannot outlive the change that made it stale.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Protocol

from roots_manager.bridge.protocol.actions import Action, Kind, Wake
from roots_manager.bridge.protocol.direction import Direction, Lookout
from roots_manager.bridge.protocol.held import Held
from roots_manager.bridge.transport.writer import LineWriter, note_change


class Deferrer(Protocol):
    """Runs a function on the event loop once the line being handled has been written
    (:class:`~roots_manager.bridge.transport.pump.HandOff`)."""

    def defer(self, fn: Callable[[], object]) -> None: ...


class _Asking:
    """A lookout being read by the hot path now: whatever it reads may be about to change."""


ASKING = _Asking()


class Taken:
    """The lookout the hot path of one relay relays with: set by the relay's triage, read and
    cleared by :meth:`Carrier.published` (on the event loop). Kept by its relay: the carrier
    forgets it with the relay (a replaced server's)."""

    __slots__ = ("__weakref__", "direction", "look")

    def __init__(self) -> None:
        self.direction: Direction | None = None
        self.look: Lookout | _Asking | None = None
        """None: the hot path relays with no lookout (it gives Python every chunk)."""

    def stale(self) -> bool:
        """The hot path may be relaying with a lookout its direction no longer gives."""
        look = self.look
        if look is None:
            return False
        if look is ASKING or self.direction is None:
            return True
        return look != self.direction.lookout()


class Carrier:
    """Carries out the protocol's actions for one bridge run, on the event loop."""

    def __init__(self, to_server: LineWriter, to_host: LineWriter) -> None:
        self.to_server = to_server
        self.to_host = to_host
        self.deferrer: Deferrer | None = None
        """Where a wake-up after the line being handled is deferred to (the pumps' hand-off,
        once they run); before that, the next turn of the loop."""
        self._wake: Callable[[Wake], object] | None = None
        self._taken: weakref.WeakSet[Taken] = weakref.WeakSet()

    def serve(self, wake: Callable[[Wake], object]) -> None:
        """Feed the wake-ups the protocol asks for to *wake* (:meth:`Mediator.wake`)."""
        self._wake = wake

    def taken(self) -> Taken:
        """A record of the lookout one relay's hot path relays with, watched from now on."""
        taken = Taken()
        self._taken.add(taken)
        return taken

    # ---- what the protocol decided reaches the transport here --------------------------------

    def __call__(self, action: Action) -> None:
        """Carry out *action*."""
        # what a direction looks for may have grown before this message (a retry whose answer
        # must be caught): the hot path learns it before the far side can answer
        self.published()
        kind = action.kind
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

    def handle(self, direction: Direction, line: bytes) -> bytes | Held:
        """What *direction* relays in place of *line*."""
        try:
            return direction.handle(line)
        finally:
            self.published()

    def released(self, line: bytes) -> bytes:
        """A held line was let go as *line* (on the event loop, as the protocol releases it)."""
        self.published()
        return line

    def published(self) -> None:
        """Tell the hot path to ask again where a lookout it relays with has gone stale."""
        stale = False
        for taken in list(self._taken):
            if taken.stale():
                taken.look = None
                stale = True
        if stale:
            note_change()

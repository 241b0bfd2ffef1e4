"""The host's first request after the handshake, held until the server has its roots.

A server that asks for its roots when ``notifications/initialized`` arrives (the reference
filesystem server does) still has the folders of its command line while that request makes its
round trip; a host that calls at once (Codex lists the allowed folders as the server connects)
is answered from those. So when the server asked right after the handshake in its last run
(:mod:`roots_manager.core.runs.habits`), the first request after ``initialized`` waits until the
bridge has answered the server's ``roots/list``, or :data:`WAIT` seconds at most, and the log
says how long it waited. Every later message keeps its order behind it.

This run's own behaviour is measured here too, for the next run: whether the server asked
within :data:`ASKED_AT_START` seconds of ``initialized``.
"""

from __future__ import annotations

from collections.abc import Callable

from roots_manager.bridge.protocol.actions import Act, Wake, wake_in
from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.protocol.jsonrpc import EventSink, Json
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev

WAIT = 1.0
"""Seconds at most the host's first request waits for the server's roots."""
SETTLE = 0.05
"""Seconds it waits more once the answer has been written: a server takes its roots in
asynchronously (the filesystem server checks each folder on disk before it allows it), and a
request read meanwhile is answered from the old folders."""
ASKED_AT_START = 2.0
"""A server that asks this soon after ``initialized`` asks "right after the handshake"."""


class FirstCall:
    """Holds the host's first request while a server expected to ask for its roots has not."""

    def __init__(
        self, log: EventSink, *, expected: bool, act: Act, clock: Callable[[], float]
    ) -> None:
        """*clock*: seconds that only go forward (the run's monotonic clock); *act*: where the
        wake-ups that end the wait are asked for (:attr:`Wake.FIRST_CALL`, fed back to
        :meth:`woken`)."""
        self.log = log
        self._clock = clock
        self.expected = expected
        """The server asked right after the handshake last time: its first call waits."""
        self._act = act
        self._initialized_at: float | None = None
        self._asked_after: float | None = None
        self._answered_at: float | None = None
        self._held: tuple[HeldLine, bytes, Json, float] | None = None
        self._passed = False
        """The first request after ``initialized`` went on (or none will be held)."""

    @property
    def watching(self) -> bool:
        """The next host request may have to wait: every host line must be looked at."""
        return self.expected and self._initialized_at is not None and not self._passed

    def initialized_sent(self) -> None:
        """The host's ``notifications/initialized`` has gone to the server."""
        if self._initialized_at is None:
            self._initialized_at = self._clock()

    def roots_asked(self) -> None:
        """The server asked for its roots."""
        if self._initialized_at is not None and self._asked_after is None:
            self._asked_after = self._clock() - self._initialized_at

    def roots_answered(self) -> None:
        """The bridge's answer to the server's ``roots/list`` has been written to it."""
        if self._answered_at is not None:
            return
        self._answered_at = self._clock()
        if self._held is not None:
            self._act(wake_in(SETTLE, Wake.FIRST_CALL))

    def hold(self, msg: Json, out: bytes) -> HeldLine | None:
        """A :class:`HeldLine` released as *out* once the server has its roots, if *msg* is the
        first host request to wait for them; None to relay it now."""
        if not self.watching or "id" not in msg or not isinstance(msg.get("method"), str):
            return None
        self._passed = True
        now = self._clock()
        settled = None if self._answered_at is None else self._answered_at + SETTLE - now
        if settled is not None and settled <= 0:
            return None
        held = HeldLine()
        self._held = (held, out, msg, now)
        self._act(wake_in(WAIT if settled is None else settled, Wake.FIRST_CALL))
        return held

    def woken(self) -> None:
        """A wait asked for has passed: the held request goes now (if it has not yet)."""
        self._release()

    def _release(self) -> None:
        held = self._held
        if held is None:
            return
        self._held = None
        waiting, out, msg, since = held
        self.log.event(
            EventKind.HANDSHAKE,
            dir=ev.HOST_TO_SERVER,
            id=msg.get("id"),
            method=msg.get("method"),
            first_call_held=True,
            ms=round((self._clock() - since) * 1000),
            roots_answered=self._answered_at is not None,
        )
        waiting.release(out)

    def release(self) -> None:
        """Let a held request go now (the run is ending or the server is being replaced)."""
        self._release()

    @property
    def asked_at_start(self) -> bool | None:
        """Whether the server asked for its roots right after ``initialized`` in this run; None
        when the handshake never completed (nothing to learn)."""
        if self._initialized_at is None:
            return None
        if self._asked_after is not None:
            return self._asked_after <= ASKED_AT_START
        if self._clock() - self._initialized_at < ASKED_AT_START:
            return None  # ended too soon to tell
        return False

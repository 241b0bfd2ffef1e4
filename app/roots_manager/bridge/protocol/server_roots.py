"""What the server is told of its roots: the bridge's answers to its ``roots/list`` and the
``list_changed`` notices between them, in managed mode.

The two are one policy over one state: the last list the server was given, and whether a notice
went out since it fetched the list. A notice goes only once the handshake is complete, only if
the server fetched the list since the previous notice, and (unless the user asks for one) only
when the effective roots moved from what it was last given. The
:class:`~roots_manager.bridge.protocol.mediator.Mediator` decides which of the server's messages
ask for roots and hands them here; the 2026-07-28 ``input_required`` rounds report what they gave
through :meth:`ServerRoots.answered`.

The roots themselves are not looked up here: the run reads the files. When an answer or a
check needs them, the protocol asks with a :attr:`~roots_manager.bridge.protocol.actions.Kind.
ROOTS_WANTED` action, and the run hands them in through :meth:`ServerRoots.roots_changed` (at once,
unless they are held while the user decides); the run hands them in the same way whenever it
sees them move. What waits for them (answers, retries) waits here, in order, and bounded.
"""

from __future__ import annotations

from collections.abc import Callable

from roots_manager.bridge.protocol.actions import Act, roots_wanted, to_server
from roots_manager.bridge.protocol.carryover import Carryover
from roots_manager.bridge.protocol.clock import Clock
from roots_manager.bridge.protocol.handshake import Handshake
from roots_manager.bridge.protocol.jsonrpc import (
    LIST_CHANGED,
    Era,
    EventSink,
    Json,
    dumps,
    root_uris,
)
from roots_manager.core.consent.effective import ListRootsResult
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev
from roots_manager.core.store.state import iso_time

MAX_WAITING = 1024
"""Requests held for the roots (consent pending) beyond which a server is answered with no
folder at once."""

Reply = Callable[[ListRootsResult], None]
"""What is done with the roots once they are handed in (an answer written, a retry sent)."""


class ServerRoots:
    """The roots one server was told, and when it must be told again."""

    def __init__(
        self,
        *,
        log: EventSink,
        act: Act,
        handshake: Handshake,
        carryover: Carryover | None,
        observe: bool,
        clock: Clock,
    ) -> None:
        self.clock = clock
        self.log = log
        self.act = act
        """Where the answers and notices go (actions: to the server)."""
        self.handshake = handshake
        self.carryover = carryover
        self.observe = observe
        self.last_answered: ListRootsResult | None = None
        self.after_answer: Callable[[], None] | None = None
        """Called once each answer has been written to the server."""
        self.stale = False
        """A list_changed went out and the server has not fetched the list since."""
        self.notices = 0
        self.told: set[str] = set()
        """Every root URI the server running now was told (a revocation restarts it)."""
        self._waiting: list[Reply] = []
        """What waits for the roots, in the order it came."""

    # ---- the roots, handed in by the run -----------------------------------------------------

    def want(self, reply: Reply) -> bool:
        """Have *reply* called with the server's roots: at once if the run hands them now
        (True), else once it does (False: held). Past :data:`MAX_WAITING` held, at once with
        no folder."""
        if self.full:
            reply({"roots": []})
            return True
        self._waiting.append(reply)
        self.act(roots_wanted())
        return not self._waiting

    @property
    def full(self) -> bool:
        """Whether as many as :data:`MAX_WAITING` wait for the roots (the next is not kept)."""
        return len(self._waiting) >= MAX_WAITING

    @property
    def waiting(self) -> int:
        """How many wait for the roots now (held: consent pending)."""
        return len(self._waiting)

    def forget_waiting(self) -> None:
        """Drop what waits for the roots: the server that asked was replaced (the new one
        asks again)."""
        self._waiting.clear()

    def roots_changed(self, current: ListRootsResult) -> bool:
        """The run found the server's roots are *current*: give them to what waits for them,
        then send ``list_changed`` if they moved from what the server was last given; True if
        it was sent."""
        waiting, self._waiting = self._waiting, []
        for reply in waiting:
            reply(current)
        if current is self.last_answered:  # just given to what waited, or kept since
            return False
        if not self.looks_for_changes or current == self.last_answered:
            return False
        assert self.last_answered is not None  # looks_for_changes says so
        self._send_list_changed()
        self.log.event(
            EventKind.LIST_CHANGED_SENT,
            dir=ev.BRIDGE_TO_SERVER,
            uris=root_uris(current),
            previous=root_uris(self.last_answered),
        )
        return True

    # ---- answers to roots/list ---------------------------------------------------------------

    def answer(self, msg_id: object, started: float) -> None:
        """Answer the server's ``roots/list`` *msg_id* now, or once the answer is known."""
        # past the bound it is answered at once with no folder, though the roots are held
        held = self.full
        if held:
            self.log.event(EventKind.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=msg_id, held=True)

        def reply(result: ListRootsResult) -> None:
            answer = {"jsonrpc": "2.0", "id": msg_id, "result": result}
            self.act(to_server(dumps(answer) + b"\n"))
            # timed up to the write: the log records below are not on the server's path
            us = round((self.clock.perf() - started) * 1e6)
            if not held:
                self.log.event(EventKind.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=msg_id)
            self.answered(result)
            self.log.event(
                EventKind.ROOTS_ANSWERED,
                dir=ev.BRIDGE_TO_SERVER,
                id=msg_id,
                uris=root_uris(result),
                us=us,
            )

        if not self.want(reply):
            held = True
            # the request is logged now; its answer when the roots are handed in
            self.log.event(EventKind.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=msg_id, held=True)

    def answer_batch(self, asked: list[Json], started: float) -> None:
        """Answer the ``roots/list`` requests of one 2025-03-26 batch with one batch."""

        def reply(result: ListRootsResult) -> None:
            answers = [{"jsonrpc": "2.0", "id": m["id"], "result": result} for m in asked]
            self.act(to_server(dumps(answers) + b"\n"))
            self.answered(result)
            for m in asked:
                self.log.event(
                    EventKind.ROOTS_ANSWERED,
                    dir=ev.BRIDGE_TO_SERVER,
                    id=m["id"],
                    uris=root_uris(result),
                    batch=True,
                    us=round((self.clock.perf() - started) * 1e6),
                )

        self.want(reply)

    def answered(self, result: ListRootsResult) -> None:
        """The server was given *result* (by any of the bridge's answers)."""
        self.last_answered = result
        if self.after_answer is not None:
            self.after_answer()
        self.told.update(root_uris(result))
        self.stale = False
        self.log.marker(last_roots_list_at=iso_time(self.clock.wall()), stale=False)

    def forget(self) -> None:
        """A new server replaces the one running: it was told nothing yet."""
        self.last_answered = None
        self.stale = False
        self.told.clear()

    # ---- list_changed ------------------------------------------------------------------------

    @property
    def looks_for_changes(self) -> bool:
        """Whether a change of the server's roots would be told now (else none is looked at):
        the handshake complete, the server answered once and since the last notice, and no
        restart under way."""
        if self.observe or self.handshake.era is Era.PER_REQUEST or not self.handshake.done:
            return False
        if self.carryover is not None and self.carryover.holding:
            return False  # the server is being replaced; the new one asks afresh
        return self.last_answered is not None and not self.stale

    def check_changes(self) -> bool:
        """Send ``list_changed`` if the server's effective roots moved; True if it was sent.
        The roots are asked of the run (:meth:`roots_changed` decides), when a notice could go."""
        if not self.looks_for_changes:
            return False
        notices = self.notices
        self.act(roots_wanted())
        return self.notices > notices

    def list_changed_asked(self, by: str, request: str | None = None) -> bool:
        """Send ``list_changed`` though nothing changed, because the user asked; True if sent.

        For a developer watching whether their server asks again. The rules against storms
        still hold: not before the handshake, and not while the server has not fetched the
        list since the previous notice; the log says why when it is not sent.
        """
        if self.observe:
            outcome = "observe"
        elif self.handshake.era is Era.PER_REQUEST:
            outcome = "no-notice"
        elif not self.handshake.done:
            outcome = "handshake"
        elif self.stale:
            outcome = "not-fetched"
        else:
            outcome = "sent"
            self._send_list_changed()
        sent = outcome == "sent"
        self.log.event(
            EventKind.LIST_CHANGED_ASKED,
            dir=ev.BRIDGE_TO_SERVER if sent else None,
            outcome=outcome,
            by=by,
            request=request,
        )
        return sent

    def _send_list_changed(self) -> None:
        self.stale = True
        self.notices += 1
        self.act(to_server(dumps({"jsonrpc": "2.0", "method": LIST_CHANGED}) + b"\n"))
        self.log.marker(last_list_changed_at=iso_time(self.clock.wall()), stale=True)

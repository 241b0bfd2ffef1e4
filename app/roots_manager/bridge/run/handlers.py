"""How a bridge run's two relays reach the mediator, and what each does when stuck.

Each direction is pumped in a thread of its own (:mod:`~roots_manager.bridge.transport.pump`); its
runner hands the lines to the mediator's side on the event loop. The host's side releases a held
``initialized`` that waited too long; the server's side stops reading a server that leaves its
answers unread.
"""

from __future__ import annotations

from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.run.eventlog import BridgeLog
from roots_manager.bridge.transport.carrier import Carrier
from roots_manager.bridge.transport.pump import HOLD_LIMIT, HandOff, LoopRunner
from roots_manager.bridge.transport.writer import LineWriter
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev

MAX_BACKLOG = 4 * 1024 * 1024
"""Bytes of the bridge's answers a server may leave unread before its output waits for it."""


def _error(log: BridgeLog, message: str) -> None:
    log.event(EventKind.ERROR, message=message)


def host_runner(
    mediator: Mediator, handoff: HandOff, carrier: Carrier, log: BridgeLog
) -> LoopRunner:
    """The runner of what the host says."""

    def overdue() -> None:
        # A first npx start downloads the server for half a minute. initialized stays held
        # until the server has answered initialize, however long that takes: the reference
        # filesystem server ignores the roots capability when initialized comes first, and then
        # never asks for its roots (the host waits for that answer too).
        if mediator.handshake.holding:
            log.event(
                EventKind.HANDSHAKE,
                dir=ev.HOST_TO_SERVER,
                held=True,
                message=f"no initialize result within {HOLD_LIMIT:g} s (a first start may be "
                "downloading the server): initialized stays held until the server answers",
            )

    return LoopRunner(
        handoff,
        carrier.to_server,
        carrier=carrier,
        on_error=lambda m: _error(log, m),
        on_overdue=overdue,
    )


def server_runner(handoff: HandOff, carrier: Carrier, log: BridgeLog) -> LoopRunner:
    """The runner of what the server says (whichever server runs: a restart keeps it)."""
    to_server: LineWriter = carrier.to_server

    def throttle() -> None:
        # a server that asks and never reads the answers: stop reading what it says until it
        # reads, rather than keep every answer in memory
        if to_server.backlog < MAX_BACKLOG:
            return
        handoff.call(
            lambda: _error(
                log,
                f"the server left {MAX_BACKLOG >> 20} MiB of answers unread; what it says "
                "is not read until it reads them",
            )
        )
        to_server.wait_below(MAX_BACKLOG)

    return LoopRunner(
        handoff,
        carrier.to_host,
        carrier=carrier,
        on_error=lambda m: _error(log, m),
        throttle=throttle,
    )

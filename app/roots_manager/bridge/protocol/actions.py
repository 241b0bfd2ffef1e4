"""What the protocol asks to be done, as data: the one way its decisions leave it.

The protocol writes nothing and schedules nothing. Handling a line returns what to relay in its
place (the line, its rewrite, b"" to drop it, or a :class:`~roots_manager.bridge.protocol.held_line.
HeldLine` to hold it); everything else it decides is an :class:`Action` handed to the one sink the
run gives it (:class:`~roots_manager.bridge.transport.carrier.Carrier`, which carries actions
out; a test keeps them in a list): a message of the bridge's own to the server or the host (an
answer to ``roots/list``, a ``list_changed``, a retry, an error), a wake-up to be fed back to
it (:meth:`~roots_manager.bridge.protocol.mediator.Mediator.wake`) once the line being handled
has been written or once some seconds have passed, or a request for the server's roots, which
the run reads from the files and hands in
(:meth:`~roots_manager.bridge.protocol.mediator.Mediator.roots_changed`). Actions hold no
function: a table of messages in and actions out says all the protocol did.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass


class Kind(enum.Enum):
    """What an :class:`Action` asks."""

    TO_SERVER = "to server"
    """Write :attr:`Action.line`, a whole message of the bridge's, to the server."""
    TO_HOST = "to host"
    """Write :attr:`Action.line`, a whole message of the bridge's, to the host."""
    AFTER_WRITE = "after write"
    """Feed :attr:`Action.wake` back once the line being handled has been written (at once when
    no line is being handled)."""
    WAKE = "wake"
    """Feed :attr:`Action.wake` back once :attr:`Action.delay` seconds have passed."""
    ROOTS_WANTED = "roots wanted"
    """Hand the server's roots as they are now to the protocol
    (:meth:`~roots_manager.bridge.protocol.mediator.Mediator.roots_changed`): an answer or a
    check waits for them. At once, unless they are held (the user has not decided): then as
    soon as they are known."""


class Wake(enum.Enum):
    """What the protocol is woken for (:meth:`~roots_manager.bridge.protocol.mediator.Mediator.
    wake`)."""

    CHECK_CHANGES = "check changes"
    """Tell the server if its roots moved: ``initialized``, which allows it, has been written."""
    RELEASE_INITIALIZED = "release initialized"
    """Let a held ``initialized`` go: the server's ``initialize`` result reached the host."""
    FIRST_CALL = "first call"
    """The host's first request has waited long enough for the server's roots."""


@dataclass(frozen=True, slots=True)
class Action:
    """One thing the protocol asks to be done."""

    kind: Kind
    line: bytes = b""
    """The message to write (:attr:`Kind.TO_SERVER`, :attr:`Kind.TO_HOST`), with its newline."""
    wake: Wake | None = None
    """What to feed back (:attr:`Kind.AFTER_WRITE`, :attr:`Kind.WAKE`)."""
    delay: float = 0.0
    """Seconds until the wake-up (:attr:`Kind.WAKE`)."""


def to_server(line: bytes) -> Action:
    """Write *line* (a whole message, with its newline) to the server."""
    return Action(Kind.TO_SERVER, line=line)


def to_host(line: bytes) -> Action:
    """Write *line* (a whole message, with its newline) to the host."""
    return Action(Kind.TO_HOST, line=line)


def after_write(wake: Wake) -> Action:
    """Wake the protocol for *wake* once the line being handled has been written."""
    return Action(Kind.AFTER_WRITE, wake=wake)


def wake_in(delay: float, wake: Wake) -> Action:
    """Wake the protocol for *wake* in *delay* seconds."""
    return Action(Kind.WAKE, wake=wake, delay=delay)


def roots_wanted() -> Action:
    """Hand the protocol the server's roots as they are now."""
    return _ROOTS_WANTED


_ROOTS_WANTED = Action(Kind.ROOTS_WANTED)

Act = Callable[[Action], object]
"""Where the protocol hands its actions (the run's carrier, or a list's ``append``)."""

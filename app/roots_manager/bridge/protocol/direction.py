"""The one interface between the bridge's transport and its protocol logic: a direction.

Each direction of the relay (host to server, server to host) has a :class:`Direction`: what the
relay must look for in its lines (a :class:`Lookout`, an immutable snapshot taken afresh with
each chunk and after each line handled, so a relay never works from a set it kept), what to relay
in place of a line worth reading, and what to note about the lines relayed unread. The relay
reaches it through a runner of the transport's (:class:`~roots_manager.bridge.transport.relay.Runner`).
The messages the protocol makes up itself are not written here: they are
:mod:`~roots_manager.bridge.protocol.actions`, carried out by the transport's
:class:`~roots_manager.bridge.transport.carrier.Carrier`, which also tells the C hot path to
take the lookouts afresh.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from roots_manager.bridge.protocol.held_line import HeldLine


class Lookout(NamedTuple):
    """What a relay looks for in the lines of its direction, now."""

    patterns: tuple[bytes, ...]
    """Byte strings whose presence makes a line worth handling."""
    parse_all: bool = False
    """Every line is to be handled (``--log-all``, or a server that may be restarted)."""
    may_stream: bool = True
    """A long line that shows no pattern may be relayed before it ends."""
    guarded: bool = False
    """A line that could spell a pattern in disguise is handled too, and a long line that
    shows a pattern is never relayed unread (no request for roots may reach the host)."""
    counted: bool = False
    """Of :attr:`parse_all`'s lines, those that show no pattern are now read only to be
    counted (what a restart or a refusal needs to know): a relay that notes them where it
    reads them (the hot path's ledger) may relay them unhandled (see :meth:`Direction.defer`)."""


class Direction(Protocol):
    """One direction of the protocol logic, as the relay in front of it sees it."""

    def lookout(self) -> Lookout:
        """What to look for now."""
        ...

    def handle(self, line: bytes) -> bytes | HeldLine:
        """What to relay in place of a whole *line* (with its newline, if any); a :class:`HeldLine`
        for a line held back until something else has happened (the protocol releases it)."""
        ...

    def failed(self, line: bytes) -> bytes:
        """What to relay in place of a line whose handling raised."""
        ...

    def defer(self, line: bytes) -> bool:
        """Whether the whole *line*, which shows no pattern and is looked at only to be counted
        (:attr:`Lookout.parse_all` for what a restart or a refusal needs to know), is noted
        for later instead: True, and it is relayed as it is, unhandled."""
        ...

    def not_json(self, size: int, reason: str) -> None:
        """A line that cannot be a JSON-RPC message went through untouched (*reason*:
        ``"JSON"`` for a line not shaped like JSON, ``"UTF-8"`` for one that is not UTF-8)."""
        ...

    def streamed(self, size: int, matched: bool) -> None:
        """A long line was relayed without being read; *matched* if a pattern showed late."""
        ...

    def withheld(self, size: int, relayed: int) -> None:
        """Of a guarded line of *size* bytes only the first *relayed* went out (it was too long
        to be held whole, or a pattern showed after its start had gone)."""
        ...

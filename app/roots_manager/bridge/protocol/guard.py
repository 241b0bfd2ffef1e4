"""Managed mode's promise for the server's lines: no request for roots reaches the host.

The mediator answers every request for roots it reads the way hosts do. What is left for this
module: a line that only an unusual reading takes for a request (no parser reads it but it
spells ``roots/list`` once unescaped, or only the first of its duplicate keys asks), one the
mediator does not answer (a ``roots/list`` notification, a 2026-07-28 round on a result that is
not ``input_required``), and one whose handling failed. Each is kept from the host and logged.
"""

from __future__ import annotations

from roots_manager.bridge.protocol import lenient_reading
from roots_manager.bridge.protocol.actions import Act, to_server
from roots_manager.bridge.protocol.jsonrpc import EventSink, error_line
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev


class Guard:
    """Keeps the server's lines that may ask for roots from the host (managed mode)."""

    def __init__(self, log: EventSink, act: Act) -> None:
        self.log = log
        self.act = act
        """Where the error for a server's request goes (an action: to the server)."""

    def screen(self, reading: lenient_reading.Reading, size: int) -> bytes | None:
        """Before the mediator handles a line: what goes in its place if only an unusual reading
        asks for roots, else None."""
        if not reading.readable:
            if lenient_reading.mentions_roots(reading.text):
                return self.blocked(None, size, "a line no parser reads, spelling roots/list")
            return None
        if (
            reading.first_wins is not None
            and lenient_reading.asks_for_roots(reading.first_wins)
            and not lenient_reading.asks_for_roots(reading.message)
        ):
            return self.blocked(
                reading.message,
                size,
                "a message that asks for roots when the first of its duplicate keys is read",
            )
        return None

    def unanswered(self, msg: object, size: int) -> bytes | None:
        """After the mediator chose to relay *msg* as it is: what goes instead if it asks for
        roots, else None."""
        if not lenient_reading.asks_for_roots(msg):
            return None
        return self.blocked(
            msg, size, "a message that asks for roots in a form the bridge does not answer"
        )

    def failed(self, line: bytes, body: bytes) -> bytes:
        """What to relay for a line whose handling raised: never a request for roots."""
        reading = lenient_reading.read(body)
        if not lenient_reading.could_ask_for_roots(reading):
            return line
        return self.blocked(
            reading.message, len(body), "a message that may ask for roots could not be handled"
        )

    def blocked(self, msg: object, size: int, what: str) -> bytes:
        """Keep a server's line that asks for roots from the host; what goes in its place.

        A request gets an error from the bridge, a response that asks (2026-07-28) becomes an
        error for the host's request, anything else is dropped; the log says so.
        """
        self.log.event(
            EventKind.ERROR,
            dir=ev.SERVER_TO_HOST,
            bytes=size,
            blocked=True,
            message=f"{what}: kept from the host",
        )
        if not isinstance(msg, dict) or "id" not in msg:
            return b""
        if "method" in msg:
            text = "roots-bridge: roots are asked for with roots/list, answered by the bridge"
            self.act(to_server(error_line(msg["id"], text)))
            return b""
        return error_line(
            msg["id"],
            "roots-bridge: the server asked for roots in a form the bridge does not answer",
        )

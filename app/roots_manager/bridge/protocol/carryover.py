"""What a restart of the server carries over: the host's handshake and settings, and what is open.

Kept only in a bridge run whose server may be restarted behind the host's back
(:class:`~roots_manager.bridge.run.restarts.Restarts`); such a run reads every message both ways
for it. The host set up its protocol state with the first server: the ``initialize`` request (as the bridge
forwarded it, with the roots capability), ``notifications/initialized``, the log level, the
resources it subscribed to. A new server must be told the same before it sees the host's next
message. Requests open on either side cannot survive a restart: the host's get an error, and
the host's late answers to the old server's requests are dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.protocol.jsonrpc import CANCELLED, Json, is_response, key, params_of

HELD_LIMIT = 16 * 1024 * 1024
"""Bytes of the host's messages held during a restart beyond which the host's pump waits."""
SET_LEVEL = "logging/setLevel"
SUBSCRIBE = "resources/subscribe"
UNSUBSCRIBE = "resources/unsubscribe"
CARRYOVER_METHODS = ("initialize", "notifications/initialized", SET_LEVEL, SUBSCRIBE, UNSUBSCRIBE)
"""The methods whose messages set what a new server is told (:meth:`Carryover.replayed`)."""


class Carryover:
    """The host's protocol state, the requests in flight, and the bridge's own replayed calls."""

    def __init__(self) -> None:
        self.initialize: Json | None = None
        """The params of the host's ``initialize`` as forwarded (with the roots capability)."""
        self.initialized = False
        """The host's ``notifications/initialized`` went to the server."""
        self.server_result: Json | None = None
        """The server's ``initialize`` result, as the host saw it."""
        self.log_level: Json | None = None
        """The params of the host's last ``logging/setLevel``."""
        self.subscriptions: dict[str, Json] = {}
        """The params of each ``resources/subscribe`` still open, by URI."""
        self.in_flight: dict[str, object] = {}
        """The host's requests the server has not answered: key to id."""
        self._server_asked: set[str] = set()
        self._orphaned: set[str] = set()
        self._expected: dict[str, Callable[[Json], None]] = {}
        self.on_idle: Callable[[], None] | None = None
        """Called when the last request in flight is answered."""
        self._held: list[tuple[Json | list[Any], bytes, HeldLine | None]] | None = None
        self._held_bytes = 0

    # ---- the host's side -------------------------------------------------------------------

    def orphan_answer(self, msg: Json) -> bool:
        """Whether *msg* answers a request of a server that has since been replaced."""
        if not is_response(msg) or not self._orphaned:
            return False
        k = key(msg["id"])
        if k in self._orphaned:
            self._orphaned.discard(k)
            return True
        return False

    def host_sent(self, msg: Json) -> None:
        """A host message went to the server."""
        method = msg.get("method")
        if method is None:
            if "id" in msg:
                self._server_asked.discard(key(msg["id"]))
            return
        params = params_of(msg) or {}
        if "id" in msg:
            self.in_flight[key(msg["id"])] = msg["id"]
        if method == "initialize":
            self.initialize = params
        elif method == "notifications/initialized":
            self.initialized = True
        elif method == SET_LEVEL:
            self.log_level = params
        elif method == SUBSCRIBE and isinstance(params.get("uri"), str):
            self.subscriptions[params["uri"]] = params
        elif method == UNSUBSCRIBE and isinstance(params.get("uri"), str):
            self.subscriptions.pop(params["uri"], None)

    def passes_while_held(self, msg: object) -> bool:
        """Whether a host message goes to the old server while the host's messages are held:
        an answer to the server's request, or the cancellation of a request it is handling."""
        if not isinstance(msg, dict):
            return False
        if is_response(msg):
            return True
        params = params_of(msg)
        return (
            msg.get("method") == CANCELLED
            and params is not None
            and key(params.get("requestId")) in self.in_flight
        )

    # ---- holding the host's messages during a restart -----------------------------------------

    def hold(self) -> None:
        """Keep the host's requests and notifications from the server until :meth:`release`;
        answers to the server's requests, and cancellations of what it handles, still go."""
        if self._held is None:
            self._held = []
            self._held_bytes = 0

    @property
    def orphans(self) -> bool:
        """Answers of the host's to a replaced server's requests may still come (dropped)."""
        return bool(self._orphaned)

    @property
    def holding(self) -> bool:
        """The host's messages are held (a restart is under way)."""
        return self._held is not None

    def sent(self, msg: Json | list[Any], out: bytes) -> bytes | HeldLine:
        """What to write to the server now for the host's *msg* (as *out*): *out*, or nothing
        while it is held (a :class:`HeldLine` once :data:`HELD_LIMIT` bytes are held: the host's
        pump waits)."""
        if self._held is not None and not self.passes_while_held(msg):
            waiter: HeldLine | None = HeldLine() if self._held_bytes > HELD_LIMIT else None
            self._held.append((msg, out, waiter))
            self._held_bytes += len(out)
            return waiter if waiter is not None else b""
        for item in msg if isinstance(msg, list) else (msg,):
            if isinstance(item, dict):
                self.host_sent(item)
        return out

    def release(self, send: Callable[[bytes], object]) -> int:
        """Send the held messages to the (new) server with *send*, in order; how many."""
        held, self._held = self._held or [], None
        self._held_bytes = 0
        for msg, out, waiter in held:
            for item in msg if isinstance(msg, list) else (msg,):
                if isinstance(item, dict):
                    self.host_sent(item)
            if waiter is None:
                send(out if out.endswith(b"\n") else out + b"\n")
            else:
                waiter.release(out)
        return len(held)

    # ---- the server's side -----------------------------------------------------------------

    def expect(self, msg_id: str, reply: Callable[[Json], None]) -> None:
        """Call *reply* with the server's response to the bridge's own request *msg_id*."""
        self._expected[key(msg_id)] = reply

    def own_response(self, msg: Json) -> bool:
        """Take a response to one of the bridge's replayed requests; True if it was one."""
        reply = self._expected.pop(key(msg.get("id")), None)
        if reply is None:
            return False
        reply(msg)
        return True

    def server_sent(self, msg: Json) -> None:
        """A server message went to the host."""
        if "id" not in msg:
            return
        if "method" in msg:
            self._server_asked.add(key(msg["id"]))
            return
        answered = self.in_flight.pop(key(msg["id"]), None) is not None
        if answered and not self.in_flight and self.on_idle is not None:
            self.on_idle()

    # ---- a restart ---------------------------------------------------------------------------

    def stdin_closed(self) -> None:
        """The old server reads nothing more: the host's answers to its requests are dropped
        (a new server would not know their ids)."""
        self._orphaned |= self._server_asked
        self._server_asked.clear()

    def open_requests(self) -> list[object]:
        """The replaced server has ended: the ids of the host's requests it never answered
        (they are forgotten)."""
        open_ids = list(self.in_flight.values())
        self.in_flight.clear()
        self.stdin_closed()  # what it asked while it was stopping
        return open_ids

    def forget_expected(self) -> None:
        """A new server failed its replay: the answers awaited from it will not come."""
        self._expected.clear()

    def replayed(self) -> list[tuple[str, Any]]:
        """What a new server is told before the host's next message: (method, params)."""
        out: list[tuple[str, Any]] = []
        if self.initialize is None:
            return out
        out.append(("initialize", self.initialize))
        if not self.initialized:
            return out
        out.append(("notifications/initialized", None))
        if self.log_level is not None:
            out.append((SET_LEVEL, self.log_level))
        out.extend((SUBSCRIBE, params) for params in self.subscriptions.values())
        return out

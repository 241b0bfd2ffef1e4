"""The host's requests the server has now, and the ones it answered a moment ago.

A refusal of a confined server is told a little after the call that was refused (the
supervisor writes a line, the bridge reads it), by which time the server may have answered the
request that caused it. So the protocol keeps, for each request of the host, when it went to the
server and when its answer came back (on the refusal's clock, seconds since the epoch), and a
few answered ones besides; :meth:`InFlight.snapshot` hands the run layer an immutable copy to
judge a refusal's time against (:func:`roots_manager.core.log.denials.attribute`).

The server's start-ups are spans too: from the start (or a restart) until the host's
``initialize`` is answered, or its first other request under 2026-07-28, which has no
handshake (``server/discover`` counts as its ``initialize``). Memory is bounded: at most :data:`OPEN_KEPT` open requests (a host that never reads
its answers loses the oldest) and :data:`ANSWERED_KEPT` answered ones.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from roots_manager.core.log.denials import Request

OPEN_KEPT = 256
ANSWERED_KEPT = 64
START_UPS_KEPT = 8
HANDSHAKES = ("initialize", "server/discover")
"""The requests a server answers as it starts: until their answer it is starting up."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The requests and start-ups at one moment (immutable: read it anywhere)."""

    requests: tuple[Request, ...]
    start_ups: tuple[tuple[float, float | None], ...]


def _key(msg_id: object) -> tuple[str, object] | None:
    if isinstance(msg_id, bool) or not isinstance(msg_id, int | str):
        return None
    return (type(msg_id).__name__, msg_id)


class InFlight:
    """The host's requests to one bridge run's server (see the module's text)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        """*clock*: seconds since the epoch (the refusals' clock)."""
        self._clock = clock
        self._open: dict[tuple[str, object], Request] = {}
        self._answered: deque[Request] = deque(maxlen=ANSWERED_KEPT)
        self._start_ups: deque[list[float | None]] = deque(maxlen=START_UPS_KEPT)
        self._start_ups.append([0.0, None])
        self._initialize: tuple[str, object] | None = None
        self.on_waiting: Callable[[bool], None] | None = None
        """Told True when the host's first request (but a handshake) is open, False when the
        last is answered (a confined server that asks holds its refusals meanwhile)."""
        self._waiting = False

    def host_request(self, msg: dict[str, Any], at: float | None = None) -> None:
        """The host sent *msg*, a request (it has a method and an id), now or *at*."""
        method, key = msg.get("method"), _key(msg.get("id"))
        if not isinstance(method, str) or key is None:
            return
        params = msg.get("params")
        tool = arguments = None
        if isinstance(params, dict):
            if method == "tools/call" and isinstance(params.get("name"), str):
                tool = params["name"]
            arguments = params.get("arguments") if method == "tools/call" else params
        now = self._clock() if at is None else at
        if method in HANDSHAKES:
            self._initialize = key
        else:
            self._started_up(now)
        if len(self._open) >= OPEN_KEPT:
            del self._open[next(iter(self._open))]
        self._open[key] = Request(msg["id"], method, tool, arguments, now)
        self._tell_waiting()

    def server_response(self, msg_id: object, at: float | None = None) -> None:
        """The server answered the host's request *msg_id*, now or *at*."""
        key = _key(msg_id)
        request = self._open.pop(key, None) if key is not None else None
        if request is None:
            return
        now = self._clock() if at is None else at
        self._answered.append(dataclasses.replace(request, ended=now))
        if key == self._initialize:
            self._initialize = None
            self._started_up(now)
        self._tell_waiting()

    def _tell_waiting(self) -> None:
        if self.on_waiting is None:
            return
        waiting = any(r.method not in HANDSHAKES for r in self._open.values())
        if waiting != self._waiting:
            self._waiting = waiting
            self.on_waiting(waiting)

    def _started_up(self, now: float) -> None:
        last = self._start_ups[-1]
        if last[1] is None:
            last[1] = now

    def server_replaced(self) -> None:
        """A new server starts: what the old one had is over, and a start-up begins."""
        now = self._clock()
        for request in self._open.values():
            self._answered.append(dataclasses.replace(request, ended=now))
        self._open.clear()
        self._initialize = None
        self._started_up(now)
        self._start_ups.append([now, None])
        self._tell_waiting()

    def restarted(self) -> None:
        """The new server was told the host's handshake again: its start-up is over."""
        self._started_up(self._clock())

    def snapshot(self) -> Snapshot:
        """The requests open now and answered lately, and the start-ups, as they are now."""
        return Snapshot(
            (*self._answered, *self._open.values()),
            tuple((float(a or 0.0), b) for a, b in self._start_ups),
        )

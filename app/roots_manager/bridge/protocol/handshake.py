"""How host and server agree on a protocol, as the bridge sees it, and the roots capability.

Under 2024-11-05 to 2025-11-25 the host sends ``initialize``; the bridge adds
``roots: {"listChanged": true}`` to its capabilities (in place of whatever the host declared: the
bridge answers ``roots/list`` and sends ``list_changed``, so that is what the server is told), and
holds an early ``notifications/initialized`` (one sent before the server answered) until that
answer has reached the host: some servers settle their capabilities then. Under 2026-07-28
there is no handshake: every request names its revision in ``_meta``, and the bridge adds
``roots: {}`` to the client capabilities each request declares there.
"""

from __future__ import annotations

from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.protocol.jsonrpc import (
    META_CAPS,
    META_VERSION,
    Era,
    EventSink,
    Json,
    key,
)
from roots_manager.bridge.protocol.opening import TOLD, tell_roots
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev


class Handshake:
    """The protocol agreed so far, and the roots capability added on the host's behalf."""

    def __init__(self, log: EventSink, *, observe: bool) -> None:
        self.log = log
        self.observe = observe
        self.era = Era.UNKNOWN
        self.protocol: str | None = None
        self.done = False
        """The host sent ``notifications/initialized`` and it went to the server."""
        self._init_id: str | None = None
        self._held: tuple[HeldLine, bytes] | None = None
        self._announced = False

    @property
    def awaiting_result(self) -> bool:
        """The host's ``initialize`` went to the server and its result has not come back."""
        return self._init_id is not None

    def initialize(self, msg: Json, params: Json | None) -> bool:
        """Take the host's ``initialize``; True if the roots capability was added to it or
        changed (:func:`~roots_manager.bridge.protocol.opening.tell_roots`: in managed mode the
        server is told what the bridge does, not what the host declared; the log keeps what
        the host said).
        """
        self.era = Era.HANDSHAKE
        caps = params.get("capabilities") if params else None
        version = params.get("protocolVersion") if params else None
        self.protocol = str(version) if version is not None else None
        self._init_id = key(msg.get("id"))
        seen = sorted(caps) if isinstance(caps, dict) else None
        host_roots = caps.get("roots") if isinstance(caps, dict) else None
        injected = tell_roots(params, observe=self.observe)
        self._log_host(
            msg, seen, {"roots": dict(TOLD)} if injected else None, host_roots=host_roots
        )
        self.log.marker(protocol=self.protocol)
        return injected

    def per_request(self, msg: Json, meta: Json) -> bool:
        """Take a 2026-07-28 request's ``_meta``; True if the roots capability was added."""
        changed = False
        if self.era is not Era.PER_REQUEST:
            self.era = Era.PER_REQUEST
            self.protocol = str(meta.get(META_VERSION))
            self.log.marker(protocol=self.protocol)
        caps = meta.get(META_CAPS)
        seen = sorted(caps) if isinstance(caps, dict) else None
        if not self.observe:
            if not isinstance(caps, dict):
                caps = meta[META_CAPS] = {}
            if "roots" not in caps:
                caps["roots"] = {}
                changed = True
        if not self._announced and msg.get("method") != "server/discover":
            # a discovery probe may be followed by a fall back to initialize: not yet an era
            self._announced = True
            self._log_host(msg, seen, {"roots": {}} if changed else None)
        return changed

    def initialized_is_early(self) -> bool:
        """Whether a ``notifications/initialized`` arriving now must wait for the server."""
        return (
            self._init_id is not None and not self.observe and not self.done and self._held is None
        )

    def hold_initialized(self, line: bytes, msg: Json) -> HeldLine:
        """Hold an early ``notifications/initialized``; released as it is, later."""
        # a server may settle its capabilities when initialized arrives (the reference
        # filesystem server ignores the roots capability if it comes before its own answer)
        held = HeldLine()
        self._held = (held, line)
        self.log.event(
            EventKind.HANDSHAKE,
            dir=ev.HOST_TO_SERVER,
            method=msg.get("method"),
            held=True,
            message="initialized arrived before the server's initialize result; held until "
            "that result has reached the host",
        )
        return held

    def initialized(self) -> bool:
        """The host's ``notifications/initialized`` goes to the server; True the first time."""
        if self.done:
            return False
        self.done = True
        return True

    def release_initialized(self) -> None:
        """Let a held ``notifications/initialized`` go to the server (no-op if none is held)."""
        held = self._held
        if held is None:
            return
        self._held = None
        self.done = True
        held[0].release(held[1])

    def server_result(self, msg: Json) -> bool:
        """Take a server response; True if it answers the host's ``initialize``.

        The caller releases a held ``initialized`` once this result has reached the host
        (:attr:`holding` says whether one is held).
        """
        msg_id = msg.get("id")
        if self._init_id is None or key(msg_id) != self._init_id:
            return False
        self._init_id = None
        result = msg.get("result")
        if isinstance(result, dict) and result.get("protocolVersion"):
            self.protocol = str(result["protocolVersion"])
            self.log.event(
                EventKind.HANDSHAKE,
                dir=ev.SERVER_TO_HOST,
                id=msg_id,
                protocol=self.protocol,
                negotiated=True,
            )
            self.log.marker(protocol=self.protocol)
        return True

    @property
    def holding(self) -> bool:
        """An early ``notifications/initialized`` is held."""
        return self._held is not None

    def _log_host(self, msg: Json, seen: object, injected: Json | None, **details: object) -> None:
        """Log the host's side of a handshake: the capabilities seen and what was added."""
        self.log.event(
            EventKind.HANDSHAKE,
            dir=ev.HOST_TO_SERVER,
            id=msg.get("id"),
            protocol=self.protocol,
            capabilities=seen,
            injected=injected,
            **details,
        )

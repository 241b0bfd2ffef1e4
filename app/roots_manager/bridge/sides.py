"""Each direction of the mediator as its relay sees it: what to look for, what to hand over."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING

from roots_manager.bridge import lenient
from roots_manager.bridge.jsonrpc import CANCELLED, META_VERSION, Era, is_response, split_line
from roots_manager.core import events as ev

if TYPE_CHECKING:
    from roots_manager.bridge.mediator import Mediator


class _Side:
    """One direction of the mediator as its relay sees it."""

    direction = ""

    def __init__(self, mediator: Mediator) -> None:
        self.s = mediator

    def parse_all(self) -> bool:
        # a server that may be restarted: every message counts for what a restart carries over
        return self.s.log_all or self.s.carried is not None

    def not_json(self, size: int, reason: str) -> None:
        self.s.log.event(ev.NON_JSON, dir=self.direction, bytes=size, reason=reason)

    def streamed(self, size: int, matched: bool) -> None:
        if matched:
            self.s.log.event(
                ev.ERROR,
                dir=self.direction,
                bytes=size,
                message="a long message mentioning roots was relayed unparsed",
            )

    def guarded(self) -> bool:
        return False

    def withheld(self, size: int, relayed: int) -> None:
        self.s.log.event(
            ev.ERROR,
            dir=self.direction,
            bytes=size,
            relayed=relayed,
            blocked=True,
            message="a message too long to be read whole that may ask for roots; "
            + ("dropped" if not relayed else "cut after its first bytes"),
        )

    def failed(self, line: bytes) -> bytes:
        """What to relay for a line whose handling raised."""
        return line


class HostSide(_Side):
    """The host-to-server direction."""

    direction = ev.HOST_TO_SERVER
    # every 2026-07-28 request names the protocol version in its _meta, whether or not it
    # declares the capabilities the roots capability must be added to
    _early = (b"roots", b"initialize", META_VERSION.encode())
    _late = (b"roots",)
    # while the bridge retries a call under its own id, the host's cancellation names the
    # host's id and must be pointed at the bridge's
    _retrying = (*_early, CANCELLED.encode())

    def _settled(self) -> bool:
        hs = self.s.handshake
        return hs.era is Era.HANDSHAKE and hs.done

    def patterns(self) -> Sequence[bytes]:
        if self.s.busy:
            return self._retrying
        return self._late if self._settled() else self._early

    def may_stream(self) -> bool:
        # a 2026-07-28 request may need the roots capability added; a 2025 one never changes;
        # a restart needs every request's id
        return (self.s.observe or self._settled()) and self.s.carried is None

    def handle(self, line: bytes) -> bytes | Future[bytes]:
        return self.s.from_host(line)

    def failed(self, line: bytes) -> bytes:
        msg = lenient.read(split_line(line)[0]).message
        if not self.s.observe and isinstance(msg, dict) and is_response(msg):
            result = msg.get("result")
            if isinstance(result, dict) and "roots" in result:
                return b""  # a host's roots answer goes to the server only through the checks
        return line


class ServerSide(_Side):
    """The server-to-host direction."""

    direction = ev.SERVER_TO_HOST
    _plain = (b"roots",)
    _init = (b"roots", b"protocolVersion")

    def patterns(self) -> Sequence[bytes]:
        return self._init if self.s.handshake.awaiting_result else self._plain

    def may_stream(self) -> bool:
        # the response to a retry of ours must get the host's id back: it is held whole
        return not self.s.busy

    def handle(self, line: bytes) -> bytes:
        return self.s.from_server(line)

    def guarded(self) -> bool:
        return not self.s.observe

    def failed(self, line: bytes) -> bytes:
        return self.s.failed(line)

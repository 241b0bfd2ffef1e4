"""What the bridge does with the messages that concern roots, in managed and observe mode.

The mediator sees only the lines the relays' byte-level triage hands it, parses them, and
returns what to relay in their place. It decides which of the server's messages ask for roots
(also inside 2025-03-26 batches) and what becomes of the host's messages. The answers to
``roots/list`` and the ``list_changed`` policy (one notice per effective change, only once the
handshake is complete, and only if the server fetched the list since the previous notice) are
:mod:`~roots_manager.bridge.protocol.server_roots`'s; observe mode's record of the host's answers
:mod:`~roots_manager.bridge.protocol.observed`'s; the handshake and the roots capability
:mod:`~roots_manager.bridge.protocol.handshake`'s; the 2026-07-28 ``input_required`` rounds
:mod:`~roots_manager.bridge.protocol.mrtr`'s. What each relay asks of the mediator is a side of it
(:class:`HostSide`, :class:`ServerSide`), here.

The mediator runs on the event loop only; the relays' pump threads hand it the lines it must see
and wait for what to relay in their place (a :class:`~roots_manager.bridge.protocol.held_line.
HeldLine`, for a line it holds back, which the mediator releases itself). It writes nothing and
sets no timer: its own messages and the wake-ups it needs are :mod:`~roots_manager.bridge.protocol.
actions` handed to the sink the run gives it, and the wake-ups come back through :meth:`Mediator.
wake`.

In managed mode a server's request for roots never reaches the host, however it is spelled: the
server's lines are read as leniently as any host reads them (:mod:`~roots_manager.bridge.
protocol.lenient_reading`), the mediator answers every request for roots such a reading finds, and
:mod:`~roots_manager.bridge.protocol.guard` keeps the rest from the host. A response from the host that
carries roots (which only a request the bridge never relayed could have asked for) is replaced
by an error before it reaches the server.

Requests the bridge sends carry string ids ``"roots-bridge-<nonce>-<n>"``: the host's ids can never
collide with them (the nonce is random per bridge run, drawn by the run and given here), and
their responses never reach the host.
The ``roots`` in that prefix is deliberate: it makes the relay's single ``b"roots"`` test catch
the responses to them without a second scan of every line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from roots_manager.bridge.protocol import lenient_reading
from roots_manager.bridge.protocol.actions import Act, Wake, after_write, to_server
from roots_manager.bridge.protocol.carryover import CARRYOVER_METHODS, Carryover
from roots_manager.bridge.protocol.clock import Clock
from roots_manager.bridge.protocol.direction import Lookout
from roots_manager.bridge.protocol.firstcall import FirstCall
from roots_manager.bridge.protocol.guard import Guard
from roots_manager.bridge.protocol.handshake import Handshake
from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.protocol.inflight import HANDSHAKES, InFlight
from roots_manager.bridge.protocol.jsonrpc import (
    CANCELLED,
    LIST_CHANGED,
    META_VERSION,
    ROOTS_LIST,
    Era,
    EventSink,
    Json,
    dumps,
    is_response,
    params_of,
    split_line,
)
from roots_manager.bridge.protocol.mrtr import HostRequest, InputRounds, Spill
from roots_manager.bridge.protocol.observed import Observed
from roots_manager.bridge.protocol.server_roots import ServerRoots
from roots_manager.core.consent.effective import ListRootsResult
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev

__all__ = ["EventSink", "Mediator"]

LASTING_METHODS = (*CARRYOVER_METHODS, *HANDSHAKES)
"""The methods whose messages count for more than a request open and then answered: what a
restart replays, the end of a start-up. A line of one is never noted only in passing by a relay
that notes in bulk (:attr:`~roots_manager.bridge.protocol.direction.Lookout.counted`): it is
counted line by line, as :meth:`Mediator.count` counts it."""


class _Side:
    """One direction of the mediator as its relay sees it (a
    :class:`~roots_manager.bridge.protocol.direction.Direction`)."""

    direction = ""

    def __init__(self, mediator: Mediator) -> None:
        self.s = mediator

    def _parse_all(self) -> bool:
        # a server that may be restarted: every message counts for what a restart carries over
        # confined and observed: every request counts for what a refusal is tied to
        return self.s.log_all or self.s.carryover is not None or self.s.requests is not None

    def _counted(self, parse_all: bool) -> bool:
        # every line read only to be counted, once the handshake is done (what ends the first
        # start-up is counted line by line)
        return parse_all and self.s.handshake.done and self.s.counting_only()

    def not_json(self, size: int, reason: str) -> None:
        self.s.log.event(EventKind.NON_JSON, dir=self.direction, bytes=size, reason=reason)

    def streamed(self, size: int, matched: bool) -> None:
        if matched:
            self.s.log.event(
                EventKind.ERROR,
                dir=self.direction,
                bytes=size,
                message="a long message mentioning roots was relayed unparsed",
            )

    def withheld(self, size: int, relayed: int) -> None:
        self.s.log.event(
            EventKind.ERROR,
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

    def defer(self, line: bytes) -> bool:
        return self.s.note_later(self is self.s.host_side, line)


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

    def lookout(self) -> Lookout:
        settled = self._settled()
        patterns: tuple[bytes, ...] = self._late if settled else self._early
        # the first request after the handshake may have to wait for the server's roots
        parse_all = self._parse_all() or self.s.first_call.watching
        return Lookout(
            self._retrying if self.s.busy else patterns,
            parse_all=parse_all,
            # a 2026-07-28 request may need the roots capability added; a 2025 one never
            # changes; a restart needs every request's id
            may_stream=(self.s.observe or settled)
            and self.s.carryover is None
            and self.s.requests is None,
            counted=self._counted(parse_all),
        )

    def handle(self, line: bytes) -> bytes | HeldLine:
        return self.s.from_host(line)

    def failed(self, line: bytes) -> bytes:
        msg = lenient_reading.read(split_line(line)[0]).message
        if not self.s.observe and isinstance(msg, dict) and is_response(msg):
            result = msg.get("result")
            if isinstance(result, dict) and "roots" in result:
                return b""  # a host's roots answer goes to the server only through the checks
        return line


class ServerSide(_Side):
    """The server-to-host direction."""

    direction = ev.SERVER_TO_HOST
    _plain = (b"roots",)

    def lookout(self) -> Lookout:
        # until the host's initialize is answered, every line is read: the answer (an error
        # too) ends the wait of an initialized held now or arriving later, and what is held
        # must not depend on whether this relay looked before or after it was held
        parse_all = self._parse_all() or self.s.handshake.awaiting_result
        return Lookout(
            self._plain,
            parse_all=parse_all,
            # the response to a retry of ours must get the host's id back: it is held whole
            may_stream=not self.s.busy,
            guarded=not self.s.observe,
            counted=self._counted(parse_all),
        )

    def handle(self, line: bytes) -> bytes:
        return self.s.from_server(line)

    def failed(self, line: bytes) -> bytes:
        return self.s.failed(line)


class Mediator:
    """The roots protocol logic of one bridge run, shared by both directions.

    (Called the mediator: it stands between host and server for everything about roots.)"""

    def __init__(
        self,
        *,
        log: EventSink,
        act: Act,
        clock: Clock,
        spill: Spill,
        nonce: str,
        observe: bool = False,
        log_all: bool = False,
        restartable: bool = False,
        roots_asked_at_start: bool = False,
        track_requests: bool = False,
    ) -> None:
        """*act*: where every action goes (:mod:`~roots_manager.bridge.protocol.actions`: the
        bridge's own messages, the wake-ups fed back to :meth:`wake`, and the requests for the
        server's roots, handed in to :meth:`roots_changed`); the protocol writes nothing and
        reads no file itself. *nonce*: the random part of the ids of the bridge's own requests, drawn
        by the run (the protocol draws no random number).
        *roots_asked_at_start*: the server asked for its roots right after the handshake in
        its last run (its first request then waits for them).
        *track_requests*: keep the host's requests in flight (:attr:`requests`), which the
        refusals of a confined server are tied to. *clock*: where every time the protocol
        needs comes from (it reads no clock itself). *spill*: where the host's requests kept for
        ``input_required`` rounds wait past the memory bound (no file is the protocol's)."""
        self.log = log
        self.closing = False
        """The run is ending: the server's requests are dropped, unanswered (:attr:`unanswered`
        counts them)."""
        self.unanswered = 0
        self.clock = clock
        self._perf = clock.perf
        self.act = act
        self.observe = observe
        self.log_all = log_all
        self.handshake = Handshake(log, observe=observe)
        self.guard = Guard(log, act)
        self.carryover = Carryover() if restartable else None
        """What a restart carries over; None when the server is never restarted."""
        self.requests = InFlight(clock.wall) if track_requests else None
        """The host's requests the server has (:meth:`InFlight.snapshot`); None: not kept."""
        self.server_roots = ServerRoots(
            log=log,
            act=act,
            handshake=self.handshake,
            carryover=self.carryover,
            observe=observe,
            clock=clock,
        )
        self.rounds = InputRounds(
            want=self.server_roots.want,
            log=log,
            act=act,
            answered=self.server_roots.answered,
            prefix=f"roots-bridge-{nonce}-",
            perf=clock.perf,
            spill=spill,
        )
        self.first_call = FirstCall(
            log,
            expected=roots_asked_at_start and not observe,
            act=act,
            clock=clock.monotonic,
        )
        self.server_roots.after_answer = self.first_call.roots_answered
        self.observed = Observed(log)
        self.host_side = HostSide(self)
        self.server_side = ServerSide(self)
        self.note_later: Callable[[bool, bytes], bool] = _never
        """Where a relay notes a line it would hand here only to be counted (from the host
        or not, the line): True if noted, to be counted later (:meth:`count`); the run's
        (:class:`~roots_manager.bridge.run.noted.Noted`)."""
        self.count_noted: Callable[[], None] = _nothing
        """Count every line noted so far, now (before anything that depends on them)."""
        self.exclusive: Callable[[Callable[[], None]], None] = _now
        """Run a call while no line is being noted (the run's lock)."""

    @property
    def handshake_done(self) -> bool:
        """The host's ``notifications/initialized`` has gone to the server."""
        return self.handshake.done

    @property
    def told(self) -> set[str]:
        """Every root URI the server running now was told (a revocation restarts it)."""
        return self.server_roots.told

    @property
    def last_answered(self) -> ListRootsResult | None:
        """The roots the server running now was last given (None: none yet)."""
        return self.server_roots.last_answered

    @property
    def notices(self) -> int:
        """How many ``list_changed`` notices went to the server."""
        return self.server_roots.notices

    @property
    def busy(self) -> bool:
        """True while a request of the bridge's own awaits its response."""
        return self.rounds.busy

    def wake(self, wake: Wake) -> None:
        """What the protocol asked to be woken for has come (an :attr:`~roots_manager.bridge.
        protocol.actions.Kind.AFTER_WRITE` or :attr:`~roots_manager.bridge.protocol.actions.
        Kind.WAKE` action, carried out)."""
        if wake is Wake.CHECK_CHANGES:
            self.check_changes()
        elif wake is Wake.RELEASE_INITIALIZED:
            self.release_initialized()
        else:
            self.first_call.woken()

    def release_initialized(self) -> None:
        """Let a held ``notifications/initialized`` go to the server (no-op if none is held)."""
        if self.handshake.holding:
            self.handshake.release_initialized()
            self.first_call.initialized_sent()

    def _log_message(self, msg: object, direction: str) -> None:
        if not self.log_all or not isinstance(msg, dict):
            return
        self.log.event(EventKind.MESSAGE, dir=direction, id=msg.get("id"), method=msg.get("method"))

    # ---- lines only counted: noted by the run, counted here later ---------------------------

    def counting_only(self) -> bool:
        """Whether a line that shows no pattern would only be counted now (what a restart and
        a refusal need to know: the requests open, the subscriptions), nothing else: no
        restart under way, no handshake awaited, no call of the bridge's own, no first call
        watched, every message logged or not, the run not ending. Such a line may be relayed
        at once and counted later (:meth:`count`, by :attr:`note_later`)."""
        carryover = self.carryover
        return not (
            self.log_all
            or self.closing
            or self.busy
            or self.first_call.watching
            or self.handshake.awaiting_result
            or (carryover is not None and (carryover.holding or carryover.orphans))
        )

    def count(self, from_host: bool, line: bytes, at: float) -> None:
        """Count a *line* relayed at *at* (wall clock) as its handling would have: the host's
        requests open, the server's answers, what a restart replays."""
        reading = lenient_reading.read(split_line(line)[0])
        if not reading.readable:
            return
        msg = reading.message
        for item in msg if isinstance(msg, list) else (msg,):
            if isinstance(item, dict):
                (self._count_host if from_host else self._count_server)(item, at)

    def _count_host(self, msg: Json, at: float) -> None:
        if self.requests is not None and "method" in msg and "id" in msg:
            self.requests.host_request(msg, at)
        if self.carryover is not None:
            self.carryover.host_sent(msg)

    def count_answer(self, msg_id: object, at: float) -> None:
        """Count the server's response to the host's request *msg_id*, relayed at *at*, as
        :meth:`count` counts a response line (a relay that noted the request noted only the
        id of its answer)."""
        self._count_server({"id": msg_id, "result": None}, at)

    def _count_server(self, msg: Json, at: float) -> None:
        if self.carryover is not None:
            self.carryover.server_sent(msg)
        if is_response(msg):
            if self.requests is not None:
                self.requests.server_response(msg.get("id"), at)
            self.rounds.forget(msg.get("id"))

    # ---- host -> server -------------------------------------------------------------------

    def from_host(self, line: bytes, at: float | None = None) -> bytes | HeldLine:
        """What to relay for a host line; a :class:`HeldLine` for a line held back until it may go.
        *at*: when it went to the server (wall clock), if not now (the early relay's,
        :mod:`~roots_manager.bridge.protocol.opening`)."""
        self.count_noted()  # what was noted before it is counted first
        body, ending = split_line(line)
        msg = self._parse_host(body)
        if self.requests is not None:
            self._track_host(msg, at)
        if isinstance(msg, list):
            # batches are 2025-03-26 only: no input_required round can follow them
            changed = False
            for item in msg:
                if isinstance(item, dict):
                    self._log_message(item, ev.HOST_TO_SERVER)
                    changed = self._host_message(item).changed or changed
            return self._sent(msg, dumps(msg) + ending if changed else line)
        if not isinstance(msg, dict):
            return line
        self._log_message(msg, ev.HOST_TO_SERVER)
        if self.carryover is not None and self.carryover.orphan_answer(msg):
            self.log.event(
                EventKind.MESSAGE,
                dir=ev.HOST_TO_SERVER,
                id=msg.get("id"),
                message="an answer to a request of the server before its restart; dropped",
            )
            return b""
        if msg.get("method") == "notifications/initialized" and (
            self.handshake.initialized_is_early()
        ):
            held = self.handshake.hold_initialized(line, msg)
            # runs once the released line has been written, like the check after an on-time one
            self.act(after_write(Wake.CHECK_CHANGES))
            if self.carryover is not None:
                self.carryover.host_sent(msg)
            return held
        request = self._host_message(msg)
        if request.held:
            return b""
        out = dumps(msg) + ending if request.changed else line
        if request.keep:
            self.rounds.remember(msg["id"], out)
        sent = self._sent(msg, out)
        if isinstance(sent, bytes):
            return self.first_call.hold(msg, sent) or sent
        return sent

    def _track_host(self, msg: object, at: float | None) -> None:
        assert self.requests is not None
        for item in msg if isinstance(msg, list) else (msg,):
            if isinstance(item, dict) and "method" in item and "id" in item:
                self.requests.host_request(item, at)

    def _sent(self, msg: Json | list[Any], out: bytes) -> bytes | HeldLine:
        """*out* goes to the server now, or waits while the server is being replaced."""
        return out if self.carryover is None else self.carryover.sent(msg, out)

    # ---- a restart of the server ----------------------------------------------------------

    def hold_host(self) -> None:
        """Keep the host's requests and notifications from the server until
        :meth:`release_host` (see :meth:`Carryover.hold`)."""
        assert self.carryover is not None
        # no line is noted while the hold begins: each is noted before it, or meets it
        self.exclusive(self.carryover.hold)
        self.count_noted()

    def server_replaced(self) -> None:
        """A new server replaces the one running: forget what the old one was told and asked
        (the requests it handles are :meth:`Carryover.open_requests`)."""
        self.count_noted()
        self.server_roots.forget()
        self.rounds.forget_all()
        self.server_roots.forget_waiting()
        if self.requests is not None:
            self.requests.server_replaced()

    def release_host(self) -> int:
        """Send the held host messages to the (new) server, in order; returns how many."""
        assert self.carryover is not None
        if self.requests is not None:
            self.requests.restarted()
        return self.carryover.release(lambda line: self.act(to_server(line)))

    def _parse_host(self, body: bytes) -> object:
        """The host's message in *body*; None (noted) if it is not JSON."""
        try:
            # decoded first: json.loads(bytes) lets encoded surrogates through, which are not
            # UTF-8 (and could not be written back)
            return json.loads(body.decode("utf-8"))
        except UnicodeDecodeError:
            reason = "UTF-8"
        except ValueError:
            reason = "JSON"
        if body.strip():
            self.log.event(
                EventKind.NON_JSON, dir=ev.HOST_TO_SERVER, bytes=len(body), reason=reason
            )
        return None

    def _host_message(self, msg: Json) -> HostRequest:
        """What becomes of one host message (a batch item too)."""
        method = msg.get("method")
        params = params_of(msg)
        if method == "initialize":
            return HostRequest(changed=self.handshake.initialize(msg, params))
        if method == "notifications/initialized":
            if self.handshake.initialized():
                self.first_call.initialized_sent()
                # after the relay has written this notification, not before it
                self.act(after_write(Wake.CHECK_CHANGES))
            return HostRequest()
        if method == LIST_CHANGED:
            self.log.event(EventKind.LIST_CHANGED_RELAYED, dir=ev.HOST_TO_SERVER)
            return HostRequest()
        if method == CANCELLED and self.rounds.cancelled(msg, params):
            return HostRequest(changed=True)
        if is_response(msg):
            if not self.observe:
                return HostRequest(changed=self._roots_from_host(msg))
            self.observed.host_response(msg)
            return HostRequest()
        meta = params.get("_meta") if params else None
        if params is None or not isinstance(meta, dict) or META_VERSION not in meta:
            return HostRequest()
        changed = self.handshake.per_request(msg, meta)
        if self.observe:
            self.observed.host_request(msg, params)
            return HostRequest(changed=changed)
        request = self.rounds.host_request(msg, params)
        return HostRequest(changed=changed or request.changed, held=request.held, keep=request.keep)

    def _roots_from_host(self, msg: Json) -> bool:
        """Replace a host's answer that carries roots by an error; True if it was replaced.

        In managed mode no request for roots reaches the host, so such an answer can only
        follow a request that got past the bridge: the server must not have it.
        """
        result = msg.get("result")
        if not isinstance(result, dict) or not isinstance(result.get("roots"), list):
            return False
        del msg["result"]
        msg["error"] = {"code": -32603, "message": "roots-bridge: roots come from the bridge"}
        self.log.event(
            EventKind.ERROR,
            dir=ev.HOST_TO_SERVER,
            id=msg.get("id"),
            blocked=True,
            message="the host answered a request for roots the bridge never relayed; the "
            "server gets an error instead",
        )
        return True

    # ---- server -> host -------------------------------------------------------------------

    def from_server(self, line: bytes, at: float | None = None) -> bytes:
        """What to relay for a server line; *at*: when it went to the host (wall clock), if not
        now (the early relay's, :mod:`~roots_manager.bridge.protocol.opening`)."""
        self.count_noted()  # what was noted before it is counted first
        started = self._perf()
        body, ending = split_line(line)
        reading = lenient_reading.read(body)
        if self.closing and not self.observe and _asks(reading):
            # the run ends: the server is stopped or going, and no answer will be read; a
            # server that floods requests must not keep the bridge answering past the host's
            # ladder (its last words, responses and notifications, still go to the host)
            self.unanswered += 1
            return b""
        if (reading.lossy or not reading.readable) and body.strip():
            shaped = body.strip()[:1] in (b"{", b"[") and body.strip()[-1:] in (b"}", b"]")
            reason = "UTF-8" if reading.lossy and shaped else "JSON"
            self.log.event(
                EventKind.NON_JSON, dir=ev.SERVER_TO_HOST, bytes=len(body), reason=reason
            )
        if not self.observe:
            instead = self.guard.screen(reading, len(body))
            if instead is not None:
                return instead
        if not reading.readable:
            return line
        msg = reading.message
        if isinstance(msg, list):
            return self._server_batch(msg, line, ending, started)
        if not isinstance(msg, dict):
            return line
        self._log_message(msg, ev.SERVER_TO_HOST)
        out = self._server_message(msg, started, at)
        if self.carryover is not None and out != b"":
            self.carryover.server_sent(msg)
        if out is None:
            instead = None if self.observe else self.guard.unanswered(msg, len(body))
            return line if instead is None else instead
        return out + ending if out else b""

    def failed(self, line: bytes) -> bytes:
        """What to relay for a server line whose handling raised: never a request for roots."""
        return line if self.observe else self.guard.failed(line, split_line(line)[0])

    def _server_batch(self, batch: list[Any], line: bytes, ending: bytes, started: float) -> bytes:
        if self.requests is not None:
            for item in batch:
                if isinstance(item, dict) and is_response(item):
                    self.requests.server_response(item.get("id"))
        if self.observe:
            for item in batch:
                if isinstance(item, dict):
                    self._server_message(item, started)
            return line
        rest: list[Any] = []
        asked: list[Json] = []
        blocked = 0
        for item in batch:
            if isinstance(item, dict) and item.get("method") == ROOTS_LIST and "id" in item:
                asked.append(item)
                self.log.event(
                    EventKind.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=item["id"], batch=True
                )
            elif lenient_reading.asks_for_roots(item):
                blocked += 1
                self.guard.blocked(
                    item, 0, "a batch item that asks for roots in a form the bridge does not answer"
                )
            else:
                rest.append(item)
        if self.carryover is not None:
            for item in rest:
                if isinstance(item, dict):
                    self.carryover.server_sent(item)
        if not asked:
            return line if not blocked else (dumps(rest) + ending if rest else b"")
        self.first_call.roots_asked()
        self.server_roots.answer_batch(asked, started)
        return dumps(rest) + ending if rest else b""

    def _server_message(self, msg: Json, started: float, at: float | None = None) -> bytes | None:
        """Bytes to relay instead of *msg* (without newline), b"" to drop it, None to keep it."""
        method = msg.get("method")
        if method == ROOTS_LIST and "id" in msg:
            msg_id = msg["id"]
            if self.observe:
                self.observed.server_asked(msg_id)
                return None
            self.first_call.roots_asked()
            self.server_roots.answer(msg_id, started)
            return b""
        if method == LIST_CHANGED:
            self.log.event(EventKind.LIST_CHANGED_RELAYED, dir=ev.SERVER_TO_HOST)
            return None
        if not is_response(msg):
            return None
        if self.requests is not None:
            self.requests.server_response(msg.get("id"), at)
        if self.carryover is not None and self.carryover.own_response(msg):
            return b""
        if self.handshake.server_result(msg):
            if self.carryover is not None:
                result = msg.get("result")
                self.carryover.server_result = result if isinstance(result, dict) else None
            if self.handshake.holding:
                # after this result has been written to the host
                self.act(after_write(Wake.RELEASE_INITIALIZED))
            return None
        if self.observe:
            self.observed.server_result(msg)
            return None
        return self.rounds.server_response(msg)

    # ---- list_changed ----------------------------------------------------------------------

    def check_changes(self) -> bool:
        """Send ``list_changed`` if the server's effective roots moved; True if it was sent."""
        return self.server_roots.check_changes()

    @property
    def looks_for_changes(self) -> bool:
        """Whether a change of the server's roots would be told now (:meth:`roots_changed`
        looks at them only then)."""
        return self.server_roots.looks_for_changes

    def roots_changed(self, current: ListRootsResult) -> bool:
        """The run found the server's roots are *current* (asked for with a
        :attr:`~roots_manager.bridge.protocol.actions.Kind.ROOTS_WANTED` action, or seen to
        move): give them to the answers and retries that wait for them, and tell the server
        with ``list_changed`` if they moved from what it was last given; True if it was sent."""
        return self.server_roots.roots_changed(current)

    @property
    def waiting_roots(self) -> int:
        """How many answers and retries wait for the roots (held while the user decides)."""
        return self.server_roots.waiting

    def list_changed_asked(self, by: str, request: str | None = None) -> bool:
        """Send ``list_changed`` though nothing changed, because the user asked; True if sent
        (see :meth:`ServerRoots.list_changed_asked`)."""
        return self.server_roots.list_changed_asked(by, request)


def _never(from_host: bool, line: bytes) -> bool:
    return False


def _nothing() -> None:
    return None


def _now(call: Callable[[], None]) -> None:
    call()


def _asks(reading: lenient_reading.Reading) -> bool:
    """Whether the line read is requests only (a method and an id; a batch of them)."""
    msg = reading.message if reading.readable else None
    items = msg if isinstance(msg, list) and msg else [msg]
    return all(isinstance(m, dict) and "method" in m and "id" in m for m in items)

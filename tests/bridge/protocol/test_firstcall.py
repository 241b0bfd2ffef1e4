"""The host's first request after the handshake waits for the server's roots: messages in,
what is relayed out, with the delays run by hand."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from roots_manager.bridge.protocol import firstcall
from roots_manager.bridge.protocol.clock import Clock
from roots_manager.bridge.protocol.firstcall import FirstCall
from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.run.clock import SYSTEM
from roots_manager.bridge.run.file_spill import FileSpill
from roots_manager.core.log import events as ev
from roots_manager.core.store.state import iso_time
from tests.bridge.protocol.test_mediator import ROOTS, Answers, ByHand, Log

CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "list"}}
ROOTS_LIST = {"jsonrpc": "2.0", "id": 0, "method": "roots/list"}


class Rig:
    def __init__(self, *, asked_last_time: bool, answers: Answers | None = None) -> None:
        self.to_server: list[bytes] = []
        self.timers: list[tuple[float, Callable[[], None]]] = []
        self.log = Log()
        by_hand = ByHand(
            to_server=self.to_server.append,
            later=lambda delay, fn: self.timers.append((delay, fn)),
        )
        self.s = by_hand.serving(
            Mediator(
                log=self.log,
                act=by_hand,
                clock=SYSTEM,
                spill=FileSpill(),
                nonce="n0nce",
                roots_asked_at_start=asked_last_time,
            ),
            answers,
        )
        self.s.from_host(
            b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":'
            b'{"protocolVersion":"2025-06-18","capabilities":{}}}\n'
        )
        self.s.from_server(b'{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}\n')
        self.s.from_host(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def host(self, msg: Any) -> bytes | HeldLine:
        return self.s.from_host(json.dumps(msg).encode() + b"\n")

    def fire(self) -> list[float]:
        """Run the delays due, as the loop would; returns them."""
        timers, self.timers = self.timers, []
        for _, fn in timers:
            fn()
        return [d for d, _ in timers]

    def held_events(self) -> list[dict[str, Any]]:
        return [e for e in self.log.events if e.get("first_call_held")]


def test_the_first_request_waits_for_the_roots_answer_and_a_moment_to_settle() -> None:
    r = Rig(asked_last_time=True)
    assert r.s.host_side.lookout().parse_all, "the first request must reach the mediator"
    held = r.host(CALL)
    assert isinstance(held, HeldLine) and not held.released
    r.s.from_server(json.dumps(ROOTS_LIST).encode() + b"\n")
    assert json.loads(r.to_server[-1]) == {"jsonrpc": "2.0", "id": 0, "result": ROOTS}
    assert not held.released, "released before the server could take its roots in"
    assert sorted(r.fire()) == [firstcall.SETTLE, firstcall.WAIT]
    assert json.loads(held.line) == CALL
    [event] = r.held_events()
    assert event["id"] == 7 and event["roots_answered"] is True and event["kind"] == ev.HANDSHAKE
    # later requests go on at once
    assert r.host({**CALL, "id": 8}) == json.dumps({**CALL, "id": 8}).encode() + b"\n"
    assert not r.s.host_side.lookout().parse_all


def test_a_server_that_does_not_ask_in_time_costs_the_first_request_one_wait() -> None:
    r = Rig(asked_last_time=True)
    held = r.host(CALL)
    assert isinstance(held, HeldLine)
    assert r.fire() == [firstcall.WAIT]
    assert json.loads(held.line) == CALL
    assert r.held_events()[0]["roots_answered"] is False


def test_nothing_waits_for_a_server_that_did_not_ask_last_time() -> None:
    r = Rig(asked_last_time=False)
    assert r.host(CALL) == json.dumps(CALL).encode() + b"\n"
    assert r.timers == [] and r.held_events() == []


@pytest.mark.parametrize("msg", [{"jsonrpc": "2.0", "method": "notifications/progress"}])
def test_notifications_do_not_wait(msg: dict[str, Any]) -> None:
    r = Rig(asked_last_time=True)
    assert r.host(msg) == json.dumps(msg).encode() + b"\n"
    assert isinstance(r.host(CALL), HeldLine), "the first request still waits"


def test_a_roots_answer_long_before_the_first_request_lets_it_pass() -> None:
    r = Rig(asked_last_time=True)
    r.s.from_server(json.dumps(ROOTS_LIST).encode() + b"\n")
    r.s.first_call._answered_at -= 1  # type: ignore[operator]  # the answer is a second old
    assert r.host(CALL) == json.dumps(CALL).encode() + b"\n"


def test_what_this_run_shows_is_learned_for_the_next() -> None:
    r = Rig(asked_last_time=False)
    assert r.s.first_call.asked_at_start is None  # too soon to tell
    r.s.from_server(json.dumps(ROOTS_LIST).encode() + b"\n")
    assert r.s.first_call.asked_at_start is True


def test_the_log_says_how_long_the_first_request_waited() -> None:
    held = {"kind": ev.HANDSHAKE, "first_call_held": True, "ms": 52, "roots_answered": True}
    assert ev.summarize(held) == "the host's first request waited 52 ms for the server's roots"
    assert "did not ask" in ev.summarize({**held, "roots_answered": False})


# ---- the time is the protocol's input: a clock whose seconds the test chooses -------------


class Ticks:
    """A clock that says what the test sets."""

    def __init__(self, now: float = 10.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def first_call(ticks: Ticks, log: Log, timers: list[tuple[float, Callable[[], None]]]) -> FirstCall:
    fc = FirstCall(
        log,
        expected=True,
        act=lambda a: timers.append((a.delay, fc.woken)),
        clock=ticks,
    )
    return fc


@pytest.mark.parametrize(
    ("asked_after", "ended_after", "asked_at_start"),
    [
        (None, 0.5, None),  # ended too soon to tell
        (None, firstcall.ASKED_AT_START + 0.5, False),
        (1.0, 5.0, True),
        (firstcall.ASKED_AT_START, 5.0, True),
        (firstcall.ASKED_AT_START + 0.01, 5.0, False),
    ],
)
def test_whether_the_server_asked_at_start_is_told_by_the_clock_given(
    asked_after: float | None, ended_after: float, asked_at_start: bool | None
) -> None:
    ticks = Ticks()
    fc = first_call(ticks, Log(), [])
    assert fc.asked_at_start is None  # no handshake yet: nothing to learn
    fc.initialized_sent()
    if asked_after is not None:
        ticks.now = 10.0 + asked_after
        fc.roots_asked()
    ticks.now = 10.0 + ended_after
    assert fc.asked_at_start is asked_at_start


def test_the_wait_of_the_first_request_is_measured_on_the_clock_given() -> None:
    ticks, log, timers = Ticks(), Log(), []  # type: ignore[var-annotated]
    fc = first_call(ticks, log, timers)
    fc.initialized_sent()
    ticks.now = 10.2
    held = fc.hold(CALL, b"out\n")
    assert held is not None and [d for d, _ in timers] == [firstcall.WAIT]
    ticks.now = 10.5
    fc.roots_answered()
    assert [d for d, _ in timers] == [firstcall.WAIT, firstcall.SETTLE]
    ticks.now = 10.55
    timers[1][1]()  # the settling delay is over
    [event] = log.events
    assert event["ms"] == 350 and event["roots_answered"] is True and event["id"] == 7
    assert held.line == b"out\n"
    timers[0][1]()  # the longest wait ends too: nothing more to release
    assert len(log.events) == 1


@pytest.mark.parametrize(
    ("after_answer", "delay"),
    [(0.0, firstcall.SETTLE), (0.03, firstcall.SETTLE - 0.03), (firstcall.SETTLE, None), (1, None)],
)
def test_a_request_after_the_answer_waits_only_what_is_left_of_the_settling(
    after_answer: float, delay: float | None
) -> None:
    ticks, timers = Ticks(), []  # type: ignore[var-annotated]
    fc = first_call(ticks, Log(), timers)
    fc.initialized_sent()
    fc.roots_answered()
    ticks.now = 10.0 + after_answer
    held = fc.hold(CALL, b"out\n")
    if delay is None:
        assert held is None and timers == []
    else:
        assert held is not None and [d for d, _ in timers] == [pytest.approx(delay)]


def test_the_mediator_takes_every_time_from_the_clock_it_is_given() -> None:
    wall = Ticks(1_800_000_000.25)
    perf = iter([5.0, 5.00025]).__next__  # the server's line read, then the answer written
    log = Log()
    by_hand = ByHand()
    s = by_hand.serving(
        Mediator(
            log=log,
            act=by_hand,
            clock=Clock(monotonic=Ticks(), wall=wall, perf=perf),
            spill=FileSpill(),
            nonce="n0nce",
            track_requests=True,
        )
    )
    s.from_host(json.dumps(CALL).encode() + b"\n")
    wall.now += 2
    s.from_server(json.dumps(ROOTS_LIST).encode() + b"\n")
    [answered] = [e for e in log.events if e["kind"] == ev.ROOTS_ANSWERED]
    assert answered["us"] == 250
    assert log.fields["last_roots_list_at"] == iso_time(1_800_000_002.25)
    assert s.requests is not None
    [request] = s.requests.snapshot().requests
    assert request.started == 1_800_000_000.25 and request.ended is None

"""The host's first request after the handshake waits for the server's roots: messages in,
what is relayed out, with the delays run by hand."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest

from roots_manager.bridge.protocol import firstcall
from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.transport.writer import LineWriter
from roots_manager.core.log import events as ev
from tests.bridge.test_mediator import ROOTS, Answers, Log

CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "list"}}
ROOTS_LIST = {"jsonrpc": "2.0", "id": 0, "method": "roots/list"}


class Rig:
    def __init__(self, *, asked_last_time: bool, answers: Answers | None = None) -> None:
        self.to_server: list[bytes] = []
        self.timers: list[tuple[float, Callable[[], None]]] = []
        self.log = Log()
        self.s = Mediator(
            answers=answers or Answers(),
            log=self.log,
            to_server=LineWriter(self.to_server.append),
            to_host=LineWriter(lambda _b: None),
            defer=lambda fn: fn(),
            nonce="n0nce",
            roots_asked_at_start=asked_last_time,
            later=lambda delay, fn: self.timers.append((delay, fn)),
        )
        self.s.from_host(
            b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":'
            b'{"protocolVersion":"2025-06-18","capabilities":{}}}\n'
        )
        self.s.from_server(b'{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}\n')
        self.s.from_host(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def host(self, msg: Any) -> bytes | Future[bytes]:
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
    assert isinstance(held, Future) and not held.done()
    r.s.from_server(json.dumps(ROOTS_LIST).encode() + b"\n")
    assert json.loads(r.to_server[-1]) == {"jsonrpc": "2.0", "id": 0, "result": ROOTS}
    assert not held.done(), "released before the server could take its roots in"
    assert sorted(r.fire()) == [firstcall.SETTLE, firstcall.WAIT]
    assert json.loads(held.result(0)) == CALL
    [event] = r.held_events()
    assert event["id"] == 7 and event["roots_answered"] is True and event["kind"] == ev.HANDSHAKE
    # later requests go on at once
    assert r.host({**CALL, "id": 8}) == json.dumps({**CALL, "id": 8}).encode() + b"\n"
    assert not r.s.host_side.lookout().parse_all


def test_a_server_that_does_not_ask_in_time_costs_the_first_request_one_wait() -> None:
    r = Rig(asked_last_time=True)
    held = r.host(CALL)
    assert isinstance(held, Future)
    assert r.fire() == [firstcall.WAIT]
    assert json.loads(held.result(0)) == CALL
    assert r.held_events()[0]["roots_answered"] is False


def test_nothing_waits_for_a_server_that_did_not_ask_last_time() -> None:
    r = Rig(asked_last_time=False)
    assert r.host(CALL) == json.dumps(CALL).encode() + b"\n"
    assert r.timers == [] and r.held_events() == []


@pytest.mark.parametrize("msg", [{"jsonrpc": "2.0", "method": "notifications/progress"}])
def test_notifications_do_not_wait(msg: dict[str, Any]) -> None:
    r = Rig(asked_last_time=True)
    assert r.host(msg) == json.dumps(msg).encode() + b"\n"
    assert isinstance(r.host(CALL), Future), "the first request still waits"


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

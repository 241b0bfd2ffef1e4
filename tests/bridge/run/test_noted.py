"""Lines only counted are noted in the relay's thread and counted on the loop later, in order.

A real mediator of a restartable run that keeps the host's requests (a confined server's), a
real loop, and lines noted from another thread, as a relay's pump notes them.
"""

from __future__ import annotations

import asyncio
import json
import threading

from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.run.clock import SYSTEM
from roots_manager.bridge.run.file_spill import FileSpill
from roots_manager.bridge.run.noted import COUNT_AFTER, Noted
from tests.bridge.protocol.test_mediator import ByHand, Log


def _mediator() -> Mediator:
    by_hand = ByHand()
    return by_hand.serving(
        Mediator(
            log=Log(),
            act=by_hand,
            clock=SYSTEM,
            spill=FileSpill(),
            nonce="n0nce",
            restartable=True,
            track_requests=True,
        )
    )


def _line(msg: dict[str, object]) -> bytes:
    return json.dumps(msg).encode() + b"\n"


def _handshake(m: Mediator) -> None:
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}
    m.from_host(_line({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}))
    m.from_server(_line({"jsonrpc": "2.0", "id": 0, "result": {"capabilities": {}}}))
    m.from_host(_line({"jsonrpc": "2.0", "method": "notifications/initialized"}))


def test_lines_noted_in_a_thread_are_counted_on_the_loop_in_order() -> None:
    async def scenario() -> None:
        m = _mediator()
        _handshake(m)
        Noted(m, SYSTEM.wall, asyncio.get_running_loop())
        call = {"name": "read", "arguments": {"path": "/p"}}

        def relay() -> None:
            for i in range(1, 4):
                request = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": call}
                assert m.host_side.defer(_line(request)) is True
            assert m.server_side.defer(_line({"jsonrpc": "2.0", "id": 1, "result": {}})) is True

        thread = threading.Thread(target=relay)
        thread.start()
        thread.join()
        assert m.carryover is not None and m.requests is not None
        assert m.carryover.in_flight == {}  # noted, not counted yet: the loop did not wait
        await asyncio.sleep(COUNT_AFTER * 3)
        assert sorted(m.carryover.in_flight.values()) == [2, 3]
        open_now = [r for r in m.requests.snapshot().requests if r.ended is None]
        assert sorted(r.id for r in open_now) == [2, 3]
        assert {r.tool for r in open_now} == {"read"}

    asyncio.run(scenario())


def test_a_hold_stops_the_noting_and_counts_what_came_before() -> None:
    """From the restart's hold on, a line is handled (held), never noted past it."""

    async def scenario() -> None:
        m = _mediator()
        _handshake(m)
        Noted(m, SYSTEM.wall, asyncio.get_running_loop())
        request = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "x"}}
        assert m.host_side.defer(_line(request)) is True
        m.hold_host()
        assert m.carryover is not None
        assert list(m.carryover.in_flight.values()) == [7]  # counted at the hold
        after = {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "x"}}
        assert m.host_side.defer(_line(after)) is False
        assert m.from_host(_line(after)) == b""  # held for the new server
        assert m.server_side.defer(_line({"jsonrpc": "2.0", "id": 7, "result": {}})) is False

    asyncio.run(scenario())


def test_a_line_handled_on_the_loop_counts_what_was_noted_first() -> None:
    async def scenario() -> None:
        m = _mediator()
        _handshake(m)
        Noted(m, SYSTEM.wall, asyncio.get_running_loop())
        request = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "x"}}
        assert m.host_side.defer(_line(request)) is True
        answer = {"jsonrpc": "2.0", "id": 5, "result": {"roots": []}}  # handled: a pattern
        m.from_server(_line(answer))
        assert m.carryover is not None and m.carryover.in_flight == {}

    asyncio.run(scenario())

"""The lines a confined server's relay only counts, noted by the hot path in C, over real pipes.

A real mediator of a restartable run that keeps the host's requests (a confined server's), a
real loop, and a pump per direction reading a real pipe, as a bridge run has them. The same
stream of lines goes once through the hot path, which relays the lines only counted itself and
notes them in the run's ledger, and once through the relay in Python alone, which notes each;
what the loop counts from either must be the same: the requests open, what a restart replays,
the requests a refusal is tied to.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from roots_manager.bridge.protocol.inflight import ANSWERED_KEPT
from roots_manager.bridge.run.clock import SYSTEM
from roots_manager.bridge.run.noted import Noted
from roots_manager.bridge.transport.pump import Pump
from roots_manager.bridge.transport.relay import Counting, LineRelay
from roots_manager.bridge.transport.writer import FdSink, LineWriter, fastrelay
from tests.bridge.test_noted import _handshake, _mediator

if TYPE_CHECKING:
    from roots_manager.bridge.transport._fastrelay import Ledger

# the C hot path is built on POSIX systems only; there it must have been (no skip stands in)
pytestmark = pytest.mark.skipif(
    os.name != "posix", reason="the C hot path is built on POSIX systems only"
)


@pytest.fixture(autouse=True)
def _built() -> None:
    assert fastrelay is not None, (
        "roots_manager.bridge.transport._fastrelay did not build (is there a C compiler?), or "
        "ROOTS_MANAGER_PURE_RELAY asks for the Python relay alone: the ledger is the C path's"
    )


HOST, SERVER = True, False


def line(msg: object) -> bytes:
    return json.dumps(msg, separators=(",", ":")).encode() + b"\n"


def call(msg_id: object, tool: str = "read", **arguments: object) -> bytes:
    params = {"name": tool, "arguments": arguments}
    return line({"jsonrpc": "2.0", "id": msg_id, "method": "tools/call", "params": params})


def result(msg_id: object) -> bytes:
    return line({"jsonrpc": "2.0", "id": msg_id, "result": {"content": []}})


def request(msg_id: object, method: str, **params: object) -> bytes:
    return line({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})


STREAM: list[tuple[bool, bytes]] = [
    (HOST, call(1, path="/a")),
    (SERVER, result(1)),
    (HOST, call("open-1", path="/b")),  # left open
    (HOST, request(2, "logging/setLevel", level="debug")),  # what a restart replays
    (SERVER, result(2)),
    (HOST, request(3, "resources/subscribe", uri="file:///x")),
    (SERVER, result(3)),
    (HOST, request(4, "resources/subscribe", uri="file:///y")),
    (HOST, request(5, "resources/unsubscribe", uri="file:///y")),
    (SERVER, result(4)),
    (SERVER, result(5)),
    (SERVER, request("s1", "sampling/createMessage")),  # the server asks, the host answers
    (HOST, result("s1")),
    (SERVER, request("s2", "elicitation/create")),  # the server asks, left open
    (HOST, b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"p":1}}\n'),
    (SERVER, b'{"jsonrpc":"2.0","method":"notifications/message","params":{"x":"\\u00e9"}}\n'),
    # ids the scan leaves to Python: a float, an escaped string, null; a duplicate id open
    (HOST, call(6.0, path="/f")),
    (SERVER, result(6.0)),
    (HOST, b'{"jsonrpc":"2.0","id":"\\u0061b","method":"tools/call","params":{"name":"e"}}\n'),
    (SERVER, result("ab")),
    (HOST, call(None, path="/n")),
    (HOST, call(7, path="/dup-1")),
    (HOST, call(7, path="/dup-2")),
    (SERVER, result(7)),
    # a key twice, a name escaped, a member of neither kind, nothing that parses, a batch
    (HOST, b'{"jsonrpc":"2.0","id":8,"id":9,"method":"tools/call","params":{}}\n'),
    (SERVER, result(9)),
    (HOST, b'{"jsonrpc":"2.0","\\u0069d":10,"method":"tools/call","params":{}}\n'),
    (HOST, b'{"jsonrpc":"2.0","id":11}\n'),
    (SERVER, b'{"jsonrpc":"2.0","id":12}\n'),
    (HOST, b'{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"a":,}}\n'),
    (HOST, b'[{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{}}]\n'),
    (SERVER, result(14)),
    (HOST, b'{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"a":[1,{"b":"\\"}"}]}}\n'),
    # answers to requests the server never had, and an answer twice
    (SERVER, result(77)),
    (SERVER, result(1)),
    # more answered requests than the ledger keeps
    *[
        item
        for i in range(100, 100 + 2 * ANSWERED_KEPT)
        for item in ((HOST, call(i, path=f"/many/{i}")), (SERVER, result(i)))
    ],
    (HOST, call("open-2", "write", path="/c", text="x" * 200)),  # left open
]


class Side:
    """One direction: a pipe in, a pump, a pipe out whose bytes are collected."""

    def __init__(self, relay_for: Callable[[LineWriter], LineRelay]) -> None:
        self.src_r, self.src_w = os.pipe()
        self.dst_r, self.dst_w = os.pipe()
        self.relay = relay_for(LineWriter(sink=FdSink(self.dst_w)))
        self.out = bytearray()
        self.got = threading.Condition()
        threading.Thread(target=self._collect, daemon=True).start()
        Pump("test", self.src_r, self.relay, lambda: None).start()

    def _collect(self) -> None:
        while data := os.read(self.dst_r, 1 << 20):
            with self.got:
                self.out += data
                self.got.notify_all()

    def send(self, data: bytes) -> None:
        """Write *data* and wait until it has come out the other side."""
        with self.got:
            want = len(self.out) + len(data)
            os.write(self.src_w, data)
            while len(self.out) < want:
                self.got.wait()
        assert self.out.endswith(data)

    def close(self) -> None:
        for fd in (self.src_w, self.dst_w):
            os.close(fd)


class Pair:
    """A mediator after the handshake, its Noted, and both directions pumped."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, *, fast: bool, ledger: Ledger | None = None
    ) -> None:
        """*fast*: the hot path notes the lines only counted (in *ledger*, if given, else in
        the run's); else the relay in Python notes each."""
        self.mediator = m = _mediator()
        _handshake(m)
        self.noted = Noted(m, SYSTEM.wall, loop)
        if not fast or ledger is not None:
            self.noted.ledger = ledger
        ledger = self.noted.ledger

        def relay_for(direction: Any, from_host: bool) -> Callable[[LineWriter], LineRelay]:
            counting = None if ledger is None else Counting(ledger, from_host)
            return lambda writer: LineRelay(writer, direction, counting=counting)

        self.host = Side(relay_for(m.host_side, True))
        self.server = Side(relay_for(m.server_side, False))

    def send(self, stream: list[tuple[bool, bytes]]) -> None:
        for from_host, data in stream:
            (self.host if from_host else self.server).send(data)

    def counted(self) -> dict[str, Any]:
        """What the loop knows once it has counted every line noted."""
        m = self.mediator
        m.count_noted()
        assert m.carried is not None and m.requests is not None
        snap = m.requests.snapshot()
        return {
            "in_flight": m.carried.in_flight,
            "server_asked": m.carried._server_asked,
            "subscriptions": m.carried.subscriptions,
            "log_level": m.carried.log_level,
            "replayed": m.carried.replayed(),
            "requests": [
                (r.id, r.method, r.tool, r.arguments, r.ended is None) for r in snap.requests
            ],
            "start_ups": [until is None for _, until in snap.start_ups],
        }


def test_what_the_loop_counts_is_the_same_when_the_hot_path_noted_the_lines() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        fast, pure = Pair(loop, fast=True), Pair(loop, fast=False)
        await asyncio.to_thread(fast.send, STREAM)
        await asyncio.to_thread(pure.send, STREAM)
        ledger = fast.noted.ledger
        assert ledger is not None
        # the ordinary lines went through C: the answered requests beyond what is kept, too
        assert ledger.noted >= 4 * ANSWERED_KEPT
        assert ledger.handed >= 10  # and what only Python can read was handed to it
        got, want = fast.counted(), pure.counted()
        assert got == want
        assert {"open-1", "open-2"} <= set(got["in_flight"].values())
        assert got["server_asked"] == {'"s2"'}
        assert got["subscriptions"] == {"file:///x": {"uri": "file:///x"}}
        assert got["log_level"] == {"level": "debug"}
        tools = [r for r in got["requests"] if r[1] == "tools/call"]
        assert tools[-1] == (
            "open-2",
            "tools/call",
            "write",
            {"path": "/c", "text": "x" * 200},
            True,
        )
        assert len([r for r in tools if not r[4]]) == ANSWERED_KEPT
        for side in (fast.host, fast.server, pure.host, pure.server):
            side.close()

    asyncio.run(scenario())


def test_a_line_after_the_hold_is_held_never_noted_past_it() -> None:
    """The restart's hold takes the ledger's lock and tells the hot path to ask again: the
    line that comes after it is handed to Python and held, while what came before is counted."""

    async def scenario() -> None:
        pair = Pair(asyncio.get_running_loop(), fast=True)
        await asyncio.to_thread(pair.send, [(HOST, call(1)), (HOST, call(2)), (SERVER, result(1))])
        ledger = pair.noted.ledger
        assert ledger is not None and ledger.noted == 3
        pair.mediator.hold_host()
        carried = pair.mediator.carried
        assert carried is not None and list(carried.in_flight.values()) == [2]
        # the hot path asks again what to look for, and hands the line over: it is held
        os.write(pair.host.src_w, call(3))
        while not carried._held:
            await asyncio.sleep(0.01)
        assert ledger.noted == 3 and bytes(pair.host.out) == call(1) + call(2)
        assert carried.in_flight == {"2": 2}
        # the answer to what was open still reaches the host, and counts
        await asyncio.to_thread(pair.server.send, result(2))
        pair.mediator.count_noted()
        assert carried.in_flight == {}
        assert pair.mediator.release_host() == 1  # the held line, to the new server
        pair.host.close()
        pair.server.close()

    asyncio.run(scenario())


def test_a_ledger_full_hands_the_line_to_python_which_counts_everything_in_order() -> None:
    async def scenario() -> None:
        assert fastrelay is not None
        small = fastrelay.Ledger((), ANSWERED_KEPT, max_entries=4)
        pair = Pair(asyncio.get_running_loop(), fast=True, ledger=small)
        opened = [(HOST, call(i)) for i in range(1, 11)]
        await asyncio.to_thread(pair.send, opened)
        # four noted, the fifth handed over (and the four taken with it), and again
        assert small.noted == 8 and small.handed >= 2
        carried = pair.mediator.carried
        assert carried is not None
        pair.mediator.count_noted()
        assert list(carried.in_flight.values()) == list(range(1, 11))
        pair.host.close()
        pair.server.close()

    asyncio.run(scenario())


def test_lines_only_counted_go_through_while_the_loop_is_busy() -> None:
    """The hot path notes them without the loop: here it never runs while they go."""

    async def scenario() -> None:
        pair = Pair(asyncio.get_running_loop(), fast=True)
        pair.send([item for i in range(100) for item in ((HOST, call(i)), (SERVER, result(i)))])
        ledger = pair.noted.ledger
        assert ledger is not None and ledger.noted == 200 and ledger.handed == 0
        pair.host.close()
        pair.server.close()

    asyncio.run(scenario())

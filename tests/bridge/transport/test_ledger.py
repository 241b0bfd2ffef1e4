"""The lines a confined server's relay only counts, noted by the hot path in C, over real pipes.

A real mediator of a restartable run that keeps the host's requests (a confined server's), its
real Noted, and a pump per direction reading a real pipe, as a bridge run has them. The same
stream of lines goes once through the hot path, which relays the lines only counted itself and
notes them in the run's ledger, and once through the relay in Python alone, which notes each;
what the loop counts from either must be the same: the requests open, what a restart replays,
the requests a refusal is tied to.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from roots_manager.bridge.protocol.inflight import ANSWERED_KEPT
from roots_manager.bridge.run.clock import SYSTEM
from roots_manager.bridge.run.noted import Noted
from roots_manager.bridge.transport.pump import Pump
from roots_manager.bridge.transport.relay import Counting, LineRelay
from roots_manager.bridge.transport.writer import FdSink, LineWriter, fastrelay
from roots_manager.core.log.denials import LONGEST_NAMING, named_by
from tests.bridge.run.test_noted import _handshake, _mediator

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

    def send(self, data: bytes, cuts: tuple[int, ...] = ()) -> None:
        """Write *data* (in pieces, cut at *cuts*, each left a moment to be read on its own)
        and wait until it has come out the other side."""
        with self.got:
            want = len(self.out) + len(data)
        start = 0
        for cut in (*cuts, len(data)):
            piece = data[start:cut]
            while piece:
                piece = piece[os.write(self.src_w, piece) :]
            start = cut
            if cut < len(data):
                time.sleep(0.02)
        with self.got:
            while len(self.out) < want:
                self.got.wait()
        assert self.out.endswith(data)

    def close(self) -> None:
        for fd in (self.src_w, self.dst_w):
            os.close(fd)


class Pair:
    """A mediator after the handshake, its Noted, and both directions pumped.

    In a bridge the loop counts what was noted, on the thread where the relays' lines are
    handled too (``LoopRunner``), so the two never run at once. Here each relay handles its
    lines on its own thread (``Inline``): the lines noted are counted there too, before the
    next line handled, and by :meth:`counted`, never by a timer on another thread (the Noted's
    loop never runs). A timer there counted lines while a relay handled the next one, and a
    request handled could be counted before those noted before it."""

    def __init__(self, *, fast: bool, ledger: Ledger | None = None) -> None:
        """*fast*: the hot path notes the lines only counted (in *ledger*, if given, else in
        the run's); else the relay in Python notes each."""
        self.mediator = m = _mediator()
        _handshake(m)
        idle = asyncio.new_event_loop()
        weakref.finalize(self, idle.close)
        self.noted = Noted(m, SYSTEM.wall, idle)
        if not fast or ledger is not None:
            self.noted.ledger = ledger
        ledger = self.noted.ledger

        def relay_for(direction: Any, from_host: bool) -> Callable[[LineWriter], LineRelay]:
            counting = None if ledger is None else Counting(ledger, from_host)
            return lambda writer: LineRelay(writer, direction, counting=counting)

        self.host = Side(relay_for(m.host_side, True))
        self.server = Side(relay_for(m.server_side, False))

    def send(
        self, stream: list[tuple[bool, bytes]] | list[tuple[bool, bytes, tuple[int, ...]]]
    ) -> None:
        for from_host, data, *cuts in stream:
            (self.host if from_host else self.server).send(data, *cuts)

    def counted(self) -> dict[str, Any]:
        """What the loop knows once it has counted every line noted."""
        m = self.mediator
        m.count_noted()
        assert m.carryover is not None and m.requests is not None
        snap = m.requests.snapshot()
        return {
            "in_flight": m.carryover.in_flight,
            "server_asked": m.carryover._server_asked,
            "subscriptions": m.carryover.subscriptions,
            "log_level": m.carryover.log_level,
            "replayed": m.carryover.replayed(),
            "requests": [
                (r.id, r.method, r.tool, r.arguments, r.ended is None) for r in snap.requests
            ],
            "start_ups": [until is None for _, until in snap.start_ups],
        }


def test_what_the_loop_counts_is_the_same_when_the_hot_path_noted_the_lines() -> None:
    async def scenario() -> None:
        fast, pure = Pair(fast=True), Pair(fast=False)
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
        pair = Pair(fast=True)
        await asyncio.to_thread(pair.send, [(HOST, call(1)), (HOST, call(2)), (SERVER, result(1))])
        ledger = pair.noted.ledger
        assert ledger is not None and ledger.noted == 3
        pair.mediator.hold_host()
        carryover = pair.mediator.carryover
        assert carryover is not None and list(carryover.in_flight.values()) == [2]
        # the hot path asks again what to look for, and hands the line over: it is held
        os.write(pair.host.src_w, call(3))
        while not carryover._held:
            await asyncio.sleep(0.01)
        assert ledger.noted == 3 and bytes(pair.host.out) == call(1) + call(2)
        assert carryover.in_flight == {"2": 2}
        # the answer to what was open still reaches the host, and counts
        await asyncio.to_thread(pair.server.send, result(2))
        pair.mediator.count_noted()
        assert carryover.in_flight == {}
        assert pair.mediator.release_host() == 1  # the held line, to the new server
        pair.host.close()
        pair.server.close()

    asyncio.run(scenario())


def test_a_ledger_full_hands_the_line_to_python_which_counts_everything_in_order() -> None:
    async def scenario() -> None:
        assert fastrelay is not None
        small = fastrelay.Ledger((), ANSWERED_KEPT, max_entries=4)
        pair = Pair(fast=True, ledger=small)
        opened = [(HOST, call(i)) for i in range(1, 11)]
        await asyncio.to_thread(pair.send, opened)
        # four noted, the fifth handed over (and the four taken with it), and again
        assert small.noted == 8 and small.handed >= 2
        carryover = pair.mediator.carryover
        assert carryover is not None
        pair.mediator.count_noted()
        assert list(carryover.in_flight.values()) == list(range(1, 11))
        pair.host.close()
        pair.server.close()

    asyncio.run(scenario())


def test_lines_only_counted_go_through_while_the_loop_is_busy() -> None:
    """The hot path notes them without the loop: here it never runs while they go."""

    async def scenario() -> None:
        pair = Pair(fast=True)
        pair.send([item for i in range(100) for item in ((HOST, call(i)), (SERVER, result(i)))])
        ledger = pair.noted.ledger
        assert ledger is not None and ledger.noted == 200 and ledger.handed == 0
        pair.host.close()
        pair.server.close()

    asyncio.run(scenario())


# ---- lines longer than a read: scanned as they come, noted with a record of a few bytes

MIB = 1 << 20
BLOB = "x" * MIB


def tool_call(msg_id: object, arguments: dict[str, object], *, id_last: bool = False) -> bytes:
    params = {"name": "write", "arguments": arguments}
    if id_last:  # the id after a megabyte of params
        return line({"jsonrpc": "2.0", "method": "tools/call", "params": params, "id": msg_id})
    return line({"jsonrpc": "2.0", "id": msg_id, "method": "tools/call", "params": params})


def big_result(msg_id: object, text: str = BLOB) -> bytes:
    content = [{"type": "text", "text": text}]
    return line({"jsonrpc": "2.0", "id": msg_id, "result": {"content": content}})


def inside(data: bytes, text: bytes, offset: int) -> int:
    """A cut *offset* bytes into *text*, where it is in *data*."""
    return data.index(text) + offset


UTF8_CALL = (
    json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 45,
            "method": "tools/call",
            "params": {"arguments": {"t": "é" * MIB}},
        },
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode()
    + b"\n"
)
ESCAPED = '\\"}{][,:' * (MIB // 8)  # escaped quotes and backslashes, braces, brackets
SPLIT_INT = tool_call(123456789, {"path": "/g/i", "text": BLOB}, id_last=True)
SPLIT_STR = tool_call("split-id", {"path": "/g/s", "text": BLOB}, id_last=True)
SPLIT_ESC = tool_call(44, {"t": "\\u00e9" * MIB})
LONG_GOOD: list[tuple[bool, bytes, tuple[int, ...]]] = [
    (HOST, tool_call(41, {"path": "/g/a", "text": BLOB}, id_last=True), ()),
    (SERVER, big_result(41), ()),
    (HOST, tool_call(42, {'k"}{': "v", "path": "/g/b", "blob": ESCAPED}), ()),
    (SERVER, big_result(42, ESCAPED), ()),
    # the server asks with a megabyte, the host answers: together they count for nothing
    (SERVER, request("s9", "sampling/createMessage", messages=[{"text": BLOB}]), ()),
    (HOST, result("s9"), ()),
    # cut inside the id (a number, a string), inside an escape, inside a character
    (HOST, SPLIT_INT, (1000, inside(SPLIT_INT, b'"id":1234', 8))),
    (HOST, SPLIT_STR, (inside(SPLIT_STR, b'"id":"split', 8),)),
    (HOST, SPLIT_ESC, (inside(SPLIT_ESC, b"\\u00e9", 3), 70_001, 200_000)),
    (HOST, UTF8_CALL, (inside(UTF8_CALL, "é".encode(), 1), 65_537)),
    (SERVER, big_result(123456789), ()),
]
LONG_FOR_PYTHON: list[tuple[bool, bytes, tuple[int, ...]]] = [
    # a pattern late in the line, an escape that could spell one in the guarded direction
    (HOST, tool_call(68, {"text": BLOB + "roots"}), ()),
    (
        SERVER,
        line({"jsonrpc": "2.0", "method": "notifications/message", "params": {"t": "é" * MIB}}),
        (),
    ),
    # not JSON at all: Python reads nothing from them
    (HOST, tool_call(60, {"text": BLOB})[:-2] + b"\n", ()),
    (HOST, tool_call(61, {"text": BLOB})[:-2] + b",}}\n", ()),
    # JSON this scan is not sure of, which Python's lenient reading takes
    (HOST, tool_call(62, {"text": "x@x" + BLOB}).replace(b"@", b"\t"), ()),  # a raw tab
    (HOST, tool_call(63, {"text": BLOB})[:-2] + b',"id":64}\n', ()),
    (HOST, tool_call(65, {"text": BLOB}).replace(b'"text":', b'"n":Infinity,"text":'), ()),
    (HOST, tool_call(66, {"text": BLOB}).replace(b"xxxx", b"x\xffxx", 1), ()),
    (
        HOST,
        b'{"jsonrpc":"2.0","\\u0069d":67,"method":"tools/call","params":{"t":"'
        + BLOB.encode()
        + b'"}}\n',
        (),
    ),
]


def at_the_limit(msg_id: int, size: int) -> bytes:
    """A request of *size* bytes with its newline, its length in a member of params' own (a
    string a record keeps whole)."""
    bare = request(msg_id, "tools/list", note="")
    return request(msg_id, "tools/list", note="n" * (size - len(bare)))


def shown(value: object) -> object:
    """What a refusal can read of a request's arguments: strings named_by looks at."""
    if isinstance(value, str):
        return "" if len(value) > LONGEST_NAMING else value
    if isinstance(value, dict):
        return {k: shown(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shown(v) for v in value]
    return value


def test_long_lines_are_noted_by_the_hot_path_and_counted_the_same() -> None:
    """A line of a megabyte, whatever the reads cut it at, is scanned in C as it comes and noted
    with a record of a few hundred bytes; what C cannot be sure of goes to Python whole."""

    async def scenario() -> None:
        fast, pure = Pair(fast=True), Pair(fast=False)
        ledger = fast.noted.ledger
        assert ledger is not None
        limit = 64 << 10  # the most of one line a record keeps (the ledger's max_line)
        exact = [(HOST, at_the_limit(70, limit), ()), (HOST, at_the_limit(71, limit + 1), ())]
        assert [len(x[1]) for x in exact] == [limit, limit + 1]

        noted, handed = ledger.noted, ledger.handed
        await asyncio.to_thread(fast.send, [*LONG_GOOD, exact[0]])
        assert ledger.noted - noted == len(LONG_GOOD) + 1
        assert ledger.handed == handed
        # what the loop will read: records of a few bytes, not megabytes
        fast.noted._take_ledger()
        assert max(len(x[1] or b"") for x in fast.noted._lines) <= limit
        assert sum(len(x[1] or b"") for x in fast.noted._lines) < 3 * limit

        noted = ledger.noted
        await asyncio.to_thread(fast.send, [*LONG_FOR_PYTHON, exact[1]])
        assert ledger.noted == noted  # every one of them Python's

        await asyncio.to_thread(pure.send, [*LONG_GOOD, exact[0], *LONG_FOR_PYTHON, exact[1]])
        got, want = fast.counted(), pure.counted()
        for counted in (got, want):
            counted["requests"] = [(*r[:3], shown(r[3]), r[4]) for r in counted["requests"]]
        assert got == want
        opened = [r[0] for r in got["requests"] if r[4]]
        assert opened == ["split-id", 44, 45, 70, 68, 62, 64, 65, 66, 67, 71]
        assert got["server_asked"] == set()  # the server's request answered
        tools = {r[0]: r for r in got["requests"]}
        assert tools[41][2:4] == ("write", {"path": "/g/a", "text": ""})
        assert tools[42][3] == {'k"}{': "v", "path": "/g/b", "blob": ""}
        # the refusal of a read in /g/a, during the call: named by its argument either way
        assert fast.mediator.requests is not None
        snap = fast.mediator.requests.snapshot()
        call = next(r for r in snap.requests if r.id == 41)
        assert call.arguments["text"] == ""
        assert named_by(call.arguments, "/g/a/file") == "path"
        for side in (fast.host, fast.server, pure.host, pure.server):
            side.close()

    asyncio.run(scenario())


def test_a_record_leaves_out_the_text_of_long_nested_strings_only() -> None:
    assert fastrelay is not None
    ledger = fastrelay.Ledger((), ANSWERED_KEPT, max_line=MIB, elided_over=LONGEST_NAMING)
    at_bound = "a" * LONGEST_NAMING
    escaped = b'"' + b"\\u00e9" * LONGEST_NAMING + b'"'  # as many characters, six times the bytes
    calls = [
        tool_call(1, {"kept": at_bound, "cut": at_bound + "b", "escaped": "@"}).replace(
            b'"@"', escaped
        ),
        request(2, "tools/list", whole=at_bound + "b"),  # params' own member: kept
        tool_call(3, {"deep": [{"cut": BLOB}], "path": "/p"}),
    ]
    for data in calls:
        assert ledger.note(True, data)
    records = [json.loads(x[1] or b"") for x in ledger.take()]
    assert records[0]["params"]["arguments"] == {
        "kept": at_bound,
        "cut": "",
        "escaped": "é" * LONGEST_NAMING,
    }
    assert records[1]["params"]["whole"] == at_bound + "b"
    assert records[2] == {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "write", "arguments": {"deep": [{"cut": ""}], "path": "/p"}},
    }
    # a long string that names a path is past what any path can be: named_by never reads it
    assert named_by({"p": "/g/" + "a" * LONGEST_NAMING}, "/g") is None
    assert named_by({"p": "/g/" + "a" * (LONGEST_NAMING - 3)}, "/g") == "p"


FUZZ_SECONDS = float(os.environ.get("ROOTS_MANAGER_FUZZ_SECONDS", "3"))
TEXTS = ("", "a", 'q"}{][\\', "é", "\U0001f600", "\x01", "/g/f")
LENGTHS = (0, 9, LONGEST_NAMING, LONGEST_NAMING + 1, 70_000, 300_000)


def fuzz_value(rng: random.Random, depth: int) -> object:
    kind = rng.random()
    if kind < 0.4 or depth > 3:
        return "".join(rng.choice(TEXTS) for _ in range(rng.choice(LENGTHS) // 4 + 1))
    if kind < 0.6:
        return rng.choice((0, -3, 2.5, True, None))
    if kind < 0.8:
        return [fuzz_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(("a", "b", 'k"}', "path")): fuzz_value(rng, depth + 1) for _ in range(3)}


def fuzz_line(rng: random.Random) -> tuple[bool, bytes, tuple[int, ...]]:
    msg: dict[str, object] = {"jsonrpc": "2.0"}
    msg_id = rng.choice((rng.randint(0, 40), f"i{rng.randint(0, 40)}", 1.5, None))
    kind = rng.random()
    if kind < 0.8:
        msg["id"] = msg_id
    if kind < 0.5:
        msg["method"] = rng.choice(("tools/call", "tools/list", "sampling/createMessage"))
        msg["params"] = {"name": "t", "arguments": fuzz_value(rng, 2)}
    elif kind < 0.8:
        msg["result" if rng.random() < 0.8 else "error"] = {"content": fuzz_value(rng, 1)}
    else:
        msg["method"] = "notifications/progress"
        msg["params"] = fuzz_value(rng, 1)
    items = list(msg.items())
    rng.shuffle(items)  # the id before the params or after them
    data = bytearray(
        json.dumps(dict(items), ensure_ascii=rng.random() < 0.5, separators=(",", ":")).encode()
    )
    for _ in range(rng.choice((0, 0, 1, 2))):  # a byte that may break it, anywhere
        at = rng.randrange(len(data))
        data[at:at] = rng.choice((b"\t", b"\xff", b",", b"}", b'"', b"\\", b'"id":3,'))
    cuts = sorted(rng.randrange(1, len(data) + 1) for _ in range(rng.randint(0, 3)))
    return rng.random() < 0.5, bytes(data) + b"\n", tuple(cuts)


def test_random_lines_long_and_short_are_counted_as_python_counts_them() -> None:
    """The scan against Python's reading: random requests, answers and notifications, long and
    short, some broken, cut at random reads, through the hot path and the Python relay alone."""

    async def scenario() -> None:
        end = time.monotonic() + FUZZ_SECONDS
        rounds = 0
        while time.monotonic() < end or rounds == 0:
            seed = random.randrange(1 << 32)
            rng = random.Random(seed)
            stream = [fuzz_line(rng) for _ in range(rng.randint(1, 12))]
            fast, pure = Pair(fast=True), Pair(fast=False)
            await asyncio.to_thread(fast.send, stream)
            await asyncio.to_thread(pure.send, stream)
            got, want = fast.counted(), pure.counted()
            for counted in (got, want):
                counted["requests"] = [(*r[:3], shown(r[3]), r[4]) for r in counted["requests"]]
            assert got == want, f"seed {seed}"
            for side in (fast.host, fast.server, pure.host, pure.server):
                side.close()
            rounds += 1

    asyncio.run(scenario())

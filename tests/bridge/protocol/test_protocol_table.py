"""The bridge's protocol as a state machine, by tables: messages in, what is relayed and what the
protocol asks to be done out. No thread, no event loop, no pipe: each row is a few calls."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

from roots_manager.bridge.protocol import firstcall
from roots_manager.bridge.protocol.actions import Action, Kind, Wake
from roots_manager.bridge.protocol.clock import Clock
from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.run.file_spill import FileSpill

ROOTS = {"roots": [{"uri": "file:///w", "name": "w"}]}
GRANTED = {"roots": [{"uri": "file:///w", "name": "w"}, {"uri": "file:///g", "name": "g"}]}
V2025 = "2025-06-18"
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": V2025, "capabilities": {}},
}
INIT_TOLD = {
    **INIT,
    "params": {"protocolVersion": V2025, "capabilities": {"roots": {"listChanged": True}}},
}
INIT_RESULT = {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": V2025}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
HANDSHAKE = [("host", INIT), ("server", INIT_RESULT), ("host", INITIALIZED)]
ASK = {"jsonrpc": "2.0", "id": 0, "method": "roots/list"}
ANSWER = {"jsonrpc": "2.0", "id": 0, "result": ROOTS}
LIST_CHANGED = {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}
CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "list"}}
META = "io.modelcontextprotocol/protocolVersion"
CAPS = "io.modelcontextprotocol/clientCapabilities"
MODERN = {
    "jsonrpc": "2.0",
    "id": 7,
    "method": "tools/call",
    "params": {"name": "t", "_meta": {META: "2026-07-28"}},
}
MODERN_TOLD = {
    **MODERN,
    "params": {"name": "t", "_meta": {META: "2026-07-28", CAPS: {"roots": {}}}},
}
ROUND = {
    "jsonrpc": "2.0",
    "id": 7,
    "result": {
        "resultType": "input_required",
        "requestState": "s7",
        "inputRequests": {"k": {"method": "roots/list"}},
    },
}
RETRY = {
    **MODERN_TOLD,
    "id": "roots-bridge-n0nce-1",
    "params": {**MODERN_TOLD["params"], "inputResponses": {"k": ROOTS}, "requestState": "s7"},
}
DONE = {"jsonrpc": "2.0", "id": "roots-bridge-n0nce-1", "result": {"content": []}}

RELAY = "relay"
"""The line goes on as it came, byte for byte."""
DROP = "drop"
"""Nothing goes on in its place."""
HOLD = "hold"
"""The line is held back (a :class:`HeldLine`) until the protocol lets it go."""


class Answers:
    """The effective roots, as the run would hand them in when the protocol asks; a grant is a
    new result (None: held, the user has not decided)."""

    def __init__(self) -> None:
        self.result: dict[str, Any] | None = ROOTS


class Log:
    def event(self, kind: str, **fields: Any) -> None:
        pass

    def marker(self, **fields: Any) -> None:
        pass


class Machine:
    """One protocol, its actions kept in a list. The run's part is played where the roots are
    asked for: they are handed in at once, as the run does once the user has decided, unless
    *held* (then the request is kept in the list, and a ``roots`` step hands them in)."""

    def __init__(self, held: bool = False, **options: Any) -> None:
        self.actions: list[Action] = []
        self.answers = Answers()
        if held:
            self.answers.result = None
        seconds = iter(float(n) for n in range(10_000)).__next__
        self.mediator = Mediator(
            log=Log(),
            act=self.act,
            clock=Clock(monotonic=seconds, wall=seconds, perf=seconds),
            spill=FileSpill(),
            nonce="n0nce",
            **options,
        )

    def act(self, action: Action) -> None:
        if action.kind is Kind.ROOTS_WANTED and self.answers.result is not None:
            self.mediator.roots_changed(self.answers.result)
            return
        self.actions.append(action)

    def step(self, step: tuple[str, Any]) -> bytes | HeldLine | None:
        """Feed one input: a line from a side, a wake-up, a grant (a new answer, handed in when
        the protocol asks), or roots handed in (the run saw them move, or the user decided)."""
        side, what = step
        if side == "wake":
            self.mediator.wake(what)
            return None
        if side == "grant":
            self.answers.result = what
            return None
        if side == "roots":
            self.mediator.roots_changed(what)
            return None
        line = what if isinstance(what, bytes) else json.dumps(what).encode() + b"\n"
        handle = self.mediator.from_host if side == "host" else self.mediator.from_server
        return handle(line)


def outcome(line: Any, out: bytes | HeldLine | None) -> Any:
    """What became of *line*: :data:`RELAY`, :data:`DROP`, :data:`HOLD`, or the message relayed
    in its place."""
    if out is None:
        return None
    if isinstance(out, HeldLine):
        return HOLD
    sent = line if isinstance(line, bytes) else json.dumps(line).encode() + b"\n"
    if out == sent:
        return RELAY
    return DROP if out == b"" else json.loads(out)


def seen(action: Action) -> tuple[Any, ...]:
    """An action as a row of the table says it."""
    if action.kind in (Kind.TO_SERVER, Kind.TO_HOST):
        return (action.kind.value, json.loads(action.line))
    if action.kind is Kind.AFTER_WRITE:
        return (action.kind.value, action.wake)
    if action.kind is Kind.ROOTS_WANTED:
        return (action.kind.value,)
    return (action.kind.value, action.delay, action.wake)


TABLE: list[tuple[str, dict[str, Any], list[tuple[str, Any]], tuple[str, Any], Any, list[Any]]] = [
    # name, options, what came before, the input, what is relayed, the actions
    ("initialize is told the roots capability", {}, [], ("host", INIT), INIT_TOLD, []),
    ("the server's initialize result", {}, [("host", INIT)], ("server", INIT_RESULT), RELAY, []),
    (
        "initialized on time: relayed, then a check for changes once it is written",
        {},
        [("host", INIT), ("server", INIT_RESULT)],
        ("host", INITIALIZED),
        RELAY,
        [("after write", Wake.CHECK_CHANGES)],
    ),
    (
        "initialized before the server's result is held",
        {},
        [("host", INIT)],
        ("host", INITIALIZED),
        HOLD,
        [("after write", Wake.CHECK_CHANGES)],
    ),
    (
        "the result a held initialized waits for lets it go once written",
        {},
        [("host", INIT), ("host", INITIALIZED)],
        ("server", INIT_RESULT),
        RELAY,
        [("after write", Wake.RELEASE_INITIALIZED)],
    ),
    (
        "roots/list is answered by the bridge",
        {},
        HANDSHAKE,
        ("server", ASK),
        DROP,
        [("to server", ANSWER)],
    ),
    (
        "a batch's roots/list is answered as a batch, the rest goes on",
        {},
        HANDSHAKE,
        ("server", [{**ASK, "id": 5}, {"jsonrpc": "2.0", "method": "notifications/message"}]),
        [{"jsonrpc": "2.0", "method": "notifications/message"}],
        [("to server", [{**ANSWER, "id": 5}])],
    ),
    (
        "a roots/list notification never reaches the host",
        {},
        HANDSHAKE,
        ("server", {"jsonrpc": "2.0", "method": "roots/list"}),
        DROP,
        [],
    ),
    (
        "a request for roots behind a duplicate key gets an error from the bridge",
        {},
        HANDSHAKE,
        ("server", b'{"jsonrpc":"2.0","id":3,"method":"roots/list","method":"ping"}\n'),
        DROP,
        [
            (
                "to server",
                {
                    "jsonrpc": "2.0",
                    "id": 3,
                    "error": {
                        "code": -32603,
                        "message": "roots-bridge: roots are asked for with roots/list, "
                        "answered by the bridge",
                    },
                },
            )
        ],
    ),
    (
        "observe mode relays a roots/list to the host",
        {"observe": True},
        HANDSHAKE,
        ("server", ASK),
        RELAY,
        [],
    ),
    (
        "the host's roots answer reaches the server as an error",
        {},
        HANDSHAKE,
        ("host", {"jsonrpc": "2.0", "id": 9, "result": ROOTS}),
        {
            "jsonrpc": "2.0",
            "id": 9,
            "error": {"code": -32603, "message": "roots-bridge: roots come from the bridge"},
        },
        [],
    ),
    ("the host's list_changed goes on", {}, HANDSHAKE, ("host", LIST_CHANGED), RELAY, []),
    ("a line that is not JSON goes on", {}, HANDSHAKE, ("host", b"not json\n"), RELAY, []),
    (
        "a grant, checked, is told as list_changed",
        {},
        [*HANDSHAKE, ("server", ASK), ("grant", GRANTED)],
        ("wake", Wake.CHECK_CHANGES),
        None,
        [("to server", LIST_CHANGED)],
    ),
    (
        "nothing is told before the server fetched the list",
        {},
        [*HANDSHAKE, ("grant", GRANTED)],
        ("wake", Wake.CHECK_CHANGES),
        None,
        [],
    ),
    (
        "roots/list asks the run for the roots, and waits for them while they are held",
        {"held": True},
        HANDSHAKE,
        ("server", ASK),
        DROP,
        [("roots wanted",)],
    ),
    (
        "the roots handed in answer the roots/list that waits for them",
        {"held": True},
        [*HANDSHAKE, ("server", ASK)],
        ("roots", ROOTS),
        None,
        [("to server", ANSWER)],
    ),
    (
        "roots handed in that moved from the last answer are told as list_changed",
        {},
        [*HANDSHAKE, ("server", ASK)],
        ("roots", GRANTED),
        None,
        [("to server", LIST_CHANGED)],
    ),
    (
        "roots handed in as they were last given are not told",
        {},
        [*HANDSHAKE, ("server", ASK)],
        ("roots", ROOTS),
        None,
        [],
    ),
    (
        "roots handed in are not told once told and not fetched since",
        {},
        [*HANDSHAKE, ("server", ASK), ("roots", GRANTED)],
        ("roots", ROOTS),
        None,
        [],
    ),
    (
        "roots handed in before the server asked are not told",
        {},
        HANDSHAKE,
        ("roots", GRANTED),
        None,
        [],
    ),
    (
        "a check asks the run for the roots only when a notice could go",
        {"held": True},
        [*HANDSHAKE, ("server", ASK), ("roots", ROOTS)],
        ("wake", Wake.CHECK_CHANGES),
        None,
        [("roots wanted",)],
    ),
    (
        "a 2026-07-28 roots round asks the run for the roots while they are held",
        {"held": True},
        [("host", MODERN)],
        ("server", ROUND),
        DROP,
        [("roots wanted",)],
    ),
    (
        "a 2026-07-28 request is told the roots capability",
        {},
        [],
        ("host", MODERN),
        MODERN_TOLD,
        [],
    ),
    (
        "input_required for roots alone: the bridge retries under its own id",
        {},
        [("host", MODERN)],
        ("server", ROUND),
        DROP,
        [("to server", RETRY)],
    ),
    (
        "the retry's result goes back under the host's id",
        {},
        [("host", MODERN), ("server", ROUND)],
        ("server", DONE),
        {**DONE, "id": 7},
        [],
    ),
    (
        "the first call waits for the roots of a server that asked at start last time",
        {"roots_asked_at_start": True},
        HANDSHAKE,
        ("host", CALL),
        HOLD,
        [("wake", firstcall.WAIT, Wake.FIRST_CALL)],
    ),
    (
        "the first call goes at once for a server that did not ask last time",
        {},
        HANDSHAKE,
        ("host", CALL),
        RELAY,
        [],
    ),
]


@pytest.mark.parametrize(
    ("options", "before", "step", "relayed", "actions"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_messages_in_actions_out(
    options: dict[str, Any],
    before: list[tuple[str, Any]],
    step: tuple[str, Any],
    relayed: Any,
    actions: list[Any],
) -> None:
    threads = threading.active_count()
    m = Machine(**options)
    for earlier in before:
        m.step(earlier)
    m.actions.clear()
    assert outcome(step[1], m.step(step)) == relayed
    assert [seen(a) for a in m.actions] == actions
    # a state machine: nothing started, nothing waiting on a loop
    assert threading.active_count() == threads
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()


def test_a_held_initialized_goes_when_the_protocol_is_woken_for_it() -> None:
    m = Machine()
    m.step(("host", INIT))
    held = m.step(("host", INITIALIZED))
    assert isinstance(held, HeldLine)
    m.step(("server", INIT_RESULT))
    assert not held.released  # not before the result has been written to the host
    m.step(("wake", Wake.RELEASE_INITIALIZED))
    assert held.released and json.loads(held.line) == INITIALIZED


def test_a_held_first_call_goes_when_its_wait_is_over() -> None:
    m = Machine(roots_asked_at_start=True)
    for step in HANDSHAKE:
        m.step(step)
    held = m.step(("host", CALL))
    assert isinstance(held, HeldLine) and not held.released
    m.step(("wake", Wake.FIRST_CALL))
    assert held.released and json.loads(held.line) == CALL


def test_what_the_transport_looks_for_follows_the_messages() -> None:
    """The lookouts are the protocol's immutable snapshots: a new one after a change, equal ones
    while nothing changed."""
    m = Machine()
    host, server = m.mediator.host_side, m.mediator.server_side
    first = host.lookout()
    assert host.lookout() == first and b"initialize" in first.patterns
    m.step(("host", INIT))
    assert server.lookout().parse_all  # until the result, every server line is read
    m.step(("server", INIT_RESULT))
    m.step(("host", INITIALIZED))
    assert host.lookout().patterns == (b"roots",) and not server.lookout().parse_all
    m.step(("host", MODERN))
    m.step(("server", ROUND))  # a retry of the bridge's own is pending
    assert b"notifications/cancelled" in host.lookout().patterns
    assert not server.lookout().may_stream

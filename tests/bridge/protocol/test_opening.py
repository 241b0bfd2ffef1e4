"""The host's first exchange judged from its lines alone: always what the mediator relays.

The early relay writes what :mod:`roots_manager.bridge.protocol.opening` says before the
mediator exists; the mediator, given the same lines later, must relay the same bytes. Each
judgement is checked against a mediator here, for every kind of mediator a run makes, over a
table of lines and over generated ones.
"""

from __future__ import annotations

import json
from typing import Any

import hypothesis
import pytest
from hypothesis import strategies as st

from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.protocol.opening import (
    EARLY_LIMIT,
    answers_initialize,
    initialize_relayed,
)
from roots_manager.bridge.protocol.wire import key
from roots_manager.bridge.run.clock import SYSTEM
from roots_manager.bridge.run.file_spill import FileSpill
from tests.bridge.protocol.test_mediator import ByHand, Log

KINDS = ["plain", "restartable", "tracking", "observe", "log-all"]
"""The mediators a run makes: as a plain run, one that may restart its server, a confined
one keeping the requests in flight, observe mode, and every message logged."""


def mediator(kind: str) -> Mediator:
    return ByHand().serving(
        Mediator(
            log=Log(),
            act=ByHand(),
            clock=SYSTEM,
            spill=FileSpill(),
            nonce="n0nce",
            observe=kind == "observe",
            log_all=kind == "log-all",
            restartable=kind == "restartable",
            track_requests=kind in ("tracking", "restartable"),
        )
    )


def line(msg: object, ending: bytes = b"\n", **options: Any) -> bytes:
    return json.dumps(msg, **options).encode() + ending


def init(params: object = None, msg_id: object = 1, **extra: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": "initialize", **extra}
    if params is not None:
        msg["params"] = params
    return msg


HOST_LINES = [
    line(init({"protocolVersion": "2025-11-25", "capabilities": {}})),
    line(init({"protocolVersion": "2025-06-18", "capabilities": {"roots": {}}})),
    line(init({"capabilities": {"roots": {"listChanged": False}, "sampling": {}}})),
    line(init({"capabilities": {"roots": {"listChanged": True}}}), separators=(",", ":")),
    line(init({"capabilities": {"roots": {"listChanged": True}}})),  # told already, spaced
    line(init({"capabilities": None})),
    line(init({"capabilities": []})),
    line(init({"capabilities": "roots"})),
    line(init({})),
    line(init([1, 2])),
    line(init()),
    line(init({"capabilities": {}}, msg_id="a")),
    line(init({"capabilities": {}}), b"\r\n"),
    line(init({"clientInfo": {"name": "ホスト ✓"}, "capabilities": {}}), ensure_ascii=False),
    line(init({"clientInfo": {"name": "\u00e9\ud83d\ude00"}, "capabilities": {}})),
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"a":1,"a":2}}}\n',
    b'  {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}  \n',
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("host_line", HOST_LINES)
def test_an_initialize_relayed_early_is_what_the_mediator_relays(
    host_line: bytes, kind: str
) -> None:
    judged = initialize_relayed(host_line, observe=kind == "observe")
    assert judged is not None
    assert judged[0] == mediator(kind).from_host(host_line)
    assert judged[1] == key(json.loads(host_line)["id"])


@pytest.mark.parametrize(
    "host_line",
    [
        line({"jsonrpc": "2.0", "method": "initialize", "params": {}}),  # no id
        line(init({}, msg_id=True)),
        line(init({}, msg_id=None)),
        line(init({}, msg_id=1.5)),
        line([init({})]),  # a batch
        line({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        line({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        line(init({}), b""),  # not whole yet
        b"not json\n",
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"\xff"}}\n',
        b"\xef\xbb\xbf" + line(init({})),  # a byte order mark
        b"[" * 50_000 + b"\n",
        line(init({"capabilities": {}, "pad": "x" * EARLY_LIMIT})),
    ],
)
def test_anything_else_waits_for_the_run(host_line: bytes) -> None:
    assert initialize_relayed(host_line, observe=False) is None


def answer(msg_id: object = 1, **fields: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, **fields}


RESULT = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s"}}

SERVER_LINES: list[tuple[bytes, bool]] = [
    (line(answer(result=RESULT)), True),
    (line(answer(result=RESULT), separators=(",", ":")), True),
    (line(answer(error={"code": -32602, "message": "unsupported"})), True),
    (line(answer(result=RESULT), b"\r\n"), True),
    (line(answer(result={**RESULT, "instructions": 'line\none "two" \\ / \t'})), True),
    (line(answer(result={**RESULT, "instructions": "日本語"}), ensure_ascii=False), True),
    (line(answer(result={**RESULT, "instructions": "\u00e9"})), False),  # \u could spell
    (line(answer(result={**RESULT, "instructions": "your roots"})), False),
    (line(answer(result={"resultType": "input_required", "inputRequests": {}})), True),
    (
        line(
            answer(
                result={
                    "resultType": "input_required",
                    "inputRequests": {"k": {"method": "roots/list"}},
                }
            )
        ),
        False,
    ),
    (line(answer(msg_id="1", result=RESULT)), False),  # another id
    (line(answer(msg_id=2, result=RESULT)), False),
    (line(answer()), False),  # neither result nor error
    (line({"jsonrpc": "2.0", "id": 1, "method": "ping"}), False),  # a request of the server
    (line({"jsonrpc": "2.0", "method": "notifications/message", "params": {}}), False),
    (line({"jsonrpc": "2.0", "id": 1, "method": "roots/list"}), False),
    (line([answer(result=RESULT)]), False),
    (line(answer(result=RESULT), b""), False),
    (b"garbage\n", False),
    (b'{"jsonrpc":"2.0","id":1,"result":{"a":"\x00"}}\n', False),
    (b'{"jsonrpc":"2.0","id":1,"result":{},"method":"r\\u006fots/list"}\n', False),
    (line(answer(result={"pad": "x" * EARLY_LIMIT})), False),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("server_line", "early"), SERVER_LINES)
def test_an_answer_relayed_early_is_what_the_mediator_relays(
    server_line: bytes, early: bool, kind: str
) -> None:
    m = mediator(kind)
    host_line = line(init({"capabilities": {}}))
    judged = initialize_relayed(host_line, observe=kind == "observe")
    assert judged is not None
    m.from_host(host_line)
    assert answers_initialize(server_line, judged[1]) is early
    if early:
        assert m.from_server(server_line) == server_line
        assert not m.handshake.awaiting_result  # taken for the answer, as it was relayed


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
CAPABILITIES = st.one_of(
    JSON,
    st.dictionaries(
        st.sampled_from(["roots", "sampling", "elicitation", "experimental"]), JSON, max_size=3
    ),
    st.fixed_dictionaries({"roots": st.dictionaries(st.sampled_from(["listChanged", "x"]), JSON)}),
)


@hypothesis.settings(max_examples=400, deadline=None, database=None)
@hypothesis.given(
    capabilities=CAPABILITIES,
    rest=st.dictionaries(st.text(), JSON, max_size=3),
    msg_id=st.integers() | st.text(),
    kind=st.sampled_from(KINDS),
    ascii_only=st.booleans(),
    ending=st.sampled_from([b"\n", b"\r\n"]),
)
def test_any_initialize_relayed_early_is_what_the_mediator_relays(
    capabilities: object,
    rest: dict[str, object],
    msg_id: object,
    kind: str,
    ascii_only: bool,
    ending: bytes,
) -> None:
    host_line = line(
        init({**rest, "capabilities": capabilities}, msg_id=msg_id),
        ending,
        ensure_ascii=ascii_only,
    )
    judged = initialize_relayed(host_line, observe=kind == "observe")
    hypothesis.assume(judged is not None)  # a string with a lone surrogate is not UTF-8
    assert judged is not None
    assert judged[0] == mediator(kind).from_host(host_line)


@hypothesis.settings(max_examples=400, deadline=None, database=None)
@hypothesis.given(
    result=JSON,
    msg_id=st.integers() | st.text(),
    other=st.integers() | st.text(),
    kind=st.sampled_from(KINDS),
    ascii_only=st.booleans(),
)
def test_any_answer_relayed_early_is_what_the_mediator_relays(
    result: object, msg_id: object, other: object, kind: str, ascii_only: bool
) -> None:
    m = mediator(kind)
    host_line = line(init({"capabilities": {}}, msg_id=msg_id))
    judged = initialize_relayed(host_line, observe=kind == "observe")
    hypothesis.assume(judged is not None)
    assert judged is not None
    m.from_host(host_line)
    server_line = line(answer(other, result=result), ensure_ascii=ascii_only)
    if answers_initialize(server_line, judged[1]):
        assert other == msg_id and type(other) is type(msg_id)
        assert m.from_server(server_line) == server_line

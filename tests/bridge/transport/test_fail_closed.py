"""Managed mode fails closed: no spelling of a request for roots gets from the server to the host.

The server's direction runs as in a bridge (the relay's byte-level triage, then the mediator),
fed in random chunks. What comes out on the host's side is read by every reader a host may use:
JSON as JavaScript and Python parse it (last duplicate key wins), a parser that keeps the first
duplicate, control characters allowed, a byte order mark skipped, bytes that are not UTF-8
replaced, and a streaming reader that takes the first value of a line and ignores the rest.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roots_manager.bridge.protocol import lenient_reading
from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.run.clock import SYSTEM
from roots_manager.bridge.run.file_spill import FileSpill
from roots_manager.bridge.transport.relay import LineRelay
from roots_manager.bridge.transport.writer import LineWriter
from tests.bridge.protocol.test_mediator import Answers, ByHand

ROOTS = {"roots": [{"uri": "file:///granted", "name": "granted"}]}


class Log:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def event(self, kind: str, **fields: Any) -> None:
        self.events.append({"kind": kind, **fields})

    def marker(self, **fields: Any) -> None:
        pass


class ServerDirection:
    """The server-to-host direction of a managed bridge, in one thread."""

    def __init__(self, max_held: int = 1 << 20) -> None:
        self.to_host: list[bytes] = []
        self.to_server: list[bytes] = []
        self.log = Log()
        to_host = LineWriter(self.to_host.append)
        self.by_hand = ByHand(
            to_server=self.to_server.append, to_host=to_host.inject, after_write=lambda fn: None
        )
        self.mediator = self.by_hand.serving(
            Mediator(
                log=self.log,
                act=self.by_hand,
                clock=SYSTEM,
                spill=FileSpill(),
                nonce=secrets.token_hex(6),
            ),
            Answers(ROOTS),
        )
        self.relay = LineRelay(
            to_host,
            self.mediator.server_side,
            stream_threshold=1024,
            max_held=max_held,
        )

    def feed(self, data: bytes, cuts: list[int]) -> None:
        prev = 0
        for cut in [*sorted({c % (len(data) + 1) for c in cuts}), len(data)]:
            if cut > prev:
                self.relay.feed(data[prev:cut])
                prev = cut
        self.relay.eof()

    def host_lines(self) -> list[bytes]:
        return b"".join(self.to_host).split(b"\n")


def _readings(line: bytes) -> list[object]:
    """Every way a host may read *line*."""
    text = line.decode("utf-8", "replace").strip(" \t\r\n\ufeff\x00")
    found: list[object] = []
    for hook in (dict, lambda pairs: dict(reversed(pairs))):
        with contextlib.suppress(ValueError, RecursionError):
            found.append(json.loads(text, strict=False, object_pairs_hook=hook))
        with contextlib.suppress(ValueError, RecursionError):
            found.append(json.JSONDecoder(strict=False, object_pairs_hook=hook).raw_decode(text)[0])
    if b"\x00" in line:
        for codec in ("utf-16-le", "utf-16-be"):
            with contextlib.suppress(ValueError):
                found.append(json.loads(line.replace(b"\n", b"").decode(codec, "replace")))
    return found


def _asks(msg: object) -> bool:
    if isinstance(msg, list):
        return any(_asks(m) for m in msg)
    if not isinstance(msg, dict):
        return False
    if msg.get("method") == "roots/list":
        return True
    result = msg.get("result")
    if isinstance(result, dict) and isinstance(result.get("inputRequests"), dict):
        return any(
            isinstance(v, dict) and v.get("method") == "roots/list"
            for v in result["inputRequests"].values()
        )
    return False


def assert_nothing_asks(lines: list[bytes]) -> None:
    for line in lines:
        for msg in _readings(line):
            assert not _asks(msg), f"a request for roots reached the host: {line[:300]!r}"


# ---- spellings ------------------------------------------------------------------------------


def _char(c: str) -> st.SearchStrategy[str]:
    options = [st.just(c), st.sampled_from([f"\\u{ord(c):04x}", f"\\u{ord(c):04X}"])]
    if c == "/":
        options.append(st.just("\\/"))
    return st.one_of(*options)


def spelled(word: str) -> st.SearchStrategy[str]:
    """*word* as a JSON string literal, each character escaped or not."""
    return st.tuples(*(_char(c) for c in word)).map(lambda cs: '"' + "".join(cs) + '"')


ws = st.sampled_from(["", " ", "\t", "  ", "\r "])


@st.composite
def obj(draw: st.DrawFn, members: list[tuple[str, str]]) -> str:
    """A JSON object from (key, value) texts, shuffled, with whitespace anywhere."""
    members = draw(st.permutations(members))
    parts = [f"{draw(ws)}{k}{draw(ws)}:{draw(ws)}{v}{draw(ws)}" for k, v in members]
    return "{" + ",".join(parts) + "}"


@st.composite
def request(draw: st.DrawFn) -> str:
    method = draw(spelled("roots/list"))
    members = [(draw(spelled("method")), method), ('"jsonrpc"', '"2.0"')]
    if draw(st.booleans()):
        members.append(('"id"', str(draw(st.integers(0, 10**6)))))
    if draw(st.booleans()):
        # a decoy of the same key: one reading or the other sees roots/list
        members.append((draw(spelled("method")), '"tools/list"'))
    if draw(st.booleans()):
        members.append(('"params"', '{"_meta":{}}'))
    return draw(obj(members))


@st.composite
def input_required(draw: st.DrawFn) -> str:
    ask = draw(obj([(draw(spelled("method")), draw(spelled("roots/list")))]))
    reqs = [(draw(st.sampled_from(['"k"', '"roots"', '"a b"'])), ask)]
    if draw(st.booleans()):
        reqs.append(('"other"', '{"method":"elicitation/create","params":{}}'))
    result = draw(
        obj(
            [
                (draw(spelled("resultType")), '"input_required"'),
                (draw(spelled("inputRequests")), draw(obj(reqs))),
                ('"requestState"', '"s1"'),
            ]
        )
    )
    return draw(obj([('"jsonrpc"', '"2.0"'), ('"id"', "7"), ('"result"', result)]))


@st.composite
def line(draw: st.DrawFn) -> bytes:
    text = draw(st.one_of(request(), input_required()))
    if draw(st.booleans()):
        others = ['{"jsonrpc":"2.0","method":"notifications/message","params":{}}']
        text = "[" + ",".join(draw(st.permutations([text, *others]))) + "]"
    data = text.encode()
    if draw(st.booleans()):
        # a field that is not UTF-8, in front of everything else
        data = data.replace(b"{", b'{"x":"\xff\xfe\xc0\xaf",', 1)
    if draw(st.booleans()):
        # long enough to stream: the request sits after the padding
        pad = b'{"pad":"' + b"p" * draw(st.integers(1000, 5000)) + b'",'
        data = data.replace(b"{", pad, 1)
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data + draw(st.sampled_from([b"\n", b"\r\n"]))


ordinary = b'{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"a\\nb"}]}}\n'


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line(), min_size=1, max_size=4), st.lists(st.integers(0, 20000), max_size=8))
def test_no_spelling_of_a_roots_request_reaches_the_host(
    lines: list[bytes], cuts: list[int]
) -> None:
    d = ServerDirection()
    d.feed(ordinary + b"".join(lines) + ordinary, cuts)
    out = d.host_lines()
    assert_nothing_asks(out)
    # the traffic around them is untouched
    assert out[0] + b"\n" == ordinary and out[-2] + b"\n" == ordinary


@settings(max_examples=200, deadline=None)
@given(request())
def test_every_request_for_roots_with_an_id_is_answered_by_the_bridge(text: str) -> None:
    d = ServerDirection()
    d.feed(text.encode() + b"\n", [])
    assert_nothing_asks(d.host_lines())
    msg = json.loads(text)
    if "id" in msg:
        answers = [json.loads(x) for x in d.to_server]
        assert [a["id"] for a in answers] == [msg["id"]]
        # the last-wins reading asks for roots: the granted roots; the first-wins one only: an error
        assert ("result" in answers[0]) == (msg["method"] == "roots/list")
        if "result" in answers[0]:
            assert answers[0]["result"] == ROOTS


def test_a_line_no_parser_reads_that_spells_roots_list_is_dropped() -> None:
    d = ServerDirection()
    for bad in (
        b'{"method":"\\u0072oots/list","id":1,}\n',  # a trailing comma (JSON5)
        b"{method:'r\\oots/list',id:2}\n",
        b'{"id":3,"method":"roots\\/list"} trailing\n',
    ):
        d.feed(bad, [])
    assert d.host_lines() == [b""]
    assert sum(1 for e in d.log.events if e.get("blocked")) == 3
    # a line no parser reads that does not spell it goes through untouched
    d.feed(b"not json at all\n", [])
    assert d.host_lines() == [b"not json at all", b""]


def test_a_line_too_long_to_hold_that_asks_for_roots_never_reaches_the_host() -> None:
    d = ServerDirection(max_held=4096)
    big = b'{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{"pad":"' + b"x" * 20000
    d.feed(big + b'"}}\n' + ordinary, [1000, 5000, 9000])
    assert d.host_lines() == [ordinary[:-1], b""]
    assert [e["relayed"] for e in d.log.events if e.get("blocked")] == [0]
    # padded in front, so that it streams before the request shows, and longer than is kept
    d = ServerDirection(max_held=4096)
    big = b'{"pad":"' + b"x" * 20000 + b'","jsonrpc":"2.0","id":1,"method":"roots/list"}\n'
    d.feed(big, [3000, 8000, 15000])
    out = d.host_lines()
    assert_nothing_asks(out)
    assert out[0] == big[: len(out[0])] and b"roots" not in out[0]


def test_a_long_line_that_mentions_roots_late_but_does_not_ask_goes_through_whole() -> None:
    d = ServerDirection()
    text = "x" * 5000 + " the roots/list request is described here"
    msg = {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": text}]}}
    data = json.dumps(msg).encode() + b"\n"
    d.feed(data, [2000, 4000])
    assert d.host_lines() == [data[:-1], b""]
    assert not [e for e in d.log.events if e.get("blocked")]


def test_an_error_while_answering_becomes_the_bridges_answer(
    tmp_path: Any, monkeypatch: Any
) -> None:
    """Whatever breaks the computation of an answer, the server is answered by the bridge."""
    from roots_manager.bridge.run import roots
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("a root the rules cannot read")

    monkeypatch.setattr(roots, "effective", broken)  # a fault injected where no input can reach
    errors: list[str] = []
    store = Store(Layout(tmp_path / "home").ensure())
    d = ServerDirection()
    source = roots.RootsSource(store, "srv", "fp", "s", on_error=errors.append)
    answers = roots.HeldAnswers(source, d.mediator.roots_changed, lambda: d.mediator.waiting_roots)
    answers.open()
    d.by_hand.roots_wanted = answers.wanted
    d.feed(b'{"jsonrpc":"2.0","id":5,"method":"roots/list"}\n', [])
    assert d.host_lines() == [b""]
    assert json.loads(d.to_server[0]) == {"jsonrpc": "2.0", "id": 5, "result": {"roots": []}}
    assert errors and "a root the rules cannot read" in errors[0]


def test_a_handler_that_raises_never_relays_a_request_for_roots() -> None:
    d = ServerDirection()
    side = d.mediator.server_side
    line_ = b'{"jsonrpc":"2.0","id":1,"method":"roots/list"}\n'
    assert side.failed(line_) == b""
    assert side.failed(ordinary) == ordinary
    assert lenient_reading.could_ask_for_roots(
        lenient_reading.read(b'{"method":"\\u0072oots/list"}')
    )


def test_the_hosts_roots_answer_never_reaches_the_server() -> None:
    to_server: list[bytes] = []
    by_hand = ByHand(to_server=to_server.append, after_write=lambda fn: None)
    s = by_hand.serving(
        Mediator(
            log=Log(),
            act=by_hand,
            clock=SYSTEM,
            spill=FileSpill(),
            nonce=secrets.token_hex(6),
        ),
        Answers(ROOTS),
    )
    leaked = {"jsonrpc": "2.0", "id": 9, "result": {"roots": [{"uri": "file:///host/all"}]}}
    out = s.from_host(json.dumps(leaked).encode() + b"\n")
    assert isinstance(out, bytes)
    msg = json.loads(out)
    assert "result" not in msg and msg["error"]["code"] == -32603
    # nor does a 2026-07-28 retry carrying roots the bridge did not add
    retry = {
        "jsonrpc": "2.0",
        "id": 10,
        "method": "tools/call",
        "params": {
            "name": "t",
            "inputResponses": {"k": {"roots": [{"uri": "file:///host/all"}]}},
            "requestState": "s",
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
        },
    }
    out = s.from_host(json.dumps(retry).encode() + b"\n")
    assert isinstance(out, bytes)
    assert b"/host/all" not in out


def _pieces(data: bytes, size: int) -> list[int]:
    return list(range(size, len(data), size))


def test_a_batch_whose_request_for_roots_comes_after_megabytes_is_answered_and_the_rest_relayed() -> (
    None
):
    d = ServerDirection(max_held=16 << 20)
    note = {
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": {"data": "n" * (4 << 20)},
    }
    ask = {"jsonrpc": "2.0", "id": 8, "method": "roots/list"}
    line = json.dumps([note, ask]).encode() + b"\n"
    d.feed(line, _pieces(line, 64 << 10))
    out = d.host_lines()
    assert [json.loads(x) for x in out if x] == [[note]]
    assert [json.loads(x) for x in d.to_server] == [[{"jsonrpc": "2.0", "id": 8, "result": ROOTS}]]


def test_a_round_for_roots_after_a_long_request_state_is_resolved_however_it_arrives() -> None:
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "t", "_meta": meta},
    }
    for state_size in (200 << 10, 4 << 20):
        d = ServerDirection(max_held=16 << 20)
        d.mediator.from_host(json.dumps(call).encode() + b"\n")
        state = "s" * state_size
        result = {
            "jsonrpc": "2.0",
            "id": 3,
            "result": {
                "resultType": "input_required",
                "requestState": state,
                "inputRequests": {"r": {"method": "roots/list"}},
            },
        }
        line = json.dumps(result).encode() + b"\n"
        d.feed(line, _pieces(line, 16 << 10))
        assert d.host_lines() == [b""], "the round reached the host"
        retry = json.loads(d.to_server[-1])
        assert retry["params"]["requestState"] == state
        assert retry["params"]["inputResponses"] == {"r": ROOTS}

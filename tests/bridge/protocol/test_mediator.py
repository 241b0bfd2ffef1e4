"""The roots protocol logic on its own: messages in, messages out, no processes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from roots_manager.bridge.protocol.actions import Action, Kind, Wake
from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.run.clock import SYSTEM
from roots_manager.bridge.run.file_spill import FileSpill
from roots_manager.core.log import events as ev

ROOTS = {"roots": [{"uri": "file:///w", "name": "w"}]}


class Answers:
    """The run's side of the roots: *result* handed in each time the protocol asks for them,
    or (None) held: each ask while held keeps a way to hand them in later, in :attr:`held`."""

    def __init__(self, result: dict[str, Any] | None = ROOTS) -> None:
        self.result = result
        self.held: list[Callable[[dict[str, Any]], None]] = []
        self.give: Callable[[dict[str, Any]], object] = lambda _r: None

    def wanted(self) -> None:
        if self.result is None:
            self.held.append(self.give)
        else:
            self.give(self.result)


class ByHand:
    """The protocol's actions carried out by the test, as the run's carrier would, with no loop:
    the bridge's messages to *to_server* and *to_host*, a wake-up after the line being handled
    to *after_write* (run now by default), one after a delay to *later*."""

    def __init__(
        self,
        *,
        to_server: Callable[[bytes], object] = lambda _b: None,
        to_host: Callable[[bytes], object] = lambda _b: None,
        after_write: Callable[[Callable[[], None]], object] = lambda fn: fn(),
        later: Callable[[float, Callable[[], None]], object] = lambda _d, _fn: None,
    ) -> None:
        self.to_server = to_server
        self.to_host = to_host
        self.after_write = after_write
        self.later = later
        self.wake: Callable[[Wake], object] = lambda _w: None
        """Where the wake-ups go (the mediator's :meth:`~Mediator.wake`, once it is made)."""
        self.roots_wanted: Callable[[], object] = lambda: None
        """Where the protocol's requests for its roots go (the run's part: an
        :class:`Answers`'s, once it serves a mediator)."""

    def serving(self, mediator: Mediator, roots: Answers | None = None) -> Mediator:
        self.wake = mediator.wake
        roots = roots or Answers()
        roots.give = mediator.roots_changed
        self.roots_wanted = roots.wanted
        return mediator

    def __call__(self, action: Action) -> None:
        wake = action.wake
        if action.kind is Kind.TO_SERVER:
            self.to_server(action.line)
        elif action.kind is Kind.TO_HOST:
            self.to_host(action.line)
        elif action.kind is Kind.ROOTS_WANTED:
            self.roots_wanted()
        elif action.kind is Kind.AFTER_WRITE:
            self.after_write(lambda: self.wake(wake))  # type: ignore[arg-type]
        else:
            self.later(action.delay, lambda: self.wake(wake))  # type: ignore[arg-type]


class Log:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.fields: dict[str, Any] = {}

    def event(self, kind: str, **fields: Any) -> None:
        self.events.append({"kind": kind, **fields})

    def marker(self, **fields: Any) -> None:
        self.fields.update(fields)

    def kinds(self) -> list[str]:
        return [e["kind"] for e in self.events]


class Rig:
    def __init__(self, answers: Answers | None = None, observe: bool = False) -> None:
        self.to_server: list[bytes] = []
        self.to_host: list[bytes] = []
        self.deferred: list[Callable[[], object]] = []
        self.log = Log()
        self.answers = answers or Answers()
        by_hand = ByHand(
            to_server=self.to_server.append,
            to_host=self.to_host.append,
            after_write=self.deferred.append,
        )
        self.s = by_hand.serving(
            Mediator(
                log=self.log,
                act=by_hand,
                clock=SYSTEM,
                spill=FileSpill(),
                observe=observe,
                nonce="n0nce",
            ),
            self.answers,
        )

    def host(self, msg: Any) -> Any:
        out = self.s.from_host(json.dumps(msg).encode() + b"\n")
        return json.loads(out) if out else None

    def server(self, msg: Any) -> Any:
        out = self.s.from_server(json.dumps(msg).encode() + b"\n")
        return json.loads(out) if out else None

    def sent(self) -> list[Any]:
        return [json.loads(x) for x in self.to_server]

    def run_deferred(self) -> None:
        for fn in self.deferred:
            fn()
        self.deferred.clear()

    def handshake(self) -> None:
        self.host(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {}},
            }
        )
        self.server({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18"}})
        self.run_deferred()
        self.host({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.run_deferred()


def test_initialize_injection_and_roots_list_answer() -> None:
    r = Rig()
    out = r.host(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {"x": {}}},
        }
    )
    assert out["params"]["capabilities"] == {"x": {}, "roots": {"listChanged": True}}
    assert r.server({"jsonrpc": "2.0", "id": 4, "method": "roots/list"}) is None
    assert r.sent() == [{"jsonrpc": "2.0", "id": 4, "result": ROOTS}]
    assert r.log.kinds()[-2:] == [ev.ROOTS_ASKED, ev.ROOTS_ANSWERED]


def test_unchanged_lines_are_returned_byte_for_byte() -> None:
    r = Rig()
    line = b'{"jsonrpc": "2.0",  "id": 9, "method": "notifications/roots/list_changed"}\r\n'
    assert r.s.from_host(line) == line
    assert r.s.from_server(b'{"roots":  1}\n') == b'{"roots":  1}\n'


def test_list_changed_needs_handshake_a_fetch_and_a_change() -> None:
    r = Rig()
    r.server({"jsonrpc": "2.0", "id": 0, "method": "roots/list"})
    r.answers.result = {"roots": []}
    assert not r.s.check_changes()  # no handshake yet
    r.handshake()  # the deferred check after initialized sends it
    assert r.sent()[-1] == {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}
    r.answers.result = {"roots": [{"uri": "file:///other", "name": "o"}]}
    assert not r.s.check_changes()  # not fetched since the last notice
    r.server({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})
    assert not r.s.check_changes()  # fetched the newest: nothing new
    r.answers.result = ROOTS
    assert r.s.check_changes()
    assert r.log.fields["stale"] is True
    assert r.s.notices == 2


def test_held_answers_go_out_when_released() -> None:
    r = Rig(Answers(None))
    r.server({"jsonrpc": "2.0", "id": 3, "method": "roots/list"})
    assert r.sent() == [] and len(r.answers.held) == 1
    r.answers.held[0](ROOTS)
    assert r.sent() == [{"jsonrpc": "2.0", "id": 3, "result": ROOTS}]
    assert r.log.events[0]["held"] is True


def test_batches_from_the_server() -> None:
    r = Rig()
    rest = r.server(
        [
            {"jsonrpc": "2.0", "id": 1, "method": "roots/list"},
            {"jsonrpc": "2.0", "id": 2, "method": "sampling/createMessage"},
        ]
    )
    assert rest == [{"jsonrpc": "2.0", "id": 2, "method": "sampling/createMessage"}]
    assert r.sent() == [[{"jsonrpc": "2.0", "id": 1, "result": ROOTS}]]


def test_modern_requests_get_roots_capability_and_rounds_are_resolved() -> None:
    r = Rig()
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    }
    out = r.host(
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "t", "_meta": meta}}
    )
    caps = out["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    assert caps == {"elicitation": {}, "roots": {}}
    dropped = r.server(
        {
            "jsonrpc": "2.0",
            "id": 5,
            "result": {
                "resultType": "input_required",
                "requestState": "S",
                "inputRequests": {"k": {"method": "roots/list"}},
            },
        }
    )
    assert dropped is None
    retry = r.sent()[-1]
    assert retry["id"] == "roots-bridge-n0nce-1"
    assert (
        retry["params"]["inputResponses"] == {"k": ROOTS} and retry["params"]["requestState"] == "S"
    )
    final = r.server({"jsonrpc": "2.0", "id": retry["id"], "result": {"resultType": "complete"}})
    assert final == {"jsonrpc": "2.0", "id": 5, "result": {"resultType": "complete"}}
    # a later stray response to one of our ids is not passed to the host
    assert r.server({"jsonrpc": "2.0", "id": "roots-bridge-n0nce-99", "result": {}}) is None


def test_observe_mode_changes_nothing() -> None:
    r = Rig(observe=True)
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}},
    }
    assert r.host(init) == init
    ask = {"jsonrpc": "2.0", "id": 2, "method": "roots/list"}
    assert r.server(ask) == ask
    r.host({"jsonrpc": "2.0", "id": 2, "result": ROOTS})
    assert r.sent() == []
    answered = [e for e in r.log.events if e["kind"] == ev.ROOTS_ANSWERED]
    assert answered[0]["uris"] == ["file:///w"]


def test_non_json_lines_are_logged_by_size() -> None:
    r = Rig()
    assert r.s.from_server(b'{"roots": oops}\n') == b'{"roots": oops}\n'
    assert r.s.from_host(b'{"roots": "\xff"}\n') == b'{"roots": "\xff"}\n'
    surrogate = b'{"roots": "\xed\xa0\x80"}\n'  # U+D800 encoded: not UTF-8
    assert r.s.from_server(surrogate) == surrogate
    sizes = [(e["bytes"], e["reason"]) for e in r.log.events if e["kind"] == ev.NON_JSON]
    assert sizes == [(15, "JSON"), (14, "UTF-8"), (16, "UTF-8")]


def test_early_initialized_is_held_until_the_initialize_result_has_passed() -> None:
    r = Rig()
    r.host(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}},
        }
    )
    line = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
    held = r.s.from_host(line)
    assert isinstance(held, HeldLine) and not held.released
    assert not r.s.handshake_done
    r.run_deferred()  # the check deferred to after the held line: no handshake yet, no notice
    assert not held.released
    r.server({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18"}})
    assert not held.released  # released only after the result has been written to the host
    r.run_deferred()
    assert held.line == line and r.s.handshake_done
    # an on-time initialized (the result already passed) is not held
    r2 = Rig()
    r2.handshake()
    assert r2.s.handshake_done


def test_observe_mode_never_holds_initialized() -> None:
    r = Rig(observe=True)
    r.host(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}},
        }
    )
    line = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
    assert r.s.from_host(line) == line


def _modern_call(msg_id: int, payload: str = "") -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": msg_id,
        "method": "tools/call",
        "params": {
            "name": "t",
            "arguments": {"blob": payload},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
        },
    }


def _roots_round(msg_id: int) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": msg_id,
        "result": {
            "resultType": "input_required",
            "requestState": f"s{msg_id}",
            "inputRequests": {"k": {"method": "roots/list"}},
        },
    }


def test_requests_kept_for_input_required_rounds_are_bounded_in_memory() -> None:
    from roots_manager.bridge.protocol import mrtr

    r = Rig()
    mib = "x" * (1024 * 1024)
    count = mrtr.MAX_REMEMBERED_BYTES // len(mib) + 4
    for n in range(1, count + 1):
        out = r.host(_modern_call(n, mib))
        # a request without clientCapabilities in its _meta still gets the roots capability
        assert out["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] == {"roots": {}}
    assert r.s.rounds.kept_bytes <= mrtr.MAX_REMEMBERED_BYTES + len(mib) + 4096
    # the oldest request waited in a file: large requests sent since did not push it out, and
    # its round is resolved by the bridge with the request as it was relayed
    assert r.server(_roots_round(1)) is None
    retry = r.sent()[-1]
    assert retry["params"]["arguments"]["blob"] == mib
    assert retry["params"]["inputResponses"] == {"k": ROOTS}
    # the newest too
    assert r.server(_roots_round(count)) is None
    retry = r.sent()[-1]
    assert retry["params"]["arguments"]["blob"] == mib
    assert retry["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] == {"roots": {}}


def test_requests_kept_for_input_required_rounds_are_bounded_in_number() -> None:
    from roots_manager.bridge.protocol import mrtr

    r = Rig()
    for n in range(1, mrtr.MAX_REMEMBERED + 2):
        r.host(_modern_call(n, "small"))
    # the oldest of more than can be kept was let go: the host gets an error for it (never the
    # request for roots), and the log says why
    answer = r.server(_roots_round(1))
    assert answer["id"] == 1 and "result" not in answer
    assert "no longer holds" in answer["error"]["message"]
    assert "did not keep" in r.log.events[-1]["message"]
    assert r.server(_roots_round(2)) is None


def test_a_held_host_retry_is_kept_for_a_further_round() -> None:
    r = Rig(Answers(None))
    r.host(_modern_call(1))
    mixed = _roots_round(1)
    mixed["result"]["inputRequests"]["ask"] = {"method": "elicitation/create", "params": {}}
    assert list(r.server(mixed)["result"]["inputRequests"]) == ["ask"]
    retry = _modern_call(2)
    retry["params"]["requestState"] = "s1"
    retry["params"]["inputResponses"] = {"ask": {"action": "accept"}}
    assert r.s.from_host(json.dumps(retry).encode() + b"\n") == b""  # held: consent pending
    r.answers.held[0](ROOTS)
    assert r.sent()[-1]["params"]["inputResponses"] == {"ask": {"action": "accept"}, "k": ROOTS}
    # a further roots-only round on the host's retry is resolved by the bridge
    r.answers.result = ROOTS
    assert r.server(_roots_round(2)) is None
    assert r.sent()[-1]["id"] == "roots-bridge-n0nce-1"


def test_a_requested_list_changed_is_not_sent_where_the_protocol_has_none() -> None:
    observing = Rig(observe=True)
    assert observing.s.list_changed_asked("app") is False
    modern = Rig()
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    modern.host({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}})
    sent_before = list(modern.to_server)
    assert modern.s.list_changed_asked("app") is False
    assert modern.to_server == sent_before  # 2026-07-28 has no list_changed to send
    outcomes = [
        e["outcome"]
        for r in (observing, modern)
        for e in r.log.events
        if e["kind"] == ev.LIST_CHANGED_ASKED
    ]
    assert outcomes == ["observe", "no-notice"]


class Shelf:
    """A spill the test can look into: the protocol's kept requests past its memory bound."""

    def __init__(self) -> None:
        self.lines: dict[int, bytes] = {}
        self.taken: list[int] = []
        self.dropped: list[int] = []

    def put(self, line: bytes) -> int:
        token = len(self.lines) + len(self.taken) + len(self.dropped)
        self.lines[token] = line
        return token

    def take(self, token: object) -> bytes:
        assert isinstance(token, int)
        self.taken.append(token)
        return self.lines.pop(token)

    def drop(self, token: object) -> None:
        assert isinstance(token, int)
        self.dropped.append(token)
        del self.lines[token]


def test_the_requests_past_the_memory_bound_wait_in_the_spill_the_protocol_is_given() -> None:
    from roots_manager.bridge.protocol import mrtr

    shelf, injected = Shelf(), []  # type: ignore[var-annotated]

    def at_once(reply: Callable[[Any], None]) -> bool:
        reply(ROOTS)  # the run hands the roots in as soon as they are asked for
        return True

    rounds = mrtr.InputRounds(
        want=at_once,
        log=Log(),
        act=lambda a: injected.append(a.line),
        answered=lambda _r: None,
        prefix="roots-bridge-n0nce-",
        perf=lambda: 0.0,
        spill=shelf,
    )
    mib = "x" * (1024 * 1024)
    count = mrtr.MAX_REMEMBERED_BYTES // len(mib) + 3
    lines = {n: json.dumps(_modern_call(n, mib)).encode() + b"\n" for n in range(1, count + 1)}
    for n, line in lines.items():
        rounds.remember(n, line)
    assert rounds.kept_bytes <= mrtr.MAX_REMEMBERED_BYTES
    spilled = list(shelf.lines.values())  # the oldest, in order; never the newest
    assert 3 <= len(spilled) < count and spilled == [lines[n] for n in range(1, len(spilled) + 1)]
    assert rounds.server_response(_roots_round(2)) == b""  # retried by the bridge
    assert shelf.taken == [1] and json.loads(injected[-1])["params"]["arguments"]["blob"] == mib
    rounds.forget_all()  # the server was replaced: what waits is let go unread
    assert sorted(shelf.dropped) == [0, *range(2, len(spilled))] and shelf.lines == {}

"""The host's requests a refusal is tied to: in flight, lately answered, and start-ups."""

from __future__ import annotations

from roots_manager.bridge.protocol.inflight import ANSWERED_KEPT, OPEN_KEPT, InFlight
from roots_manager.core.log.denials import BETWEEN, REQUEST, START_UP, attribute, named_by


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def at(flight: InFlight, when: float):  # type: ignore[no-untyped-def]
    snap = flight.snapshot()
    return attribute(when, snap.requests, snap.start_ups)


def call(n: int, path: str = "/x/secret.txt") -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": n, "method": "tools/call",
            "params": {"name": "read_file", "arguments": {"path": path}}}  # fmt: skip


def test_start_up_lasts_until_initialize_is_answered_then_requests_are_named() -> None:
    clock = Clock()
    flight = InFlight(clock)
    assert at(flight, 99).during == START_UP  # before the host said anything
    flight.host_request({"id": 0, "method": "initialize", "params": {}})
    clock.now = 101
    assert at(flight, 100.5).during == START_UP
    flight.server_response(0)
    clock.now = 102
    assert at(flight, 101.5).during == BETWEEN
    flight.host_request(call(3))
    clock.now = 103
    flight.server_response(3)  # answered before the refusal's line is read
    got = at(flight, 102.5)
    assert got.during == REQUEST and [(r.tool, r.id) for r in got.requests] == [("read_file", 3)]
    assert at(flight, 103.5).during == BETWEEN


def test_several_in_flight_are_all_named_and_a_restart_starts_up_again() -> None:
    clock = Clock()
    flight = InFlight(clock)
    flight.host_request({"id": "a", "method": "tools/list"})  # 2026-07-28: no handshake
    flight.host_request(call(1))
    clock.now = 101
    assert [r.id for r in at(flight, 100.5).requests] == ["a", 1]
    flight.server_replaced()
    clock.now = 102
    assert at(flight, 101.5).during == START_UP
    flight.restarted()
    assert at(flight, 102.5).during == BETWEEN  # the old server's requests ended at the restart


def test_memory_is_bounded_whatever_the_host_sends() -> None:
    flight = InFlight(Clock())
    for n in range(OPEN_KEPT * 3):
        flight.host_request(call(n))
    for n in range(OPEN_KEPT * 2, OPEN_KEPT * 3):
        flight.server_response(n)
    assert len(flight.snapshot().requests) <= OPEN_KEPT + ANSWERED_KEPT
    flight.host_request({"id": {"odd": 1}, "method": "x"})  # not an id: not kept, no failure


def test_the_argument_that_named_the_path_is_found() -> None:
    assert named_by({"path": "/x/secret.txt"}, "/x/secret.txt") == "path"
    assert named_by({"paths": ["/a", "/x"]}, "/x/secret.txt") == "paths[1]"
    assert named_by({"uri": "file:///x/y"}, "/x/y/z") == "uri"
    assert named_by({"q": "secret.txt", "n": 3}, "/x/secret.txt") is None

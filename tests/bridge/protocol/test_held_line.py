"""A line the protocol holds back: released once, by the protocol, to whoever waits for it."""

from __future__ import annotations

import pytest

from roots_manager.bridge.protocol.held_line import HeldLine


def test_a_held_line_is_released_once_to_every_waiter_in_order() -> None:
    held = HeldLine()
    told: list[tuple[str, bytes]] = []
    held.when_released(lambda line: told.append(("first", line)))
    held.when_released(lambda line: told.append(("second", line)))
    assert not held.released and told == []
    with pytest.raises(LookupError):
        held.line  # noqa: B018  # nothing to relay yet
    held.release(b"out\n")
    assert held.released and held.line == b"out\n"
    assert told == [("first", b"out\n"), ("second", b"out\n")]
    held.when_released(lambda line: told.append(("late", line)))  # told at once
    assert told[-1] == ("late", b"out\n")
    with pytest.raises(RuntimeError):
        held.release(b"again\n")
    assert held.line == b"out\n" and len(told) == 3


def test_a_held_line_may_be_released_as_nothing() -> None:
    held = HeldLine()
    held.release(b"")
    assert held.released and held.line == b""

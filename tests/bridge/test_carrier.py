"""The carrier: the one place where the protocol's actions are carried out, and where the C hot
path is told that a lookout it relays with has gone stale, over real pipes."""

from __future__ import annotations

import os
import threading

import pytest

from roots_manager.bridge.protocol.actions import to_host, to_server
from roots_manager.bridge.transport.carrier import Carrier, Taken
from roots_manager.bridge.transport.pump import Pump
from roots_manager.bridge.transport.relay import Inline, LineRelay
from roots_manager.bridge.transport.writer import FdSink, LineWriter, fastrelay
from tests.bridge.test_relay import Recorder

pytestmark = pytest.mark.skipif(
    os.name != "posix" or fastrelay is None, reason="the C hot path is built on POSIX only"
)


class Watched(Inline):
    """A relay's runner whose hot path's lookout the carrier watches."""

    def __init__(self, carrier: Carrier) -> None:
        self.carrier = carrier

    def taken(self) -> Taken:
        return self.carrier.taken()


class Rig:
    """One direction through the C hot path, a pipe in and a pipe out, and a carrier."""

    def __init__(self, direction: Recorder) -> None:
        self.sent: list[bytes] = []
        self.carrier = Carrier(LineWriter(self.sent.append), LineWriter(self.sent.append))
        self.src_r, self.src_w = os.pipe()
        self.dst_r, self.dst_w = os.pipe()
        relay = LineRelay(
            LineWriter(sink=FdSink(self.dst_w)), direction, runner=Watched(self.carrier)
        )
        self.asked = 0
        triage = relay.triage

        def counted() -> object:
            self.asked += 1
            return triage()

        relay.triage = counted  # type: ignore[method-assign]
        self.ended = threading.Event()
        Pump("test", self.src_r, relay, self.ended.set).start()

    def through(self, line: bytes) -> bytes:
        os.write(self.src_w, line)
        return os.read(self.dst_r, 1 << 16)

    def close(self) -> None:
        os.close(self.src_w)
        assert self.ended.wait(30)
        for fd in (self.dst_r, self.dst_w, self.src_r):
            os.close(fd)


def test_a_lookout_that_grew_reaches_the_hot_path_with_the_protocols_next_action() -> None:
    h = Recorder()
    rig = Rig(h)
    assert rig.through(b'{"zzz":1}\n') == b'{"zzz":1}\n'  # not looked for: relayed in C
    # the protocol now looks for more (a retry of its own is pending) and sends the retry
    h._patterns = (b"roots", b"zzz")
    rig.carrier(to_server(b'{"retry":1}\n'))
    assert rig.sent == [b'{"retry":1}\n']
    assert rig.through(b'{"zzz":2}\n') == b'{"ZZZ":2}\n'  # the answer is caught
    assert h.handled == [b'{"zzz":2}\n']
    rig.close()


def test_an_action_that_changed_no_lookout_leaves_the_hot_path_alone() -> None:
    rig = Rig(Recorder())
    assert rig.through(b'{"a":1}\n') == b'{"a":1}\n'
    asked = rig.asked
    for n in range(5):
        rig.carrier(to_host(b'{"own":%d}\n' % n))
        assert rig.through(b'{"a":2}\n') == b'{"a":2}\n'
    assert rig.asked == asked, "the hot path asked again though nothing changed"
    rig.close()

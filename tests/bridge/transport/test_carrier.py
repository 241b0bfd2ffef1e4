"""The carrier: the one place where the protocol's actions are carried out, and where the C hot
path is told to take what it looks for afresh, over real pipes."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

import pytest

from roots_manager.bridge.protocol.actions import Wake, to_server
from roots_manager.bridge.transport.carrier import Carrier
from roots_manager.bridge.transport.pump import Pump
from roots_manager.bridge.transport.relay import LineRelay
from roots_manager.bridge.transport.writer import FdSink, LineWriter, fastrelay
from tests.bridge.transport.test_relay import Recorder

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the C hot path is built on POSIX only")


@pytest.fixture(autouse=True)
def _built() -> None:
    """Where the C hot path is built, a missing build fails these tests, never skips them."""
    if fastrelay is None:
        pytest.fail(
            "roots_manager.bridge.transport._fastrelay did not build (is there a C compiler?)"
        )


class Growing(Recorder):
    """A direction that looks for more once it is told to (as the protocol does when a retry of
    its own is pending, or once the handshake makes every line worth reading)."""

    def grow(self) -> None:
        self._patterns = (b"roots", b"zzz")

    def handle(self, line: bytes) -> bytes:
        if b"grow" in line:
            self.grow()
        return super().handle(line)


class Rig:
    """One direction through the C hot path, a pipe in and a pipe out, and a carrier."""

    def __init__(self, direction: Growing) -> None:
        self.sent: list[bytes] = []
        self.carrier = Carrier(LineWriter(self.sent.append), LineWriter(self.sent.append))
        self.src_r, self.src_w = os.pipe()
        self.dst_r, self.dst_w = os.pipe()
        relay = LineRelay(LineWriter(sink=FdSink(self.dst_w)), direction)
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


def _action(rig: Rig, d: Growing) -> None:
    d.grow()  # the retry is pending, then sent
    rig.carrier(to_server(b'{"retry":1}\n'))
    assert rig.sent == [b'{"retry":1}\n']


def _wake(rig: Rig, d: Growing) -> None:
    rig.carrier.serve(lambda _w: d.grow())
    rig.carrier.woken(Wake.RELEASE_INITIALIZED)


def _release(rig: Rig, d: Growing) -> None:
    d.grow()  # a held initialized let go: the handshake is done
    assert rig.carrier.released(b"line\n") == b"line\n"


def _line(rig: Rig, d: Growing) -> None:
    # a line of the other direction, handled on the loop, changes what this one looks for
    assert rig.carrier.handle(d, b'{"grow":1}\n') == b'{"GROW":1}\n'


@pytest.mark.parametrize(
    "change", [_action, _wake, _release, _line], ids=["action", "wake-up", "release", "line"]
)
def test_a_lookout_that_grew_reaches_the_hot_path_whichever_way_the_protocol_changed(
    change: Callable[[Rig, Growing], None],
) -> None:
    d = Growing()
    rig = Rig(d)
    assert rig.through(b'{"zzz":1}\n') == b'{"zzz":1}\n'  # not looked for: relayed in C
    change(rig, d)
    assert rig.through(b'{"zzz":2}\n') == b'{"ZZZ":2}\n'  # now it is caught
    assert d.handled[-1] == b'{"zzz":2}\n'
    rig.close()

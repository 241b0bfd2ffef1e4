"""The relay's hot path in C against the Python relay it stands in for, over real pipes.

Every stream goes through two pumps: one whose writer writes to a descriptor (so the C path
relays what it can and hands the rest to the Python relay), one whose writer is a plain function
(the Python relay alone). Whatever the C path takes on itself must come out exactly as the Python
relay would have let it: the same bytes, the same lines handed to the handler, the same notes.
"""

from __future__ import annotations

import os
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roots_manager.bridge.transport.pump import Pump
from roots_manager.bridge.transport.relay import LineRelay
from roots_manager.bridge.transport.writer import FdSink, LineWriter, fastrelay
from tests.bridge.transport.test_relay import Recorder

pytestmark = pytest.mark.skipif(
    os.name != "posix", reason="the C hot path is built on POSIX systems only"
)


def test_the_hot_path_is_built() -> None:
    assert fastrelay is not None, (
        "roots_manager.bridge.transport._fastrelay did not build (is there a C compiler?); "
        "ROOTS_MANAGER_PURE_RELAY=1 tests the Python relay alone"
    )


class Run:
    """One pump from a pipe to a pipe; *fast* decides whether the C path may take lines."""

    def __init__(
        self, handler: Recorder, *, fast: bool, threshold: int, max_held: int, collect: bool = True
    ) -> None:
        self.handler = handler
        self.src_r, self.src_w = os.pipe()
        self.dst_r, self.dst_w = os.pipe()
        self.broken: list[OSError] = []
        self.sink = FdSink(self.dst_w, on_broken=self.broken.append)
        writer = LineWriter(sink=self.sink) if fast else LineWriter(self.sink.write, fd=self.dst_w)
        self.writer = writer
        self.relay = LineRelay(writer, handler, stream_threshold=threshold, max_held=max_held)
        self.ended = threading.Event()
        self.out = bytearray()
        self._collector = threading.Thread(target=self._collect, daemon=True)
        if collect:
            self._collector.start()
        Pump("test", self.src_r, self.relay, self.ended.set).start()

    def _collect(self) -> None:
        while data := os.read(self.dst_r, 1 << 20):
            self.out += data

    def send(self, pieces: list[bytes], pause: float = 0.0) -> bytes:
        for piece in pieces:
            os.write(self.src_w, piece)
            if pause:
                time.sleep(pause)
        os.close(self.src_w)
        assert self.ended.wait(30), "the pump did not end"
        os.close(self.dst_w)
        self._collector.join(30)
        os.close(self.src_r)
        os.close(self.dst_r)
        return bytes(self.out)


def both(
    pieces: list[bytes],
    *,
    guarded: bool = False,
    threshold: int = 64 * 1024,
    max_held: int = 1 << 20,
    pause: float = 0.0,
) -> tuple[tuple[bytes, Recorder], tuple[bytes, Recorder]]:
    got = []
    for fast in (True, False):
        h = Recorder(guarded=guarded)
        got.append(
            (Run(h, fast=fast, threshold=threshold, max_held=max_held).send(pieces, pause), h)
        )
    return got[0], got[1]


def same(pieces: list[bytes], **kw: object) -> tuple[bytes, Recorder]:
    (fast_out, fh), (py_out, ph) = both(pieces, **kw)  # type: ignore[arg-type]
    assert fast_out == py_out
    assert fh.handled == ph.handled
    assert fh.nonjson == ph.nonjson
    assert fh.withheld_lines == ph.withheld_lines
    return fast_out, fh


def cut_at(stream: bytes, cuts: list[int]) -> list[bytes]:
    """*stream* in pieces, cut at each of *cuts* that falls inside it."""
    pieces, pos = [], 0
    for cut in sorted(set(cuts)):
        if pos < cut < len(stream):
            pieces.append(stream[pos:cut])
            pos = cut
    pieces.append(stream[pos:])
    return pieces


# lines that exercise each of the C path's reasons to hand a line over
FRAGMENTS = [
    b'{"jsonrpc":"2.0","id":1,"result":{}}',
    b'{"method":"roots/list","id":2}',
    b'{"text":"caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x8c\xb3"}',
    b'{"bad":"\xff\xfe"}',
    b'{"surrogate":"\xed\xa0\x80"}',
    b'{"overlong":"\xc0\xaf\xe0\x80\xaf"}',
    b'{"last":"\xf4\x8f\xbf\xbf","past":"x"}',
    b'{"past":"\xf4\x90\x80\x80"}',
    b'{"cut":"\xe6\x97"}',
    b'{"escaped":"\\u0072oots/list"}',
    b'{"identity":"\\oots"}',
    b'{"plain escapes":"\\n\\t\\"\\\\"}',
    b'{"nul":"\x00"}',
    b"not json at all",
    b'  {"padded":1}  ',
    b"[1,2,3]",
    b"",
    b"{",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(
        st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from([b"\n", b"\r\n"])),
        min_size=1,
        max_size=12,
    ),
    cuts=st.lists(st.integers(min_value=1, max_value=400), max_size=6),
    guarded=st.booleans(),
)
def test_short_lines_come_out_as_the_python_relay_lets_them(
    lines: list[tuple[bytes, bytes]], cuts: list[int], guarded: bool
) -> None:
    stream = b"".join(body + end for body, end in lines)
    pieces = cut_at(stream, cuts)
    same(pieces, guarded=guarded, pause=0.001)


def test_lines_one_read_each_are_relayed_without_the_handler() -> None:
    lines = [b'{"id":%d,"result":{"caf\xc3\xa9":1}}\n' % i for i in range(200)]
    out, h = same(lines, pause=0.0005)
    assert out == b"".join(lines) and h.handled == []


def test_a_line_held_across_reads_is_judged_whole() -> None:
    body = b'{"result":"' + b"x" * 5000
    tail = b'","method":"roots/list"}\n'
    for guarded in (False, True):
        out, h = same([body[:1000], body[1000:], tail], guarded=guarded, pause=0.005)
        assert h.handled == [body + tail]
        assert out == (body + tail).upper()


def test_a_long_guarded_line_is_held_whole_and_a_long_open_one_streams() -> None:
    body = b'{"result":"' + b"y" * 300_000 + b'"}\n'
    pieces = [body[i : i + 50_000] for i in range(0, len(body), 50_000)]
    out, h = same(pieces, guarded=True, pause=0.005)
    assert out == body and h.handled == [] and h.streamed_lines == []
    (fast_out, fh), (py_out, ph) = both(pieces, guarded=False, pause=0.005)
    assert fast_out == py_out == body
    assert fh.streamed_lines == ph.streamed_lines == [(len(body), False)]


def test_a_guarded_line_past_the_hold_limit_that_asks_for_roots_is_dropped() -> None:
    body = b'{"method":"roots/list","pad":"' + b"z" * 200_000 + b'"}\n'
    pieces = [body[i : i + 40_000] for i in range(0, len(body), 40_000)] + [b'{"next":1}\n']
    out, h = same(pieces, guarded=True, max_held=100_000, pause=0.005)
    assert out == b'{"next":1}\n'
    assert h.withheld_lines == [(len(body), 0)]


def test_a_destination_that_goes_away_is_told_once_and_the_rest_dropped() -> None:
    h = Recorder()
    run = Run(h, fast=True, threshold=64 * 1024, max_held=1 << 20, collect=False)
    os.write(run.src_w, b'{"a":1}\n')
    assert os.read(run.dst_r, 100) == b'{"a":1}\n'
    os.close(run.dst_r)  # the reader goes: the next write fails with EPIPE
    for i in range(20):
        os.write(run.src_w, b'{"b":%d}\n' % i)
        time.sleep(0.002)
    os.close(run.src_w)
    assert run.ended.wait(30)
    assert len(run.broken) == 1 and run.sink.broken
    os.close(run.dst_w)
    os.close(run.src_r)


def test_the_bridges_own_lines_never_land_inside_a_relayed_one() -> None:
    h = Recorder()
    run = Run(h, fast=True, threshold=64 * 1024, max_held=1 << 20)
    line = b'{"relayed":"' + b"r" * 3000 + b'"}\n'
    own = b'{"injected":true}\n'
    injector = threading.Thread(target=lambda: [run.writer.inject(own) for _ in range(300)])
    injector.start()
    for _ in range(300):
        os.write(run.src_w, line)
    injector.join(30)
    out = run.send([])
    lines = out.splitlines(keepends=True)
    assert lines.count(line) == 300 and lines.count(own) == 300 and len(lines) == 600


def test_a_pattern_that_shows_late_in_a_streamed_line_is_noted() -> None:
    body = b'{"result":"' + b"a" * 200_000 + b'roots/list"}\n'
    at = body.index(b"roots")
    for cut in (150_000, at + 2):  # the pattern inside a read, and cut in two between reads
        pieces = [body[:100_000], body[100_000:cut], body[cut:], b'{"after":1}\n']
        (fast_out, fh), (py_out, ph) = both(pieces, pause=0.01)
        assert fast_out == py_out == body + b'{"after":1}\n'
        assert fh.streamed_lines == ph.streamed_lines == [(len(body), True)]


def test_a_streamed_line_that_ends_inside_a_read_leaves_the_rest_to_be_judged() -> None:
    body = b'{"result":"' + b"b" * 150_000 + b'"}\n'
    rest = b'{"x":1}\n{"method":"roots/list"}\n{"y":2}\n'
    pieces = [body[:100_000], body[100_000:] + rest]
    out, h = same(pieces, pause=0.01)
    assert out == body + b'{"x":1}\n{"METHOD":"ROOTS/LIST"}\n{"y":2}\n'
    assert h.streamed_lines == [(len(body), False)]


def test_a_stream_cut_short_by_the_end_of_input_is_noted_once() -> None:
    body = b'{"result":"' + b"c" * 150_000
    (fast_out, fh), (py_out, ph) = both([body[:100_000], body[100_000:]], pause=0.01)
    assert fast_out == py_out == body
    assert fh.streamed_lines == ph.streamed_lines == [(len(body), False)]


def test_the_bridges_own_lines_wait_for_a_streamed_line_to_end() -> None:
    h = Recorder()
    run = Run(h, fast=True, threshold=64 * 1024, max_held=1 << 20)
    body = b'{"long":"' + b"l" * 200_000 + b'"}\n'
    os.write(run.src_w, body[:100_000])
    deadline = time.monotonic() + 10
    while len(run.out) < 100_000 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert run.writer.gate.mid_line  # streaming in C
    run.writer.inject(b'{"own":1}\n')
    out = run.send([body[100_000:]])
    assert out == body + b'{"own":1}\n'


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sizes=st.lists(st.integers(min_value=0, max_value=200_000), min_size=1, max_size=4),
    marks=st.lists(st.integers(min_value=0, max_value=200_000), max_size=3),
    cuts=st.lists(st.integers(min_value=1, max_value=900_000), max_size=8),
    guarded=st.booleans(),
)
def test_long_lines_come_out_as_the_python_relay_lets_them(
    sizes: list[int], marks: list[int], cuts: list[int], guarded: bool
) -> None:
    lines = []
    for i, size in enumerate(sizes):
        pad = bytearray(b"p" * size)
        for m in marks:
            if m < size and i % 2 == 0:
                pad[m : m + 5] = b"roots"
        lines.append(b'{"i":%d,"pad":"' % i + bytes(pad) + b'"}\n')
    stream = b"".join(lines)
    pieces = cut_at(stream, cuts)
    (fast_out, fh), (py_out, ph) = both(pieces, guarded=guarded, max_held=1 << 22, pause=0.002)
    assert fast_out == py_out
    assert fh.handled == ph.handled and fh.nonjson == ph.nonjson
    if guarded:  # held whole, never streamed (how an open line streams depends on the reads)
        assert fh.streamed_lines == ph.streamed_lines == []


def test_what_the_handler_looks_for_is_asked_again_once_it_may_have_changed() -> None:
    from roots_manager.bridge.transport.writer import note_change

    h = Recorder()
    run = Run(h, fast=True, threshold=64 * 1024, max_held=1 << 20, collect=False)
    os.write(run.src_w, b'{"zzz":1}\n')
    assert os.read(run.dst_r, 100) == b'{"zzz":1}\n'  # not looked for: relayed by the C path
    h._patterns = (b"roots", b"zzz")
    note_change()  # what the mediator does after every line it handled
    os.write(run.src_w, b'{"zzz":2}\n')
    assert os.read(run.dst_r, 100) == b'{"ZZZ":2}\n'
    assert h.handled == [b'{"zzz":2}\n']
    os.close(run.src_w)
    assert run.ended.wait(30)
    for fd in (run.dst_r, run.dst_w, run.src_r):
        os.close(fd)

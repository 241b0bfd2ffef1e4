"""The byte pump of one direction: line framing, a cheap byte-level triage, and cut-through.

Each direction's relay runs in its own pump thread (:mod:`~roots_manager.bridge.transport.pump`).
A stdio MCP stream is one JSON message per line. Most lines cannot concern roots, so the relay
never parses them: a few ``bytes.find`` calls over the line (no copy) decide whether the
:class:`~roots_manager.bridge.protocol.direction.Direction` must see it. Runs of lines that pass are written as one slice of the chunk
they arrived in, so a chunk full of ordinary traffic costs one write.

A line that is not relayed as it arrives is noted when it cannot be a JSON-RPC message
(:func:`~roots_manager.bridge.transport.linecheck.malformed`). Nothing short of parsing tells every
malformed line; that much costs no more than the triage itself.

A *guarded* direction (the server's side in managed mode, where a request for roots must never
reach the host) also sees every line that could spell a pattern in disguise
(:func:`~roots_manager.bridge.transport.linecheck.suspect`).

A line longer than :data:`STREAM_THRESHOLD` that has not matched any pattern yet is forwarded as
it arrives (cut-through) when the direction allows it, so a 64 MiB message never sits whole in the
bridge and a 1 MiB message is not delayed by a store-and-forward copy. A line that matches is
held until its end and handed to the direction whole, up to :data:`MAX_HELD` bytes; past that it
streams on unparsed. A guarded line is held whole up to :data:`MAX_HELD` whether it matches or
not, so that whether the bridge acts never depends on where in the line the request sits or how
its bytes arrive. Past that, a guarded line that matched is dropped, and one that shows a
pattern only after it began to stream reaches the far side cut where it was: the part sent holds
no pattern, and a newline ends it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, NamedTuple, Protocol

from roots_manager.bridge.protocol.direction import Direction
from roots_manager.bridge.protocol.held_line import HeldLine
from roots_manager.bridge.protocol.lenient_reading import disguised, is_utf8
from roots_manager.bridge.transport.linecheck import malformed, suspect
from roots_manager.bridge.transport.writer import Chunk, LineWriter

if TYPE_CHECKING:
    from roots_manager.bridge.transport._fastrelay import Ledger

STREAM_THRESHOLD = 64 * 1024
"""A partial line longer than this may start streaming through (the size of a pipe buffer)."""

MAX_HELD = 16 * 1024 * 1024
"""The most of one line the relay holds to hand it whole to its direction (a bound on memory)."""


class Runner(Protocol):
    """How a relay reaches its direction from the thread it runs in: in place (:class:`Inline`),
    or on the event loop where the protocol lives (:class:`~roots_manager.bridge.transport.pump.
    LoopRunner`)."""

    def handle(self, direction: Direction, line: bytes) -> bytes:
        """What to relay in place of *line*, once it is known."""
        ...

    def note(self, call: Callable[[], object]) -> None:
        """Run *call* (a note about a line relayed unread), without waiting for it."""
        ...


class Inline:
    """A relay and its direction on one thread: every call made in place."""

    def handle(self, direction: Direction, line: bytes) -> bytes:
        out = direction.handle(line)
        if not isinstance(out, HeldLine):
            return out
        # the protocol releases it later, on this thread: as ever, waiting here waits for good
        waiting: Future[bytes] = Future()
        out.when_released(waiting.set_result)
        return waiting.result()

    def note(self, call: Callable[[], object]) -> None:
        call()


class Counting(NamedTuple):
    """Where the hot path notes the lines of one direction that are only counted
    (:attr:`~roots_manager.bridge.protocol.direction.Lookout.counted`): the run's ledger, which
    the run's :class:`~roots_manager.bridge.run.noted.Noted` takes them from, in order."""

    ledger: Ledger
    from_host: bool


class LineRelay:
    """Frames a byte stream into lines and relays them, handing interesting ones to *direction*
    through *runner* (in place by default); with *counting*, the hot path relays the lines only
    counted too, and notes them there."""

    def __init__(
        self,
        writer: LineWriter,
        direction: Direction,
        *,
        runner: Runner | None = None,
        stream_threshold: int = STREAM_THRESHOLD,
        max_held: int = MAX_HELD,
        counting: Counting | None = None,
    ) -> None:
        self.writer = writer
        self.direction = direction
        self.runner: Runner = Inline() if runner is None else runner
        self.counting = counting
        self.stream_threshold = stream_threshold
        self.max_held = max_held
        self._partial = bytearray()
        self._scanned = 0
        self._partial_match = False
        self._streaming = False
        self._streamed_size = 0
        self._streamed_match = False
        self._tail = b""
        self._cut = False
        """The rest of the guarded line streaming now is thrown away (a pattern showed late)."""
        self._relayed = 0
        self._dropping = False
        """The rest of the current line is thrown away (a guarded line too long to hold)."""

    # ---- for the C hot path (:mod:`roots_manager.bridge.transport._fastrelay`), which relays the lines
    # that need no thought and hands this relay the rest, as if they had been read here

    def triage(self) -> tuple[tuple[bytes, ...], bool, bool, bool] | None:
        """What the hot path needs to relay a line on its own: the direction's patterns, whether
        it is guarded, whether a long line may stream, whether each line it relays must be noted
        in :attr:`counting`'s ledger; None when every chunk must come here (a line is under way
        in this relay, or every line is to be handled)."""
        if self._partial or self._streaming or self._dropping:
            return None
        look = self.direction.lookout()
        if look.parse_all and not (look.counted and self.counting is not None):
            return None
        return look.patterns, look.guarded, look.may_stream, look.parse_all

    def adopt_stream(self, size: int, tail: bytes) -> None:
        """Go on with a long line the hot path began streaming: its first *size* bytes went
        out, ending with *tail*."""
        self._begin_stream(size, matched=False)
        self._tail = tail

    def stream_ended(self, size: int) -> None:
        """A long line the hot path streamed whole has ended: what waited for it goes out."""
        self._note(self.direction.streamed, size, False)
        self.writer.relay(b"", mid_line=False)

    def feed(self, data: bytes) -> None:
        """Take the next chunk of the stream."""
        look = self.direction.lookout()
        if (
            not self._streaming
            and not self._partial
            and not self._dropping
            and data.find(b"\n") == len(data) - 1
            and not look.parse_all
        ):
            # the usual chunk is one whole message: the shortest way through
            for p in look.patterns:
                if p in data:
                    break
            else:
                end = len(data) - (2 if len(data) > 1 and data[-2] == 0x0D else 1)
                guarded = look.guarded
                if not guarded or not suspect(data, 0, end, data.isascii):
                    self.writer.relay(data, mid_line=False)
                    self._note_malformed(data, 0, end, data.isascii, guarded)
                    return
        out: list[Chunk] = []
        start = 0
        if self._dropping:
            nl = data.find(b"\n")
            self._streamed_size += len(data) if nl < 0 else nl + 1
            if nl < 0:
                return
            self._end_drop()
            start = nl + 1
        elif self._streaming:
            nl = data.find(b"\n")
            self._stream_more(data, len(data) if nl < 0 else nl + 1, out)
            if nl < 0:
                self.writer.relay(out[0] if len(out) == 1 else b"".join(out), mid_line=True)
                return
            self._end_stream(out, ended=True)
            start = nl + 1
        elif self._partial:
            nl = data.find(b"\n")
            if nl < 0:
                self._partial += data
                self._maybe_stream(out)
                self.writer.relay(b"".join(out), mid_line=self._streaming)
                return
            self._partial += memoryview(data)[: nl + 1]
            # taken as it is (a fresh buffer replaces it): a long line is not copied again
            line = self._partial
            matched, clean = self._partial_match, self._scanned
            self._reset_partial()
            out.append(self._one(line, clean, matched))
            start = nl + 1
        self._lines(data, start, out)
        self.writer.relay(b"".join(out) if len(out) != 1 else out[0], mid_line=self._streaming)

    def _lines(self, data: bytes, start: int, out: list[Chunk]) -> None:
        pats, every, _, guarded, _ = self.direction.lookout()
        find = data.find
        ascii_chunk: bool | None = None

        def chunk_is_ascii() -> bool:
            # looked at once, for the first line that needs it
            nonlocal ascii_chunk
            if ascii_chunk is None:
                ascii_chunk = data.isascii()
            return ascii_chunk

        pos = run = start
        while True:
            nl = find(b"\n", pos)
            if nl < 0:
                break
            end = nl - 1 if nl > pos and data[nl - 1] == 0x0D else nl
            for p in pats:
                if find(p, pos, end) >= 0:
                    matched = True
                    break
            else:
                matched = guarded and suspect(data, pos, end, chunk_is_ascii)
            # a line read only to be counted is noted for later, where the protocol allows
            wanted = matched or (every and not self.direction.defer(data[pos : nl + 1]))
            if wanted:
                if run < pos:
                    out.append(data[run:pos])
                if out:
                    # what came before goes out first: the direction may hold the line for the far side
                    # (a held line), and the far side may be waiting for those bytes
                    self.writer.relay(out[0] if len(out) == 1 else b"".join(out), mid_line=False)
                    out.clear()
                out.append(self._handle(data[pos : nl + 1]))
                run = nl + 1
                # handling a line may change what the next ones are looked at for
                pats, every, _, guarded, _ = self.direction.lookout()
            else:
                self._note_malformed(data, pos, end, chunk_is_ascii, guarded)
            pos = nl + 1
        if run < pos:
            out.append(data[run:pos] if (run, pos) != (0, len(data)) else data)
        if pos < len(data):
            if (
                not self._partial
                and len(data) - pos >= self.stream_threshold
                and self._stream_start(data, pos, out)
            ):
                return
            self._partial += memoryview(data)[pos:]
            self._maybe_stream(out)

    def _stream_start(self, data: bytes, pos: int, out: list[Chunk]) -> bool:
        """Start streaming a long unfinished line straight from *data*, without a copy."""
        look = self.direction.lookout()
        if look.parse_all or not look.may_stream or look.guarded:
            return False
        for p in look.patterns:
            if data.find(p, pos) >= 0:
                return False
        first = data if pos == 0 else memoryview(data)[pos:]
        self._begin_stream(len(data) - pos, matched=False)
        self._tail = data[-64:]
        out.append(first)
        return True

    def _begin_stream(self, size: int, *, matched: bool) -> None:
        self._scanned = 0
        self._streaming = True
        self._streamed_size = size
        self._streamed_match = matched
        self._cut = False
        self._relayed = size

    def _one(self, line: bytearray, clean: int = 0, matched: bool = False) -> Chunk:
        """Triage and relay one whole line that was gathered across chunks.

        *clean*: how many of its first bytes were already found to hold no pattern (nor, for a
        guarded direction, a disguise), so that a long line is not scanned twice; *matched*: a
        pattern was found in it already.
        """
        end = len(line)
        # its ending, as for a line read in one chunk: the newline and one CR before it
        if end and line[end - 1] == 0x0A:
            end -= 1
            if end and line[end - 1] == 0x0D:
                end -= 1
        look = self.direction.lookout()
        begin = max(0, clean - 64)
        guarded = look.guarded
        if (
            matched
            or any(line.find(p, begin, end) >= 0 for p in look.patterns)
            or (
                guarded
                and (
                    disguised(line, begin, end)
                    or (not line.isascii() and not is_utf8(memoryview(line)[:end]))
                )
            )
        ):
            return self._handle(bytes(line))
        # a line read only to be counted is noted for later, where the protocol allows
        if look.parse_all and not self.direction.defer(bytes(line)):
            return self._handle(bytes(line))
        self._note_malformed(line, 0, end, line.isascii, guarded)
        return line

    def _note_malformed(
        self,
        data: bytes | bytearray,
        start: int,
        end: int,
        is_ascii: Callable[[], bool],
        utf8_known: bool = False,
    ) -> None:
        """Note ``data[start:end]``, a line relayed unparsed, if it cannot be a JSON-RPC message."""
        reason = malformed(data, start, end, is_ascii, utf8_known)
        if reason is not None:
            self._note(self.direction.not_json, end - start, reason)

    def _reset_partial(self) -> None:
        self._partial = bytearray()
        self._scanned = 0
        self._partial_match = False

    def _maybe_stream(self, out: list[Chunk]) -> None:
        n = len(self._partial)
        if n < self.stream_threshold:
            return
        look = self.direction.lookout()
        guarded = look.guarded
        if not self._partial_match:
            # only the bytes added since the last look are scanned (with an overlap for a
            # pattern cut in two), so a long held line costs linear time
            begin = max(0, self._scanned - 64)
            partial = self._partial
            if any(partial.find(p, begin) >= 0 for p in look.patterns) or (
                guarded and disguised(partial, begin)
            ):
                self._partial_match = True
            self._scanned = n
        if n > self.max_held:
            if guarded and (self._partial_match or look.parse_all):
                # too long to be judged whole, and it may ask for roots: none of it goes out
                self._dropping = True
                self._streamed_size = n
                self._reset_partial()
                return
            matched = self._partial_match
        elif guarded or self._partial_match or look.parse_all or not look.may_stream:
            return
        else:
            matched = False
        first = bytes(self._partial)
        self._begin_stream(n, matched=matched)
        self._tail = first[-64:]
        out.append(first)
        self._reset_partial()

    def _stream_more(self, data: bytes, end: int, out: list[Chunk]) -> None:
        """Take ``data[:end]`` of a streamed line, watching for a pattern (even cut in two)."""
        self._streamed_size += end
        if self._cut:
            return
        if not self._streamed_match:
            look = self.direction.lookout()
            pats = look.patterns
            window = self._tail + data[: min(end, 64)]
            guarded = look.guarded
            if (
                any(p in window for p in pats)
                or any(data.find(p, 0, end) >= 0 for p in pats)
                or (guarded and (disguised(window) or disguised(data, 0, end)))
            ):
                self._streamed_match = True
                if guarded:
                    # nothing that may ask for roots goes out unparsed: the rest is thrown away
                    self._cut = True
                    return
        if end >= 64:
            self._tail = data[end - 64 : end]
        else:
            self._tail = (self._tail + data[:end])[-64:]
        self._relayed += end
        out.append(data if end == len(data) else memoryview(data)[:end])

    def _end_stream(self, out: list[Chunk], *, ended: bool) -> None:
        """The streamed line ended (*ended*: with its newline): finish it on the way out."""
        self._streaming = False
        self._tail = b""
        if self._cut:
            self._cut = False
            out.append(b"\n" if ended else b"")
            self._note(self.direction.withheld, self._streamed_size, self._relayed)
            return
        self._note(self.direction.streamed, self._streamed_size, self._streamed_match)

    def _end_drop(self) -> None:
        self._dropping = False
        self._note(self.direction.withheld, self._streamed_size, 0)

    def _handle(self, line: bytes) -> bytes:
        return self.runner.handle(self.direction, line)

    def _note(self, note: Callable[..., object], *args: object) -> None:
        self.runner.note(lambda: note(*args))

    def eof(self) -> None:
        """The stream ended: relay an unfinished last line as it is."""
        if self._dropping:
            self._end_drop()
            return
        if self._streaming:
            out: list[Chunk] = []
            self._end_stream(out, ended=False)
            self.writer.relay(b"".join(out), mid_line=False)
            return
        if self._partial:
            line = self._partial
            self._reset_partial()
            self.writer.relay(self._one(line), mid_line=False)

"""The byte pump of one direction: line framing, a cheap byte-level triage, and cut-through.

A stdio MCP stream is one JSON message per line. Most lines cannot concern roots, so the relay
never parses them: a few ``bytes.find`` calls over the line (no copy) decide whether the
:class:`LineHandler` must see it. Runs of lines that pass are written as one slice of the chunk
they arrived in, so a chunk full of ordinary traffic costs one write.

A line longer than :data:`STREAM_THRESHOLD` that has not matched any pattern yet is forwarded as
it arrives (cut-through) when the handler allows it, so a 64 MiB message never sits whole in the
bridge and a 1 MiB message is not delayed by a store-and-forward copy. A line that matches is
held until its end and handed to the handler whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

STREAM_THRESHOLD = 64 * 1024
"""A partial line longer than this may start streaming through (the size of a pipe buffer)."""

_OPEN = frozenset(b"{[")
_CLOSE = frozenset(b"}]")
_BLANK = b" \t\r\n"


class LineHandler(Protocol):
    """What a relay asks about the lines of its direction."""

    def patterns(self) -> Sequence[bytes]:
        """Byte strings whose presence makes a line worth parsing (may change over time)."""

    def parse_all(self) -> bool:
        """True when every line must be handled (``--log-all``)."""

    def may_stream(self) -> bool:
        """True when a long line that matched no pattern may be forwarded before it ends."""

    def handle(self, line: bytes) -> bytes:
        """Handle a whole line (with its newline, if any); return the bytes to relay in its place."""

    def not_json(self, size: int) -> None:
        """A line that cannot be a JSON-RPC message went through untouched."""

    def streamed(self, size: int, matched: bool) -> None:
        """A long line was relayed without being parsed; *matched* if a pattern showed late."""


class LineWriter:
    """One destination stream, shared by a relay and by messages the bridge makes up itself.

    The bridge's own messages are whole lines; they wait while the relay is in the middle of a
    line it is streaming, so that they never land inside someone else's message.
    """

    def __init__(self, write: Callable[[bytes], None]) -> None:
        self._write = write
        self._mid_line = False
        self._held: list[bytes] = []

    def relay(self, data: bytes, *, mid_line: bool) -> None:
        """Write relayed bytes; *mid_line* says whether they stop inside a line."""
        if data:
            self._write(data)
        self._mid_line = mid_line
        if not mid_line and self._held:
            held, self._held = self._held, []
            self._write(b"".join(held))

    def inject(self, line: bytes) -> None:
        """Write a whole message the bridge made (it must end with a newline)."""
        if self._mid_line:
            self._held.append(line)
        else:
            self._write(line)


class LineRelay:
    """Frames a byte stream into lines and relays them, giving interesting ones to a handler."""

    def __init__(
        self,
        writer: LineWriter,
        handler: LineHandler,
        *,
        stream_threshold: int = STREAM_THRESHOLD,
    ) -> None:
        self.writer = writer
        self.handler = handler
        self.stream_threshold = stream_threshold
        self._partial = bytearray()
        self._scanned = 0
        self._partial_match = False
        self._streaming = False
        self._streamed_size = 0
        self._streamed_match = False
        self._tail = b""

    @property
    def buffered(self) -> int:
        """Bytes of an unfinished line held now."""
        return len(self._partial)

    def feed(self, data: bytes) -> None:
        """Take the next chunk of the stream."""
        out: list[bytes] = []
        start = 0
        if self._streaming:
            nl = data.find(b"\n")
            if nl < 0:
                self._stream_more(data)
                self.writer.relay(data, mid_line=True)
                return
            self._stream_more(data[: nl + 1])
            out.append(data[: nl + 1])
            self._end_stream()
            start = nl + 1
        elif self._partial:
            nl = data.find(b"\n")
            if nl < 0:
                self._partial += data
                self._maybe_stream(out)
                self.writer.relay(b"".join(out), mid_line=self._streaming)
                return
            self._partial += data[: nl + 1]
            line = bytes(self._partial)
            self._reset_partial()
            out.append(self._one(line))
            start = nl + 1
        self._lines(data, start, out)
        self.writer.relay(b"".join(out) if len(out) != 1 else out[0], mid_line=self._streaming)

    def _lines(self, data: bytes, start: int, out: list[bytes]) -> None:
        handler = self.handler
        pats = handler.patterns()
        every = handler.parse_all()
        find = data.find
        pos = run = start
        while True:
            nl = find(b"\n", pos)
            if nl < 0:
                break
            end = nl - 1 if nl > pos and data[nl - 1] == 0x0D else nl
            wanted = every
            if not wanted:
                for p in pats:
                    if find(p, pos, end) >= 0:
                        wanted = True
                        break
            if wanted:
                if run < pos:
                    out.append(data[run:pos])
                out.append(handler.handle(data[pos : nl + 1]))
                run = nl + 1
                pats = handler.patterns()
            elif end > pos and (data[pos] not in _OPEN or data[end - 1] not in _CLOSE):
                self._check_shape(data[pos:end])
            pos = nl + 1
        if run < pos:
            out.append(data[run:pos] if (run, pos) != (0, len(data)) else data)
        if pos < len(data):
            self._partial += data[pos:]
            self._maybe_stream(out)

    def _one(self, line: bytes) -> bytes:
        """Triage and relay one whole line that was gathered across chunks."""
        body = line.rstrip(b"\r\n")
        if self.handler.parse_all() or any(p in body for p in self.handler.patterns()):
            return self.handler.handle(line)
        self._check_shape(body)
        return line

    def _check_shape(self, body: bytes) -> None:
        stripped = body.strip(_BLANK)
        if stripped and (stripped[0] not in _OPEN or stripped[-1] not in _CLOSE):
            self.handler.not_json(len(body))

    def _reset_partial(self) -> None:
        self._partial = bytearray()
        self._scanned = 0
        self._partial_match = False

    def _maybe_stream(self, out: list[bytes]) -> None:
        n = len(self._partial)
        if self._partial_match or n < self.stream_threshold or self.handler.parse_all():
            return
        # only the bytes added since the last look are scanned (with an overlap for a
        # pattern cut in two), so a long held line costs linear time
        begin = max(0, self._scanned - 64)
        for p in self.handler.patterns():
            if self._partial.find(p, begin) >= 0:
                self._partial_match = True
                return
        self._scanned = n
        if not self.handler.may_stream():
            return
        self._streaming = True
        self._streamed_size = len(self._partial)
        self._streamed_match = False
        self._tail = bytes(self._partial[-64:])
        out.append(bytes(self._partial))
        self._reset_partial()

    def _stream_more(self, data: bytes) -> None:
        self._streamed_size += len(data)
        if not self._streamed_match:
            window = self._tail + data[:64] if len(data) > 64 else self._tail + data
            pats = self.handler.patterns()
            if any(p in window for p in pats) or any(p in data for p in pats):
                self._streamed_match = True
        self._tail = data[-64:] if len(data) >= 64 else (self._tail + data)[-64:]

    def _end_stream(self) -> None:
        self._streaming = False
        self._tail = b""
        self.handler.streamed(self._streamed_size, self._streamed_match)

    def eof(self) -> None:
        """The stream ended: relay an unfinished last line as it is."""
        if self._streaming:
            self._end_stream()
            self.writer.relay(b"", mid_line=False)
            return
        if self._partial:
            line = bytes(self._partial)
            self._reset_partial()
            self.writer.relay(self._one(line), mid_line=False)

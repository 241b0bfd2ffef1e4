"""The host's first exchange relayed while the rest of the bridge loads (POSIX).

A host waits for its ``initialize`` to be answered at each start of each server. The server is
started first thing (:mod:`roots_manager.bridge.main`), but the rest of the bridge (the protocol's
state, the event log, the store, the watchers) takes longer to load than many servers take to
answer, and until it has, nothing is relayed. So from the moment the server runs, a thread of
its own (:class:`EarlyRelay`) reads the host's first line, and, when the protocol can say from
the line alone what the mediator would relay for it
(:mod:`roots_manager.bridge.protocol.opening`), writes that to the server; then it reads the
server's first line and, when it is the answer to that ``initialize`` and goes as it is, writes
it to the host. Anything else stops it where it is, and nothing it read is lost: it waits for the
pumps.

The run takes over once it has loaded (:meth:`EarlyRelay.finish`, before its pumps start): the
relay stops reading, the run gives the mediator the lines relayed, in order and with the times
they went, as the pumps would have, and the pumps begin with what was read beyond them
(:class:`Opening`). Only this thread and then the pumps read the two streams, and only this
thread writes before the pumps do: no line is relayed twice, or out of order.
"""

from __future__ import annotations

import os
import select
import stat
import sys
import threading
import time

from roots_manager.bridge.protocol.opening import (
    EARLY_LIMIT,
    answers_initialize,
    initialize_relayed,
)

SWITCH_INTERVAL = 0.0005
"""The interpreter's switch interval while the relay runs (seconds): the run loads meanwhile,
holding the interpreter lock, and a line that arrived must not wait the default 5 ms for it."""


def relayable(fd: int) -> bool:
    """Whether the host speaks through *fd* as hosts do, a pipe or a socket, which the relay
    can wait on and stop waiting on (not a terminal, which some systems cannot poll)."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class Opening:
    """What the early relay did, for the run to take over from."""

    __slots__ = ("answer", "host", "host_ended", "host_rest", "server_ended", "server_rest")

    def __init__(self) -> None:
        self.host: tuple[bytes, bytes, float] | None = None
        """The host's first line as it came, what went to the server in its place, and when
        (seconds since the epoch); None: nothing was relayed early."""
        self.answer: tuple[bytes, float] | None = None
        """The server's answer to it, relayed to the host as it came, and when; None: not
        relayed early."""
        self.host_rest = b""
        """What was read from the host and not relayed: the pump from the host begins with it."""
        self.server_rest = b""
        """What was read from the server and not relayed: the pump from the server begins with
        it."""
        self.host_ended = False
        """The host's stream ended while the relay read it."""
        self.server_ended = False
        """The server's stream ended while the relay read it."""


class EarlyRelay:
    """Relays the host's ``initialize`` and the server's answer while the run loads."""

    def __init__(
        self, host_in: int, server_in: int, server_out: int, host_out: int, *, observe: bool
    ) -> None:
        self._fds = (host_in, server_in, server_out, host_out)
        self._observe = observe
        self._stop_read, self._stop_write = os.pipe()
        self._interval = sys.getswitchinterval()
        self._thread = threading.Thread(target=self._run, name="early-relay", daemon=True)
        self._confirmed = threading.Event()
        self.opening = Opening()

    def start(self) -> None:
        """Begin relaying, in a thread of its own."""
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._thread.start()

    def confirm(self) -> None:
        """The bridge goes on (its command line is sound): the server's answer may go to the
        host. Until then it is held (a bridge that refuses to run ends its server)."""
        self._confirmed.set()

    def finish(self) -> Opening:
        """Stop relaying (a write under way completes) and say what was done."""
        os.write(self._stop_write, b".")
        self._confirmed.set()
        self._thread.join()
        sys.setswitchinterval(self._interval)
        os.close(self._stop_read)
        os.close(self._stop_write)
        return self.opening

    def _run(self) -> None:
        try:
            self._relay()
        except Exception:  # pragma: no cover - a bug: what was read still waits for the pumps
            import traceback

            print("roots-bridge: the early relay failed:", file=sys.stderr)
            traceback.print_exc()

    def _relay(self) -> None:
        host_in, server_in, server_out, host_out = self._fds
        opening = self.opening
        line, rest, opening.host_ended = self._line(host_in)
        opening.host_rest = rest if line is None else line + rest
        if line is None:
            return
        judged = initialize_relayed(line, observe=self._observe)
        if judged is None:
            return
        relayed, initialize = judged
        opening.host, opening.host_rest = (line, relayed, time.time()), rest
        if not _write_all(server_in, relayed):
            return  # the server is gone: the run finds out
        answer, rest, opening.server_ended = self._line(server_out)
        opening.server_rest = rest if answer is None else answer + rest
        if answer is None or not answers_initialize(answer, initialize):
            return
        self._confirmed.wait()
        opening.answer, opening.server_rest = (answer, time.time()), rest
        _write_all(host_out, answer)  # a host that went is the run's to find out

    def _line(self, fd: int) -> tuple[bytes | None, bytes, bool]:
        """The first line read from *fd*, what came after it, and whether the stream ended;
        no line (None) when the relay was stopped first, the stream ended or failed, or the line
        is longer than the relay takes (what came is then all in the second member)."""
        got = b""
        while True:
            end = got.find(b"\n")
            if end >= 0:
                return got[: end + 1], got[end + 1 :], False
            if len(got) > EARLY_LIMIT or not self._readable(fd):
                return None, got, False
            try:
                data = os.read(fd, EARLY_LIMIT + 1)
            except BlockingIOError:  # a descriptor the host made non-blocking
                continue
            except OSError:  # the pump reads it again, and says why
                return None, got, False
            if not data:
                return None, got, True
            got += data

    def _readable(self, fd: int) -> bool:
        """Wait until *fd* can be read; False when the relay is stopped first."""
        if sys.platform == "win32":  # pragma: no cover - never started there
            return False
        poll = select.poll()
        poll.register(fd, select.POLLIN)
        poll.register(self._stop_read, select.POLLIN)
        while True:
            try:
                ready = dict(poll.poll())
            except InterruptedError:  # pragma: no cover - retried by Python itself
                continue
            return self._stop_read not in ready and fd in ready


def _write_all(fd: int, data: bytes) -> bool:
    """Write all of *data* to *fd*; False if it failed (the reader is gone)."""
    view = memoryview(data)
    try:
        while view:
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:  # a descriptor made non-blocking: wait until it takes more
                select.select([], [fd], [])
    except OSError:
        return False
    return True

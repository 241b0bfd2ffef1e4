"""The server a bridge run has running now: one server process and the bridge's ends of its
pipes.

It holds what a restart (:class:`~roots_manager.bridge.run.restarts.Restarts`) swaps: the
process, how it was launched, the pump that reads its stdout, the closing of its stdin and the
wait for its exit. The writer to the server's stdin outlives it: each new server a restart starts
points it at its own process.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
from collections.abc import Callable

from roots_manager.bridge.protocol.direction import Direction
from roots_manager.bridge.run.confine import Launch
from roots_manager.bridge.run.process import GRACE, ServerProcess
from roots_manager.bridge.transport.pump import HandOff, LoopRunner, Pump
from roots_manager.bridge.transport.relay import Counting, LineRelay
from roots_manager.bridge.transport.writer import FdSink, LineWriter

FLUSH_TIMEOUT = 5.0
FLUSH_ASKED = 0.3
"""Seconds what the server said last gets to reach the host when the host asked the run to end
(Claude Code's ladder kills at 500 ms)."""


class RunningServer:
    """One server process of a run: what a restart stops and starts again."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes] | None,
        launch: Launch | None,
        to_server: LineWriter,
    ) -> None:
        self.proc = proc
        self.launch = launch
        self._to_server = to_server
        self.server = ServerProcess(
            proc,  # type: ignore[arg-type]
            close_stdin=self.close_stdin,
            supervised=launch is not None and launch.supervised,
            warden=launch.warden if launch is not None else None,
            unread=self._unread,
            started=launch.started if launch is not None else None,
        )
        self.out_ended = asyncio.Event()
        """The server's stdout ended and all it said has been written to the host."""
        self._stdin_closed: asyncio.Event | None = None
        self._handoff: HandOff | None = None

    @property
    def confined(self) -> bool:
        """This server runs confined."""
        return self.launch is not None and self.launch.key is not None

    @property
    def reachable(self) -> list[str] | None:
        """The granted folders this server's kernel rules let it reach (to read, or read and
        write), as they were when it started; None when it runs unconfined. A revocation that
        does not restart it leaves them reachable until its next start: the app says so."""
        key = self.launch.key if self.launch is not None else None
        if key is None or len(key) < 2:
            return None
        return sorted({*key[0], *key[1]})  # confinement_key: (write, read, ...)

    def take_writer(self, sink: FdSink) -> None:
        """Point the writer to the server's stdin, and its *sink*, at this server's process (a
        restarted server)."""
        assert self.proc is not None and self.proc.stdin is not None
        sink.retarget(self.proc.stdin.fileno())
        self._to_server.reopen(self.proc.stdin.fileno())

    def pump(
        self,
        handoff: HandOff,
        to_host: LineWriter,
        direction: Direction,
        runner: LoopRunner,
        on_end: Callable[[asyncio.Event], None],
        *,
        counting: Counting | None = None,
        first: bytes = b"",
        ended: bool = False,
    ) -> None:
        """Read what the server says, in a thread, and hand it to *direction* through
        *runner* (the lines only counted noted in *counting*'s ledger); *on_end* gets
        this server's :attr:`out_ended` on the loop once the server's stdout ends. *first*: what
        was read from it already, and *ended*: whether its end was (:class:`~roots_manager.
        bridge.transport.pump.Pump`)."""
        assert self.proc is not None and self.proc.stdout is not None
        self._handoff = handoff
        out_ended = self.out_ended
        Pump(
            "server-to-host",
            self.proc.stdout.fileno(),
            LineRelay(to_host, direction, runner=runner, counting=counting),
            lambda: handoff.call(lambda: on_end(out_ended)),
            first=first,
            ended=ended,
        ).start()

    def _unread(self) -> int | None:
        """The bytes written to the server's stdin it has not read yet (None: not known)."""
        stdin = self.proc.stdin if self.proc is not None else None
        if stdin is None or stdin.closed or sys.platform == "win32":
            return None
        import fcntl
        import termios

        try:
            got = fcntl.ioctl(stdin.fileno(), termios.FIONREAD, b"\0\0\0\0")
        except (OSError, ValueError):
            return None
        return int.from_bytes(got, sys.byteorder)

    def close_stdin(self) -> None:
        # the closer waits for a write in progress, which a server that does not read can
        # make last until the ladder ends it: never on the event loop
        proc = self.proc
        if proc is None or proc.stdin is None:
            return
        stdin = proc.stdin
        closed = self._stdin_closed = asyncio.Event()
        handoff = self._handoff
        to_server = self._to_server

        def close() -> None:
            to_server.close(lambda: _quietly(stdin.close))
            if handoff is not None:
                handoff.call(closed.set)

        threading.Thread(target=close, name="close-server-stdin", daemon=True).start()

    def release_stdin(self) -> asyncio.Event:
        """Close the server's stdin now; the event is set once the writer to it is free for
        another server."""
        self.close_stdin()
        assert self._stdin_closed is not None
        return self._stdin_closed

    async def retire(self, *, stdin_closed: bool = False) -> str:
        """Stop the server, for a restart, and wait until all it said has reached the host;
        returns which step of the ladder ended it."""
        try:
            how = await self.server.stop(GRACE, close=not stdin_closed)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.out_ended.wait(), FLUSH_TIMEOUT)
        except asyncio.CancelledError:
            self.server.kill_group()
            raise
        return how


def _quietly(fn: Callable[[], object]) -> None:
    with contextlib.suppress(OSError):
        fn()

"""The real server as a child process: spawn it, feed it, and stop it the way stdio MCP expects.

Stopping follows the ladder the MCP SDKs use: close the server's stdin, wait, SIGTERM, wait,
SIGKILL (2 s each by default). The server runs in its own process group so that the ladder also
reaches what it spawned itself (``npx`` starts ``node``, shells start their commands), and a
terminal's Ctrl+C reaches only the bridge, which then stops the server in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Callable

from roots_manager.bridge.spawn import POSIX as _POSIX

GRACE = 2.0


def read_in_large_chunks(transport: asyncio.BaseTransport, size: int = 1024 * 1024) -> None:
    """Let a pipe transport read up to *size* bytes at once (asyncio's default is 256 KiB)."""
    if hasattr(transport, "max_size"):
        transport.max_size = size


class _Stdout(asyncio.Protocol):
    def __init__(self, owner: ServerProcess) -> None:
        self.owner = owner

    def data_received(self, data: bytes) -> None:
        self.owner.on_stdout(data)

    def eof_received(self) -> bool | None:
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.owner.stdout_closed.set()
        self.owner.on_stdout_eof()


class _Stdin(asyncio.Protocol):
    def __init__(self, owner: ServerProcess) -> None:
        self.owner = owner

    def pause_writing(self) -> None:
        self.owner.on_stdin_full(True)

    def resume_writing(self) -> None:
        self.owner.on_stdin_full(False)

    def connection_lost(self, exc: Exception | None) -> None:
        self.owner.stdin_closed = True


class ServerProcess:
    """One spawned server with piped stdin and stdout; its stderr is the bridge's stderr."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        *,
        on_stdout: Callable[[bytes], None],
        on_stdout_eof: Callable[[], None],
        on_stdin_full: Callable[[bool], None],
    ) -> None:
        self.proc = proc
        self.on_stdout = on_stdout
        self.on_stdout_eof = on_stdout_eof
        self.on_stdin_full = on_stdin_full
        self.exited = asyncio.Event()
        self.stdout_closed = asyncio.Event()
        self.stdin_closed = False
        self._stdin: asyncio.WriteTransport | None = None
        self._stdout: asyncio.ReadTransport | None = None

    async def attach(self) -> None:
        """Start relaying the server's pipes and watching for its exit."""
        loop = asyncio.get_running_loop()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._stdin, _ = await loop.connect_write_pipe(lambda: _Stdin(self), self.proc.stdin)
        self._stdout, _ = await loop.connect_read_pipe(lambda: _Stdout(self), self.proc.stdout)
        read_in_large_chunks(self._stdout)
        # a generous buffer before pushing back on the host: a server that reads in bursts
        # should not stall the host on every burst
        self._stdin.set_write_buffer_limits(high=1024 * 1024)

        def wait() -> None:
            self.proc.wait()
            with contextlib.suppress(RuntimeError):  # the loop is already gone
                loop.call_soon_threadsafe(self.exited.set)

        threading.Thread(target=wait, name="server-exit", daemon=True).start()

    @property
    def pid(self) -> int | None:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def write(self, data: bytes) -> None:
        """Write to the server's stdin (dropped once it is closed: the server is gone)."""
        if self._stdin is not None and not self._stdin.is_closing() and not self.stdin_closed:
            self._stdin.write(data)

    def pause_reading(self, pause: bool) -> None:
        """Stop (or resume) reading the server's stdout while the host is not reading."""
        if self._stdout is None or self._stdout.is_closing():
            return
        if pause:
            self._stdout.pause_reading()
        else:
            self._stdout.resume_reading()

    def close_stdin(self) -> None:
        """Close the server's stdin once what is buffered for it has been written."""
        if self._stdin is not None and not self._stdin.is_closing():
            self._stdin.close()

    def kill_now(self) -> None:
        """Kill the server and its group at once (the bridge could not even start)."""
        self._signal_group(signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.proc.wait(GRACE)

    def _signal_group(self, sig: int) -> bool:
        pid = self.pid
        if pid is None:
            return False
        try:
            if _POSIX:
                os.killpg(pid, sig)
            elif self.returncode is None:  # pragma: no cover - Windows
                self.proc.send_signal(sig)
            return True
        except (ProcessLookupError, PermissionError):
            return False

    async def _wait_exit(self, timeout: float) -> bool:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.exited.wait(), timeout)
        return self.exited.is_set()

    async def stop(self, grace: float = GRACE) -> str:
        """Close stdin, wait, SIGTERM, wait, SIGKILL; returns which step ended the server."""
        how = "stdin closed"
        self.close_stdin()
        if not await self._wait_exit(grace):
            how = "SIGTERM"
            self._signal_group(signal.SIGTERM)
            if not await self._wait_exit(grace):
                how = "SIGKILL"
                self._signal_group(signal.SIGKILL)
                await self.exited.wait()
        await self.reap_group(grace)
        return how

    async def reap_group(self, grace: float = GRACE) -> None:
        """Stop what the server left running in its process group after it ended itself."""
        if not _POSIX or self.pid is None:
            return
        if not self._group_alive():
            return
        self._signal_group(signal.SIGTERM)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while self._group_alive() and loop.time() < deadline:
            await asyncio.sleep(0.05)
        if self._group_alive():
            self._signal_group(signal.SIGKILL)

    def _group_alive(self) -> bool:
        pid = self.pid
        if pid is None:
            return False
        try:
            os.killpg(pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True

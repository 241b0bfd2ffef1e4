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


class ServerProcess:
    """One spawned server; its pipes are pumped by the bridge, its stderr is the bridge's stderr."""

    def __init__(self, proc: subprocess.Popen[bytes], *, close_stdin: Callable[[], None]) -> None:
        self.proc = proc
        self.exited = asyncio.Event()
        self._close_stdin = close_stdin

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start watching for the server's exit (it sets :attr:`exited` on *loop*)."""

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

    def close_stdin(self) -> None:
        """Close the server's stdin once what is being written to it has been written."""
        self._close_stdin()

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

    async def stop(self, grace: float = GRACE, *, close: bool = True) -> str:
        """Close stdin (unless already done), wait, SIGTERM, wait, SIGKILL; returns which step
        ended the server."""
        how = "stdin closed"
        if close:
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

    def kill_group(self) -> None:
        """End the server and its process group at once (the session is ending mid-restart)."""
        self._signal_group(signal.SIGKILL)

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

"""One bridge session from start to end: the server, both relays, the roots logic, the watchers.

The server process is already running when a :class:`Bridge` is made (``main`` starts it first
thing); the bridge attaches to its pipes, to the host's stdin and stdout, records the session in
the store, and runs until the host or the server goes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from roots_manager import __version__
from roots_manager.bridge.eventlog import BridgeLog
from roots_manager.bridge.process import GRACE, ServerProcess, read_in_large_chunks
from roots_manager.bridge.relay import LineRelay, LineWriter
from roots_manager.bridge.roots import HeldAnswers, RootsSource
from roots_manager.bridge.session import Session
from roots_manager.bridge.spawn import EXIT_CANNOT_START, exit_code, grow_pipe
from roots_manager.bridge.watch import AVAILABILITY_PERIOD, every, watch_store
from roots_manager.core import events as ev
from roots_manager.core import live
from roots_manager.core.model import fingerprint, now_iso
from roots_manager.core.paths import Layout
from roots_manager.core.store import Store, StoreError

DEFAULT_CONSENT_TIMEOUT = 30.0
FLUSH_TIMEOUT = 5.0


def new_session_id() -> str:
    """A session id that sorts by start time (log files are listed by name)."""
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "-" + secrets.token_hex(4)


class _HostIn(asyncio.Protocol):
    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge

    def data_received(self, data: bytes) -> None:
        self.bridge.h2s.feed(data)

    def eof_received(self) -> bool | None:
        self.bridge.host_eof()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.bridge.host_eof()


class _HostOut(asyncio.Protocol):
    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge
        self.drained = asyncio.Event()
        self.drained.set()

    def pause_writing(self) -> None:
        self.drained.clear()
        self.bridge.server.pause_reading(True)

    def resume_writing(self) -> None:
        self.drained.set()
        self.bridge.server.pause_reading(False)

    def connection_lost(self, exc: Exception | None) -> None:
        self.drained.set()
        self.bridge.host_gone(exc)


class Bridge:
    """One bridge session: the server, both relays, the roots logic, the watchers."""

    def __init__(
        self,
        server_name: str,
        command: Sequence[str],
        proc: subprocess.Popen[bytes] | None,
        *,
        observe: bool = False,
        consent_timeout: float = DEFAULT_CONSENT_TIMEOUT,
        log_all: bool = False,
        layout: Layout | None = None,
    ) -> None:
        self.name = server_name
        self.command = list(command)
        self.observe = observe
        self.consent_timeout = consent_timeout
        self.layout = (layout or Layout.default()).ensure()
        self.session_id = new_session_id()
        self.fingerprint = fingerprint(self.command)
        self.store = Store(self.layout)
        self.log = BridgeLog(self.layout, server_name, self.session_id)
        self.source = RootsSource(
            self.store,
            server_name,
            self.fingerprint,
            self.session_id,
            on_error=lambda m: self.log.event(ev.ERROR, message=m),
        )
        self.answers = HeldAnswers(self.source)
        self.proc = proc
        self.server = ServerProcess(
            proc,  # type: ignore[arg-type]
            on_stdout=self._from_server,
            on_stdout_eof=self._server_eof,
            on_stdin_full=self._server_stdin_full,
        )
        self.to_server = LineWriter(self.server.write)
        self.to_host = LineWriter(self._write_host)
        self.session = Session(
            answers=self.answers,
            log=self.log,
            to_server=self.to_server,
            to_host=self.to_host,
            defer=self._defer,
            observe=observe,
            log_all=log_all,
        )
        self.h2s = LineRelay(self.to_server, self.session.host_side)
        self.s2h = LineRelay(self.to_host, self.session.server_side)
        self.stop_event = asyncio.Event()
        self._reason = ""
        self._host_in: asyncio.ReadTransport | None = None
        self._host_out: asyncio.WriteTransport | None = None
        self._host_out_proto: _HostOut | None = None
        self._host_alive = True
        self._registered = False
        self._consent_waiting = False
        self._consent_timer: asyncio.TimerHandle | None = None
        self._tasks: list[asyncio.Task[Any]] = []

    # ---- wiring ---------------------------------------------------------------------------

    def _defer(self, fn: Any) -> None:
        asyncio.get_running_loop().call_soon(fn)

    def _from_server(self, data: bytes) -> None:
        self.s2h.feed(data)

    def _server_eof(self) -> None:
        self.s2h.eof()

    def _server_stdin_full(self, full: bool) -> None:
        if self._host_in is not None and not self._host_in.is_closing():
            if full:
                self._host_in.pause_reading()
            else:
                self._host_in.resume_reading()

    def _write_host(self, data: bytes) -> None:
        out = self._host_out
        if out is not None and self._host_alive and not out.is_closing():
            out.write(data)

    def host_eof(self) -> None:
        """The host closed its end of our stdin."""
        if not self.stop_event.is_set():
            self._reason = self._reason or "host closed stdin"
            self.h2s.eof()
            self.stop_event.set()

    def host_gone(self, exc: Exception | None) -> None:
        """Our stdout broke: nobody reads what the server says any more."""
        self._host_alive = False
        if exc is not None and not self.stop_event.is_set():
            self._reason = self._reason or "host stopped reading"
            self.stop_event.set()

    def _signalled(self, signum: int) -> None:
        if not self.stop_event.is_set():
            self._reason = f"{signal.Signals(signum).name} received"
            self.stop_event.set()

    async def _connect_host_out(self) -> None:
        loop = asyncio.get_running_loop()
        grow_pipe(1)
        proto = _HostOut(self)
        try:
            self._host_out, _ = await loop.connect_write_pipe(
                lambda: proto, os.fdopen(os.dup(1), "wb", buffering=0)
            )
            self._host_out_proto = proto
        except (ValueError, OSError):
            self._host_out = _BlockingOut(1)

    async def _connect_host_in(self) -> None:
        loop = asyncio.get_running_loop()
        grow_pipe(0)
        try:
            self._host_in, _ = await loop.connect_read_pipe(
                lambda: _HostIn(self), os.fdopen(os.dup(0), "rb", buffering=0)
            )
            read_in_large_chunks(self._host_in)
        except (ValueError, OSError):
            # stdin is a regular file (or closed): read it in a thread instead
            self._tasks.append(asyncio.create_task(self._read_host_blocking()))

    async def _read_host_blocking(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                data = await loop.run_in_executor(None, os.read, 0, 256 * 1024)
            except OSError:
                data = b""
            if not data:
                self.host_eof()
                return
            self.h2s.feed(data)

    # ---- the session --------------------------------------------------------------------

    async def run(self) -> int:
        """Run until the host or the server goes; returns the bridge's exit code."""
        loop = asyncio.get_running_loop()
        # both write ends exist before either read end starts: nothing read can be dropped
        await self._connect_host_out()
        await self.server.attach()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self._signalled, sig)
        await self._connect_host_in()
        self.log.event(
            ev.SESSION_START,
            command=self.command,
            pid=os.getpid(),
            server_pid=self.server.pid,
            mode="observe" if self.observe else "managed",
            version=__version__,
        )
        self._tasks.append(asyncio.create_task(self._register()))
        exited = asyncio.create_task(self.server.exited.wait())
        stopped = asyncio.create_task(self.stop_event.wait())
        await asyncio.wait({exited, stopped}, return_when=asyncio.FIRST_COMPLETED)
        how = None
        if not self.server.exited.is_set():
            how = await self.server.stop(GRACE)
        else:
            self._reason = self._reason or "server exited"
            await self.server.reap_group(GRACE)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.server.stdout_closed.wait(), GRACE)
        code = exit_code(self.server.returncode)
        exited.cancel()
        stopped.cancel()
        await self._finish(code, how)
        return code

    def cannot_start(self, exc: OSError) -> int:
        """Report a command that cannot be started; returns the exit code (127)."""
        what = exc.strerror or str(exc)
        print(
            f"roots-bridge: cannot start the server {self.name!r}: {self.command[0]}: {what}",
            file=sys.stderr,
            flush=True,
        )
        self.log.event(
            ev.SESSION_START,
            command=self.command,
            pid=os.getpid(),
            mode="observe" if self.observe else "managed",
            version=__version__,
        )
        self.log.event(ev.ERROR, message=f"cannot start {self.command[0]}: {what}")
        self.log.event(ev.SESSION_END, exit_code=EXIT_CANNOT_START, reason="cannot start")
        self.log.close()
        return EXIT_CANNOT_START

    async def _register(self) -> None:
        loop = asyncio.get_running_loop()
        marker = live.BridgeMarker(
            session=self.session_id,
            server=self.name,
            pid=os.getpid(),
            started_at=now_iso(),
            command=self.command,
            mode="observe" if self.observe else "managed",
            log_file=str(self.log.writer.path),
            server_pid=self.server.pid,
        )
        pending = False
        if not self.observe:
            try:
                pending = await asyncio.to_thread(self._record_start)
                self._registered = True
            except StoreError as exc:
                self.log.event(ev.ERROR, message=f"the server's start was not recorded: {exc}")
                print(f"roots-bridge: {exc}", file=sys.stderr, flush=True)
        self.log.start_marker(marker, loop)
        if self.observe:
            return
        stop = self.stop_event
        self._tasks.append(asyncio.create_task(watch_store(self.layout, self._store_changed, stop)))
        self._tasks.append(
            asyncio.create_task(every(AVAILABILITY_PERIOD, self._store_changed, stop))
        )
        if pending and live.app_running(self.layout):
            self._consent_waiting = True
            self.log.event(
                ev.CONSENT_WAIT,
                timeout=self.consent_timeout,
                message=f"waiting up to {self.consent_timeout:g} s for your decision on "
                f"{self.name!r} in the desktop app",
            )
            self._consent_timer = loop.call_later(self.consent_timeout, self._consent_over, True)
            if not self.source.pending():
                self._consent_over(False)
        else:
            self.answers.open()
            self.session.check_changes()

    def _record_start(self) -> bool:
        sessions = live.live_sessions(self.layout) | {self.session_id}
        with self.store.transaction() as state:
            state.prune_sessions(sessions)
            request = state.server_started(self.name, self.command, self.session_id)
        return request is not None

    def _consent_over(self, timed_out: bool) -> None:
        if not self._consent_waiting:
            return
        self._consent_waiting = False
        if self._consent_timer is not None:
            self._consent_timer.cancel()
        if timed_out:
            message = (
                f"no decision within {self.consent_timeout:g} s: answering with what is "
                "granted; a later grant reaches the server as list_changed"
            )
        else:
            message = "the decision arrived"
        self.log.event(
            ev.CONSENT_DECIDED,
            outcome="timeout" if timed_out else "decided",
            message=message,
            held=self.answers.waiting,
        )
        self.answers.open()
        self.session.check_changes()

    def _store_changed(self) -> None:
        if self._consent_waiting and not self.source.pending():
            self._consent_over(False)
            return
        if self.answers.is_open:
            self.session.check_changes()

    async def _finish(self, code: int, how: str | None) -> None:
        for t in self._tasks:
            t.cancel()
        if self._consent_timer is not None:
            self._consent_timer.cancel()
        await self._flush_host()
        if self._registered:
            with contextlib.suppress(StoreError, OSError):
                await asyncio.to_thread(self._record_end)
        self.log.event(
            ev.SESSION_END,
            exit_code=code,
            returncode=self.server.returncode,
            reason=self._reason or None,
            stopped_by=how,
            notices=self.session.notices,
        )
        await self.log.settle()
        self.log.close()
        if self._host_in is not None:
            self._host_in.close()

    def _record_end(self) -> None:
        with self.store.transaction() as state:
            state.session_ended(self.name, self.session_id)

    async def _flush_host(self) -> None:
        out = self._host_out
        if out is None or not self._host_alive:
            return
        proto = self._host_out_proto
        if proto is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proto.drained.wait(), FLUSH_TIMEOUT)
        out.close()


class _BlockingOut(asyncio.WriteTransport):
    """Stdout that is a regular file: plain blocking writes."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self._closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self._fd, view)
            view = view[n:]

    def is_closing(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._closed = True

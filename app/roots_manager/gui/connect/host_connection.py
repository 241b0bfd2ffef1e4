"""The app as the MCP host of one server started through the bridge.

A small JSON-RPC client over :class:`QProcess` rather than the SDK's client in a worker thread:
the app only needs the handshake and pings, QProcess delivers its output on the Qt event loop
(with or without qasync), and the process lifetime stays under the app's direct control for the
shutdown ladder.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Any

import psutil
from PySide6.QtCore import QObject, QProcess, QTimer, Signal, Slot

from roots_manager import __version__
from roots_manager.support.stop_ladder import Rung, Step, StopLadder

PROTOCOL_VERSION = "2025-11-25"
"""The revision the app offers in ``initialize``; the server may answer with an older one."""

HANDSHAKE_TIMEOUT_MS = 60_000
"""How long a server may take to answer ``initialize`` (``npx`` may download it first)."""

STDIN_GRACE_MS = 5_000
"""After closing the bridge's stdin: the bridge's own ladder for its server takes up to 4 s."""

TERM_GRACE_MS = 2_000
"""After SIGTERM, before SIGKILL."""

STDERR_KEPT = 200

METHOD_NOT_FOUND = -32601


def terminate_heard(platform: str = sys.platform) -> bool:
    """Whether ``QProcess.terminate`` can stop the bridge politely on *platform*.

    On Windows it posts ``WM_CLOSE`` to the process's windows, and the bridge, a console program,
    has none: the step would only delay the kill. There closing stdin is the polite step (the
    bridge stops its server and exits on it), and the kill follows its grace period.
    """
    return platform != "win32"


@dataclass(frozen=True)
class HostTimings:
    """How long the app waits at each step of a connection (tests shorten them)."""

    handshake_timeout_ms: int = HANDSHAKE_TIMEOUT_MS
    stdin_grace_ms: int = STDIN_GRACE_MS
    term_grace_ms: int = TERM_GRACE_MS
    terminate: bool = terminate_heard()
    """Whether the ladder has its SIGTERM step (not on Windows: :func:`terminate_heard`)."""

    @property
    def ladder(self) -> StopLadder:
        """The shutdown ladder with these waits; the kill, waited out only when the app quits,
        gets the SIGTERM's grace."""
        term = self.term_grace_ms / 1000
        return StopLadder(
            self.stdin_grace_ms / 1000, term, kill_wait=term, terminate=self.terminate
        )


DEFAULT_TIMINGS = HostTimings()


class HostState(Enum):
    """Where the app's connection to one server stands."""

    STARTING = "starting"
    """The bridge process is being started."""
    INITIALIZING = "initializing"
    """``initialize`` was sent; its answer is awaited."""
    READY = "ready"
    """The handshake is complete: the server runs with the app as its host."""
    CLOSING = "closing"
    """The shutdown ladder runs: stdin closed, then SIGTERM, then SIGKILL."""
    ENDED = "ended"

    @property
    def live(self) -> bool:
        """Starting, initializing or ready: a connection that can still be disconnected."""
        return self in (HostState.STARTING, HostState.INITIALIZING, HostState.READY)

    @property
    def stopping(self) -> bool:
        """Closing or ended: nothing more is sent."""
        return self in (HostState.CLOSING, HostState.ENDED)


class HostConnection(QObject):
    """One bridge process and the MCP host connection the app holds over it.

    *timings* are the app's unless a test shortens them.
    """

    ready = Signal()
    ended = Signal(int)
    failed = Signal(str)
    stderr_line = Signal(str)

    def __init__(
        self,
        name: str,
        argv: list[str],
        parent: QObject | None = None,
        *,
        timings: HostTimings = DEFAULT_TIMINGS,
    ) -> None:
        super().__init__(parent)
        self.name = name
        self.argv = argv
        self.handshake_timeout_ms = timings.handshake_timeout_ms
        self.ladder = timings.ladder
        self.state = HostState.STARTING
        self.server_info: dict[str, Any] = {}
        self.protocol_version: str | None = None
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_KEPT)
        self._out = bytearray()
        self._err = bytearray()
        self._next_id = 1
        self._init_id: int | None = None
        self.reported_failure = False
        self._rung: Rung | None = None
        """The step of the shutdown ladder taken last."""
        self.was_ready = False
        self.closed_on_request = False
        self._descendants: list[psutil.Process] = []

        self.process = QProcess(self)
        self.process.setProgram(argv[0])
        self.process.setArguments(argv[1:])
        self.process.started.connect(self._on_started)
        self.process.readyReadStandardOutput.connect(self._on_stdout)
        self.process.readyReadStandardError.connect(self._on_stderr)
        self.process.errorOccurred.connect(self._on_error)
        self.process.finished.connect(self._on_finished)

        self._handshake_timer = QTimer(self)
        self._handshake_timer.setSingleShot(True)
        self._handshake_timer.timeout.connect(self._on_handshake_timeout)
        self._rung_timer = QTimer(self)
        self._rung_timer.setSingleShot(True)
        self._rung_timer.timeout.connect(self._next_rung)

    # ---- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        self.process.start()

    @property
    def running(self) -> bool:
        return self.process.state() != QProcess.ProcessState.NotRunning

    def close(self) -> None:
        """End the connection on request: the shutdown ladder, then ``ended``."""
        if not self.state.stopping:
            self.closed_on_request = True
        self._begin_close()

    def _begin_close(self) -> None:
        """Close stdin, wait, SIGTERM, wait, SIGKILL."""
        if self.state.stopping:
            return
        self.state = HostState.CLOSING
        self._handshake_timer.stop()
        if not self.running:
            return
        self._remember_descendants()
        self._climb(self.ladder.rungs[0])

    def close_now(self) -> None:
        """Run the whole shutdown ladder, blocking: for when the app is quitting."""
        self.close()
        if not self.running or self._rung is None:
            return
        # whichever step the timer reached, the stdin's grace first, then the steps left
        if self.process.waitForFinished(_ms(self.ladder.stdin_grace)):
            return
        rung = self.ladder.after(self._rung.step)
        while rung is not None:
            self._take(rung)
            if self.process.waitForFinished(_ms(rung.wait)):
                return
            rung = self.ladder.after(rung.step)

    def _climb(self, rung: Rung) -> None:
        """Take *rung*'s step, and climb on when its wait is over (if a step is left)."""
        self._take(rung)
        if rung.wait is not None and self.ladder.after(rung.step) is not None:
            self._rung_timer.start(_ms(rung.wait))

    def _take(self, rung: Rung) -> None:
        self._rung = rung
        if rung.step is Step.CLOSE_STDIN:
            self.process.closeWriteChannel()
        elif rung.step is Step.TERMINATE:
            self.process.terminate()
        else:
            self._kill()

    @Slot()
    def _next_rung(self) -> None:
        if not self.running or self._rung is None:
            return
        rung = self.ladder.after(self._rung.step)
        if rung is not None:
            self._climb(rung)

    def _remember_descendants(self) -> None:
        # Taken while the bridge is alive: once it is killed its children are re-parented
        # and can no longer be found from it.
        pid = self.process.processId()
        if pid:
            with contextlib.suppress(psutil.Error):
                self._descendants = psutil.Process(pid).children(recursive=True)

    def _kill(self) -> None:
        """SIGKILL the bridge and whatever it started, so nothing is left orphaned."""
        self._remember_descendants()
        self.process.kill()
        for child in self._descendants:
            with contextlib.suppress(psutil.Error):
                child.kill()

    # ---- wire -----------------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        if self.state.stopping or not self.running:
            return
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self.process.write(data + b"\n")

    def _request(self, method: str, params: dict[str, Any]) -> int:
        rid = self._next_id
        self._next_id += 1
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    @Slot()
    def _on_started(self) -> None:
        if self.state is not HostState.STARTING:
            return  # disconnected before the process was even up: no handshake to begin
        self.state = HostState.INITIALIZING
        self._handshake_timer.start(self.handshake_timeout_ms)
        # No roots capability: the bridge adds it and answers roots/list from the store.
        self._init_id = self._request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "roots-manager", "version": __version__},
            },
        )

    @Slot()
    def _on_stdout(self) -> None:
        self._out += bytes(self.process.readAllStandardOutput().data())
        while True:
            end = self._out.find(b"\n")
            if end < 0:
                break
            line = bytes(self._out[:end])
            del self._out[: end + 1]
            self._handle_line(line)

    def _handle_line(self, line: bytes) -> None:
        try:
            msg = json.loads(line)
        except ValueError:
            return  # not JSON: the bridge relays it and logs it; the host has no use for it
        batch = msg if isinstance(msg, list) else [msg]
        for m in batch:
            if isinstance(m, dict):
                self._handle_message(m)

    def _handle_message(self, msg: dict[str, Any]) -> None:
        method = msg.get("method")
        if isinstance(method, str):
            if "id" in msg:
                self._answer(msg["id"], method)
            return  # notifications (logging, list changes) need nothing from this host
        if self._init_id is not None and msg.get("id") == self._init_id:
            self._on_initialize_result(msg)

    def _answer(self, rid: Any, method: str) -> None:
        if method == "ping":
            self._send({"jsonrpc": "2.0", "id": rid, "result": {}})
            return
        # The app declared no capability (no sampling, no elicitation, no roots of its own).
        error = {"code": METHOD_NOT_FOUND, "message": f"the host does not support {method}"}
        self._send({"jsonrpc": "2.0", "id": rid, "error": error})

    def _on_initialize_result(self, msg: dict[str, Any]) -> None:
        self._init_id = None
        self._handshake_timer.stop()
        if self.state is not HostState.INITIALIZING:
            return
        result = msg.get("result")
        if not isinstance(result, dict):
            error = msg.get("error")
            detail = error.get("message") if isinstance(error, dict) else None
            self._fail(self.tr("the server refused the handshake: {0}").format(detail or msg))
            return
        info = result.get("serverInfo")
        self.server_info = info if isinstance(info, dict) else {}
        version = result.get("protocolVersion")
        self.protocol_version = version if isinstance(version, str) else None
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.state = HostState.READY
        self.was_ready = True
        self.ready.emit()

    @Slot()
    def _on_stderr(self) -> None:
        self._err += bytes(self.process.readAllStandardError().data())
        while True:
            end = self._err.find(b"\n")
            if end < 0:
                break
            line = bytes(self._err[:end]).decode("utf-8", "replace").rstrip("\r")
            del self._err[: end + 1]
            self.stderr_tail.append(line)
            self.stderr_line.emit(line)

    @Slot()
    def _on_handshake_timeout(self) -> None:
        if self.state is HostState.INITIALIZING:
            seconds = self.handshake_timeout_ms // 1000
            self._fail(
                self.tr("the server did not answer the handshake within {0} s").format(seconds)
            )

    @Slot(QProcess.ProcessError)
    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self.state = HostState.ENDED
            self._report_failure(
                self.tr("the bridge could not be started ({0}): {1}").format(
                    self.argv[0], self.process.errorString()
                )
            )
            # no process ran, so finished() never comes: end the connection here
            self.ended.emit(127)

    @Slot(int, QProcess.ExitStatus)
    def _on_finished(self, code: int, status: QProcess.ExitStatus) -> None:
        self._rung_timer.stop()
        self._handshake_timer.stop()
        # flush a last stderr line that had no newline
        self._on_stderr()
        if self._err:
            line = bytes(self._err).decode("utf-8", "replace")
            self._err.clear()
            self.stderr_tail.append(line)
            self.stderr_line.emit(line)
        was = self.state
        self.state = HostState.ENDED
        if status == QProcess.ExitStatus.CrashExit and code == 0:
            code = -1
        if was in (HostState.STARTING, HostState.INITIALIZING):
            tail = "\n".join(list(self.stderr_tail)[-5:])
            message = self.tr("the server stopped before the handshake (exit code {0})").format(
                code
            )
            self._report_failure(f"{message}\n{tail}" if tail else message)
        self.ended.emit(code)

    def _fail(self, message: str) -> None:
        self._report_failure(message)
        self._begin_close()

    def _report_failure(self, message: str) -> None:
        if not self.reported_failure:
            self.reported_failure = True
            self.failed.emit(message)


def _ms(seconds: float | None) -> int:
    """*seconds* as Qt's milliseconds (-1, for no limit: None)."""
    return -1 if seconds is None else round(seconds * 1000)

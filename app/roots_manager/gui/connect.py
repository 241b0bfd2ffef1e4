"""Connect a server: the app itself acts as the MCP host of a server started through the bridge.

A developer can watch a server's roots behaviour with no other host: the app starts
``roots-bridge --server NAME -- COMMAND...``, performs the handshake (declaring no roots
capability: the bridge injects it and answers ``roots/list`` itself), keeps the session open and
answers pings. Grants toggled anywhere then reach the server as ``list_changed`` through the
bridge, and the traffic shows in the live log like any other host's.

The session is a small JSON-RPC client over :class:`QProcess` rather than the SDK's client in a
worker thread: the app only needs the handshake and pings, QProcess delivers its output on the
Qt event loop (with or without qasync), and the process lifetime stays under the app's direct
control for the shutdown ladder.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import sys
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import psutil
from PySide6.QtCore import QObject, QProcess, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager import __version__
from roots_manager.core.model import State, server_name_error
from roots_manager.core.paths import Layout
from roots_manager.core.store import Store, StoreError
from roots_manager.gui.errors import error_text

PROTOCOL_VERSION = "2025-11-25"
"""The revision the app offers in ``initialize``; the server may answer with an older one."""

DEMO_SERVER_NAME = "roots-demo"

HANDSHAKE_TIMEOUT_MS = 60_000
"""How long a server may take to answer ``initialize`` (``npx`` may download it first)."""

STDIN_GRACE_MS = 5_000
"""After closing the bridge's stdin: the bridge's own ladder for its server takes up to 4 s."""

TERM_GRACE_MS = 2_000
"""After SIGTERM, before SIGKILL."""

STDERR_KEPT = 200

METHOD_NOT_FOUND = -32601


def _frozen_program(name: str) -> str:
    """A program shipped next to the app's executable in a frozen bundle."""
    exe = f"{name}.exe" if os.name == "nt" else name
    return os.path.join(os.path.dirname(sys.executable), exe)


def demo_command() -> list[str]:
    """The command line that starts the demo server shipped in the package."""
    if getattr(sys, "frozen", False):
        return [_frozen_program("roots-demo-server")]
    return [sys.executable, "-m", "roots_manager.demo_server"]


def bridge_command(name: str, command: Sequence[str], options: Sequence[str] = ()) -> list[str]:
    """The argv that starts the bridge in front of *command* as server *name*.

    In a frozen bundle the bridge is a separate executable next to the app's; otherwise the
    bridge module runs under the current interpreter, so the app and the bridge always come
    from the same installation.
    """
    if getattr(sys, "frozen", False):
        bridge = [_frozen_program("roots-bridge")]
    else:
        bridge = [sys.executable, "-m", "roots_manager.bridge.main"]
    return [*bridge, "--server", name, *options, "--", *command]


class _Session(QObject):
    """One bridge process and the host session the app holds over it."""

    ready = Signal()
    ended = Signal(int)
    failed = Signal(str)
    stderr_line = Signal(str)

    def __init__(self, name: str, argv: list[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.argv = argv
        self.state = "starting"
        self.server_info: dict[str, Any] = {}
        self.protocol_version: str | None = None
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_KEPT)
        self._out = bytearray()
        self._err = bytearray()
        self._next_id = 1
        self._init_id: int | None = None
        self.reported_failure = False
        self._termed = False
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
        self._ladder = QTimer(self)
        self._ladder.setSingleShot(True)
        self._ladder.timeout.connect(self._next_rung)

    # ---- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        self.process.start()

    @property
    def running(self) -> bool:
        return self.process.state() != QProcess.ProcessState.NotRunning

    def close(self) -> None:
        """End the session on request: the shutdown ladder, then ``ended``."""
        if self.state not in ("closing", "ended"):
            self.closed_on_request = True
        self._begin_close()

    def _begin_close(self) -> None:
        """Close stdin, wait, SIGTERM, wait, SIGKILL."""
        if self.state in ("closing", "ended"):
            return
        self.state = "closing"
        self._handshake_timer.stop()
        if not self.running:
            return
        self._remember_descendants()
        self.process.closeWriteChannel()
        self._ladder.start(STDIN_GRACE_MS)

    def close_now(self) -> None:
        """Run the whole shutdown ladder, blocking: for when the app is quitting."""
        self.close()
        if not self.running:
            return
        if not self.process.waitForFinished(STDIN_GRACE_MS):
            self.process.terminate()
            if not self.process.waitForFinished(TERM_GRACE_MS):
                self._kill()
                self.process.waitForFinished(TERM_GRACE_MS)

    @Slot()
    def _next_rung(self) -> None:
        if not self.running:
            return
        if not self._termed:
            self._termed = True
            self.process.terminate()
            self._ladder.start(TERM_GRACE_MS)
        else:
            self._kill()

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
        if self.state in ("closing", "ended") or not self.running:
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
        if self.state != "starting":
            return  # disconnected before the process was even up: no handshake to begin
        self.state = "initializing"
        self._handshake_timer.start(HANDSHAKE_TIMEOUT_MS)
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
        if self.state != "initializing":
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
        self.state = "ready"
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
        if self.state == "initializing":
            seconds = HANDSHAKE_TIMEOUT_MS // 1000
            self._fail(
                self.tr("the server did not answer the handshake within {0} s").format(seconds)
            )

    @Slot(QProcess.ProcessError)
    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self.state = "ended"
            self._report_failure(
                self.tr("the bridge could not be started ({0}): {1}").format(
                    self.argv[0], self.process.errorString()
                )
            )
            # no process ran, so finished() never comes: end the session here
            self.ended.emit(127)

    @Slot(int, QProcess.ExitStatus)
    def _on_finished(self, code: int, status: QProcess.ExitStatus) -> None:
        self._ladder.stop()
        self._handshake_timer.stop()
        # flush a last stderr line that had no newline
        self._on_stderr()
        if self._err:
            line = bytes(self._err).decode("utf-8", "replace")
            self._err.clear()
            self.stderr_tail.append(line)
            self.stderr_line.emit(line)
        was = self.state
        self.state = "ended"
        if status == QProcess.ExitStatus.CrashExit and code == 0:
            code = -1
        if was in ("starting", "initializing"):
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


class ConnectionManager(QObject):
    """The servers the app is connected to as their host, each through its own bridge.

    ``connected`` fires once the handshake completed; ``failed`` when a connection never got
    that far (the command could not start, the server exited or refused the handshake);
    ``disconnected`` when a connected server's bridge ended (or one still starting was
    disconnected on request), with its exit code.
    ``stderr_received`` carries each line the bridge (and the server through it) wrote on stderr.
    ``connections_changed`` fires whenever a bridge is started or has ended.
    """

    connections_changed = Signal()
    connected = Signal(str)
    disconnected = Signal(str, int)
    failed = Signal(str, str)
    stderr_received = Signal(str, str)

    def __init__(
        self,
        layout: Layout,
        parent: QObject | None = None,
        *,
        launcher: Callable[[str, Sequence[str], Sequence[str]], list[str]] = bridge_command,
    ) -> None:
        super().__init__(parent)
        self.layout = layout
        # what turns (name, command, bridge options) into the argv started; the bridge in the
        # app, anything that speaks stdio MCP in tests of the host side alone
        self._launcher = launcher
        # strong references: a QProcess collected while running is killed without the ladder
        self._sessions: dict[str, _Session] = {}
        self._ended: list[_Session] = []

    def connections(self) -> list[str]:
        """The names of the servers being connected or connected now."""
        return [
            n for n, s in self._sessions.items() if s.state in ("starting", "initializing", "ready")
        ]

    def is_connected(self, name: str) -> bool:
        """Whether the handshake with server *name* is complete and its bridge still runs."""
        s = self._sessions.get(name)
        return s is not None and s.state == "ready"

    def server_info(self, name: str) -> dict[str, Any]:
        """The ``serverInfo`` the server sent in its handshake (empty if unknown)."""
        s = self._sessions.get(name)
        return dict(s.server_info) if s else {}

    def protocol_version(self, name: str) -> str | None:
        """The protocol revision the server chose in the handshake."""
        s = self._sessions.get(name)
        return s.protocol_version if s else None

    def stderr_tail(self, name: str) -> list[str]:
        """The last lines the bridge of server *name* wrote on stderr."""
        s = self._sessions.get(name)
        return list(s.stderr_tail) if s else []

    def bridge_pid(self, name: str) -> int | None:
        """The process id of server *name*'s bridge while it runs."""
        s = self._sessions.get(name)
        if s is None or not s.running:
            return None
        return int(s.process.processId()) or None

    def connect_server(
        self, name: str, command: list[str], *, bridge_options: Sequence[str] = ()
    ) -> None:
        """Start *command* through the bridge as server *name* and perform the handshake.

        The outcome arrives as ``connected`` or ``failed``. *bridge_options* are passed to the
        bridge before ``--`` (for example ``["--observe"]``).
        """
        name_error = server_name_error(name)
        if name_error is not None:
            self.failed.emit(name, error_text(name_error))
            return
        if not command:
            self.failed.emit(name, self.tr("the command line is empty"))
            return
        existing = self._sessions.get(name)
        if existing is not None and existing.state == "closing":
            message = self.tr("the server {0} is still disconnecting; try again in a moment")
            self.failed.emit(name, message.format(name))
            return
        if existing is not None:
            self.failed.emit(name, self.tr("a server named {0} is already connected").format(name))
            return
        session = _Session(name, self._launcher(name, command, bridge_options), self)
        session.ready.connect(lambda: self.connected.emit(name))
        session.failed.connect(lambda message: self.failed.emit(name, message))
        session.stderr_line.connect(lambda line: self.stderr_received.emit(name, line))
        session.ended.connect(lambda code: self._on_ended(session, code))
        self._sessions[name] = session
        session.start()
        self.connections_changed.emit()

    def _on_ended(self, session: _Session, code: int) -> None:
        if self._sessions.get(session.name) is session:
            del self._sessions[session.name]
        # Kept, not deleteLater()'d: this runs inside the session's own signal, possibly within
        # a nested waitForFinished(), and a deferred delete there has crashed PySide. A few
        # ended sessions per app run cost little; they go with the manager.
        self._ended.append(session)
        self.connections_changed.emit()
        # a connection given up while still starting ends as a disconnection too, so that
        # every connect_server() ends in exactly one of failed or disconnected
        if session.was_ready or (session.closed_on_request and not session.reported_failure):
            self.disconnected.emit(session.name, code)

    def disconnect_server(self, name: str) -> None:
        """End the session with server *name*: close the bridge's stdin, then escalate.

        ``disconnected`` fires when the bridge has exited.
        """
        s = self._sessions.get(name)
        if s is not None:
            s.close()

    def shutdown(self) -> None:
        """Disconnect every server and wait for their bridges to exit (the app is quitting)."""
        sessions = list(self._sessions.values())
        for s in sessions:
            s.close()
        for s in sessions:
            s.close_now()


# ---- the dialog ---------------------------------------------------------------------------


def split_command(text: str) -> list[str]:
    """Split a command line as a POSIX shell would (Windows: keeping backslashes).

    Raises ValueError with a message meant for the user.
    """
    try:
        argv = shlex.split(text, posix=os.name != "nt")
    except ValueError as exc:
        raise ValueError(str(exc)) from exc
    if os.name == "nt":
        argv = [a[1:-1] if len(a) >= 2 and a[0] == a[-1] == '"' else a for a in argv]
    return argv


_RUNNERS = {"npx", "bunx", "pnpx", "uvx", "pipx"}
_INTERPRETERS = {"node", "deno", "bun", "python", "python3", "py"}
_BUILD_DIRS = {"dist", "build", "src", "lib", "bin", ""}


def default_name(command: Sequence[str]) -> str:
    """A server name guessed from a command line: the package or script it runs."""
    if not command:
        return ""
    if list(command) == demo_command():
        return DEMO_SERVER_NAME
    program = os.path.basename(command[0]).lower().removesuffix(".exe")
    args = [a for a in command[1:] if not a.startswith("-")]
    if (program in _RUNNERS or program.startswith("python")) and "-m" in command[1:]:
        module = command[command.index("-m") + 1] if command.index("-m") + 1 < len(command) else ""
        return module.split(".")[-1] or program
    if program in _RUNNERS and args:
        package = args[0]
        # "@scope/name@1.2" -> "name"
        package = package.rsplit("/", 1)[-1]
        return package.split("@")[0] or program
    if (program in _INTERPRETERS or program.startswith("python")) and args:
        parts = [p for p in args[0].replace("\\", "/").split("/") if p]
        stem = os.path.splitext(parts[-1])[0] if parts else program
        if stem in ("index", "main", "server", "__main__"):
            folders = [p for p in parts[:-1] if p not in _BUILD_DIRS]
            return folders[-1] if folders else stem
        return stem
    return program


class ConnectDialog(QDialog):
    """Ask for a server to connect: a command line and a name, or a server the store knows."""

    def __init__(self, layout: Layout, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layout_ = layout
        self.setWindowTitle(self.tr("Connect a server"))
        self.setObjectName("ConnectDialog")
        self._name_edited = False
        self._known: dict[str, list[str]] = {}

        intro = QLabel(
            self.tr(
                "Start a server through the bridge, with Roots Manager as its host, to watch "
                "how it uses roots. The server sees the folders you grant it."
            )
        )
        intro.setWordWrap(True)

        self.known = QComboBox()
        self.known.setAccessibleName(self.tr("Known servers"))
        self.known.addItem(self.tr("(type a command line below)"), None)
        for name, command in self._known_servers().items():
            self._known[name] = command
            self.known.addItem(name, name)
        self.known.setEnabled(bool(self._known))
        self.known.currentIndexChanged.connect(self._on_known_picked)

        self.command_edit = QLineEdit()
        self.command_edit.setAccessibleName(self.tr("Command line"))
        self.command_edit.setPlaceholderText(
            self.tr("for example: npx -y @modelcontextprotocol/server-filesystem")
        )
        self.command_edit.textChanged.connect(self._on_command_changed)
        # wide enough for its example and a real command line, not a cut-off stub
        metrics = self.command_edit.fontMetrics()
        self.command_edit.setMinimumWidth(
            metrics.horizontalAdvance(self.command_edit.placeholderText())
            + 4 * metrics.averageCharWidth()
        )

        self.demo_button = QPushButton(self.tr("Use the &demo server"))
        self.demo_button.setAccessibleName(self.tr("Use the demo server"))
        self.demo_button.clicked.connect(self._use_demo)

        self.name_edit = QLineEdit()
        self.name_edit.setAccessibleName(self.tr("Server name"))
        self.name_edit.textEdited.connect(self._on_name_edited)
        self.name_edit.textChanged.connect(self._validate)

        self.error_label = QLabel()
        self.error_label.setObjectName("connectError")
        self.error_label.setWordWrap(True)
        self.error_label.setAccessibleName(self.tr("Problem with the input"))

        form = QFormLayout()
        known_label = QLabel(self.tr("&Known server:"))
        known_label.setBuddy(self.known)
        form.addRow(known_label, self.known)
        command_label = QLabel(self.tr("Command &line:"))
        command_label.setBuddy(self.command_edit)
        form.addRow(command_label, self.command_edit)
        form.addRow("", self.demo_button)
        name_label = QLabel(self.tr("Server &name:"))
        name_label.setBuddy(self.name_edit)
        form.addRow(name_label, self.name_edit)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(self.tr("C&onnect"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addLayout(form)
        box.addWidget(self.error_label)
        box.addWidget(self.buttons)
        self.command_edit.setFocus()
        self._validate()

    def _known_servers(self) -> dict[str, list[str]]:
        try:
            state: State = Store(self.layout_).read()
        except (StoreError, OSError):
            return {}  # the main window reports a broken store; here it only means no list
        return {n: list(s.command) for n, s in sorted(state.servers.items()) if s.command}

    # ---- values ---------------------------------------------------------------------------

    def server_name(self) -> str:
        """The server name entered, trimmed."""
        return self.name_edit.text().strip()

    def command(self) -> list[str]:
        """The command line entered, split into an argv (empty if it cannot be split)."""
        try:
            return split_command(self.command_edit.text())
        except ValueError:
            return []

    def set_command(self, command: Sequence[str], name: str | None = None) -> None:
        """Fill the dialog with *command* (and *name*, else a name guessed from it)."""
        self.command_edit.setText(
            shlex.join(command)
            if os.name != "nt"
            else " ".join(f'"{a}"' if " " in a else a for a in command)
        )
        if name is not None:
            self.name_edit.setText(name)
            self._name_edited = True

    # ---- reactions ------------------------------------------------------------------------

    @Slot(int)
    def _on_known_picked(self, index: int) -> None:
        name = self.known.itemData(index)
        if isinstance(name, str) and name in self._known:
            self.set_command(self._known[name], name)

    @Slot()
    def _use_demo(self) -> None:
        self.set_command(demo_command(), DEMO_SERVER_NAME)

    @Slot(str)
    def _on_name_edited(self, text: str) -> None:
        self._name_edited = bool(text)

    @Slot(str)
    def _on_command_changed(self, text: str) -> None:
        if not self._name_edited:
            self.name_edit.setText(default_name(self.command()))
        self._validate()

    def problem(self) -> str | None:
        """What is wrong with the input, for the user, or None when it can be connected."""
        text = self.command_edit.text()
        if not text.strip():
            return self.tr("Enter the command line that starts the server.")
        try:
            argv = split_command(text)
        except ValueError as exc:
            reason = str(exc)
            # shlex's own messages are English; the two it has get words of their own
            if "quotation" in reason:
                reason = self.tr("a quotation mark is not closed")
            elif "escaped" in reason:
                reason = self.tr("it ends with a lone backslash")
            return self.tr("The command line cannot be read: {0}.").format(reason)
        if not argv:
            return self.tr("Enter the command line that starts the server.")
        program = argv[0]
        if os.sep in program or (os.altsep and os.altsep in program):
            if not os.path.exists(program):
                return self.tr("The program {0} does not exist.").format(program)
            if os.path.isdir(program) or not os.access(program, os.X_OK):
                return self.tr("{0} is not a program that can be run.").format(program)
        elif shutil.which(program) is None:
            return self.tr("The program {0} is not found on the search path (PATH).").format(
                program
            )
        name = self.name_edit.text()
        if not name.strip():
            return self.tr("Enter a name for the server: grants are made to this name.")
        name_error = server_name_error(name)
        if name_error is not None:  # control or text-direction characters, as the bridge says
            return error_text(name_error)
        return None

    @Slot()
    def _validate(self) -> None:
        problem = self.problem()
        self.error_label.setText(problem or "")
        self.error_label.setVisible(problem is not None)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(problem is None)

    def accept(self) -> None:
        """Close the dialog only when the input can be connected."""
        if self.problem() is None:
            super().accept()

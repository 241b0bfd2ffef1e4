"""Connect a server: the app itself acts as the MCP host of servers started through the bridge.

A developer can watch a server's roots behaviour with no other host: the app starts
``roots-bridge --server NAME -- COMMAND...``, performs the handshake (declaring no roots
capability: the bridge injects it and answers ``roots/list`` itself), keeps the connection open
and answers pings (:mod:`roots_manager.gui.connect.host_connection`). Grants toggled anywhere then reach
the server as ``list_changed`` through the bridge, and the traffic shows in the live log like
any other host's. The dialog that asks for the command is
:mod:`roots_manager.gui.connect.connect_dialog`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QObject, Signal

from roots_manager.core.directory.layout import Layout
from roots_manager.core.servers.command import bridge_command
from roots_manager.core.store.state import server_name_error
from roots_manager.gui.common.errors import error_text
from roots_manager.gui.connect.host_connection import (
    DEFAULT_TIMINGS,
    HostConnection,
    HostState,
    HostTimings,
)


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
        timings: HostTimings = DEFAULT_TIMINGS,
    ) -> None:
        super().__init__(parent)
        self.layout = layout
        # what turns (name, command, bridge options) into the argv started; the bridge in the
        # app, anything that speaks stdio MCP in tests of the host side alone
        self._launcher = launcher
        self._timings = timings
        # strong references: a QProcess collected while running is killed without the ladder
        self._connections: dict[str, HostConnection] = {}
        self._ended: list[HostConnection] = []

    def connections(self) -> list[str]:
        """The names of the servers being connected or connected now."""
        return [n for n, s in self._connections.items() if s.state.live]

    def is_connected(self, name: str) -> bool:
        """Whether the handshake with server *name* is complete and its bridge still runs."""
        s = self._connections.get(name)
        return s is not None and s.state is HostState.READY

    def server_info(self, name: str) -> dict[str, Any]:
        """The ``serverInfo`` the server sent in its handshake (empty if unknown)."""
        s = self._connections.get(name)
        return dict(s.server_info) if s else {}

    def protocol_version(self, name: str) -> str | None:
        """The protocol revision the server chose in the handshake."""
        s = self._connections.get(name)
        return s.protocol_version if s else None

    def stderr_tail(self, name: str) -> list[str]:
        """The last lines the bridge of server *name* wrote on stderr."""
        s = self._connections.get(name)
        return list(s.stderr_tail) if s else []

    def bridge_pid(self, name: str) -> int | None:
        """The process id of server *name*'s bridge while it runs."""
        s = self._connections.get(name)
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
        existing = self._connections.get(name)
        if existing is not None and existing.state is HostState.CLOSING:
            message = self.tr("the server {0} is still disconnecting; try again in a moment")
            self.failed.emit(name, message.format(name))
            return
        if existing is not None:
            self.failed.emit(name, self.tr("a server named {0} is already connected").format(name))
            return
        connection = HostConnection(
            name, self._launcher(name, command, bridge_options), self, timings=self._timings
        )
        connection.ready.connect(lambda: self.connected.emit(name))
        connection.failed.connect(lambda message: self.failed.emit(name, message))
        connection.stderr_line.connect(lambda line: self.stderr_received.emit(name, line))
        connection.ended.connect(lambda code: self._on_ended(connection, code))
        self._connections[name] = connection
        connection.start()
        self.connections_changed.emit()

    def _on_ended(self, connection: HostConnection, code: int) -> None:
        if self._connections.get(connection.name) is connection:
            del self._connections[connection.name]
        # Kept, not deleteLater()'d: this runs inside the connection's own signal, possibly within
        # a nested waitForFinished(), and a deferred delete there has crashed PySide. A few
        # ended connections per app run cost little; they go with the manager.
        self._ended.append(connection)
        self.connections_changed.emit()
        # a connection given up while still starting ends as a disconnection too, so that
        # every connect_server() ends in exactly one of failed or disconnected
        if connection.was_ready or (
            connection.closed_on_request and not connection.reported_failure
        ):
            self.disconnected.emit(connection.name, code)

    def disconnect_server(self, name: str) -> None:
        """End the connection to server *name*: close the bridge's stdin, then escalate.

        ``disconnected`` fires when the bridge has exited.
        """
        s = self._connections.get(name)
        if s is not None:
            s.close()

    def shutdown(self) -> None:
        """Disconnect every server and wait for their bridges to exit (the app is quitting)."""
        connections = list(self._connections.values())
        for s in connections:
            s.close()
        for s in connections:
            s.close_now()

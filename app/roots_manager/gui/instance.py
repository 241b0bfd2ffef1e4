"""One app per user and per state directory: a second start raises the running window."""

from __future__ import annotations

import getpass
import hashlib

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from roots_manager.core.paths import Layout

RAISE = b"raise\n"
CONNECT_TIMEOUT_MS = 1000


def server_name(layout: Layout) -> str:
    """The local socket name for this user and this state directory."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no user name in some containers
        user = "user"
    digest = hashlib.sha256(f"{user}\0{layout.home}".encode()).hexdigest()[:16]
    return f"roots-manager-{digest}"


def ask_running_instance(layout: Layout) -> bool:
    """Ask an app already running for *layout* to raise its window; True if one answered."""
    socket = QLocalSocket()
    socket.connectToServer(server_name(layout))
    if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
        return False
    socket.write(RAISE)
    socket.flush()
    socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
    # wait for the running app to close its end, so the message is known to have arrived
    socket.waitForDisconnected(CONNECT_TIMEOUT_MS)
    return True


class InstanceServer(QObject):
    """Listens for later starts of the app and asks for the window to be raised."""

    raise_requested = Signal()

    def __init__(self, layout: Layout, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = server_name(layout)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._connection)

    def listen(self) -> bool:
        """Start listening; a socket left by a crashed app is cleared first."""
        if self.server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)
        return self.server.listen(self.name)

    def close(self) -> None:
        self.server.close()

    def _connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            if socket is None:
                break

            def read(socket: QLocalSocket = socket) -> None:
                if bytes(socket.readAll().data()).startswith(RAISE.strip()):
                    self.raise_requested.emit()
                socket.disconnectFromServer()

            socket.readyRead.connect(read)
            socket.disconnected.connect(socket.deleteLater)
            if socket.bytesAvailable():
                read()

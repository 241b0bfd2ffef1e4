"""One app per user and per state directory: a second start raises the running window.

Who the running app is, is decided by a lock file in the per-user directory, not by the local
socket: on Windows a socket is a named pipe, and any number of servers can listen under one pipe
name, so a second app's ``listen`` succeeds and both answer (or neither). The lock is the user's
own file, held by one process, and freed by the system when that process dies. The socket then
only carries "raise your window", and is made reachable by its user alone
(``UserAccessOption``: the pipe's ACL on Windows, the socket file's mode elsewhere).
"""

from __future__ import annotations

import getpass
import hashlib

from PySide6.QtCore import QLockFile, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from roots_manager.core.directory.layout import Layout

RAISE = b"raise\n"
CONNECT_TIMEOUT_MS = 1000
LOCK_NAME = "app-instance.lock"
"""The lock file, in the per-user directory, held by the running app."""


def server_name(layout: Layout) -> str:
    """The local socket name for this user and this state directory."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no user name in some containers
        user = "user"
    digest = hashlib.sha256(f"{user}\0{layout.home}".encode()).hexdigest()[:16]
    return f"roots-manager-{digest}"


def ask_running_instance(layout: Layout, timeout_ms: int = CONNECT_TIMEOUT_MS) -> bool:
    """Ask an app already running for *layout* to raise its window; True if one answered."""
    socket = QLocalSocket()
    socket.connectToServer(server_name(layout))
    if not socket.waitForConnected(timeout_ms):
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
        self.lock = QLockFile(str(layout.home / LOCK_NAME))
        # stale only when the process holding it is gone, however long it has run
        self.lock.setStaleLockTime(0)

    def listen(self) -> bool:
        """Become the running app: take the lock, then listen. False if another app holds it.

        Once the lock is ours, a socket left under the name is a crashed app's, and is cleared.
        """
        if self.server.isListening():
            return True
        if not self.lock.tryLock(0):
            return False
        if self.server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)
        if self.server.listen(self.name):
            return True
        self.lock.unlock()
        return False

    def close(self) -> None:
        """Stop listening and free the lock (a later start becomes the running app)."""
        self.server.close()
        if self.lock.isLocked():
            self.lock.unlock()

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

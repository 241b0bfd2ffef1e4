"""macOS: a click on the app's Dock icon brings back the window that was closed to the menu bar.

macOS sends no event for that click that Qt turns into a window: the app is only made active.
So an activation after the app was inactive, with the window hidden, asks for the window. The
activation at launch is not one (a start at login with ``--hidden`` stays hidden). Elsewhere a
hidden window has no taskbar or dock entry to click, and the tray's menu brings it back.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication


class DockReopen(QObject):
    """Asks for the window when the app is activated again while the window is hidden."""

    reopen_requested = Signal()
    """The user activated the app (its Dock icon) while its window was hidden."""

    def __init__(self, window_hidden: Callable[[], bool], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._window_hidden = window_hidden
        self._was_inactive = False

    def follow(self, app: QGuiApplication, platform: str = sys.platform) -> bool:
        """Follow *app*'s activations where a Dock icon reopens windows (macOS); True if so."""
        if platform != "darwin":
            return False
        app.applicationStateChanged.connect(self.state_changed)
        return True

    @Slot(Qt.ApplicationState)
    def state_changed(self, state: Qt.ApplicationState) -> None:
        """The application's state changed to *state*."""
        if state != Qt.ApplicationState.ApplicationActive:
            self._was_inactive = True
        elif self._was_inactive and self._window_hidden():
            self.reopen_requested.emit()

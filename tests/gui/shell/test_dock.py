"""macOS: the Dock icon brings back a window closed to the menu bar (the slot, driven directly)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from roots_manager.gui.shell.app import AppController
from roots_manager.gui.shell.dock import DockReopen

ACTIVE = Qt.ApplicationState.ApplicationActive
INACTIVE = Qt.ApplicationState.ApplicationInactive


def test_activating_the_app_again_shows_the_hidden_window(
    controller: AppController,
    qtbot,
) -> None:  # type: ignore[no-untyped-def]
    window, dock = controller.window, controller.dock
    assert window is not None and dock is not None
    window.close()  # closed to the menu bar: hidden, still running
    qtbot.waitUntil(lambda: not window.isVisible())
    dock.state_changed(INACTIVE)  # the user works in another app
    dock.state_changed(ACTIVE)  # and clicks Roots Manager's Dock icon
    qtbot.waitUntil(window.isVisible)


def test_the_activation_at_launch_keeps_a_hidden_start_hidden(qtbot) -> None:  # type: ignore[no-untyped-def]
    hidden = [True]
    dock = DockReopen(lambda: hidden[0])
    with qtbot.assertNotEmitted(dock.reopen_requested):
        dock.state_changed(ACTIVE)  # launched with --hidden: macOS activates the new app
    with qtbot.waitSignal(dock.reopen_requested):
        dock.state_changed(Qt.ApplicationState.ApplicationHidden)
        dock.state_changed(ACTIVE)
    hidden[0] = False
    with qtbot.assertNotEmitted(dock.reopen_requested):
        dock.state_changed(INACTIVE)
        dock.state_changed(ACTIVE)  # the window is shown: nothing to bring back


def test_only_macos_follows_activations(qtbot) -> None:  # type: ignore[no-untyped-def]
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    assert not DockReopen(lambda: True).follow(app, "linux")
    assert not DockReopen(lambda: True).follow(app, "win32")
    dock = DockReopen(lambda: True)
    assert dock.follow(app, "darwin")
    app.applicationStateChanged.disconnect(dock.state_changed)

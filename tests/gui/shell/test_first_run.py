"""The app as a new user first sees it: the welcome, and tables that say what to do."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.gui.common.placeholder_view import PlaceholderTableView
from roots_manager.gui.shell.app import AppController
from roots_manager.gui.shell.welcome import WelcomeBanner
from tests.gui.shell_support import app_window, folders


def painted(view: PlaceholderTableView) -> QImage:
    return view.viewport().grab().toImage()


def ink(image: QImage) -> int:
    """How many pixels of *image* differ from its top-left corner (the background)."""
    background = image.pixelColor(0, 0)
    return sum(
        image.pixelColor(x, y) != background
        for y in range(0, image.height(), 2)
        for x in range(0, image.width(), 2)
    )


def test_first_run_shows_the_welcome_once_and_tables_that_say_what_to_do(
    layout: Layout, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    with app_window(layout, qtbot) as window:
        qtbot.waitExposed(window)
        assert window.welcome.isVisible()
        assert "roots-bridge" in window.welcome.label.text()

        # actions carry icons, from the theme or Qt's own (the offscreen platform has no theme)
        panel = window.servers_panel
        for button in (
            window.roots_panel.add_button,
            window.roots_panel.detect_button,
            panel.connect_button,
            panel.disconnect_button,
            panel.forget_button,
        ):
            assert not button.icon().isNull(), button.text()
        assert not window.disconnect_action.icon().isNull()

        roots = window.roots_panel.table
        assert roots.placeholder_shown()
        assert "Add folder" in roots.placeholder()
        assert ink(painted(roots)) > 0, "the empty Roots table paints no hint"

        window.tabs.setCurrentWidget(window.servers_panel)
        matrix = window.servers_panel.matrix
        assert matrix.placeholder_shown() and "row" in matrix.placeholder()
        with store.transaction() as state:
            state.server_started("fs", ["/usr/bin/fs"], "session-1")
            state.set_policy("deny")
        qtbot.waitUntil(lambda: window.servers_panel.matrix_model.rowCount() == 1)
        assert matrix.placeholder_shown() and "Roots tab" in matrix.placeholder()

        (a,) = folders(tmp_path, "alpha")
        window.roots_panel.add_paths([str(a)])
        assert not roots.placeholder_shown()
        qtbot.waitUntil(lambda: not matrix.placeholder_shown())

        window.welcome.button.click()
        assert not window.welcome.isVisible()

    again = AppController(layout)
    again.start()
    try:
        assert again.window is not None
        qtbot.addWidget(again.window)
        assert not again.window.welcome.isVisible()
        assert WelcomeBanner.was_dismissed(again.settings)
    finally:
        again.shutdown()

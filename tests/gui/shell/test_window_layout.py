"""The window keeps still and fits: the pending notice moves nothing, columns stay as the user
left them, and a saved geometry never puts the window off its screen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QPoint, QRect
from PySide6.QtWidgets import QApplication, QSplitter, QStyle
from pytestqt.qtbot import QtBot

from roots_manager.actions.settings import set_language
from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.gui.common import window_state
from roots_manager.gui.common.resources import shown_language
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.servers.servers_model import COMMAND, SERVER, STALE, STATUS
from roots_manager.gui.shell.app import AppController, app_settings
from roots_manager.gui.shell.main_window import GEOMETRY_KEY, MainWindow
from tests.gui.shell_support import folders


def test_the_pending_notice_comes_and_goes_without_moving_anything(
    layout: Layout, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    folders(tmp_path, "alpha")
    app = AppController(layout)
    app.start()
    try:
        window = app.window
        assert window is not None and app.prompt is not None
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        table = window.roots_panel.table

        def where() -> tuple[QRect, QPoint]:
            return window.tabs.geometry(), table.mapTo(window, QPoint(0, 0))

        before = where()
        assert not window.pending_banner.isVisible()
        with store.transaction() as state:
            state.server_started("newcomer", ["/usr/bin/newcomer"], "session-1")
        qtbot.waitUntil(window.pending_banner.isVisible)
        assert window.pending_banner.label.text() == "1 server waits for your decision"
        assert window.pending_banner.toolTip() == "newcomer"
        QApplication.processEvents()
        assert where() == before

        qtbot.waitUntil(lambda: app.prompt is not None and app.prompt.dialog is not None)
        assert app.prompt.dialog is not None
        app.prompt.dialog.deny_button.click()
        qtbot.waitUntil(lambda: not window.pending_banner.isVisible())
        QApplication.processEvents()
        assert where() == before
    finally:
        app.shutdown()


def test_server_columns_stay_put_and_come_back_as_the_user_left_them(
    layout: Layout, store: Store, qtbot: QtBot
) -> None:
    with store.transaction() as state:
        state.set_policy("deny")
        state.server_started("fs", ["npx", "fs"], "session-1")
    settings = app_settings(layout)
    watcher = StoreWatcher(store)
    watcher.start()
    try:
        window = MainWindow(watcher, settings)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        header = window.servers_panel.servers.horizontalHeader()
        widths = [header.sectionSize(c) for c in range(COMMAND)]
        # a server with a long name and command arrives: the other columns do not reflow
        with store.transaction() as state:
            state.server_started("a-server-with-a-much-longer-name", ["x"] * 60, "session-2")
        watcher.reload()
        assert window.servers_panel.servers_model.rowCount() == 2
        QApplication.processEvents()
        assert [header.sectionSize(c) for c in range(COMMAND)] == widths

        header.resizeSection(STATUS, widths[STATUS] + 77)
        header.resizeSection(SERVER, widths[SERVER] + 33)
        window.close()
        settings.sync()

        again = MainWindow(watcher, app_settings(layout))
        qtbot.addWidget(again)
        again.show()
        qtbot.waitExposed(again)
        restored = again.servers_panel.servers.horizontalHeader()
        assert restored.sectionSize(STATUS) == widths[STATUS] + 77
        assert restored.sectionSize(SERVER) == widths[SERVER] + 33
    finally:
        watcher.stop()


def test_a_saved_geometry_larger_than_the_screen_is_clamped_to_it(
    layout: Layout, store: Store, qtbot: QtBot
) -> None:
    settings = app_settings(layout)
    watcher = StoreWatcher(store)
    watcher.start()
    try:
        big = MainWindow(watcher, settings)
        qtbot.addWidget(big)
        area = big.screen().availableGeometry()
        # saved on a larger screen (or at another scale), right and below of this one
        big.setGeometry(
            area.x() + area.width() // 2, area.y() + 200, area.width() * 2, area.height() * 2
        )
        settings.setValue(GEOMETRY_KEY, big.saveGeometry())
        big.deleteLater()
        assert isinstance(settings.value(GEOMETRY_KEY), QByteArray)

        window = MainWindow(watcher, settings)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        frame = window.frameGeometry()
        assert area.contains(frame), f"{frame} is not within the screen's {area}"
    finally:
        watcher.stop()


def _window(watcher: StoreWatcher, layout: Layout, qtbot: QtBot) -> MainWindow:
    window = MainWindow(watcher, app_settings(layout))
    qtbot.addWidget(window)
    window.resize(1100, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_current_tab_and_every_splitter_come_back_as_the_user_left_them(
    layout: Layout, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    window = _window(watcher, layout, qtbot)
    splitters = window_state.splitters_of(window)
    names = sorted(s.objectName() for s in splitters)
    assert names == ["logSplitter", "serverDetailSplitter", "serversSplitter"]
    window.tabs.setCurrentIndex(window.log_tab_index)
    QApplication.processEvents()
    wanted: dict[str, list[int]] = {}
    for s in splitters:
        sizes = s.sizes()
        # move the first handle well away from where the default split puts it
        shift = sum(sizes) // 5
        s.setSizes([sizes[0] + shift, sizes[1] - shift, *sizes[2:]])
        wanted[s.objectName()] = s.sizes()
        assert wanted[s.objectName()] != sizes
    window.close()

    again = _window(watcher, layout, qtbot)
    assert again.tabs.currentIndex() == again.log_tab_index
    for s in window_state.splitters_of(again):
        assert s.sizes() == wanted[s.objectName()], s.objectName()


def test_a_split_moved_in_one_language_is_that_languages_alone(
    layout: Layout, store: Store, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    set_language(store, "en")
    watcher.reload()
    window = _window(watcher, layout, qtbot)
    splitter = window.servers_panel.findChild(QSplitter, "serversSplitter")
    default = splitter.sizes()
    shift = sum(default) // 5
    splitter.setSizes([default[0] + shift, default[1] - shift])
    moved = splitter.sizes()
    assert moved != default
    window.close()

    # the same window in Japanese keeps its own split, the default until moved there
    set_language(store, "ja")
    watcher.reload()
    ja = _window(watcher, layout, qtbot)
    ja_splitter = ja.servers_panel.findChild(QSplitter, "serversSplitter")
    assert ja_splitter.sizes() == default
    ja_splitter.setSizes([default[0] - shift, default[1] + shift])
    ja_moved = ja_splitter.sizes()
    ja.close()

    # and each language finds its own again
    set_language(store, "en")
    watcher.reload()
    en = _window(watcher, layout, qtbot)
    assert en.servers_panel.findChild(QSplitter, "serversSplitter").sizes() == moved
    en.close()
    set_language(store, "ja")
    watcher.reload()
    again = _window(watcher, layout, qtbot)
    assert again.servers_panel.findChild(QSplitter, "serversSplitter").sizes() == ja_moved


def test_a_saved_tab_or_split_that_no_longer_fits_is_ignored(
    layout: Layout, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    defaults = _window(watcher, layout, qtbot)
    default_sizes = {s.objectName(): s.sizes() for s in window_state.splitters_of(defaults)}
    defaults.deleteLater()
    settings = app_settings(layout)
    settings.setValue(window_state.TAB_KEY, 42)  # a tab a later layout removed
    # a layout with one pane more, another with one pane less, and nonsense
    shown = shown_language(watcher.state.language)
    settings.setValue(f"splitters/{shown}/logSplitter", [100, 200, 300, 400])
    settings.setValue(f"splitters/{shown}/serversSplitter", ["x", "y"])
    settings.sync()

    window = _window(watcher, layout, qtbot)
    assert window.tabs.currentIndex() == 0
    for s in window_state.splitters_of(window):
        assert s.sizes() == default_sizes[s.objectName()], s.objectName()

    settings.setValue(window_state.TAB_KEY, -3)
    settings.setValue(f"splitters/{shown}/serversSplitter", [0, 0])
    settings.sync()
    window.deleteLater()
    again = _window(watcher, layout, qtbot)
    assert again.tabs.currentIndex() == 0
    assert (
        again.servers_panel.findChild(QSplitter, "serversSplitter").sizes()
        == (default_sizes["serversSplitter"])
    )


def test_the_stale_column_has_room_for_its_mark_and_word_before_any_server_is_stale(
    layout: Layout, store: Store, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    with store.transaction() as state:
        state.server_started("fs", ["npx", "fs"], "run-1")
    watcher.reload()
    window = _window(watcher, layout, qtbot)
    view = window.servers_panel.servers
    qtbot.waitUntil(lambda: window.servers_panel.servers_model.rowCount() == 1)
    # the columns are fitted to the first rows, where nothing is stale yet; a stale mark
    # and its word come later, and must not be cut to "…" then
    metrics = view.fontMetrics()
    icon = view.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
    word = metrics.horizontalAdvance("stale")
    assert view.horizontalHeader().sectionSize(STALE) >= icon + word


def test_the_main_windows_least_size_fits_a_1366x768_screen(
    layout: Layout, store: Store, qtbot: QtBot
) -> None:
    with store.transaction() as state:
        state.set_policy("deny")
        for i in range(6):
            state.server_started(f"server-{i}", ["npx", f"server-{i}"], f"run-{i}")
    watcher = StoreWatcher(store)
    watcher.start()
    try:
        window = MainWindow(watcher, app_settings(layout))
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        least = window.minimumSizeHint().expandedTo(window.minimumSize())
        # room left for the window manager's frame and a panel of the desktop
        assert least.width() <= 1366 - 16 and least.height() <= 768 - 64, least
    finally:
        watcher.stop()

"""Keyboard use: unique mnemonics everywhere, and the roots and servers tables without a mouse."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QLabel,
    QLineEdit,
    QTabBar,
    QWidget,
)

from roots_manager.actions.questions import questions
from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.gui.common.resources import install_translators
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.connect.connect_dialog import ConnectDialog
from roots_manager.gui.consent.consent_dialog import ConsentDialog
from roots_manager.gui.roots.detect import DetectDialog
from roots_manager.gui.roots.roots_model import NAME, PATH
from roots_manager.gui.servers.denial_notice import DenialNotice
from roots_manager.gui.servers.refusals_dialog import RefusalsDialog
from roots_manager.gui.servers.servers_view import ServersPanel
from roots_manager.gui.shell.app import AppController, app_settings
from roots_manager.gui.shell.recovery import RecoveryDialog
from roots_manager.gui.shell.settings_dialog import SettingsDialog
from tests.gui.shell_support import answer_message_box, app_window, button_named, folders

MNEMONIC = re.compile(r"&([^&\s])")


def mnemonic(text: str) -> str | None:
    found = MNEMONIC.search(text.replace("&&", ""))
    return found.group(1).casefold() if found else None


def mnemonics(top: QWidget) -> list[tuple[str, str]]:
    """(letter, text) of every mnemonic reachable in *top* as it is shown now."""
    out: list[tuple[str, str]] = []

    def add(text: str) -> None:
        letter = mnemonic(text)
        if letter is not None:
            out.append((letter, text))

    for w in [top, *top.findChildren(QWidget)]:
        if w is not top and not w.isVisibleTo(top):
            continue
        if isinstance(w, QAbstractButton) or (isinstance(w, QLabel) and w.buddy() is not None):
            add(w.text())
        elif isinstance(w, QTabBar):
            for i in range(w.count()):
                add(w.tabText(i))
    if hasattr(top, "menuBar"):
        for action in top.menuBar().actions():
            add(action.text())
    return out


def assert_unique(top: QWidget, where: str) -> None:
    found = mnemonics(top)
    counts = Counter(letter for letter, _ in found)
    clashes = sorted(f"{letter}: {t}" for letter, t in found if counts[letter] > 1)
    assert not clashes, f"mnemonics used twice in {where}: {clashes}"
    assert found, f"no mnemonic at all in {where}"


@pytest.fixture(params=["en", "ja", "zh_CN"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The app's translation for the language of the test's parameter, installed meanwhile."""
    translators = install_translators(qapp, request.param)
    yield request.param
    for t in translators:
        qapp.removeTranslator(t)


def test_mnemonics_are_unique_in_every_tab(language: str, layout: Layout, qtbot) -> None:  # type: ignore[no-untyped-def]
    with app_window(layout, qtbot) as window:
        # both banners shown: the worst case, every window-wide mnemonic at once
        window.pending_banner.setVisible(True)
        window.store_banner.setVisible(True)
        # and the Servers tab's buttons shown only in a server's particular state (told its
        # folders changed and not restartable; a learning of it killed)
        box = window.findChild(ServersPanel).confine_box
        for button in (box.stale_button, box.learning_button):
            button.setVisible(True)
        for i in range(window.tabs.count()):
            window.tabs.setCurrentIndex(i)
            assert_unique(window, f"the {window.tabs.tabText(i)!r} tab ({language})")


def test_mnemonics_are_unique_in_every_dialog(
    language: str, layout: Layout, store: Store, watcher: StoreWatcher, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "alpha")
    with store.transaction() as state:
        state.grant("files", [state.add_root(str(a)).id])
        state.server_started("files", ["/usr/bin/files"], "s-0")
        state.server_started("files", ["/usr/bin/files", "--new"], "s-1")
    state = store.read()
    (question,) = questions(state)
    assert question.previous_command is not None
    dialogs: list[QDialog] = [
        ConsentDialog(question),
        DetectDialog(set()),
        ConnectDialog(layout),
        SettingsDialog(watcher, app_settings(layout)),
        RecoveryDialog(store, "broken"),
        RefusalsDialog(DenialNotice(watcher)),
    ]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.show()
        assert_unique(dialog, f"{type(dialog).__name__} ({language})")


def test_the_current_row_is_enough_to_rename_and_remove(
    controller: AppController, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window = controller.window
    assert window is not None
    panel = window.roots_panel
    a, b = folders(tmp_path, "alpha", "beta")
    panel.add_paths([str(a), str(b)])
    table = panel.table
    table.clearSelection()
    # what tabbing into the table does: a current cell (the focus rectangle), no selection
    table.selectionModel().setCurrentIndex(
        panel.model.index(0, PATH), QItemSelectionModel.SelectionFlag.NoUpdate
    )
    assert table.selectionModel().selectedRows() == []
    assert panel.rename_button.isEnabled() and panel.remove_button.isEnabled()

    window.activateWindow()
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    # F2 renames even with the Folder column current
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.findChild(QLineEdit)
    assert editor is not None and editor.isVisible()
    assert table.currentIndex().column() == NAME
    editor.selectAll()
    qtbot.keyClicks(editor, "First")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: store.read().roots[0].name == "First")

    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    seen: list[str] = []
    answer_message_box(button_named("Remove"), seen)
    qtbot.keyClick(table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: [r.path for r in store.read().roots] == [str(b)])
    assert "First" in seen[0]


def test_an_emptied_name_reverts_without_an_error(
    controller: AppController, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window = controller.window
    assert window is not None
    (a,) = folders(tmp_path, "alpha")
    window.roots_panel.add_paths([str(a)])
    errors: list[str] = []
    controller.watcher.edit_failed.connect(errors.append)  # type: ignore[union-attr]
    model = window.roots_panel.model
    assert not model.setData(model.index(0, NAME), "   ")
    assert store.read().roots[0].name == "alpha"
    assert errors == []


def test_servers_current_row_enables_its_buttons(
    watcher: StoreWatcher, store: Store, qtbot
) -> None:  # type: ignore[no-untyped-def]
    with store.transaction() as state:
        state.grant("files", [])
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    assert not panel.forget_button.isEnabled()
    panel.servers.selectionModel().setCurrentIndex(
        panel.servers_model.index(0, 0), QItemSelectionModel.SelectionFlag.NoUpdate
    )
    assert panel.selected_server() == "files"
    assert panel.forget_button.isEnabled()


def test_tab_leaves_every_table_for_the_next_control(layout: Layout, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    # in a table the arrow keys move from cell to cell; Tab goes on, as everywhere else,
    # rather than walking the cells and wrapping round with no way out but a mnemonic
    from PySide6.QtWidgets import QTableView

    [folder] = folders(tmp_path, "work")
    with Store(layout).transaction() as state:  # a server, so that its tables are shown
        state.grant("fs", [state.add_root(str(folder)).id])
    with app_window(layout, qtbot) as window:
        window.activateWindow()
        qtbot.waitActive(window)
        checked: list[str] = []
        panel = window.findChild(ServersPanel)
        places = [(i, None) for i in range(window.tabs.count())]
        places += [(window.tabs.indexOf(panel), v) for v in range(panel.views.count())]
        for i, view in places:
            window.tabs.setCurrentIndex(i)
            if view is not None:
                panel.views.setCurrentIndex(view)
            tables = [
                t
                for t in window.tabs.currentWidget().findChildren(QTableView)
                if t.isVisible() and t.isEnabled()
            ]
            checked.extend(t.accessibleName() for t in tables)
            for table in tables:
                table.setFocus()
                qtbot.waitUntil(table.hasFocus)
                qtbot.keyClick(table, Qt.Key.Key_Tab)
                assert not table.hasFocus(), (window.tabs.tabText(i), table.accessibleName())
        assert {
            "Workspace roots",
            "Consent: which server sees which root",
            "Events",
            "Hosts and their servers",
        } <= set(checked)

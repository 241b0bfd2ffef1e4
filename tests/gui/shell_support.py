"""Fixtures and helpers shared by the tests of the app shell (window, models, dialogs)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QAbstractButton, QApplication, QFileDialog, QMessageBox, QWidget

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.shell.app import AppController
from roots_manager.gui.shell.main_window import MainWindow


@pytest.fixture
def watcher(store: Store) -> Iterator[StoreWatcher]:
    """A started watcher of the test's store."""
    w = StoreWatcher(store)
    w.start()
    yield w
    w.stop()


@pytest.fixture
def controller(layout: Layout, qtbot) -> Iterator[AppController]:  # type: ignore[no-untyped-def]
    """The whole app for the test's state directory, started with its window shown."""
    c = AppController(layout)
    c.start()
    assert c.window is not None
    qtbot.addWidget(c.window)
    qtbot.waitExposed(c.window)
    yield c
    c.shutdown()


@contextlib.contextmanager
def app_window(layout: Layout, qtbot) -> Iterator[MainWindow]:  # type: ignore[no-untyped-def]
    """The whole app for *layout*, started, and its main window; shut down afterwards."""
    controller = AppController(layout)
    controller.start()
    try:
        window = controller.window
        assert window is not None
        qtbot.addWidget(window)
        yield window
    finally:
        controller.shutdown()


def folders(base: Path, *names: str) -> list[Path]:
    """Make the folders *names* under *base*."""
    out = []
    for n in names:
        p = base / n
        p.mkdir(parents=True, exist_ok=True)
        out.append(p)
    return out


def answer_message_box(
    choose: Callable[[QMessageBox], QAbstractButton | None], seen: list[str] | None = None
) -> None:
    """Answer the next modal message box with the button *choose* picks.

    Scheduled before the action that opens the box (whose exec() blocks); it polls for the box
    and records its title, text and informative text in *seen*.
    """

    def poll() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox) and box.isVisible():
            if seen is not None:
                seen.append(box.windowTitle() + "\n" + box.text() + "\n" + box.informativeText())
            button = choose(box)
            assert button is not None, f"no such button in the box: {box.text()}"
            button.click()
            return
        QTimer.singleShot(20, poll)

    QTimer.singleShot(0, poll)


def answer_folder_dialog(folder: Path, started: list[str]) -> None:
    """Answer the next folder dialog (Qt's own, as on the offscreen platform) with *folder*;
    the folder it opened in is recorded in *started*."""

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QFileDialog) and dialog.isVisible():
            started.append(dialog.directory().absolutePath())
            dialog.setDirectory(str(folder.parent))
            dialog.selectFile(str(folder))
            dialog.accept()
            return
        QTimer.singleShot(20, poll)

    QTimer.singleShot(0, poll)


def button_named(text: str) -> Callable[[QMessageBox], QAbstractButton | None]:
    """Pick the message box button whose text (without mnemonics) is *text*."""

    def choose(box: QMessageBox) -> QAbstractButton | None:
        for b in box.buttons():
            if b.text().replace("&", "") == text:
                return b
        return None

    return choose


def top_level(kind: type[QWidget]) -> list[QWidget]:
    """The visible top-level widgets of type *kind*."""
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]

"""A store that cannot be read opens the recovery dialog, never a traceback."""

from __future__ import annotations

from pathlib import Path

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.gui.shell.app import AppController
from roots_manager.gui.shell.recovery import RecoveryDialog
from tests.gui.shell_support import folders


def test_corrupt_store_restores_the_last_good_copy(
    layout: Layout, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    a, b = folders(tmp_path, "alpha", "beta")
    with store.transaction() as state:
        state.add_root(str(a))
    with store.transaction() as state:
        state.add_root(str(b))
    layout.store.write_bytes(b'{"schema": 1, "roots": [tru')
    controller = AppController(layout)
    controller.start()
    try:
        dialog = controller.recovery
        assert isinstance(dialog, RecoveryDialog)
        qtbot.waitExposed(dialog)
        assert controller.window is None
        assert "not valid JSON" in dialog.details.toPlainText()
        dialog.restore_button.click()
        qtbot.waitUntil(lambda: controller.window is not None and controller.window.isVisible())
        assert [r.path for r in store.read().roots] == [str(a)]
        assert list(layout.home.glob("store.json.damaged-*"))
        assert controller.window is not None
        assert controller.window.roots_panel.model.rowCount() == 1
        # the user is told where the damaged file went
        note = controller.window.statusBar().currentMessage()
        assert "recovered" in note and "damaged file is kept" in note
    finally:
        controller.shutdown()


def test_with_no_good_copy_it_offers_to_start_empty(layout: Layout, store: Store, qtbot) -> None:  # type: ignore[no-untyped-def]
    layout.store.write_bytes(b"\xff\xfe garbage")
    controller = AppController(layout)
    quit_asked: list[bool] = []
    controller.quit_requested.connect(lambda: quit_asked.append(True))
    controller.start()
    try:
        dialog = controller.recovery
        assert dialog is not None
        qtbot.waitExposed(dialog)
        dialog.restore_button.click()
        assert dialog.empty_button.isVisible()
        assert "no good copy" in dialog.details.toPlainText()
        dialog.empty_button.click()
        qtbot.waitUntil(lambda: controller.window is not None)
        assert store.read().roots == []
        assert quit_asked == []
    finally:
        controller.shutdown()


def test_quit_from_the_recovery_dialog_changes_nothing(layout: Layout, qtbot) -> None:  # type: ignore[no-untyped-def]
    layout.store.write_bytes(b"[1, 2]")
    controller = AppController(layout)
    controller.start()
    try:
        assert controller.recovery is not None
        with qtbot.waitSignal(controller.quit_requested):
            controller.recovery.quit_button.click()
        assert layout.store.read_bytes() == b"[1, 2]"
        assert controller.window is None
    finally:
        controller.shutdown()


def test_store_damaged_while_running_shows_a_banner(
    controller: AppController, layout: Layout, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window = controller.window
    assert window is not None
    layout.store.write_bytes(b"{broken")
    qtbot.waitUntil(lambda: window.store_banner.isVisible(), timeout=10_000)
    assert "cannot be read" in window.store_banner.label.text()


def test_a_change_refused_by_a_damaged_store_says_what_to_do(
    controller: AppController, layout: Layout, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window = controller.window
    assert window is not None and controller.watcher is not None
    layout.store.write_bytes(b"{broken")
    qtbot.waitUntil(lambda: window.store_banner.isVisible(), timeout=10_000)
    (a,) = folders(tmp_path, "alpha")
    with qtbot.waitSignal(controller.watcher.edit_failed) as failed:
        assert window.roots_panel.add_paths([str(a)]) == []
    assert "Recover" in failed.args[0] and "not saved" in failed.args[0]
    assert "roots-manager store recover" not in failed.args[0]  # a CLI hint, not for the app
    assert layout.store.read_bytes() == b"{broken"

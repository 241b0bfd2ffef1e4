"""Adding, renaming and removing roots through the workspace panel, against a real store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent, QDropEvent, QPalette
from PySide6.QtWidgets import QApplication, QLineEdit, QMenu, QStyle

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.gui.common.folder_dialog import start_folder
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.roots.roots_model import AVAILABLE, GRANTED, NAME, PATH, RootsModel
from roots_manager.gui.roots.roots_view import RootsPanel
from roots_manager.gui.shell.app import AppController, app_settings
from tests.conftest import run_cli
from tests.gui.shell_support import answer_folder_dialog, answer_message_box, button_named, folders


@pytest.fixture
def panel(watcher: StoreWatcher, layout: Layout, qtbot) -> RootsPanel:  # type: ignore[no-untyped-def]
    p = RootsPanel(watcher, app_settings(layout))
    qtbot.addWidget(p)
    p.show()
    return p


def test_add_shows_the_root_and_remembers_it(
    panel: RootsPanel, store: Store, tmp_path: Path
) -> None:
    (a, b) = folders(tmp_path, "alpha", "beta project")
    ids = panel.add_paths([str(a), str(b)])
    assert len(ids) == 2
    state = store.read()
    assert [r.path for r in state.roots] == [str(a), str(b)]
    m = panel.model
    assert m.rowCount() == 2
    assert m.index(1, NAME).data() == "beta project"
    assert m.index(1, PATH).data() == str(b)
    assert m.index(0, AVAILABLE).data() == "yes"
    assert m.index(0, GRANTED).data() == "nobody"
    assert panel.recent.paths()[:2] == [str(b), str(a)]


def test_adding_twice_is_refused_with_a_message(
    panel: RootsPanel, watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "alpha")
    panel.add_paths([str(a)])
    with qtbot.waitSignal(watcher.edit_failed) as failed:
        assert panel.add_paths([str(a)]) == []
    assert "already a root" in failed.args[0]
    assert len(store.read().roots) == 1


def test_broad_root_needs_an_explicit_confirmation(
    panel: RootsPanel, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    seen: list[str] = []
    answer_message_box(button_named("Cancel"), seen)
    assert panel.add_paths([str(home)]) == []
    assert store.read().roots == []
    assert "home folder" in seen[0] and "all your files" in seen[0]

    answer_message_box(button_named("Add it anyway"), seen)
    assert len(panel.add_paths([str(home)])) == 1
    assert [r.path for r in store.read().roots] == [str(home)]

    seen.clear()
    answer_message_box(button_named("Cancel"), seen)
    assert panel.add_paths(["/"]) == []
    assert "root of the file system" in seen[0]


CLI_WORDS = {
    "it is the root of the file system": "fs-root",
    "it is your home folder": "home",
    "it holds your home folder": "holds-home",
}
APP_WORDS = {
    "It is the root of the file system.": "fs-root",
    "It is your home folder.": "home",
    "It holds your home folder": "holds-home",
}


def _kind(text: str, words: dict[str, str]) -> str:
    [kind] = [kind for phrase, kind in words.items() if phrase in text]
    return kind


def test_the_app_and_the_cli_call_a_broad_folder_the_same(
    panel: RootsPanel, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One decision (core.roots.broadness), two front ends' words: a folder holding the home folder
    is not "the root of the file system" in one and "holds your home" in the other."""
    home = tmp_path / "users" / "me"
    home.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    for path, kind in ((home, "home"), (tmp_path / "users", "holds-home"), (Path("/"), "fs-root")):
        refused = run_cli("roots", "add", str(path), check=False)
        assert refused.returncode != 0
        seen: list[str] = []
        answer_message_box(button_named("Cancel"), seen)
        assert panel.add_paths([str(path)]) == []
        assert (_kind(refused.stderr, CLI_WORDS), _kind(seen[0], APP_WORDS)) == (kind, kind), path
        if kind == "holds-home":
            assert f"({home})" in seen[0] and f"({home})" in refused.stderr
    assert store.read().roots == []


def test_rename_inline(panel: RootsPanel, store: Store, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "alpha")
    panel.add_paths([str(a)])
    panel.table.selectRow(0)
    panel.rename_button.click()
    editor = panel.table.findChild(QLineEdit)
    assert editor is not None and editor.isVisible()
    editor.selectAll()
    qtbot.keyClicks(editor, "Alpha   renamed")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: store.read().roots[0].name == "Alpha renamed")
    assert panel.model.index(0, NAME).data() == "Alpha renamed"


def test_remove_names_the_servers_that_lose_access(
    panel: RootsPanel, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    a, b = folders(tmp_path, "alpha", "beta")
    panel.add_paths([str(a), str(b)])
    run_cli("grant", "--new", "files-server", str(a))
    run_cli("grant", "--new", "notes", str(a), "--session")
    qtbot.waitUntil(lambda: "files-server" in (panel.model.index(0, GRANTED).data() or ""))
    panel.table.selectRow(0)
    seen: list[str] = []
    answer_message_box(button_named("Cancel"), seen)
    panel.remove_button.click()
    assert len(store.read().roots) == 2
    assert "files-server" in seen[0] and "notes" in seen[0]
    # one root is one root: the title and the sentence say so
    assert seen[0].startswith("Remove 1 root\n")
    assert "told about 1 root: files-server, notes." in seen[0]

    answer_message_box(button_named("Remove"), seen)
    panel.remove_button.click()
    state = store.read()
    assert [r.path for r in state.roots] == [str(b)]
    assert state.grants == []
    assert panel.model.rowCount() == 1
    assert str(a) in panel.recent.paths()

    c, d = folders(tmp_path, "gamma", "delta")
    panel.add_paths([str(c), str(d)])
    qtbot.waitUntil(lambda: panel.model.rowCount() == 3)
    panel.table.selectAll()
    answer_message_box(button_named("Cancel"), seen)
    panel.remove_button.click()
    assert seen[-1].startswith("Remove 3 roots\n")
    assert "The 3 roots are granted to no server now." in seen[-1]


def test_changes_made_elsewhere_show_at_once(panel: RootsPanel, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "from-the-cli")
    run_cli("roots", "add", str(a), "--name", "CLI root")
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=10_000)
    assert panel.model.index(0, NAME).data() == "CLI root"
    run_cli("roots", "rename", str(a), "Renamed elsewhere")
    qtbot.waitUntil(
        lambda: panel.model.index(0, NAME).data() == "Renamed elsewhere", timeout=10_000
    )


def test_a_vanished_folder_shows_as_unavailable(panel: RootsPanel, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "soon-gone")
    panel.add_paths([str(a)])
    shutil.rmtree(a)
    qtbot.waitUntil(
        lambda: panel.model.index(0, AVAILABLE).data() == "no (missing)", timeout=15_000
    )


def test_a_folder_swapped_for_a_link_elsewhere_shows_as_withheld(  # type: ignore[no-untyped-def]
    panel: RootsPanel, tmp_path: Path, qtbot
) -> None:
    (a,) = folders(tmp_path, "gamma")
    panel.add_paths([str(a)])
    assert panel.model.index(0, AVAILABLE).data() == "yes"
    a.rmdir()
    a.symlink_to("/")
    qtbot.waitUntil(
        lambda: panel.model.index(0, AVAILABLE).data() == "no (leads elsewhere now)",
        timeout=15_000,
    )


def test_folders_dropped_on_the_window_become_roots(
    controller: AppController, store: Store, tmp_path: Path
) -> None:
    a, b = folders(tmp_path, "dropped-1", "dropped-2")
    (tmp_path / "a-file.txt").write_text("not a folder")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in (a, b, tmp_path / "a-file.txt")])
    window = controller.window
    assert window is not None
    event = QDropEvent(
        QPointF(50, 50),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    assert event.isAccepted()
    assert [r.path for r in store.read().roots] == [str(a), str(b)]


def test_folders_dragged_over_the_table_light_it_and_dropped_become_roots(
    panel: RootsPanel, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "dragged")
    (tmp_path / "a-file.txt").write_text("not a folder")
    base = panel.table.palette().color(QPalette.ColorRole.Base)
    viewport = panel.table.viewport()

    def drag(kind: type[QDragEnterEvent] | type[QDragMoveEvent], paths: list[Path]) -> bool:
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
        event = kind(
            QPoint(20, 20),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QApplication.sendEvent(viewport, event)
        return event.isAccepted()

    # a file alone is not taken, and nothing is lit
    assert not drag(QDragEnterEvent, [tmp_path / "a-file.txt"])
    assert panel.table.palette().color(QPalette.ColorRole.Base) == base
    # a folder is: the table is tinted while it is over it, and back when it leaves
    assert drag(QDragEnterEvent, [a])
    assert drag(QDragMoveEvent, [a])
    assert panel.drops.lit
    assert panel.table.palette().color(QPalette.ColorRole.Base) != base
    QApplication.sendEvent(viewport, QDragLeaveEvent())
    assert not panel.drops.lit
    assert panel.table.palette().color(QPalette.ColorRole.Base) == base
    # dropped, it becomes a root, and the tint goes
    assert drag(QDragEnterEvent, [a])
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(a))])
    drop = QDropEvent(
        QPointF(20, 20),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, drop)
    assert drop.isAccepted()
    assert [r.path for r in store.read().roots] == [str(a)]
    assert panel.table.palette().color(QPalette.ColorRole.Base) == base


def test_roots_model_passes_the_model_tester(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtmodeltester
) -> None:  # type: ignore[no-untyped-def]
    a, b = folders(tmp_path, "alpha", "beta")
    with store.transaction() as state:
        state.add_root(str(a))
        state.add_root(str(b))
        state.grant("srv", [state.roots[0].id])
    watcher.reload()
    model = RootsModel(watcher)
    assert model.rowCount() == 2
    qtmodeltester.check(model, force_py=True)


def test_adding_several_keeps_the_good_ones_and_names_the_rest(
    panel: RootsPanel, watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    a, gone, c = folders(tmp_path, "alpha", "gone", "new one")
    panel.add_paths([str(a)])
    # picked or dropped, then deleted before the click landed
    shutil.rmtree(gone)
    with qtbot.waitSignal(watcher.edit_failed) as failed:
        ids = panel.add_paths([str(a), str(gone), str(c)])
    assert len(ids) == 1
    assert [r.path for r in store.read().roots] == [str(a), str(c)]
    message = failed.args[0]
    assert f"{a} is already a root" in message
    assert f"cannot add {gone}: it does not exist" in message  # the core's refusal, shown
    assert panel.recent.paths()[0] == str(c)


def test_recent_folders_menu_adds_a_removed_folder_back(
    panel: RootsPanel, store: Store, tmp_path: Path
) -> None:
    a, b = folders(tmp_path, "alpha", "beta")
    panel.add_paths([str(a), str(b)])
    with store.transaction() as state:
        state.remove_root(str(a))
    panel.watcher.reload()
    menu = QMenu()
    panel.fill_recent(menu)
    texts = [action.text() for action in menu.actions()]
    assert str(a) in texts and str(b) not in texts  # b is a root: not offered
    next(action for action in menu.actions() if action.text() == str(a)).trigger()
    assert {r.path for r in store.read().roots} == {str(a), str(b)}


def test_the_recent_buttons_arrow_has_room_beside_its_text(panel: RootsPanel) -> None:
    button = panel.recent_button
    assert button.menu() is panel.recent_menu
    text = button.fontMetrics().horizontalAdvance(button.text().replace("&", ""))
    arrow = button.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, button)
    # the text, the arrow beside it and the frame's margins: nothing drawn over the text
    margins = 2 * button.style().pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, button)
    assert button.width() >= text + arrow + margins, (button.width(), text, arrow, margins)
    # and it stands as tall as its neighbours
    assert button.height() == panel.rename_button.height()


def test_the_folder_dialog_opens_at_home_then_next_to_the_folder_added_last(
    panel: RootsPanel, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (work,) = folders(tmp_path, "work")
    a, b = folders(work, "alpha", "beta")
    monkeypatch.chdir(b)  # wherever the app was started: not where the dialog opens
    started: list[str] = []
    answer_folder_dialog(a, started)
    panel.add_folder()
    assert started == [str(Path.home())]
    assert [r.path for r in store.read().roots] == [str(a)]
    answer_folder_dialog(b, started)
    panel.add_folder()
    assert started[1] == str(work)  # projects live side by side
    # a folder whose parent has gone since gives the home folder again
    assert start_folder([str(tmp_path / "gone" / "x"), str(a)]) == str(work)
    assert start_folder([str(tmp_path / "gone" / "x")]) == str(Path.home())

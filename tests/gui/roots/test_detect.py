"""The Detect projects dialog on a generated tree: scan, cancel, tick, add."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QListView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from roots_manager.core.store.file import Store
from roots_manager.gui.roots.detect import DetectDialog
from roots_manager.gui.shell.app import AppController
from tests.core.roots.test_projects import make_tree


def _text_left(view: QListView, index: QModelIndex) -> int:
    """Where the style puts the text of *index*'s row, as the view's delegate lays it out."""
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualRect(index)
    QStyledItemDelegate().initStyleOption(option, index)
    style = view.style()
    return style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view).left()


def test_detect_scans_in_the_background_and_adds_the_ticked_projects(
    controller: AppController, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    tree = tmp_path / "tree"
    projects = make_tree(tree)
    window = controller.window
    assert window is not None
    # one project is a root already: it is shown but cannot be ticked
    window.roots_panel.add_paths([str(projects["go"])])
    dialog = window.detect_projects()
    qtbot.waitExposed(dialog)
    dialog.folder.setText(str(tree))
    # no empty bar before the scan (it would look like a field), its room kept all the same
    assert dialog.progress.isHidden() and dialog.progress.sizePolicy().retainSizeWhenHidden()
    with qtbot.waitSignal(dialog.scan_finished, timeout=30_000) as done:
        dialog.scan_button.click()
    result = done.args[0]
    assert not result.cancelled
    assert dialog.progress.isVisible()
    assert dialog.model.rowCount() == len(projects)
    assert dialog.progress.value() == dialog.progress.maximum()
    assert not dialog.add_button.isEnabled()  # nothing is ticked for the user
    existing = [
        dialog.model.item(r)
        for r in range(dialog.model.rowCount())
        if not dialog.model.item(r).isEnabled()
    ]
    assert len(existing) == 1 and "already a root" in existing[0].text()
    # its text starts where the others' do: it has a box too, ticked and greyed
    lefts = {_text_left(dialog.list, dialog.model.index(r, 0)) for r in range(len(projects))}
    assert len(lefts) == 1, lefts
    assert existing[0].checkState() == Qt.CheckState.Checked
    assert not existing[0].flags() & Qt.ItemFlag.ItemIsEnabled

    wanted = {str(projects["git"]), str(projects["rust"])}
    for r in range(dialog.model.rowCount()):
        item = dialog.model.item(r)
        if item.data(Qt.ItemDataRole.UserRole + 1) in wanted:
            item.setCheckState(Qt.CheckState.Checked)
    assert set(dialog.checked_paths()) == wanted
    assert dialog.add_button.isEnabled()
    dialog.add_button.click()
    qtbot.waitUntil(lambda: len(store.read().roots) == 3)
    assert {r.path for r in store.read().roots} == wanted | {str(projects["go"])}


def test_cancel_keeps_what_was_found_so_far(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    tree = tmp_path / "big"
    for i in range(400):
        d = tree / f"group{i:03d}" / "a" / "b" / f"proj{i}"
        d.mkdir(parents=True)
        (d / "package.json").write_text("{}")
    dialog = DetectDialog(set(), str(tree))
    qtbot.addWidget(dialog)
    dialog.show()

    def cancel_once(done: int) -> None:
        # the progress bar is updated in the GUI thread, so this runs there too
        if done >= 3:
            dialog.cancel_scan()

    dialog.progress.valueChanged.connect(cancel_once)
    with qtbot.waitSignal(dialog.scan_finished, timeout=30_000) as finished:
        dialog.start_scan()
    result = finished.args[0]
    assert result.cancelled
    assert 3 <= len(result.projects) < 400
    assert dialog.model.rowCount() == len(result.projects)
    assert "Cancelled" in dialog.status.text()
    assert dialog.scan_button.isEnabled() and not dialog.cancel_button.isEnabled()


def test_package_caches_are_not_offered_and_enter_adds_after_a_scan(tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "home"
    mine = home / "code" / "mine"
    (mine / ".git").mkdir(parents=True)
    # downloaded packages that each look like a project
    for cache in (
        home / ".cargo" / "registry" / "src" / "serde-1.0",
        home / ".local" / "share" / "nvim" / "plugin",
        home / "go" / "pkg" / "mod" / "example.com" / "lib@v1.2.3",
    ):
        cache.mkdir(parents=True)
        (cache / "Cargo.toml").write_text("[package]\n")
    dialog = DetectDialog(set(), str(home))
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.tick_all_button.isEnabled()
    with qtbot.waitSignal(dialog.scan_finished, timeout=30_000) as done:
        dialog.start_scan()
    assert [p.path for p in done.args[0].projects] == [str(mine)]

    dialog.tick_all_button.click()
    assert dialog.checked_paths() == [str(mine)]
    # Enter no longer re-scans (which would drop the ticks): it adds
    assert dialog.add_button.isDefault() and not dialog.scan_button.isDefault()
    with qtbot.waitSignal(dialog.accepted):
        qtbot.keyClick(dialog.list, Qt.Key.Key_Return)
    dialog.untick_all_button.click()
    assert dialog.checked_paths() == []
    # choosing another folder makes Enter scan again
    qtbot.keyClicks(dialog.folder, "/code")
    assert dialog.scan_button.isDefault() and not dialog.add_button.isDefault()

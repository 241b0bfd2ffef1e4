"""The workspace panel: the roots table and the ways to add, rename and remove roots."""

from __future__ import annotations

import os
from collections.abc import Iterable

from PySide6.QtCore import QPoint, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions import roots as root_actions
from roots_manager.core.roots.broadness import Broad, broadness, home
from roots_manager.core.roots.root import Root, normalize_path
from roots_manager.core.servers.names import visible
from roots_manager.gui.common.errors import error_text
from roots_manager.gui.common.folder_dialog import pick_folder
from roots_manager.gui.common.folder_drops import FolderDrops
from roots_manager.gui.common.placeholder_view import PlaceholderTableView
from roots_manager.gui.common.resources import action_icon
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.roots.roots_model import AVAILABLE, GRANTED, NAME, PATH, RootsModel

RECENT_KEY = "recentFolders"
RECENT_MAX = 12


class RecentFolders:
    """The folders most recently added or removed, newest first, kept in the app settings."""

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def paths(self) -> list[str]:
        value = self.settings.value(RECENT_KEY, [])
        if isinstance(value, str):  # QSettings gives a lone string for a one-item list
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def remember(self, path: str) -> None:
        items = [path, *(p for p in self.paths() if p != path)][:RECENT_MAX]
        self.settings.setValue(RECENT_KEY, items)

    def clear(self) -> None:
        self.settings.setValue(RECENT_KEY, [])


class RootsPanel(QWidget):
    """The roots table with Add, Detect projects, Recent, Rename and Remove."""

    roots_added = Signal(list)
    """Roots were added here; the argument is the list of their ids."""
    detect_requested = Signal()

    def __init__(
        self, watcher: StoreWatcher, settings: QSettings, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.recent = RecentFolders(settings)
        self.model = RootsModel(watcher, self)

        self.table = PlaceholderTableView(self)
        self.table.set_placeholder(
            self.tr(
                "No roots yet. Add the folders you work in with Add folder… or Detect "
                "projects…, or drop them here from your file manager."
            )
        )
        self.table.setModel(self.model)
        # folders dropped on the table become roots; it is lit while they are over it
        self.drops = FolderDrops(self.table)
        self.drops.dropped.connect(self.add_paths)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(PATH, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(AVAILABLE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(GRANTED, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setAccessibleName(self.tr("Workspace roots"))
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)

        self.add_button = QPushButton(self.tr("&Add folder…"), self)
        self.add_button.setAccessibleName(self.tr("Add a folder as a root"))
        self.add_button.clicked.connect(self.add_folder)
        self.add_button.setIcon(
            action_icon("folder-new", QStyle.StandardPixmap.SP_FileDialogNewFolder)
        )
        self.detect_button = QPushButton(self.tr("&Detect projects…"), self)
        self.detect_button.setAccessibleName(self.tr("Detect projects in a folder"))
        self.detect_button.clicked.connect(self.detect_requested)
        self.detect_button.setIcon(
            action_icon("edit-find", QStyle.StandardPixmap.SP_FileDialogContentsView)
        )
        # a push button with a menu, like its neighbours: the style leaves room for the
        # menu's arrow (a tool button's instant popup draws it over the text)
        self.recent_button = QPushButton(self.tr("Rec&ent"), self)
        self.recent_button.setAccessibleName(self.tr("Recent folders"))
        self.recent_menu = QMenu(self.tr("Recent folders"), self)
        self.recent_menu.aboutToShow.connect(lambda: self.fill_recent(self.recent_menu))
        self.recent_button.setMenu(self.recent_menu)
        self.rename_button = QPushButton(self.tr("Re&name"), self)
        self.rename_button.setToolTip(self.tr("Rename the selected root (F2)"))
        self.rename_button.setAccessibleName(self.tr("Rename the selected root"))
        self.rename_button.clicked.connect(self.rename_selected)
        self.remove_button = QPushButton(self.tr("Re&move…"), self)
        self.remove_button.setToolTip(self.tr("Remove the selected roots (Delete)"))
        self.remove_button.setAccessibleName(self.tr("Remove the selected roots"))
        self.remove_button.clicked.connect(self.remove_selected)
        self.remove_button.setIcon(action_icon("list-remove", QStyle.StandardPixmap.SP_TrashIcon))

        self.remove_action = QAction(self.tr("Remove"), self)
        self.remove_action.setShortcut(QKeySequence.StandardKey.Delete)
        self.remove_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.remove_action.triggered.connect(self.remove_selected)
        self.table.addAction(self.remove_action)
        # F2 renames whichever column is current, not only when the Name cell is
        self.rename_action = QAction(self.tr("Rename"), self)
        self.rename_action.setShortcut(QKeySequence(Qt.Key.Key_F2))
        self.rename_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.rename_action.triggered.connect(self.rename_selected)
        self.table.addAction(self.rename_action)

        self.hint = QLabel(
            self.tr(
                "Roots are the folders you work in. Drop folders here from your file manager, "
                "then choose in the Servers and consent tab which server may see which."
            ),
            self,
        )
        self.hint.setWordWrap(True)

        buttons = QHBoxLayout()
        for w in (
            self.add_button,
            self.detect_button,
            self.recent_button,
            self.rename_button,
            self.remove_button,
        ):
            buttons.addWidget(w)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.hint)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)

        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.table.selectionModel().currentChanged.connect(self._update_buttons)
        self.model.modelReset.connect(self._update_buttons)
        self._update_buttons()

    # ---- selection ----------------------------------------------------------------------

    def selected_roots(self) -> list[Root]:
        """The selected roots; with none selected, the root of the current row (the keyboard
        focus rectangle), since tabbing into the table makes a row current without selecting it.
        """
        selection = self.table.selectionModel()
        rows = sorted({i.row() for i in selection.selectedRows()})
        if not rows and selection.currentIndex().isValid():
            rows = [selection.currentIndex().row()]
        return [r for r in (self.model.root_at(row) for row in rows) if r is not None]

    def _update_buttons(self, *_: object) -> None:
        n = len(self.selected_roots())
        self.rename_button.setEnabled(n == 1)
        self.rename_action.setEnabled(n == 1)
        self.remove_button.setEnabled(n > 0)
        self.remove_action.setEnabled(n > 0)

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        menu.addAction(self.tr("Re&name"), self.rename_selected).setEnabled(
            len(self.selected_roots()) == 1
        )
        menu.addAction(self.tr("Re&move…"), self.remove_selected).setEnabled(
            bool(self.selected_roots())
        )
        menu.exec(self.table.viewport().mapToGlobal(pos))

    # ---- adding ---------------------------------------------------------------------------

    def add_folder(self) -> None:
        """Ask for a folder with the native folder dialog and add it."""
        path = pick_folder(self, self.tr("Add a folder as a root"), self.recent.paths())
        if path:
            self.add_paths([path])

    def confirm_broad(self, path: str) -> bool:
        """Ask whether the broad folder *path* is really meant to be a root."""
        why = {
            Broad.HOME: self.tr(
                "It is your home folder. Every server you grant it to could be pointed at all "
                "your files: documents, keys, browser profiles and the rest."
            ),
            Broad.HOLDS_HOME: self.tr(
                "It holds your home folder ({home}). Every server you grant it to could be "
                "pointed at all your files: documents, keys, browser profiles and the rest."
            ).format(home=home()),
            Broad.FS_ROOT: self.tr(
                "It is the root of the file system. Every server you grant it to could be "
                "pointed at every file on this computer."
            ),
        }[broadness(path) or Broad.FS_ROOT]
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.tr("Add a very broad folder?"),
            self.tr("Add {path} as a root?").format(path=path),
            QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setInformativeText(
            why + "\n\n" + self.tr("A project folder is almost always the better choice.")
        )
        add = box.addButton(self.tr("Add it anyway"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is add

    def add_paths(self, paths: Iterable[str]) -> list[str]:
        """Add the folders *paths* as roots, confirming broad ones; returns the new root ids.

        Each folder stands on its own: one that vanished since it was picked, or is already a
        root, is skipped and reported, and the others are still added.
        """
        wanted = []
        for raw in paths:
            path = normalize_path(raw)
            if broadness(path) is not None and not self.confirm_broad(path):
                continue
            wanted.append(path)
        if not wanted:
            return []

        # the core decides what can be a root (already one, gone, not a folder) and says why
        # not; its refusal is shown, not re-checked here
        done = self.watcher.act(lambda store: root_actions.add_each(store, wanted))
        if done is None:
            return []
        ids = [r.id for r in done.roots]
        refused = [error_text(exc) for exc in done.refused]
        if refused:
            self.watcher.edit_failed.emit(self.tr("Not added:") + "\n" + "\n".join(refused))
        if not ids:
            return []
        added = {r.id: r.path for r in self.watcher.state.roots}
        for i in ids:
            if i in added:
                self.recent.remember(added[i])
        self.roots_added.emit(ids)
        row = self.model.row_of(ids[-1])
        if row >= 0:
            self.table.selectRow(row)
        return ids

    def fill_recent(self, menu: QMenu) -> None:
        """Fill *menu* with the recent folders that are not roots now, each adding itself."""
        menu.clear()
        current = {r.path for r in self.watcher.state.roots}
        paths = [p for p in self.recent.paths() if p not in current]
        for p in paths:
            action = menu.addAction(p)
            action.setEnabled(os.path.isdir(p))
            action.triggered.connect(lambda _=False, p=p: self.add_paths([p]))
        if not paths:
            menu.addAction(self.tr("No recent folders")).setEnabled(False)
        else:
            menu.addSeparator()
            menu.addAction(self.tr("Clear the list"), self.recent.clear)

    # ---- renaming and removing ----------------------------------------------------------

    def rename_selected(self) -> None:
        """Start editing the name of the selected root in place."""
        roots = self.selected_roots()
        if len(roots) != 1 or self.table.state() == QAbstractItemView.State.EditingState:
            return
        row = self.model.row_of(roots[0].id)
        index = self.model.index(row, NAME)
        self.table.setCurrentIndex(index)
        self.table.edit(index)

    def confirm_remove(self, roots: list[Root], losing: list[str]) -> bool:
        """Ask before removing *roots*; *losing* are the servers that lose access."""
        names = ", ".join(r.name for r in roots)
        n = len(roots)
        if losing:
            detail = self.tr(
                "These servers will no longer be told about %n root(s): {servers}.", "", n
            ).format(servers=", ".join(map(visible, losing)))
        else:
            detail = self.tr("The %n root(s) are granted to no server now.", "", n)
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Remove %n root(s)", "", n),
            self.tr("Remove {names} from your roots?").format(names=names),
            QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setInformativeText(detail + " " + self.tr("The folders themselves are not touched."))
        remove = box.addButton(self.tr("Remove"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is remove

    def remove_selected(self) -> None:
        """Remove the selected roots after a confirmation naming the servers that lose them."""
        roots = self.selected_roots()
        if not roots:
            return
        ids = {r.id for r in roots}
        losing = sorted({g.server for g in self.watcher.state.grants if g.root in ids})
        if not self.confirm_remove(roots, losing):
            return
        paths = [r.path for r in roots]

        removed = self.watcher.act(lambda store: root_actions.remove_each(store, paths))
        if removed:
            for p in removed:
                self.recent.remember(p)

"""The selected server's detail: its folders with a scope each, Add folder, its network, its own
lane of the timeline and its last events. The panel puts its actions above these and its
confinement (with the network) in :attr:`ServerDetail.protection`, between the folders and the
activity."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions import consent
from roots_manager.core.directory.records import EventRecord
from roots_manager.core.log.index import LogIndex
from roots_manager.core.log.timeline import Timeline
from roots_manager.core.roots.broadness import broadness
from roots_manager.core.runs.live import BridgeMarker
from roots_manager.core.store.grants import Scope
from roots_manager.core.store.state import State
from roots_manager.gui.common.allow_menu import AllowMenus, is_refusal
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.log.log_texts import translated_summary
from roots_manager.gui.log.timeline_view import TimelineView
from roots_manager.gui.servers.learn_dialog import LearnDialog
from roots_manager.gui.servers.network_box import NetworkBox
from roots_manager.gui.servers.serverview.folders import (
    CHOICES,
    Choice,
    FolderRow,
    decision,
    folder_rows,
)

RECENT_EVENTS = 5
"""How many of the server's last events the detail shows."""
EVENT_ROW = Qt.ItemDataRole.UserRole
"""The role of a Recent activity line's event: its row in the log index."""
FOLDER_ROWS = 4
"""The folder rows the detail keeps room for, however small the window: past them the detail
scrolls rather than squeeze the folders out of sight."""


def choice_text(choice: Choice) -> str:
    """A scope choice in words, as a folder row's box offers it."""
    if choice.scope is None:
        return QCoreApplication.translate("ServerDetail", "not granted")
    if choice.scope is Scope.WHILE_RUNNING:
        return (
            QCoreApplication.translate("ServerDetail", "while running, read-only")
            if choice.read_only
            else QCoreApplication.translate("ServerDetail", "while running")
        )
    return (
        QCoreApplication.translate("ServerDetail", "always, read-only")
        if choice.read_only
        else QCoreApplication.translate("ServerDetail", "always")
    )


class ServerDetail(QWidget):
    """What one server is granted, and what it did lately."""

    mark_clicked = Signal(int)
    """A mark of the server's lane was clicked: its event's row in the log index."""
    restart_now = Signal()
    """Restart now was clicked: a folder revoked is still readable until the server restarts."""
    allow_requested = Signal(object, object)
    """A refusal of Recent activity was allowed from its menu: the denial event and the
    :class:`~roots_manager.core.confinement.offers.Offer` chosen (the app grants it)."""

    def __init__(self, watcher: StoreWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.server: str | None = None
        self.rows: list[FolderRow] = []
        self.log_index: LogIndex | None = None
        self.confirm_broad: Callable[[str], bool] = lambda path: False
        """Asks whether a broad folder is meant (the Roots tab's question); no by default."""

        self.folders = QTableWidget(0, 2, self)
        self.folders.setHorizontalHeaderLabels([self.tr("Folder"), self.tr("Access")])
        self.folders.setAccessibleName(self.tr("The selected server's folders"))
        self.folders.verticalHeader().setVisible(False)
        self.folders.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.folders.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # Tab goes through the rows' boxes and on, not from cell to cell
        self.folders.setTabKeyNavigation(False)
        header = self.folders.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        self.add_button = QPushButton(self.tr("Add folder…"), self)
        self.add_button.setToolTip(
            self.tr("Choose a folder: it becomes a root, and this server may see it")
        )
        self.add_button.clicked.connect(self._choose_folder)
        self.learn_button = QPushButton(self.tr("Learn…"), self)
        self.learn_button.setToolTip(
            self.tr(
                "Run this server confined for a while, then grant what it was refused, "
                "as you choose"
            )
        )
        self.learn_button.clicked.connect(self.open_learning)
        self.learn_dialog: LearnDialog | None = None
        self.no_folders = QLabel(self.tr("No folder yet: Add folder… grants this server one."))
        self.no_folders.setWordWrap(True)
        self.until_restart = QLabel(self)
        self.until_restart.setWordWrap(True)
        self.restart_button = QPushButton(self.tr("Restart &now"), self)
        self.restart_button.clicked.connect(self.restart_now)

        self.network = NetworkBox(watcher, self)
        """Its network when confined: allowed, only some domains, or blocked."""

        self.recent = QListWidget(self)
        self.recent.setAccessibleName(self.tr("The selected server's last events"))
        # a line too long for the pane is cut, whole on hover, rather than a scroll bar
        # taking the room of a line
        self.recent.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.recent.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        # a refusal among them offers what the refusal notice does: a right-click, the menu
        # key, Shift+F10 or Ctrl+Shift+A, or Allow… while one is the current line
        self._allow_menus = AllowMenus(
            self,
            self.recent,
            at_point=self._recent_menu,
            at_current=self.open_allow_menu,
            chosen=self.allow_requested.emit,
        )
        self.recent.currentItemChanged.connect(self._recent_current)
        self.allow_button = QPushButton(self.tr("Allow…"), self)
        self.allow_button.setAccessibleName(self.tr("Allow what the selected refusal asked"))
        self.allow_button.setToolTip(
            self.tr(
                "Grant the server what the refusal chosen in its recent activity asked for, "
                "in one click, as the refusal notice does (Ctrl+Shift+A, or right-click it)"
            )
        )
        self.allow_button.setVisible(False)
        self.allow_button.clicked.connect(self._allow_clicked)
        self.lane: TimelineView | None = None
        """The server's own lane of the timeline, once the Log's is known."""

        restart_row = QHBoxLayout()
        restart_row.addWidget(self.until_restart, 1)
        restart_row.addWidget(self.restart_button)
        add_row = QHBoxLayout()
        add_row.addWidget(self.no_folders, 1)
        add_row.addStretch(0)
        add_row.addWidget(self.learn_button)
        add_row.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.folders, 1)
        layout.addLayout(restart_row)
        layout.addLayout(add_row)
        self.protection = QVBoxLayout()
        """Where the panel puts the server's protection (its confinement, and the network)."""
        self.protection.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.protection)
        self.recent_label = QLabel(self.tr("Recent activity"), self)
        bold = self.recent_label.font()
        bold.setBold(True)
        self.recent_label.setFont(bold)
        recent_row = QHBoxLayout()
        recent_row.addWidget(self.recent_label, 1)
        recent_row.addWidget(self.allow_button)
        layout.addLayout(recent_row)
        self._activity = layout
        layout.addWidget(self.recent)
        # room for its few lines, and no more: the folders get the rest
        lines = self.recent.fontMetrics().lineSpacing() * RECENT_EVENTS
        self.recent.setFixedHeight(lines + 2 * self.recent.frameWidth() + 8)
        watcher.state_changed.connect(self._state_changed)
        watcher.markers_changed.connect(self._markers_changed)
        self.show_server(None)

    def show_server(self, name: str | None) -> None:
        """Show server *name* (None: none selected)."""
        self.server = name
        self._state_changed(self.watcher.state)
        self.show_recent()

    def _state_changed(self, state: State) -> None:
        name = self.server
        self.setEnabled(name is not None)
        markers = [m for m in self.watcher.markers if m.server == name]
        runs = [m.run for m in markers]
        reachable = {f for m in markers if m.confined for f in m.reachable or ()}
        self.rows = folder_rows(state, name, runs, reachable) if name is not None else []
        self._show_until_restart(markers)
        self.folders.setRowCount(len(self.rows))
        boxes: list[QComboBox] = []
        for i, row in enumerate(self.rows):
            item = QTableWidgetItem(self.folder_text(row))
            item.setToolTip(row.path)
            self.folders.setItem(i, 0, item)
            box = QComboBox(self.folders)
            box.setAccessibleName(self.tr("Access to {folder}").format(folder=row.name))
            for choice in CHOICES:
                box.addItem(choice_text(choice))
            box.setCurrentIndex(CHOICES.index(row.choice) if row.choice in CHOICES else 0)
            box.activated.connect(lambda index, root=row.root_id: self.choose(root, CHOICES[index]))
            self.folders.setCellWidget(i, 1, box)
            boxes.append(box)
        # Tab: the table, each row's box in turn, then the buttons under it as shown (Learn…,
        # Add folder…)
        chain = [self.folders, *boxes, self.learn_button, self.add_button]
        for before, after in itertools.pairwise(chain):
            QWidget.setTabOrder(before, after)
        if self.rows:
            widest = max(
                self.folders.cellWidget(i, 1).sizeHint().width() for i in range(len(self.rows))
            )
            self.folders.setColumnWidth(1, widest)
        self._keep_folder_rows()
        self.no_folders.setVisible(not self.rows)
        srv = state.servers.get(name) if name is not None else None
        self.network.show_server(name)
        self.learn_button.setEnabled(srv is not None)  # learning a server needs it known

    def folder_text(self, row: FolderRow) -> str:
        """A folder's name, and the places inside it its grant keeps from the server."""
        if row.until_restart:
            return self.tr("{folder} (still readable until restart)").format(folder=row.name)
        places = [self.tr("{place}, read-only").format(place=p) for p in row.read_only_inside]
        places += [self.tr("{place}, hidden").format(place=p) for p in row.hidden_inside]
        if not places:
            return row.name
        return self.tr("{folder} (except {places})").format(
            folder=row.name, places="; ".join(places)
        )

    def _show_until_restart(self, markers: list[BridgeMarker]) -> None:
        """Say which folders no longer granted the running server still reads, with Restart
        now where its bridge can restart it (else only its host can)."""
        kept = [r for r in self.rows if r.until_restart]
        self.until_restart.setVisible(bool(kept))
        self.restart_button.setVisible(bool(kept))
        if not kept:
            return
        able = any(m.restartable for m in markers if m.confined)
        names = ", ".join(r.name for r in kept)
        text = self.tr(
            "Revoked, but still readable until restart: %n folder(s) ({folders}). The running "
            "server keeps the rules it started with until it starts again.",
            "",
            len(kept),
        ).format(folders=names)
        if not able:
            text += " " + self.tr(
                "Its bridge cannot restart it (it kept no handshake of the host's to replay): "
                "restart it from its host."
            )
        self.until_restart.setText(text)
        self.restart_button.setEnabled(able)
        self.restart_button.setToolTip(
            self.tr("Stop the server and start it again now, behind its host's back")
            if able
            else self.tr("Only the server's host can restart it")
        )

    def _keep_folder_rows(self) -> None:
        # room for the first rows whatever the height: the pane scrolls instead
        shown = min(max(len(self.rows), 1), FOLDER_ROWS)
        row = (
            self.folders.rowHeight(0)
            if self.rows
            else self.folders.verticalHeader().defaultSectionSize()
        )
        header = self.folders.horizontalHeader().sizeHint().height()
        self.folders.setMinimumHeight(header + shown * row + 2 * self.folders.frameWidth())

    def _markers_changed(self, _markers: object) -> None:
        self._state_changed(self.watcher.state)  # a while-running grant lasts for live runs

    def choice_of(self, root_id: str) -> Choice | None:
        """What the server shown is granted of root *root_id*, as the detail shows it."""
        return next((r.choice for r in self.rows if r.root_id == root_id), None)

    def choose(self, root_id: str, wanted: Choice) -> None:
        """Give the server shown *wanted* over root *root_id* (a row's box, chosen)."""
        name = self.server
        current = self.choice_of(root_id)
        if name is None or current is None:
            return
        d = decision(current, wanted)
        if d is None:
            return
        if name in self.watcher.state.servers:
            self.watcher.act(
                lambda store: consent.set_scope(
                    store, name, [root_id], d.scope, read_only=d.read_only
                )
            )
        elif (scope := d.scope) is not None:  # a running server not recorded yet: ahead
            self.watcher.act(
                lambda store: consent.grant(
                    store, name, [root_id], scope, read_only=d.read_only, new=True
                )
            )
        self._state_changed(self.watcher.state)  # a refused change puts the box back

    def _choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Add folder"), str(Path.home()))
        if path:
            self.add_folder(path)

    def add_folder(self, path: str) -> bool:
        """Make *path* a root if it is not one and grant it to the server shown, always;
        a broad folder only once the user confirms it. Returns whether it was granted."""
        name = self.server
        if name is None:
            return False
        if broadness(path) is not None and not self.confirm_broad(path):
            return False
        done = self.watcher.act(
            lambda store: consent.grant(
                store, name, [path], Scope.ALWAYS, new=True, allow_broad=True
            )
        )
        return done is not None

    def open_learning(self) -> LearnDialog | None:
        """Open Learn… for the server shown (not modal: the app stays usable meanwhile)."""
        name = self.server
        if name is None or name not in self.watcher.state.servers:
            return None
        if self.learn_dialog is not None and self.learn_dialog.isVisible():
            self.learn_dialog.raise_()
            return self.learn_dialog
        self.learn_dialog = LearnDialog(self.watcher, name, self)
        self.learn_dialog.show()
        return self.learn_dialog

    def end_learning(self) -> None:
        """End a learning under way as closing its dialog does (the app is quitting): nothing
        granted, and a confinement it turned on turned back off."""
        if self.learn_dialog is not None and self.learn_dialog.learning is not None:
            self.learn_dialog.reject()

    def set_log_index(self, index: LogIndex, timeline: Timeline | None = None) -> None:
        """Read the server's last events from *index* (the Log's, kept up to date by it), and
        paint its lane from *timeline* (the Log's timeline's; else one of its own)."""
        self.log_index = index
        if self.lane is None:
            self.lane = TimelineView(index, self, timeline=timeline, compact=True)
            self.lane.setAccessibleName(self.tr("The selected server's timeline"))
            self.lane.setToolTip(
                self.tr(
                    "Its roots traffic over time, as the Log's timeline shows it: blue, asked "
                    "for roots; green, answered; a pale bar while an answer was held; orange, "
                    "list_changed sent; purple, consent; red cross, refused. Ctrl+wheel: zoom; "
                    "drag: move; click a mark to see its event in the Log."
                )
            )
            self.lane.setFixedHeight(self.lane.sizeHint().height())
            self.lane.mark_clicked.connect(self.mark_clicked)
            self._activity.insertWidget(self._activity.indexOf(self.recent), self.lane)
        self.show_recent()

    def show_recent(self) -> None:
        """Show the last events of the server shown."""
        # the line the user is on stays current when events come (the list is made again)
        was = self.recent.currentItem()
        was_row = was.data(EVENT_ROW) if was is not None else None
        self.recent.clear()
        index = self.log_index
        shown = index is not None and self.server is not None
        self.recent_label.setVisible(shown)
        self.recent.setVisible(shown)
        if self.lane is not None:
            self.lane.setVisible(shown)
            self.lane.show_only(self.server)
            self.lane.refresh()
        if index is None or self.server is None:
            return
        rows = index.last_of_server(self.server, RECENT_EVENTS)
        for row in reversed(rows):
            rec = index.record(row)
            if rec is None:
                continue
            when = datetime.datetime.fromtimestamp(index.ts[row]).strftime("%H:%M:%S")
            line = f"{when}  {translated_summary(rec)}"
            item = QListWidgetItem(line, self.recent)
            item.setToolTip(line)
            item.setData(EVENT_ROW, row)
            if row == was_row:
                self.recent.setCurrentItem(item)
        if not rows:
            self.recent.addItem(self.tr("Nothing logged yet"))
        self._recent_current()

    # ---- a refusal, allowed from Recent activity ----------------------------------------

    def _event_of(self, item: QListWidgetItem | None) -> EventRecord | None:
        row = item.data(EVENT_ROW) if item is not None else None
        if self.log_index is None or not isinstance(row, int):
            return None
        rec = self.log_index.record(row)
        return rec if is_refusal(rec) else None

    def _recent_current(self, *_: object) -> None:
        shown = self.recent.isVisibleTo(self)
        self.allow_button.setVisible(
            shown and self._event_of(self.recent.currentItem()) is not None
        )

    def allow_menu_for(self, item: QListWidgetItem | None) -> QMenu | None:
        """The menu of what the refusal of Recent activity's line *item* may be granted
        (None: the line is not a refusal); its entries ask for the grant
        (:attr:`allow_requested`)."""
        return self._allow_menus.make(
            self._event_of(item), self.tr("Allow what this refusal asked")
        )

    @property
    def allow_menu(self) -> QMenu | None:
        """The allow menu open now (or last), kept while it is shown."""
        return self._allow_menus.shown

    def open_allow_menu(self) -> QMenu | None:
        """Open the allow menu of the current line of Recent activity, under it (the
        keyboard's way); None when it is not a refusal."""
        item = self.recent.currentItem()
        if item is None:
            return None
        return self._popup(item, self.recent.visualItemRect(item).bottomLeft())

    def _allow_clicked(self) -> None:
        menu = self.allow_menu_for(self.recent.currentItem())
        if menu is not None:
            at = self.allow_button.mapToGlobal(self.allow_button.rect().bottomLeft())
            self._allow_menus.show(menu, at)

    def _recent_menu(self, pos: QPoint) -> None:
        item = self.recent.itemAt(pos) or self.recent.currentItem()
        if item is not None:
            self._popup(item, pos)

    def _popup(self, item: QListWidgetItem, pos: QPoint) -> QMenu | None:
        return self._allow_menus.show_in_view(self.allow_menu_for(item), pos)

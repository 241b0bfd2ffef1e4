"""The "Detect projects" dialog: scan a folder in the background and offer what it finds."""

from __future__ import annotations

import os
import threading
from typing import TypeGuard

from PySide6.QtCore import QObject, Qt, QThread, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.roots.projects import Project, ScanProgress, ScanResult, scan
from roots_manager.core.roots.root import normalize_path

PathRole = Qt.ItemDataRole.UserRole + 1


class ScanWorker(QThread):
    """Runs :func:`roots_manager.core.roots.projects.scan` off the GUI thread."""

    progressed = Signal(int, int, int, str)
    """(top-level folders done, total, folders visited, the folder being searched)"""
    scanned = Signal(object)
    """The scan ended (finished or cancelled); the argument is the :class:`ScanResult`."""

    def __init__(self, top: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.top = top
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> None:
        def report(p: ScanProgress) -> None:
            self.progressed.emit(p.done, p.total, p.visited, p.current)

        result = scan(self.top, cancelled=self._cancel.is_set, progress=report)
        self.scanned.emit(result)


class DetectDialog(QDialog):
    """Choose a folder, scan it for projects, tick the ones to add as roots."""

    scan_finished = Signal(object)
    """A scan ended; the argument is its :class:`ScanResult`."""

    def __init__(
        self, existing: set[str], start: str | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Detect projects"))
        self.existing = existing
        self.worker: ScanWorker | None = None
        self.scan_result: ScanResult | None = None

        self.folder = QLineEdit(start or os.path.expanduser("~"), self)
        self.folder.setAccessibleName(self.tr("Folder to search"))
        folder_label = QLabel(self.tr("Search &in:"), self)
        folder_label.setBuddy(self.folder)
        self.browse = QPushButton(self.tr("&Browse…"), self)
        self.browse.clicked.connect(self._browse)
        self.scan_button = QPushButton(self.tr("&Scan"), self)
        self.scan_button.setDefault(True)
        self.scan_button.clicked.connect(self.start_scan)
        # Enter scans while the folder is being chosen, and adds once projects are offered
        self.folder.textEdited.connect(lambda _: self.scan_button.setDefault(True))

        self.progress = QProgressBar(self)
        self.progress.setAccessibleName(self.tr("Scan progress"))
        # no "0%" before anything started: the figure appears with the scan
        self.progress.setTextVisible(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        # an empty bar before any scan looks like a field to type in: it comes with the scan,
        # and its room is kept so that nothing moves when it does
        keep = self.progress.sizePolicy()
        keep.setRetainSizeWhenHidden(True)
        self.progress.setSizePolicy(keep)
        self.progress.hide()
        self.status = QLabel(self.tr("Choose a folder and press Scan."), self)
        self.status.setWordWrap(True)
        self.cancel_button = QPushButton(self.tr("Cance&l scan"), self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_scan)

        self.model = QStandardItemModel(self)
        self.list = QListView(self)
        self.list.setModel(self.model)
        self.list.setAccessibleName(self.tr("Projects found"))
        list_label = QLabel(self.tr("&Projects found:"), self)
        list_label.setBuddy(self.list)
        self.tick_all_button = QPushButton(self.tr("&Tick all"), self)
        self.tick_all_button.clicked.connect(lambda: self.set_all_checked(True))
        self.untick_all_button = QPushButton(self.tr("&Untick all"), self)
        self.untick_all_button.clicked.connect(lambda: self.set_all_checked(False))

        self.buttons = QDialogButtonBox(self)
        self.add_button = self.buttons.addButton(
            self.tr("&Add checked"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.model.itemChanged.connect(self._update_add)

        row = QHBoxLayout()
        row.addWidget(folder_label)
        row.addWidget(self.folder, 1)
        row.addWidget(self.browse)
        row.addWidget(self.scan_button)
        prog = QHBoxLayout()
        prog.addWidget(self.progress, 1)
        prog.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addLayout(prog)
        layout.addWidget(self.status)
        ticks = QHBoxLayout()
        ticks.addWidget(list_label, 1)
        ticks.addWidget(self.tick_all_button)
        ticks.addWidget(self.untick_all_button)
        layout.addLayout(ticks)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.buttons)
        self._update_add()
        self.resize(640, 480)

    def _browse(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, self.tr("Search for projects in"), self.folder.text()
        )
        if path:
            self.folder.setText(path)

    def start_scan(self) -> None:
        """Scan the chosen folder in a worker thread."""
        if self.worker is not None:
            return
        top = normalize_path(self.folder.text().strip() or ".")
        if not os.path.isdir(top):
            self.status.setText(self.tr("{path} is not a folder.").format(path=top))
            return
        self.model.clear()
        self.scan_result = None
        self.progress.setRange(0, 0)  # busy until the first report gives a total
        self.progress.show()
        self.progress.setTextVisible(True)
        self.status.setText(self.tr("Searching {path}…").format(path=top))
        self.scan_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self._update_add()
        self.worker = ScanWorker(top, self)
        self.worker.progressed.connect(self._progressed)
        self.worker.scanned.connect(self._scanned)
        self.worker.start()

    def cancel_scan(self) -> None:
        """Stop the scan; the projects found so far stay offered."""
        if self.worker is not None:
            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText(self.tr("Cancelling…"))

    def _progressed(self, done: int, total: int, visited: int, current: str) -> None:
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
        self.progress.setFormat(self.tr("%p% (%n folder(s))", "", visited))

    def _scanned(self, result: ScanResult) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.wait()
            worker.deleteLater()
        self.scan_result = result
        self.scan_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1 if not result.cancelled else 0)
        for project in result.projects:
            self.model.appendRow(self._item(project))
        n = len(result.projects)
        visited = self.tr("%n folder(s)", "", result.visited)
        if result.cancelled:
            text = self.tr("Cancelled after {visited}; %n project(s) found so far.", "", n)
        elif n:
            text = self.tr("%n project(s) found in {visited}.", "", n)
        else:
            text = self.tr("No project found in {visited}.")
        self.status.setText(text.format(visited=visited))
        self._update_add()
        if self.model.rowCount():
            self.add_button.setDefault(True)
            self.list.setFocus()
        self.scan_finished.emit(result)

    def _item(self, project: Project) -> QStandardItem:
        item = QStandardItem(f"{project.name} — {project.path}")
        item.setData(project.path, PathRole)
        item.setToolTip(self.tr("Found by: {markers}").format(markers=", ".join(project.markers)))
        item.setEditable(False)
        if project.path in self.existing:
            item.setText(
                self.tr("{name} — {path} (already a root)").format(
                    name=project.name, path=project.path
                )
            )
            # ticked and greyed: its box keeps the text in line with the others' and says
            # it is in already
            item.setCheckable(True)
            item.setCheckState(Qt.CheckState.Checked)
            item.setEnabled(False)
        else:
            item.setCheckable(True)
            item.setCheckState(Qt.CheckState.Unchecked)
        return item

    def _update_add(self, *_: object) -> None:
        self.add_button.setEnabled(bool(self.checked_paths()))
        tickable = any(map(_tickable, map(self.model.item, range(self.model.rowCount()))))
        self.tick_all_button.setEnabled(tickable)
        self.untick_all_button.setEnabled(tickable)

    def set_all_checked(self, checked: bool) -> None:
        """Tick or untick every project that can be added."""
        state = Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
        for row in range(self.model.rowCount()):
            item = self.model.item(row)
            if _tickable(item):
                item.setCheckState(state)

    def checked_paths(self) -> list[str]:
        """The paths of the projects ticked."""
        out = []
        for row in range(self.model.rowCount()):
            item = self.model.item(row)
            if _tickable(item) and item.checkState() == Qt.CheckState.Checked:
                out.append(str(item.data(PathRole)))
        return out

    def done(self, result: int) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.worker.wait()
        super().done(result)


def _tickable(item: QStandardItem | None) -> TypeGuard[QStandardItem]:
    """A project the user can tick: not one that is a root already (ticked and greyed)."""
    return item is not None and item.isCheckable() and item.isEnabled()

"""The Hosts tab: the MCP hosts found, their servers, and a Protect switch for each.

Protecting a server puts it behind the bridge in its host's file (:mod:`roots_manager.actions.
hosts`, over the core's edit, backup and record); the tab only shows what the core found and
calls the use case. The change is shown first, as a diff (:mod:`.host_change_dialog`), and made
once the user says so. A host that reads its file only when it starts is named in a "restart"
hint, until its file is back as it was; Undo takes back the last change, whichever tab or command
made it.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions import hosts as host_actions
from roots_manager.core.hosts import operations as hostchanges
from roots_manager.core.hosts.declared import Transport
from roots_manager.core.hosts.known import HostSpec, Platform
from roots_manager.core.hosts.operations import FileReport, FileResult
from roots_manager.core.hosts.record import ChangeStep
from roots_manager.core.hosts.wrap import find_bridge
from roots_manager.gui.common.rows_model import Index
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.hosts.host_change_dialog import ChangePreview

HOST, SERVER, PROTECT, COMMAND, FILE = range(5)


@dataclass(frozen=True)
class HostRow:
    """One line of the table: a server of a host file, or a file that cannot be read."""

    report: FileReport
    server: str | None
    protectable: bool
    protected: bool
    status: str
    """What the Protect column says besides its switch (untranslated parts only: names)."""
    kind: str
    """"wrapped", "stdio", "remote", "other" or "error": what the status text is made from."""
    command: str = ""
    """The server's own command line (the one behind the bridge, when wrapped), as a shell
    would take it."""


def host_rows(reports: list[FileReport]) -> list[HostRow]:
    """The table's rows for the files found."""
    rows = []
    for r in reports:
        if r.error is not None:
            rows.append(HostRow(r, None, False, False, r.error, "error"))
            continue
        for s in r.servers:
            wrapped = s.wrapped is not None
            stdio = s.transport is Transport.STDIO
            kind = "wrapped" if wrapped else s.transport.value
            status = s.wrapped.server if s.wrapped else (s.problem or "")
            argv = s.server_argv
            command = shlex.join(argv) if argv else ""
            rows.append(HostRow(r, s.name, stdio, wrapped, status, kind, command))
    return rows


class HostsModel(QAbstractTableModel):
    """The servers of every host file found; the Protect column is a check box."""

    protect_requested = Signal(int, bool)
    """The user switched Protect on (True) or off in row *int*."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[HostRow] = []

    def set_rows(self, rows: list[HostRow]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 5

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            self.tr("Host"),
            self.tr("Server"),
            self.tr("Protect"),
            self.tr("Command"),
            self.tr("File"),
        )[section]

    def _status(self, row: HostRow) -> str:
        if row.kind == "wrapped":
            return self.tr("Behind the bridge as {name}").format(name=row.status)
        if row.kind == "stdio":
            return self.tr("Not protected")
        if row.kind == "remote":
            return self.tr("A remote server: its roots do not go through the bridge")
        if row.kind == "error":
            line = row.report.line
            if line is None:
                return self.tr("Cannot be read: {reason}").format(reason=row.status)
            return self.tr("Cannot be read (line {line}): {reason}").format(
                line=line, reason=row.status
            )
        return self.tr("Cannot be protected: {reason}").format(reason=row.status)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = self.rows[index.row()], index.column()
        file = row.report.file
        if role == Qt.ItemDataRole.DisplayRole:
            if col == HOST:
                scope = self.tr("project") if file.project is not None else self.tr("user")
                if file.host.discontinued is not None:
                    # still read for the users who have it, and said to be gone
                    return self.tr("{host} ({scope}, discontinued {date})").format(
                        host=file.host.label, scope=scope, date=file.host.discontinued
                    )
                return f"{file.host.label} ({scope})"
            if col == SERVER:
                return row.server or ""
            if col == PROTECT:
                return self._status(row)
            if col == COMMAND:
                return row.command
            return str(file.path)
        if role == Qt.ItemDataRole.CheckStateRole and col == PROTECT and row.protectable:
            return Qt.CheckState.Checked if row.protected else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole and col in (COMMAND, FILE):
            return row.command if col == COMMAND else str(file.path)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and index.column() == PROTECT and self.rows[index.row()].protectable:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        return flags

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid():
            return False
        row = self.rows[index.row()]
        if index.column() != PROTECT or not row.protectable:
            return False
        on = Qt.CheckState(value) == Qt.CheckState.Checked
        if on != row.protected:
            self.protect_requested.emit(index.row(), on)
        return True


class HostsPanel(QWidget):
    """The Hosts tab."""

    hosts_changed = Signal(object)
    """Host files were changed, by one change or one Undo; the argument is the list of the
    core's :class:`FileResult` for the files written."""
    change_failed = Signal(str)
    """A change was refused; the argument is a message for the user."""
    reports_read = Signal(object)
    """The hosts' files were read; the argument is the core's list of :class:`FileReport`."""

    def __init__(
        self,
        watcher: StoreWatcher,
        parent: QWidget | None = None,
        platform: Callable[[], Platform] = Platform.current,
    ) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.platform = platform
        self.model = HostsModel(self)
        self.model.protect_requested.connect(self._protect)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setAccessibleName(self.tr("Hosts and their servers"))
        self.table.setTabKeyNavigation(False)  # Tab goes on to the buttons; arrows, cell to cell
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(False)
        intro = QLabel(
            self.tr(
                "The MCP hosts found on this computer and in your roots. Protect puts a server "
                "behind the bridge, so it sees only the folders you grant it; the host's file "
                "keeps everything else, and a backup is kept."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.hint.setVisible(False)
        policy = self.hint.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # the buttons keep their place, hint or not
        self.hint.setSizePolicy(policy)
        self.refresh_button = QPushButton(self.tr("R&efresh"), self)
        self.refresh_button.clicked.connect(self.refresh)
        self.undo_button = QPushButton(self.tr("&Undo last change"), self)
        self.undo_button.clicked.connect(self.undo)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hint, 1)
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self._scanned = False
        self.preview: ChangePreview | None = None
        """The change being shown before it is made, while it is."""
        self._notes: list[str] = []
        """What the last change said besides the restart hint (kept until the next one)."""
        self._unapplied: dict[Path, tuple[HostSpec, bytes]] = {}
        """The files changed for a host that reads them only when it starts, each with its bytes
        before the first change: the "restart" hint stays until the file is back to them."""

    def showEvent(self, event: QShowEvent) -> None:
        # the hosts' files are read when the tab is first shown, not when the app starts
        if not self._scanned:
            self.refresh()
        super().showEvent(event)

    def refresh(self) -> None:
        """Look for the hosts' files again and show what they hold."""
        self._scanned = True
        folders = [r.path for r in self.watcher.state.roots]
        reports = hostchanges.report(self.platform(), folders)
        self.model.set_rows(host_rows(reports))
        self.reports_read.emit(reports)
        self.table.resizeColumnsToContents()
        # a command line can be long: it gets what is left, the File column its own width
        self.table.setColumnWidth(COMMAND, min(self.table.columnWidth(COMMAND), 320))
        self._show_hint()
        self.undo_button.setEnabled(self._last_change() is not None)

    def _last_change(self) -> ChangeStep | None:
        try:
            return hostchanges.last_change(self.watcher.layout)
        except OSError:
            return None

    def _protect(self, index: int, on: bool) -> None:
        """Show what switching Protect would change in the host's file; make it if accepted."""
        row = self.model.rows[index]
        bridge = find_bridge() if on else ""
        if bridge is None:
            self.change_failed.emit(
                self.tr("roots-bridge cannot be found beside this program; reinstall it.")
            )
            return
        planned = self._change(row, on, bridge, dry_run=True)
        if planned is None:
            return
        if planned.error is not None or not planned.diff:
            self._done([planned])  # says why, or shows what someone else changed meanwhile
            return
        preview = ChangePreview(planned, row.server or "", on, self)
        self.preview = preview

        def finished(accepted: int) -> None:
            self.preview = None
            preview.deleteLater()
            if accepted:
                done = self._change(row, on, bridge, dry_run=False)
                if done is not None:
                    self._done([done])

        preview.finished.connect(finished)
        preview.open()

    def _change(self, row: HostRow, on: bool, bridge: str, *, dry_run: bool) -> FileResult | None:
        store, files, servers = self.watcher.store, [row.report.file], [row.server or ""]
        try:
            if on:
                [result] = host_actions.wrap(store, files, servers, bridge=bridge, dry_run=dry_run)
            else:
                [result] = host_actions.unwrap(store, files, servers, dry_run=dry_run)
        except (OSError, ValueError) as exc:
            self.change_failed.emit(str(exc))
            return None
        return result

    def undo(self) -> None:
        """Take back the last change, every file of it."""
        try:
            undone = host_actions.undo(self.watcher.store, find_bridge)
        except host_actions.NoBridge:
            self.change_failed.emit(
                self.tr("roots-bridge cannot be found beside this program; reinstall it.")
            )
            return
        except (OSError, ValueError) as exc:
            self.change_failed.emit(str(exc))
            return
        if undone is not None:
            self._done(undone.files)

    def made_elsewhere(self, results: list[FileResult]) -> None:
        """Take in a change of host files made outside this panel (the first run's, which
        said its own errors): told of like this panel's own, so that Undo right after it
        knows the host never read the changed file, and asks for no restart."""
        self._done([r for r in results if r.written])

    def _done(self, results: list[FileResult]) -> None:
        errors = [r.error for r in results if r.error is not None]
        if errors:
            self.change_failed.emit("\n".join(errors))
        written = [r for r in results if r.written]
        notes = []
        for host in {r.file.host.id: r.file.host for r in written if r.file.host.reloads}.values():
            notes.append(self.tr("{host} applies the change by itself.").format(host=host.label))
        for r in written:
            if r.file.host.reloads or r.file.path in self._unapplied or r.backup is None:
                continue
            try:
                self._unapplied[r.file.path] = (r.file.host, r.backup.read_bytes())
            except OSError:
                continue
        notes += [note for r in results for note in r.notes]
        if written:
            self.hosts_changed.emit(written)
        self.watcher.reload()
        self.refresh()
        self._show_hint(notes)

    def _show_hint(self, notes: list[str] | None = None) -> None:
        """Name the hosts to restart (those whose files differ from what they last read) and
        what Undo found gone."""
        restart: dict[str, HostSpec] = {}
        for path, (host, before) in list(self._unapplied.items()):
            try:
                back = path.read_bytes() == before
            except OSError:
                back = False
            if back:
                del self._unapplied[path]
            else:
                restart[host.id] = host
        hints = [
            self.tr("Restart {host} to apply the change.").format(host=host.label)
            for host in restart.values()
        ]
        if notes is not None:
            self._notes = notes
        hints += self._notes
        self.hint.setText("\n".join(hints))
        self.hint.setVisible(bool(hints))

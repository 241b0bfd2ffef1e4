"""The list of every refusal waiting: per server, one row per folder and operation, newest
first, with Allow and Ignore on each row and "Ignore all start-up refusals of this server".

The rows are the notice's :class:`~roots_manager.core.confinement.refusals.Refusals`; what a
button does is the notice's (:class:`~roots_manager.gui.servers.denial_notice.DenialNotice`),
so a grant made here is the one the notice would make.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.confinement.offers import Offer
from roots_manager.core.confinement.refusals import Group
from roots_manager.core.directory.layout import home_shortened
from roots_manager.core.log.denials import shown
from roots_manager.core.servers.names import visible
from roots_manager.gui.common.confinement_text import operation_text, reason_text
from roots_manager.gui.common.rows_model import Index, RowsModel
from roots_manager.gui.servers.denial_notice import DenialNotice


class RefusalsModel(RowsModel[Group]):
    """The groups of refusals waiting, of one server or of all, newest first."""

    column_count = 5

    def __init__(self, notice: DenialNotice, parent: QObject | None = None) -> None:
        self.notice = notice
        self.server: str | None = None
        super().__init__(notice.watcher, parent)
        notice.waiting_changed.connect(self.refresh)
        self.refresh()

    def build(self) -> list[Group]:
        return self.notice.refusals.groups(self.server)

    def key(self, row: Group) -> str:
        return "\0".join(row.key) + f"\0{row.order}"

    def headers(self) -> list[str]:
        return [
            self.tr("Server"),
            self.tr("Folder"),
            self.tr("Operation"),
            self.tr("During"),
            self.tr("One click"),
        ]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        group = self.row_at(index.row())
        if group is None or role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        column = index.column()
        if column == 0:
            return visible(group.server)
        if column == 1:
            folder = shown(home_shortened(group.folder, self.notice.home)) if group.folder else "?"
            if role == Qt.ItemDataRole.ToolTipRole:
                return "\n".join(shown(p) for p in sorted(group.paths)) or folder
            return folder if group.count == 1 else f"{folder} ({group.count})"
        if column == 2:
            return operation_text(group.operation)
        if column == 3:
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.notice.sentence(group.newest)
            return self._during(group)
        got = group.offers
        if not got.offers:
            why = reason_text(got.refused) if got.refused else self.tr("not a path")
            return self.tr("nothing: {why}").format(why=why)
        return self.tr(", ", "between two items of a list").join(
            self._offer_text(o) for o in got.offers
        )

    def _during(self, group: Group) -> str:
        """What the server was doing, in a few words: the request, start-up or between."""
        rec = group.newest
        if group.start_up:
            return self.tr("start-up")
        requests = [r for r in rec.get("requests") or [] if isinstance(r, dict)]
        if requests:
            first = requests[0]
            return " ".join(str(first[k]) for k in ("method", "tool") if first.get(k))
        return self.tr("between requests")

    def _offer_text(self, offer: Offer) -> str:
        return {
            Offer.FOLDER: self.tr("folder"),
            Offer.READ_ONLY: self.tr("folder read-only"),
            Offer.FILE: self.tr("this file"),
            Offer.CREATE: self.tr("create its folder"),
            Offer.DOMAIN: self.tr("domain"),
        }[offer]


class RefusalsDialog(QDialog):
    """Every refusal waiting, with Allow and Ignore on the selected row."""

    def __init__(self, notice: DenialNotice, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.notice = notice
        self.setWindowTitle(self.tr("Refusals of confined servers"))
        self.model = RefusalsModel(notice, self)
        self.servers = QComboBox(self)
        self.servers.setAccessibleName(self.tr("Server"))
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.table.setWordWrap(False)
        self.table.setAccessibleName(self.tr("Refusals waiting, newest first"))
        self.folder_button = QPushButton(self.tr("Allow &folder"), self)
        self.read_only_button = QPushButton(self.tr("Allow &read-only"), self)
        self.file_button = QPushButton(self.tr("Allow this fi&le"), self)
        self.create_button = QPushButton(self.tr("Allow and ma&ke"), self)
        self.domain_button = QPushButton(self.tr("Allow &domain"), self)
        self.ignore_button = QPushButton(self.tr("I&gnore"), self)
        self.start_up_button = QPushButton(self.tr("Ignore all start-&up refusals of this server"))
        close = QPushButton(self.tr("&Close"), self)
        self.folder_button.clicked.connect(lambda: self._allow(Offer.FOLDER))
        self.read_only_button.clicked.connect(lambda: self._allow(Offer.READ_ONLY))
        self.file_button.clicked.connect(lambda: self._allow(Offer.FILE))
        self.create_button.clicked.connect(lambda: self._allow(Offer.CREATE))
        self.domain_button.clicked.connect(lambda: self._allow(Offer.DOMAIN))
        self.ignore_button.clicked.connect(self._ignore)
        self.start_up_button.clicked.connect(self._ignore_start_up)
        close.clicked.connect(self.accept)
        top = QHBoxLayout()
        label = QLabel(self.tr("&Server:"), self)
        label.setBuddy(self.servers)
        top.addWidget(label)
        top.addWidget(self.servers, 1)
        buttons = QHBoxLayout()
        for button in (
            self.domain_button,
            self.create_button,
            self.folder_button,
            self.read_only_button,
            self.file_button,
            self.ignore_button,
            self.start_up_button,
        ):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(close)
        box = QVBoxLayout(self)
        box.addLayout(top)
        box.addWidget(self.table, 1)
        box.addLayout(buttons)
        self.servers.currentIndexChanged.connect(self._server_chosen)
        notice.waiting_changed.connect(self._fill_servers)
        self.table.selectionModel().selectionChanged.connect(self._sync)
        self.model.modelReset.connect(self._sync)
        self._fill_servers()
        self.resize(980, 420)

    def _fill_servers(self) -> None:
        current = self.servers.currentData()
        self.servers.blockSignals(True)
        try:
            self.servers.clear()
            self.servers.addItem(self.tr("All servers"), None)
            for name in self.notice.refusals.servers():
                self.servers.addItem(visible(name), name)
            at = self.servers.findData(current) if isinstance(current, str) else 0
            self.servers.setCurrentIndex(max(at, 0))
        finally:
            self.servers.blockSignals(False)
        self._server_chosen()

    def _server_chosen(self) -> None:
        server = self.servers.currentData()
        self.model.server = server if isinstance(server, str) else None
        self.model.refresh()
        if self.table.selectionModel().selectedRows() == [] and self.model.rowCount():
            self.table.selectRow(0)
        self._sync()

    def selected(self) -> Group | None:
        """The group of the selected row."""
        rows = self.table.selectionModel().selectedRows()
        return self.model.row_at(rows[0].row()) if rows else None

    def select(self, row: int) -> None:
        """Select the row *row* (0: the newest)."""
        self.table.selectRow(row)

    def _sync(self, *_: object) -> None:
        group = self.selected()
        offered = () if group is None else group.offers.offers
        self.folder_button.setEnabled(Offer.FOLDER in offered)
        self.read_only_button.setEnabled(Offer.READ_ONLY in offered)
        self.file_button.setEnabled(Offer.FILE in offered)
        self.create_button.setEnabled(Offer.CREATE in offered)
        self.domain_button.setEnabled(Offer.DOMAIN in offered)
        self.ignore_button.setEnabled(group is not None)
        start_ups = group is not None and any(
            g.start_up for g in self.notice.refusals.groups(group.server)
        )
        self.start_up_button.setEnabled(start_ups)

    def _after(self, row: int) -> None:
        self.table.selectRow(min(row, self.model.rowCount() - 1))
        self._sync()

    def _allow(self, offer: Offer) -> None:
        group = self.selected()
        row = self.table.currentIndex().row() if group is not None else 0
        if group is not None:
            self.notice.allow(offer, group)
        self._after(max(row, 0))

    def _ignore(self) -> None:
        group = self.selected()
        row = self.table.currentIndex().row()
        if group is not None:
            self.notice.ignore(group.key)
        self._after(max(row, 0))

    def _ignore_start_up(self) -> None:
        group = self.selected()
        if group is not None:
            self.notice.ignore_start_up(group.server)
        self._after(0)

"""The table model of the workspace roots: name (editable), path, availability, granted to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import QApplication, QStyle

from roots_manager.core.consent import grant_active, unavailable_reason
from roots_manager.core.model import Root, State
from roots_manager.gui.watcher import StoreWatcher

Index = QModelIndex | QPersistentModelIndex

NAME, PATH, AVAILABLE, GRANTED = range(4)

RootIdRole = Qt.ItemDataRole.UserRole + 1
AVAILABILITY_RECHECK_MS = 3000


def unavailable_text(reason: str) -> str:
    """A translated form of :func:`roots_manager.core.consent.unavailable_reason`'s answer."""
    texts = {
        "missing": QCoreApplication.translate("Roots", "missing"),
        "not a folder": QCoreApplication.translate("Roots", "not a folder"),
        "unreadable": QCoreApplication.translate("Roots", "unreadable"),
    }
    return texts.get(reason, reason)


@dataclass(frozen=True)
class RootRow:
    root: Root
    unavailable: str | None
    granted: tuple[tuple[str, str], ...]
    """(server, scope) of the grants that apply now."""


class RootsModel(QAbstractTableModel):
    """The roots of the store, one per row, refreshed whenever the store changes."""

    root_renamed = Signal(str)
    """A root was renamed through the model; the argument is its id."""

    def __init__(self, watcher: StoreWatcher, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self._rows: list[RootRow] = []
        watcher.state_changed.connect(self._refresh)
        watcher.markers_changed.connect(self._refresh)
        # a folder can vanish or come back (an unmounted drive) with no store change
        self._availability = QTimer(self)
        self._availability.setInterval(AVAILABILITY_RECHECK_MS)
        self._availability.timeout.connect(self._refresh)
        self._availability.start()
        self._refresh()

    # ---- reading ------------------------------------------------------------------------

    def _build(self, state: State) -> list[RootRow]:
        sessions = {m.session for m in self.watcher.markers}
        rows = []
        for r in state.roots:
            granted = tuple(
                sorted(
                    (g.server, g.scope)
                    for g in state.grants
                    if g.root == r.id and grant_active(g, live_sessions=sessions)
                )
            )
            rows.append(RootRow(r, unavailable_reason(r.path), granted))
        return rows

    def _refresh(self, *_: object) -> None:
        rows = self._build(self.watcher.state)
        if [r.root.id for r in rows] == [r.root.id for r in self._rows]:
            changed = rows != self._rows
            self._rows = rows
            if changed and rows:
                self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, GRANTED))
            return
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def root_at(self, row: int) -> Root | None:
        """The root shown in *row*."""
        return self._rows[row].root if 0 <= row < len(self._rows) else None

    def row_of(self, root_id: str) -> int:
        """The row showing the root *root_id*, or -1."""
        for i, r in enumerate(self._rows):
            if r.root.id == root_id:
                return i
        return -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 4

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return {
            NAME: self.tr("Name"),
            PATH: self.tr("Folder"),
            AVAILABLE: self.tr("Available"),
            GRANTED: self.tr("Granted to"),
        }.get(section)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == NAME:
                return row.root.name
            if col == PATH:
                return row.root.path
            if col == AVAILABLE:
                if row.unavailable is None:
                    return self.tr("yes")
                return self.tr("no ({reason})").format(reason=unavailable_text(row.unavailable))
            if col == GRANTED:
                return ", ".join(
                    s if scope == "always" else self.tr("{server} (this session)").format(server=s)
                    for s, scope in row.granted
                ) or self.tr("nobody")
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == PATH:
                return row.root.uri
            if col == AVAILABLE and row.unavailable is not None:
                return self.tr(
                    "The folder is {reason}: no server is told about it until it is back."
                ).format(reason=unavailable_text(row.unavailable))
            if col == NAME:
                return self.tr("Double-click or press F2 to rename")
        if role == Qt.ItemDataRole.DecorationRole and col == AVAILABLE:
            icon = (
                QStyle.StandardPixmap.SP_DialogApplyButton
                if row.unavailable is None
                else QStyle.StandardPixmap.SP_MessageBoxWarning
            )
            style = QApplication.style()
            return style.standardIcon(icon) if style is not None else None
        if role == RootIdRole:
            return row.root.id
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == NAME:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    # ---- editing ------------------------------------------------------------------------

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or index.column() != NAME or role != Qt.ItemDataRole.EditRole:
            return False
        root = self.root_at(index.row())
        if root is None or not isinstance(value, str) or value == root.name:
            return False
        path = root.path
        done = self.watcher.edit(lambda s: s.rename_root(path, value))
        if done is None:
            return False
        self.root_renamed.emit(root.id)
        return True

"""The base of the app's store-backed tables: one row object per line, rebuilt on every change."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from roots_manager.gui.common.watcher import StoreWatcher

Index = QModelIndex | QPersistentModelIndex
R = TypeVar("R")


class RowsModel(QAbstractTableModel, Generic[R]):
    """A table whose rows are rebuilt from the watcher's state and markers on every change.

    When the same rows (by :meth:`key`) come back, only ``dataChanged`` is sent, so the
    selection and the current row survive the frequent refreshes that change what a row shows;
    rows added, removed or reordered reset the model.
    """

    column_count = 0

    def __init__(self, watcher: StoreWatcher, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self._rows: list[R] = []
        watcher.state_changed.connect(self.refresh)
        watcher.markers_changed.connect(self.refresh)

    def build(self) -> list[R]:
        """The rows for the watcher's current state and markers."""
        raise NotImplementedError

    def headers(self) -> list[str]:
        """The column titles, translated, in column order."""
        raise NotImplementedError

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        titles = self.headers()
        return titles[section] if 0 <= section < len(titles) else None

    def key(self, row: R) -> str:
        """What identifies *row* across refreshes."""
        raise NotImplementedError

    def refresh(self, *_: object) -> None:
        """Rebuild the rows and announce what changed."""
        rows = self.build()
        if [self.key(r) for r in rows] == [self.key(r) for r in self._rows]:
            changed = rows != self._rows
            self._rows = rows
            if changed and rows:
                last = self.index(len(rows) - 1, self.column_count - 1)
                self.dataChanged.emit(self.index(0, 0), last)
            return
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def row_at(self, row: int) -> R | None:
        """The row object shown in line *row*."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.column_count

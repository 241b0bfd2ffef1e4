"""The table model of the workspace roots: name (editable), path, availability, granted to."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle

from roots_manager.actions import roots as root_actions
from roots_manager.core.consent.effective import Availability, active_grants_by_root
from roots_manager.core.roots.root import Root
from roots_manager.core.store.grants import Scope
from roots_manager.gui.common.rows_model import Index, RowsModel
from roots_manager.gui.common.watcher import StoreWatcher

NAME, PATH, AVAILABLE, GRANTED = range(4)

RootIdRole = Qt.ItemDataRole.UserRole + 1
AVAILABILITY_RECHECK_MS = 3000
AVAILABILITY_BATCH = 2000
"""The most folders one recheck looks at. A larger store is covered over several rechecks, so
that one never holds the app for long (checking 50,000 folders takes a second or two)."""


def unavailable_text(reason: str) -> str:
    """A translated form of :func:`roots_manager.core.consent.effective.root_unavailable`'s answer."""
    texts = {
        "missing": QCoreApplication.translate("Roots", "missing"),
        "not a folder": QCoreApplication.translate("Roots", "not a folder"),
        "unreadable": QCoreApplication.translate("Roots", "unreadable"),
        "moved": QCoreApplication.translate("Roots", "leads elsewhere now"),
        "not mounted": QCoreApplication.translate("Roots", "its file system is not mounted"),
        "too broad": QCoreApplication.translate("Roots", "too broad now"),
    }
    return texts.get(reason, reason)


@dataclass(frozen=True)
class RootRow:
    root: Root
    unavailable: str | None
    granted: tuple[tuple[str, str], ...]
    """(server, scope) of the grants that apply now."""


class RootsModel(RowsModel[RootRow]):
    """The roots of the store, one per row, refreshed whenever the store changes."""

    column_count = 4

    def __init__(self, watcher: StoreWatcher, parent: QObject | None = None) -> None:
        super().__init__(watcher, parent)
        self._icons: dict[bool, QIcon] = {}
        # a folder can vanish or come back (an unmounted drive) with no store change
        self._availability = QTimer(self)
        self._availability.setInterval(AVAILABILITY_RECHECK_MS)
        self._availability.timeout.connect(self.recheck_availability)
        self._availability.start()
        self._recheck_from = 0
        self.refresh()

    def build(self) -> list[RootRow]:
        state = self.watcher.state
        grants = active_grants_by_root(state, {m.run for m in self.watcher.markers})
        availability = Availability()
        return [
            RootRow(
                r,
                availability.reason(r),
                tuple(sorted((g.server, g.scope) for g in grants.get(r.id, ()))),
            )
            for r in state.roots
        ]

    def recheck_availability(self) -> None:
        """Look again at whether the folders are available (the next batch of them)."""
        rows = self._rows
        if len(rows) <= AVAILABILITY_BATCH:
            self.refresh()
            return
        start = self._recheck_from % len(rows)
        stop = min(start + AVAILABILITY_BATCH, len(rows))
        changed = []
        availability = Availability()
        for i in range(start, stop):
            reason = availability.reason(rows[i].root)
            if reason != rows[i].unavailable:
                rows[i] = dataclasses.replace(rows[i], unavailable=reason)
                changed.append(i)
        self._recheck_from = stop % len(rows)
        if changed:
            self.dataChanged.emit(self.index(changed[0], 0), self.index(changed[-1], GRANTED))

    def key(self, row: RootRow) -> str:
        return row.root.id

    def root_at(self, row: int) -> Root | None:
        """The root shown in *row*."""
        found = self.row_at(row)
        return found.root if found is not None else None

    def row_of(self, root_id: str) -> int:
        """The row showing the root *root_id*, or -1."""
        for i, r in enumerate(self._rows):
            if r.root.id == root_id:
                return i
        return -1

    def headers(self) -> list[str]:
        return [self.tr("Name"), self.tr("Folder"), self.tr("Available"), self.tr("Granted to")]

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
                    s
                    if scope == Scope.ALWAYS
                    else self.tr("{server} (while running)").format(server=s)
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
            return self._icon(row.unavailable is None)
        if role == RootIdRole:
            return row.root.id
        return None

    def _icon(self, available: bool) -> QIcon | None:
        # asked for each row the view measures or paints; the style makes a new icon each time
        if available not in self._icons:
            style = QApplication.style()
            if style is None:
                return None
            self._icons[available] = style.standardIcon(
                QStyle.StandardPixmap.SP_DialogApplyButton
                if available
                else QStyle.StandardPixmap.SP_MessageBoxWarning
            )
        return self._icons[available]

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
        # an emptied name reverts, as in a file manager, rather than raising an error box
        if root is None or not isinstance(value, str) or not value.strip() or value == root.name:
            return False
        path = root.path
        return self.watcher.act(lambda store: root_actions.rename(store, path, value)) is not None

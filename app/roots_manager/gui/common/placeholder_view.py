"""Item views that say what to do when they have no rows, instead of showing a blank grid."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QAbstractItemView, QListView, QTableView, QWidget

MARGIN = 24


def paint_placeholder(view: QAbstractItemView, text: str) -> None:
    """Paint *text* at the top of *view*'s viewport, in the palette's placeholder colour."""
    painter = QPainter(view.viewport())
    painter.setPen(view.palette().color(QPalette.ColorRole.PlaceholderText))
    area = view.viewport().rect().adjusted(MARGIN, MARGIN, -MARGIN, 0)
    painter.drawText(
        QRect(area),
        int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap),
        text,
    )
    painter.end()


class PlaceholderTableView(QTableView):
    """A :class:`QTableView` that paints a short text over its empty viewport (no rows or no
    columns).

    The text is painted, not a widget laid over the table: nothing moves when the first row
    arrives, and the header stays where it is.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._placeholder = ""
        # Tab goes on to the next control, as everywhere else; the arrow keys move between cells
        self.setTabKeyNavigation(False)

    def placeholder(self) -> str:
        """The text painted while the table has no rows."""
        return self._placeholder

    def set_placeholder(self, text: str) -> None:
        """Paint *text* while the table has no rows ("" for nothing)."""
        if text != self._placeholder:
            self._placeholder = text
            self.viewport().update()

    def placeholder_shown(self) -> bool:
        """Whether the placeholder is what the table shows now."""
        model = self.model()
        return bool(self._placeholder) and (
            model is None or model.rowCount() == 0 or model.columnCount() == 0
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.placeholder_shown():
            paint_placeholder(self, self._placeholder)


class PlaceholderListView(QListView):
    """A :class:`QListView` that paints a short text while it has no rows."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.placeholder = text

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        model = self.model()
        if self.placeholder and (model is None or model.rowCount() == 0):
            paint_placeholder(self, self.placeholder)

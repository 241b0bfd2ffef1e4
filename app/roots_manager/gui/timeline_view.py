"""The Log tab's timeline: per server, a strip over time with a mark for each roots event.

Painted with QPainter over :class:`~roots_manager.core.timeline.Timeline` (no plotting
library): a lane per server; a blue triangle where the server asked for its roots, a green dot
where it was answered, an orange diamond where a ``list_changed`` was sent, a purple square for
a consent wait or decision, and a pale bar while an answer was held. The wheel zooms around the
pointer (Shift+wheel or a drag pans), and clicking a mark selects its event in the table.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QImage,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QToolTip, QWidget

from roots_manager.core.logindex import LogIndex
from roots_manager.core.names import visible
from roots_manager.core.timeline import Mark, MarkKind, Timeline

LANE_HEIGHT = 22
AXIS_HEIGHT = 18
LABEL_WIDTH = 130
MARK_SIZE = 5.0
HIT_PX = 7.0
MIN_SECONDS_PER_PX = 0.0005
MAX_SECONDS_PER_PX = 3600.0

COLORS: dict[MarkKind, QColor] = {
    MarkKind.ASKED: QColor(40, 110, 220),
    MarkKind.ANSWERED: QColor(46, 150, 87),
    MarkKind.LIST_CHANGED: QColor(230, 130, 20),
    MarkKind.CONSENT: QColor(150, 70, 190),
}


class TimelineView(QWidget):
    """Every server's roots traffic on a time axis; follows the newest until the user pans."""

    mark_clicked = Signal(int)
    """A mark was clicked; the argument is its event's row in the log index."""

    def __init__(self, index: LogIndex, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.timeline = Timeline(index)
        self.seconds_per_px = 0.05
        self.left = time.time()
        """The time at the left edge of the plot."""
        self.following = True
        self._drag: tuple[float, float] | None = None  # (x pressed, left then)
        self.setMouseTracking(False)
        self.setMinimumHeight(AXIS_HEIGHT + 2 * LANE_HEIGHT)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName(self.tr("Timeline of the roots traffic"))
        self.setToolTip(
            self.tr(
                "Blue: asked for roots; green: answered; orange: list_changed sent; purple: "
                "consent. Wheel: zoom; Shift+wheel or drag: move; click a mark to select it."
            )
        )

    # ---- data -----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Take in newly indexed events; while following, keep the newest in view."""
        if self.timeline.update() or self.timeline.last is not None:
            if self.following and self.timeline.last is not None:
                self.left = self.timeline.last - self.plot_width() * self.seconds_per_px * 0.9
            self.updateGeometry()
            self.update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.following:
            self.refresh()  # the newest stays at the right edge as the width changes

    def plot_width(self) -> int:
        return max(self.width() - LABEL_WIDTH, 1)

    def sizeHint(self) -> QSize:
        lanes = max(len(self.timeline.lanes), 2)
        return QSize(600, AXIS_HEIGHT + lanes * LANE_HEIGHT + 4)

    # ---- coordinates ----------------------------------------------------------------------

    def x_of(self, t: float) -> float:
        """The x position of time *t*."""
        return LABEL_WIDTH + (t - self.left) / self.seconds_per_px

    def time_at(self, x: float) -> float:
        """The time at x position *x*."""
        return self.left + (x - LABEL_WIDTH) * self.seconds_per_px

    def lane_at(self, y: float) -> str | None:
        """The server whose lane is at y position *y*."""
        i = int((y - AXIS_HEIGHT) // LANE_HEIGHT)
        servers = self.timeline.servers()
        return servers[i] if y >= AXIS_HEIGHT and 0 <= i < len(servers) else None

    def mark_at(self, pos: QPointF) -> Mark | None:
        """The mark under *pos*, if any."""
        server = self.lane_at(pos.y())
        if server is None or pos.x() < LABEL_WIDTH:
            return None
        return self.timeline.nearest(server, self.time_at(pos.x()), HIT_PX * self.seconds_per_px)

    def mark_position(self, mark: Mark, server: str) -> QPointF:
        """Where *mark* of *server* is drawn."""
        lane = self.timeline.servers().index(server)
        return QPointF(self.x_of(mark.ts), AXIS_HEIGHT + lane * LANE_HEIGHT + LANE_HEIGHT / 2)

    # ---- zoom and pan -----------------------------------------------------------------------

    def zoom(self, factor: float, anchor_x: float | None = None) -> None:
        """Zoom by *factor* (above 1: in) keeping the time under *anchor_x* where it is."""
        x = anchor_x if anchor_x is not None else LABEL_WIDTH + self.plot_width() / 2
        anchor = self.time_at(x)
        spp = min(max(self.seconds_per_px / factor, MIN_SECONDS_PER_PX), MAX_SECONDS_PER_PX)
        self.seconds_per_px = spp
        self.left = anchor - (x - LABEL_WIDTH) * spp
        self.update()

    def pan(self, pixels: float) -> None:
        """Move the view by *pixels* (positive: later); moving back stops following."""
        self.left += pixels * self.seconds_per_px
        last = self.timeline.last
        self.following = last is not None and self.x_of(last) <= self.width()
        self.update()

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120 or event.angleDelta().x() / 120
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.pan(-steps * 60)
        else:
            self.zoom(1.25**steps, event.position().x())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        mark = self.mark_at(event.position())
        if mark is not None:
            self.mark_clicked.emit(mark.row)
            return
        self._drag = (event.position().x(), self.left)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag is not None:
            x0, left0 = self._drag
            self.left = left0
            self.pan(x0 - event.position().x())

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._drag = None

    def keyPressEvent(self, event: object) -> None:
        key = event.key()  # type: ignore[attr-defined]
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.5)
        elif key == Qt.Key.Key_Minus:
            self.zoom(1 / 1.5)
        elif key == Qt.Key.Key_Left:
            self.pan(-60)
        elif key == Qt.Key.Key_Right:
            self.pan(60)
        elif key == Qt.Key.Key_End:
            self.following = True
            self.refresh()
        else:
            super().keyPressEvent(event)  # type: ignore[arg-type]

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            help_event: QHelpEvent = event  # type: ignore[assignment]
            mark = self.mark_at(QPointF(help_event.pos()))
            if mark is not None:
                QToolTip.showText(help_event.globalPos(), self.mark_text(mark), self)
                return True
        return super().event(event)

    def mark_text(self, mark: Mark) -> str:
        """What a mark stands for, and when."""
        what = {
            MarkKind.ASKED: self.tr("asked for its roots"),
            MarkKind.ANSWERED: self.tr("answered"),
            MarkKind.LIST_CHANGED: self.tr("list_changed sent"),
            MarkKind.CONSENT: self.tr("consent"),
        }[mark.kind]
        stamp = time.strftime("%H:%M:%S", time.localtime(mark.ts))
        return f"{stamp}.{int(mark.ts * 1000) % 1000:03d} {what}"

    # ---- painting -----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        painter.fillRect(self.rect(), pal.color(QPalette.ColorRole.Base))
        text = pal.color(QPalette.ColorRole.Text)
        faint = pal.color(QPalette.ColorRole.PlaceholderText)
        servers = self.timeline.servers()
        if not servers:
            painter.setPen(faint)
            painter.drawText(
                self.rect(),
                int(Qt.AlignmentFlag.AlignCenter),
                self.tr("The timeline shows each server's roots requests once there are some."),
            )
            return
        self._paint_axis(painter, faint)
        left, right = self.time_at(LABEL_WIDTH), self.time_at(self.width())
        for i, server in enumerate(servers):
            top = AXIS_HEIGHT + i * LANE_HEIGHT
            mid = top + LANE_HEIGHT / 2
            if i % 2:
                painter.fillRect(
                    QRectF(0, top, self.width(), LANE_HEIGHT),
                    pal.color(QPalette.ColorRole.AlternateBase),
                )
            painter.setPen(text)
            painter.drawText(
                QRectF(4, top, LABEL_WIDTH - 8, LANE_HEIGHT),
                int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft),
                painter.fontMetrics().elidedText(
                    visible(server), Qt.TextElideMode.ElideRight, LABEL_WIDTH - 8
                ),
            )
            painter.setPen(QPen(faint, 1))
            painter.drawLine(QPointF(LABEL_WIDTH, mid), QPointF(self.width(), mid))
            lane = self.timeline.lanes[server]
            held = QColor(COLORS[MarkKind.ASKED])
            held.setAlpha(60)
            spp = self.seconds_per_px
            for start, stop in lane.held(left, right, spp, self.timeline.last or left):
                x0 = self.x_of(start)
                painter.fillRect(QRectF(x0, mid - 4, max(self.x_of(stop) - x0, 1.0), 8), held)
            # Only what is in sight, and one mark of a kind per pixel: a flood puts thousands of
            # marks on a few pixels, and painting each of them made a frame cost tens of ms.
            dpr = self.devicePixelRatioF()
            for kind in MarkKind:
                stamp = _stamp(kind, dpr)  # a mark painted once, then copied: 10x cheaper
                for t in lane.sample(kind, left - 1, right + 1, spp):
                    painter.drawImage(
                        QPoint(round(self.x_of(t) - _STAMP_HALF), round(mid - _STAMP_HALF)), stamp
                    )
        painter.end()

    def _paint_axis(self, painter: QPainter, ink: QColor) -> None:
        # a tick every "round" interval that leaves about 90 px between labels
        span = 90 * self.seconds_per_px
        steps = (0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 600, 1800, 3600, 21600, 86400)
        step = next((s for s in steps if s >= span), steps[-1])
        first = (self.time_at(LABEL_WIDTH) // step + 1) * step
        painter.setPen(ink)
        t = first
        while (x := self.x_of(t)) < self.width():
            painter.drawLine(QPointF(x, AXIS_HEIGHT - 4), QPointF(x, AXIS_HEIGHT))
            clock = time.strftime("%H:%M:%S", time.localtime(t))
            if step < 1:
                clock += f".{round(t * 1000) % 1000:03d}"[: 2 if step >= 0.1 else 3]
            painter.drawText(QPointF(x + 2, AXIS_HEIGHT - 5), clock)
            t += step

    @staticmethod
    def _paint_mark(painter: QPainter, kind: MarkKind, at: QPointF) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(COLORS[kind])
        r = MARK_SIZE
        x, y = at.x(), at.y()
        if kind is MarkKind.ASKED:
            painter.drawPolygon(
                QPolygonF([QPointF(x, y - r - 1), QPointF(x - r, y + r), QPointF(x + r, y + r)])
            )
        elif kind is MarkKind.ANSWERED:
            painter.drawEllipse(at, r, r)
        elif kind is MarkKind.LIST_CHANGED:
            painter.drawPolygon(
                QPolygonF(
                    [
                        QPointF(x, y - r - 1),
                        QPointF(x + r + 1, y),
                        QPointF(x, y + r + 1),
                        QPointF(x - r - 1, y),
                    ]
                )
            )
        else:
            painter.drawRect(QRectF(x - r + 1, y - r + 1, 2 * r - 2, 2 * r - 2))

    def point_of_row(self, row: int) -> QPoint | None:
        """Where the mark of index row *row* is drawn (None when it has none)."""
        for server, lane in self.timeline.lanes.items():
            for mark in lane.marks:
                if mark.row == row:
                    return self.mark_position(mark, server).toPoint()
        return None


_STAMP_HALF = MARK_SIZE + 2
_stamps: dict[tuple[MarkKind, float], QImage] = {}


def _stamp(kind: MarkKind, dpr: float) -> QImage:
    """The mark of *kind*, painted once for a device pixel ratio."""
    got = _stamps.get((kind, dpr))
    if got is None:
        side = int(2 * _STAMP_HALF * dpr + 0.5)
        got = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
        got.setDevicePixelRatio(dpr)
        got.fill(Qt.GlobalColor.transparent)
        painter = QPainter(got)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        TimelineView._paint_mark(painter, kind, QPointF(_STAMP_HALF, _STAMP_HALF))
        painter.end()
        _stamps[(kind, dpr)] = got
    return got

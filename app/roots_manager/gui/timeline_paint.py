"""How the timeline draws its axis, its lanes, its marks and its focus (the view decides where)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette, QPen, QPolygonF

from roots_manager.core.names import visible
from roots_manager.core.timeline import MarkKind

if TYPE_CHECKING:
    from roots_manager.gui.timeline_view import TimelineView

AXIS_HEIGHT = 18
LABEL_WIDTH = 130
MARK_SIZE = 5.0
LANE_HEIGHT = 22
FOCUS_RING = MARK_SIZE + 4.0

COLORS: dict[MarkKind, QColor] = {
    MarkKind.ASKED: QColor(40, 110, 220),
    MarkKind.ANSWERED: QColor(46, 150, 87),
    MarkKind.LIST_CHANGED: QColor(230, 130, 20),
    MarkKind.CONSENT: QColor(150, 70, 190),
}


def paint_axis(painter: QPainter, view: TimelineView, ink: QColor) -> None:
    """The time axis of *view*: a tick and a clock time every round interval."""
    # a tick every "round" interval that leaves about 90 px between labels
    span = 90 * view.seconds_per_px
    steps = (0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 600, 1800, 3600, 21600, 86400)
    step = next((s for s in steps if s >= span), steps[-1])
    first = (view.time_at(LABEL_WIDTH) // step + 1) * step
    painter.setPen(ink)
    t = first
    while (x := view.x_of(t)) < view.width():
        painter.drawLine(QPointF(x, AXIS_HEIGHT - 4), QPointF(x, AXIS_HEIGHT))
        clock = time.strftime("%H:%M:%S", time.localtime(t))
        if step < 1:
            clock += f".{round(t * 1000) % 1000:03d}"[: 2 if step >= 0.1 else 3]
        painter.drawText(QPointF(x + 2, AXIS_HEIGHT - 5), clock)
        t += step


def paint_mark(painter: QPainter, kind: MarkKind, at: QPointF) -> None:
    """One mark, its shape and colour telling its kind (shapes for those who see no colour)."""
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


STAMP_HALF = MARK_SIZE + 2
"""Half the side of a mark's image, room for its largest shape."""
_stamps: dict[tuple[MarkKind, float], QImage] = {}


def stamp(kind: MarkKind, dpr: float) -> QImage:
    """The mark of *kind* as an image, painted once per device pixel ratio and then copied."""
    got = _stamps.get((kind, dpr))
    if got is None:
        side = int(2 * STAMP_HALF * dpr + 0.5)
        got = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
        got.setDevicePixelRatio(dpr)
        got.fill(Qt.GlobalColor.transparent)
        painter = QPainter(got)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint_mark(painter, kind, QPointF(STAMP_HALF, STAMP_HALF))
        painter.end()
        _stamps[(kind, dpr)] = got
    return got


def paint_lane(
    painter: QPainter, view: TimelineView, i: int, server: str, left: float, right: float
) -> None:
    """Lane *i* of *view*, *server*'s: its name, its line, its held bars and the marks in sight
    between the times *left* and *right*."""
    pal = view.palette()
    text = pal.color(QPalette.ColorRole.Text)
    faint = pal.color(QPalette.ColorRole.PlaceholderText)
    top = AXIS_HEIGHT + i * LANE_HEIGHT
    mid = top + LANE_HEIGHT / 2
    if i % 2:
        painter.fillRect(
            QRectF(0, top, view.width(), LANE_HEIGHT),
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
    painter.drawLine(QPointF(LABEL_WIDTH, mid), QPointF(view.width(), mid))
    lane = view.timeline.lanes[server]
    held = QColor(COLORS[MarkKind.ASKED])
    held.setAlpha(60)
    for bar in view.held_bars(server):
        painter.fillRect(bar, held)
    # Only what is in sight, and one mark of a kind per pixel: a flood puts thousands of
    # marks on a few pixels, and painting each of them made a frame cost tens of ms.
    spp = view.seconds_per_px
    dpr = view.devicePixelRatioF()
    # x_of(t) inlined, and no QPoint per mark: a flood puts a mark on every pixel of
    # the lane, and this loop runs for each of them
    at = view.left
    y = round(mid - STAMP_HALF)
    draw = painter.drawImage
    for kind in MarkKind:
        image = stamp(kind, dpr)  # a mark painted once, then copied: 10x cheaper
        for t in lane.sample(kind, left - 1, right + 1, spp):
            draw(round(LABEL_WIDTH + (t - at) / spp - STAMP_HALF), y, image)


def paint_focus(painter: QPainter, view: TimelineView) -> None:
    """Ring the keyboard's mark (and frame the strip) while *view* has focus."""
    if not view.hasFocus():
        return
    ink = view.palette().color(QPalette.ColorRole.Highlight)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(ink, 1, Qt.PenStyle.DotLine))
    painter.drawRect(QRectF(view.rect()).adjusted(0.5, 0.5, -0.5, -0.5))
    mark = view.focused_mark()
    if mark is None or view.focused is None:
        return
    painter.setPen(QPen(ink, 2))
    painter.drawEllipse(view.mark_position(mark, view.focused[0]), FOCUS_RING, FOCUS_RING)

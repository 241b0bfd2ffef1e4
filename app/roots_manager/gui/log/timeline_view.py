"""The Log tab's timeline: per server, a strip over time with a mark for each roots event.

Painted with QPainter over :class:`~roots_manager.core.log.timeline.Timeline` (no plotting
library): a lane per server; a blue triangle where the server asked for its roots, a green dot
where it was answered, an orange diamond where a ``list_changed`` was sent, a purple square for
a consent wait or decision, a red cross where a confined server was refused something, and a pale bar while an answer was held (to now while it is still
held); a legend along the bottom says so. Every probe run's traffic shares one lane, below the
servers'. The view keeps the log whole, from its first mark, until the user zooms or moves it (or the
log spans more than an hour); then it follows the newest until moved back.
The same view, made :meth:`~TimelineView.show_only` one server and compact (no legend, one lane),
is that server's own lane in the Servers tab's detail, over the Log's own :class:`Timeline`.
The wheel zooms around the pointer (Shift+wheel or a drag pans), and clicking a mark selects
its event in the table.

The keyboard reaches every mark: Tab gives the timeline focus, Left/Right move to the previous or
next mark of the lane, Up/Down to the nearest mark in time of the server above or below, Home/End
to a lane's first or last mark, Enter or Space select the event as a click does, +/- zoom and
Shift+Left/Right move the view. The focused mark is ringed, kept in view, and told to assistive
technology as the timeline's accessible description.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAccessible,
    QAccessibleEvent,
    QColor,
    QFocusEvent,
    QHelpEvent,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QScrollArea, QToolTip, QWidget

from roots_manager.core.log.index import LogIndex
from roots_manager.core.log.timeline import PROBES, Mark, MarkKind, Timeline
from roots_manager.core.servers.names import visible

HIT_PX = 7.0
MIN_SECONDS_PER_PX = 0.0005
MAX_SECONDS_PER_PX = 3600.0
FIT_AT_MOST = 3600.0
"""The longest log kept whole in view; a longer one shows its last hour, following the newest."""


AXIS_HEIGHT = 18
LEGEND_HEIGHT = 20
"""The band along the bottom that says what the marks are."""
LABEL_WIDTH = 130
MARK_SIZE = 5.0
LANE_HEIGHT = 22
FOCUS_RING = MARK_SIZE + 4.0

COLORS: dict[MarkKind, QColor] = {
    MarkKind.ASKED: QColor(40, 110, 220),
    MarkKind.ANSWERED: QColor(46, 150, 87),
    MarkKind.LIST_CHANGED: QColor(230, 130, 20),
    MarkKind.CONSENT: QColor(150, 70, 190),
    MarkKind.DENIED: QColor(205, 40, 40),
}


def paint_axis(painter: QPainter, view: TimelineView, ink: QColor) -> None:
    """The time axis of *view*: a tick and a clock time every round interval."""
    # a tick every "round" interval that leaves about 90 px between labels
    span = 90 * view.seconds_per_px
    steps = (0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 600, 1800, 3600, 21600, 86400)
    step = next((s for s in steps if s >= span), steps[-1])
    first = (view.time_at(LABEL_WIDTH) // step + 1) * step
    painter.setPen(ink)
    metrics = painter.fontMetrics()
    t = first
    while (x := view.x_of(t)) < view.width():
        painter.drawLine(QPointF(x, AXIS_HEIGHT - 4), QPointF(x, AXIS_HEIGHT))
        clock = time.strftime("%H:%M:%S", time.localtime(t))
        if step < 1:
            clock += f".{round(t * 1000) % 1000:03d}"[: 2 if step >= 0.1 else 3]
        if x + 2 + metrics.horizontalAdvance(clock) <= view.width():  # a label whole or none
            painter.drawText(QPointF(x + 2, AXIS_HEIGHT - 5), clock)
        t += step


def paint_legend(painter: QPainter, view: TimelineView, ink: QColor) -> None:
    """The band along the bottom of *view*: each mark's shape and colour, and what it means."""
    if not view.legend_height:
        return
    top = view.height() - LEGEND_HEIGHT
    mid = top + LEGEND_HEIGHT / 2
    painter.fillRect(QRectF(0, top, view.width(), LEGEND_HEIGHT), view.palette().base())
    metrics = painter.fontMetrics()
    x = 8.0
    for kind, words in view.legend_items():
        if kind is None:
            held = QColor(COLORS[MarkKind.ASKED])
            held.setAlpha(60)
            painter.fillRect(QRectF(x - 2, mid - 4, 16, 8), held)
            x += 18
        else:
            paint_mark(painter, kind, QPointF(x + MARK_SIZE, mid))
            x += 2 * MARK_SIZE + 6
        painter.setPen(ink)
        painter.drawText(
            QRectF(x, top, view.width() - x, LEGEND_HEIGHT),
            int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft),
            words,
        )
        x += metrics.horizontalAdvance(words) + 16


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
    elif kind is MarkKind.DENIED:  # a cross: refused
        painter.setPen(QPen(COLORS[kind], 2.5))
        painter.drawLine(QPointF(x - r + 1, y - r + 1), QPointF(x + r - 1, y + r - 1))
        painter.drawLine(QPointF(x - r + 1, y + r - 1), QPointF(x + r - 1, y - r + 1))
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
            view.lane_label(server), Qt.TextElideMode.ElideRight, LABEL_WIDTH - 8
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


class TimelineView(QWidget):
    """Every server's roots traffic on a time axis; follows the newest until the user pans."""

    mark_clicked = Signal(int)
    """A mark was clicked; the argument is its event's row in the log index."""

    TAKE_ROWS = 50_000
    """Indexed events taken in per turn of the event loop (about 15 ms of work)."""

    def __init__(
        self,
        index: LogIndex,
        parent: QWidget | None = None,
        *,
        timeline: Timeline | None = None,
        compact: bool = False,
    ) -> None:
        super().__init__(parent)
        self.timeline = timeline if timeline is not None else Timeline(index)
        """The lanes painted: a view's own, or another's shared (taken in by either)."""
        self.only: str | None = None
        """The one lane shown (None: every lane)."""
        self.compact = compact
        """One lane, no legend, and the plain wheel left to what it is in (a scrolled pane)."""
        self.legend_height = 0 if compact else LEGEND_HEIGHT
        """The legend's band (none in a compact view: the Log's legend tells the marks)."""
        self.seconds_per_px = 0.05
        self.left = time.time()
        """The time at the left edge of the plot."""
        self.following = True
        self.fitting = True
        """Whether the view keeps the whole log in sight, from its first mark: until the user
        zooms or moves it, or the log spans more than :data:`FIT_AT_MOST`."""
        self._drag: tuple[float, float] | None = None  # (x pressed, left then)
        self._taking = False  # a take-in of more indexed events is due in the next turn
        self.focused: tuple[str, int] | None = None
        """The mark the keyboard is on: its server and its place in the server's lane."""
        self.setMouseTracking(False)
        self.setMinimumHeight(
            AXIS_HEIGHT + (1 if compact else 2) * LANE_HEIGHT + self.legend_height
        )
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName(self.tr("Timeline of the roots traffic"))
        self.setToolTip(
            self.tr(
                "Blue: asked for roots; green: answered; orange: list_changed sent; purple: "
                "consent. Wheel: zoom; Shift+wheel or drag: move; click a mark to select it. "
                "Keys: arrows move between marks, Enter selects, +/- zoom."
            )
        )

    # ---- data -----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Take in newly indexed events; while following, keep the newest in view.

        At most `TAKE_ROWS` events a turn of the event loop: the first take-in of a long log
        (a third of a second for a million events) goes on in the turns after this one."""
        last = self.span()[1]
        if self.timeline.update(self.TAKE_ROWS) or last is not None:
            last = self.span()[1]
            if self.fitting:
                self._fit()
            if not self.fitting and self.following and last is not None:
                self.left = last - self.plot_width() * self.seconds_per_px * 0.9
            self._fit_lanes()
            self.updateGeometry()
            self.update()
        if self.timeline.behind and not self._taking:
            self._taking = True
            QTimer.singleShot(0, self, self._take_more)

    def _fit(self) -> None:
        """Keep the log in view from its first mark to its newest (a little room on each side);
        a log longer than :data:`FIT_AT_MOST` is followed from then on."""
        first, last = self.span()
        if first is None or last is None:
            return
        span = max(last - first, 1.0)
        if span > FIT_AT_MOST:
            self.fitting = False
            span = FIT_AT_MOST
        width = self.plot_width()
        self.seconds_per_px = min(max(span * 1.1 / width, MIN_SECONDS_PER_PX), MAX_SECONDS_PER_PX)
        self.left = last - width * self.seconds_per_px * 0.95

    def _take_more(self) -> None:
        self._taking = False
        self.refresh()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.following:
            self.refresh()  # the newest stays at the right edge as the width changes

    def plot_width(self) -> int:
        return max(self.width() - LABEL_WIDTH, 1)

    def sizeHint(self) -> QSize:
        return QSize(600, self.lanes_height())

    def lanes_height(self) -> int:
        """The height that shows every lane (at least two; one in a compact view), the axis
        and the legend."""
        lanes = 1 if self.compact else max(len(self.timeline.lanes), 2)
        return AXIS_HEIGHT + lanes * LANE_HEIGHT + 4 + self.legend_height

    def _fit_lanes(self) -> None:
        # every lane painted whole: the Log's pane scrolls when it is shorter than the lanes,
        # rather than cutting the lanes below its edge with nothing to say they are there
        if not self.compact and self.minimumHeight() != self.lanes_height():
            self.setMinimumHeight(self.lanes_height())

    def _scroll_to(self, point: QPointF) -> None:
        """Bring *point* into sight in the scrolled pane the view is in, if any."""
        viewport = self.parentWidget()
        area = viewport.parentWidget() if viewport is not None else None
        if isinstance(area, QScrollArea) and area.widget() is self:
            area.ensureVisible(int(point.x()), int(point.y()), 0, LANE_HEIGHT)

    def show_only(self, server: str | None) -> None:
        """Show *server*'s lane alone (None: every lane), its marks fitted in view."""
        if server == self.only:
            return
        self.only = server
        self.focused = None
        self.fitting = self.following = True
        self.updateGeometry()
        self.refresh()
        self.update()

    def lanes_shown(self) -> list[str]:
        """The lanes painted, top to bottom."""
        if self.only is not None:
            return [self.only] if self.only in self.timeline.lanes else []
        return self.timeline.servers()

    def span(self) -> tuple[float | None, float | None]:
        """The times of the first and the newest mark of the lanes shown."""
        if self.only is None:
            return self.timeline.first, self.timeline.last
        lane = self.timeline.lanes.get(self.only)
        kept = [t for t in lane.times.values() if t] if lane is not None else []
        if not kept:
            return None, None
        # each kind's times are kept sorted: the ends of each, not every mark
        return min(t[0] for t in kept), max(t[-1] for t in kept)

    def legend_items(self) -> list[tuple[MarkKind | None, str]]:
        """What the legend shows, in order: each mark's kind and words, then the held bar
        (None)."""
        return [
            (MarkKind.ASKED, self.tr("asked for roots")),
            (MarkKind.ANSWERED, self.tr("answered")),
            (MarkKind.LIST_CHANGED, self.tr("list_changed sent")),
            (MarkKind.CONSENT, self.tr("consent")),
            (MarkKind.DENIED, self.tr("refused")),
            (None, self.tr("answer held")),
        ]

    def lane_label(self, lane: str) -> str:
        """What a lane is called on the left: its server's name, or "Probe runs"."""
        return self.tr("Probe runs") if lane == PROBES else visible(lane)

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
        servers = self.lanes_shown()
        inside = AXIS_HEIGHT <= y < self.height() - self.legend_height
        return servers[i] if inside and 0 <= i < len(servers) else None

    def mark_at(self, pos: QPointF) -> Mark | None:
        """The mark under *pos*, if any."""
        server = self.lane_at(pos.y())
        if server is None or pos.x() < LABEL_WIDTH:
            return None
        return self.timeline.nearest(server, self.time_at(pos.x()), HIT_PX * self.seconds_per_px)

    def mark_position(self, mark: Mark, server: str) -> QPointF:
        """Where *mark* of *server* is drawn."""
        lane = self.lanes_shown().index(server)
        return QPointF(self.x_of(mark.ts), AXIS_HEIGHT + lane * LANE_HEIGHT + LANE_HEIGHT / 2)

    # ---- the keyboard's mark --------------------------------------------------------------

    def focused_mark(self) -> Mark | None:
        """The mark the keyboard is on, if any."""
        if self.focused is None:
            return None
        server, i = self.focused
        lane = self.timeline.lanes.get(server)
        return lane.marks[i] if lane is not None and 0 <= i < len(lane.marks) else None

    def focus_mark(self, server: str, i: int) -> None:
        """Put the keyboard on mark *i* of *server*'s lane, bring it into view, and tell it."""
        lane = self.timeline.lanes[server]
        i = min(max(i, 0), len(lane.marks) - 1)
        self.focused = (server, i)
        mark = lane.marks[i]
        x = self.x_of(mark.ts)
        if not LABEL_WIDTH + MARK_SIZE <= x <= self.width() - MARK_SIZE:
            self.fitting = False
            self.left = mark.ts - self.plot_width() * self.seconds_per_px / 2
            last = self.span()[1]
            self.following = last is not None and self.x_of(last) <= self.width()
        self._scroll_to(self.mark_position(mark, server))
        description = self.tr("{server}: {mark}").format(
            server=visible(server), mark=self.mark_text(mark)
        )
        self.setAccessibleDescription(description)
        QAccessible.updateAccessibility(
            QAccessibleEvent(self, QAccessible.Event.DescriptionChanged)
        )
        self.update()

    def _move_in_lane(self, step: int | None, to_end: bool = False) -> None:
        """Next/previous mark (*step*), or the lane's last (*to_end*) or first (None)."""
        servers = self.lanes_shown()
        if not servers:
            return
        if self.focused is None or self.focused[0] not in servers:
            self._focus_newest()
            return
        server, i = self.focused
        count = len(self.timeline.lanes[server].marks)
        if step is not None:
            self.focus_mark(server, i + step)
        else:
            self.focus_mark(server, count - 1 if to_end else 0)

    def _move_lane(self, step: int) -> None:
        """To the mark nearest in time in the lane *step* lanes down (negative: up)."""
        servers = self.lanes_shown()
        current = self.focused_mark()
        if current is None or self.focused is None:
            self._focus_newest()
            return
        at = servers.index(self.focused[0]) + step
        if not 0 <= at < len(servers):
            return
        marks = self.timeline.lanes[servers[at]].marks
        nearest = min(range(len(marks)), key=lambda j: abs(marks[j].ts - current.ts))
        self.focus_mark(servers[at], nearest)

    def _focus_newest(self) -> None:
        """Put the keyboard on the newest mark of all."""
        lanes = [self.timeline.lanes[name] for name in self.lanes_shown()]
        if lanes:
            lane = max(lanes, key=lambda ln: (ln.marks[-1].ts, ln.marks[-1].row))
            self.focus_mark(lane.server, len(lane.marks) - 1)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        if self.focused_mark() is None:
            self._focus_newest()
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.update()

    # ---- zoom and pan -----------------------------------------------------------------------

    def zoom(self, factor: float, anchor_x: float | None = None) -> None:
        """Zoom by *factor* (above 1: in) keeping the time under *anchor_x* where it is."""
        x = anchor_x if anchor_x is not None else LABEL_WIDTH + self.plot_width() / 2
        anchor = self.time_at(x)
        spp = min(max(self.seconds_per_px / factor, MIN_SECONDS_PER_PX), MAX_SECONDS_PER_PX)
        self.fitting = False  # the user's view from now on
        self.seconds_per_px = spp
        self.left = anchor - (x - LABEL_WIDTH) * spp
        self.update()

    def pan(self, pixels: float) -> None:
        """Move the view by *pixels* (positive: later); moving back stops following."""
        self.left += pixels * self.seconds_per_px
        self.fitting = False
        last = self.span()[1]
        self.following = last is not None and self.x_of(last) <= self.width()
        self.update()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.compact and not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            event.ignore()  # the pane it is in scrolls; Ctrl+wheel zooms
            return
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
            server = self.lane_at(event.position().y())
            if server is not None:
                self.focused = (server, self.timeline.lanes[server].marks.index(mark))
                self.update()
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

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.5)
        elif key == Qt.Key.Key_Minus:
            self.zoom(1 / 1.5)
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right) and (shift or not self.lanes_shown()):
            self.pan(-60 if key == Qt.Key.Key_Left else 60)
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            self._move_in_lane(-1 if key == Qt.Key.Key_Left else 1)
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self._move_lane(-1 if key == Qt.Key.Key_Up else 1)
        elif key == Qt.Key.Key_Home:
            self._move_in_lane(None)
        elif key == Qt.Key.Key_End:
            self._move_in_lane(None, to_end=True)
            self.following = True
            self.refresh()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            mark = self.focused_mark()
            if mark is None:
                super().keyPressEvent(event)
            else:
                self.mark_clicked.emit(mark.row)
        else:
            super().keyPressEvent(event)

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
            MarkKind.DENIED: self.tr("refused (confined)"),
        }[mark.kind]
        stamp = time.strftime("%H:%M:%S", time.localtime(mark.ts))
        return f"{stamp}.{int(mark.ts * 1000) % 1000:03d} {what}"

    # ---- painting -----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        painter.fillRect(self.rect(), pal.color(QPalette.ColorRole.Base))
        faint = pal.color(QPalette.ColorRole.PlaceholderText)
        servers = self.lanes_shown()
        if not servers:
            painter.setPen(faint)
            painter.drawText(
                self.rect(),
                int(Qt.AlignmentFlag.AlignCenter),
                self.tr("No roots request of this server logged yet.")
                if self.only is not None
                else self.tr(
                    "The timeline shows each server's roots requests once there are some."
                ),
            )
            return
        paint_axis(painter, self, faint)
        left, right = self.time_at(LABEL_WIDTH), self.time_at(self.width())
        painter.setClipRect(QRectF(0, 0, self.width(), self.height() - self.legend_height))
        for i, server in enumerate(servers):
            paint_lane(painter, self, i, server, left, right)
        painter.setClipping(False)
        paint_legend(painter, self, pal.color(QPalette.ColorRole.Text))
        paint_focus(painter, self)
        painter.end()

    def held_bars(self, server: str, now: float | None = None) -> list[QRectF]:
        """The bars of *server*'s held answers in view: one per answered request, and one from
        the oldest request still waiting to *now* (the requests waiting all end there, so one
        bar covers them, however many a server left unanswered)."""
        lane = self.timeline.lanes[server]
        mid = AXIS_HEIGHT + self.lanes_shown().index(server) * LANE_HEIGHT + LANE_HEIGHT / 2
        now = time.time() if now is None else now
        left, right = self.time_at(LABEL_WIDTH), self.time_at(self.width())
        spans = [(s.start, s.end) for s in lane.spans]
        if lane.open_since is not None:
            spans.append((lane.open_since, max(now, self.span()[1] or now)))
        bars = []
        for start, stop in spans:
            if stop is None or stop < left or start > right:
                continue
            x0, x1 = max(self.x_of(start), LABEL_WIDTH), self.x_of(stop)
            bars.append(QRectF(x0, mid - 4, max(x1 - x0, 1.0), 8))
        return bars

    def point_of_row(self, row: int) -> QPoint | None:
        """Where the mark of index row *row* is drawn (None when it has none)."""
        for server in self.lanes_shown():
            for mark in self.timeline.lanes[server].marks:
                if mark.row == row:
                    return self.mark_position(mark, server).toPoint()
        return None

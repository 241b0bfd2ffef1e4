"""The live log panel: every roots request and change notice the bridges record, as it happens."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QItemSelection, QModelIndex, QPoint, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontDatabase, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractSlider,
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.directory.layout import Layout, ensure_private_dir
from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.log.index import LogIndex
from roots_manager.core.servers.names import visible
from roots_manager.gui.common.allow_menu import AllowMenus, is_refusal
from roots_manager.gui.common.errors import watch_trouble_text
from roots_manager.gui.common.resources import action_icon
from roots_manager.gui.log.log_export import ask_export, export_shown
from roots_manager.gui.log.log_feed import LogFeed
from roots_manager.gui.log.log_model import LogModel
from roots_manager.gui.log.log_table import events_table
from roots_manager.gui.log.log_texts import kind_name
from roots_manager.gui.log.timeline_view import TimelineView

# Typing in the filter box re-filters once the user pauses, not on every key.
FILTER_DELAY_MS = 250


class LogPanel(QWidget):
    """The live log: a filterable table of events, a detail pane with the event's JSON,
    follow/pause, clear view and export. Call `start` to begin following, `stop` to end."""

    roots_asked_seen = Signal(dict)
    """Roots requests were indexed: the newest one's time (ISO UTC) per server name."""
    denied = Signal(object)
    """Confined servers' refusals logged since the panel started (a list of denial events,
    oldest first): what the app offers to grant."""
    allow_requested = Signal(object, object)
    """A refusal's row was allowed from its menu: the denial event and the
    :class:`~roots_manager.core.confinement.offers.Offer` chosen (the app grants it)."""

    def __init__(self, layout: Layout, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._home = layout
        self.index_ = LogIndex(layout)
        self.model = LogModel(self.index_, self)
        self.feed = LogFeed(self.index_, self)
        self._started = False
        self._error = ""
        self._trouble = ""
        """Why new events are not followed live now ("" when they are)."""
        self._asked_upto = 0  # index rows looked through for roots requests and refusals
        self._started_at = time.time() - 5.0
        """Refusals from this moment on are told (:attr:`denied`); older ones are in the log."""

        self.server_box = QComboBox()
        self.server_box.setAccessibleName(self.tr("Server filter"))
        # a fixed width: a long name or kind seen later must not reflow the bar or widen the
        # window past a small screen (the list that opens shows them whole)
        self.server_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.server_box.setMinimumContentsLength(10)
        self.kind_box = QComboBox()
        self.kind_box.setAccessibleName(self.tr("Kind filter"))
        self.kind_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.kind_box.setMinimumContentsLength(10)
        self.text_edit = QLineEdit()
        self.text_edit.setAccessibleName(self.tr("Text filter"))
        self.text_edit.setPlaceholderText(self.tr("Text in the summary or the JSON (Ctrl+F)"))
        self.text_edit.setClearButtonEnabled(True)
        self.follow_box = QCheckBox(self.tr("F&ollow newest"))
        self.follow_box.setAccessibleName(self.tr("Follow the newest events"))
        self.follow_box.setToolTip(self.tr("Keep the newest event in view as events arrive"))
        self.follow_box.setChecked(True)
        self.pause_button = QPushButton(self.tr("&Pause"))
        self.pause_button.setCheckable(True)
        self.pause_button.setAccessibleName(self.tr("Pause the log"))
        self.pause_button.setToolTip(
            self.tr("Hold new events back so the view stays still; they are shown on resume")
        )
        self.clear_button = QPushButton(self.tr("Cle&ar view"))
        self.clear_button.setAccessibleName(self.tr("Clear the view"))
        self.clear_button.setToolTip(self.tr("Hide the events shown now; the log files keep them"))
        self.export_button = QPushButton(self.tr("E&xport…"))
        self.export_button.setIcon(
            action_icon("document-save-as", QStyle.StandardPixmap.SP_DialogSaveButton)
        )
        self.pause_button.setIcon(
            action_icon("media-playback-pause", QStyle.StandardPixmap.SP_MediaPause)
        )
        self.clear_button.setIcon(
            action_icon("edit-clear", QStyle.StandardPixmap.SP_DialogResetButton)
        )
        self.export_button.setAccessibleName(self.tr("Export the shown events"))
        self.export_button.setToolTip(self.tr("Save the events shown as JSON Lines or CSV"))

        server_label = QLabel(self.tr("S&erver:"))
        server_label.setBuddy(self.server_box)
        kind_label = QLabel(self.tr("&Kind:"))
        kind_label.setBuddy(self.kind_box)
        text_label = QLabel(self.tr("F&ilter:"))
        text_label.setBuddy(self.text_edit)

        bar = QHBoxLayout()
        bar.addWidget(server_label)
        bar.addWidget(self.server_box)
        bar.addWidget(kind_label)
        bar.addWidget(self.kind_box)
        bar.addWidget(text_label)
        bar.addWidget(self.text_edit, 1)
        # the actions go under the table, beside the status: one bar of all of them would make
        # the window wider than a small screen
        actions = QHBoxLayout()
        actions.addWidget(self.follow_box)
        actions.addWidget(self.pause_button)
        actions.addWidget(self.clear_button)
        actions.addWidget(self.export_button)

        self.table = events_table(self.model, self.fontMetrics())
        self.table.setAccessibleName(self.tr("Events"))
        # a refusal's row offers what the refusal notice does: a right-click, the menu key,
        # Shift+F10 or Ctrl+Shift+A, or the Allow… button while one is selected
        self._allow_menus = AllowMenus(
            self,
            self.table,
            at_point=self._row_menu,
            at_current=self.open_allow_menu,
            chosen=self.allow_requested.emit,
        )
        self.allow_button = QPushButton(self.tr("Allow…"))
        self.allow_button.setAccessibleName(self.tr("Allow what the selected refusal asked"))
        self.allow_button.setToolTip(
            self.tr(
                "Grant the server what the selected refusal asked for, in one click, as the "
                "refusal notice does (Ctrl+Shift+A, or right-click the row)"
            )
        )
        self.allow_button.setVisible(False)
        self.allow_button.clicked.connect(self._allow_clicked)

        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setAccessibleName(self.tr("Event details"))
        self.detail.setPlaceholderText(self.tr("Select an event to see its JSON"))
        self.detail.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.detail.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)

        self.timeline = TimelineView(self.index_)
        self.timeline.mark_clicked.connect(self.select_index_row)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("logSplitter")
        # the lanes scroll in their pane when there are more than its height shows
        self.timeline_pane = QScrollArea()
        self.timeline_pane.setWidget(self.timeline)
        self.timeline_pane.setWidgetResizable(True)
        self.timeline_pane.setFrameShape(QFrame.Shape.NoFrame)
        self.timeline_pane.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.timeline_pane.setFocusProxy(self.timeline)
        self.timeline_pane.setMinimumHeight(self.timeline.lanes_height())
        self.splitter.addWidget(self.timeline_pane)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 1)
        self.splitter.setChildrenCollapsible(False)

        self.status = QLabel()
        self.status.setAccessibleName(self.tr("Log status"))

        box = QVBoxLayout(self)
        box.addLayout(bar)
        box.addWidget(self.splitter, 1)
        self.status.setMinimumWidth(1)  # elided by its width, never widening the window
        actions.insertWidget(0, self.status, 1)
        actions.insertWidget(1, self.allow_button)
        box.addLayout(actions)

        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self._apply_filter)
        self._timeline_timer = QTimer(self)
        self._timeline_timer.setSingleShot(True)
        self._timeline_timer.timeout.connect(self.timeline.refresh)

        self.feed.indexed.connect(self._on_indexed)
        self.feed.failed.connect(self._on_failed)
        self.feed.following.connect(self._on_following)
        self.model.rows_appended.connect(self._on_rows_appended)
        self.model.sources_changed.connect(self._fill_filters)
        self.model.updated.connect(self._update_status)
        self.model.pending_changed.connect(self._update_status)
        self.model.modelReset.connect(self._on_reset)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.table.verticalScrollBar().actionTriggered.connect(self._on_user_scroll)
        self.server_box.currentIndexChanged.connect(self._apply_filter)
        self.kind_box.currentIndexChanged.connect(self._apply_filter)
        self.text_edit.textChanged.connect(self._filter_timer.start)
        self.text_edit.returnPressed.connect(self._apply_filter)
        self.follow_box.toggled.connect(self._on_follow)
        self.pause_button.toggled.connect(self.set_paused)
        self.clear_button.clicked.connect(self.clear_view)
        self.export_button.clicked.connect(self._ask_export)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self, self._focus_filter)

        self._fill_filters()
        self._update_status()

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        """Read the event files and follow new events until `stop`."""
        if self._started:
            return
        self._started = True
        ensure_private_dir(self._home.logs)
        self.feed.start()

    def stop(self) -> None:
        """Stop following the event files."""
        if not self._started:
            return
        self._started = False
        self.feed.stop()
        self.index_.close()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # rows that came while the tab was hidden were scrolled to in a view of no size: now
        # that it has one, the newest rows are brought into view (once laid out)
        if self.follow_box.isChecked():
            QTimer.singleShot(0, self._scroll_if_following)

    @Slot()
    def _scroll_if_following(self) -> None:
        if self.follow_box.isChecked():
            self.table.scrollToBottom()

    # -- actions --------------------------------------------------------------------------------

    @Slot(bool)
    def set_paused(self, paused: bool) -> None:
        """Hold new events back (the view stays still) or show them again."""
        if self.pause_button.isChecked() != paused:
            self.pause_button.setChecked(paused)  # comes back here through toggled
            return
        self.pause_button.setText(self.tr("Res&ume") if paused else self.tr("&Pause"))
        self.model.set_paused(paused)
        self._update_status()

    @Slot()
    def clear_view(self) -> None:
        """Hide the events shown now; new ones keep coming."""
        self.model.clear_view()

    def export_visible(self, path: Path, fmt: str | None = None) -> int:
        """Write the events shown (after filtering) to *path*; returns how many."""
        return export_shown(self.index_, self.model.index_rows(), path, fmt)

    @Slot()
    def _ask_export(self) -> None:
        done = ask_export(self, self.export_visible)
        if done is not None:
            n, path = done
            self.status.setText(self.tr("Exported %n event(s) to {path}", "", n).format(path=path))

    # -- reactions ------------------------------------------------------------------------------

    @Slot(int)
    def _on_indexed(self, _added: int) -> None:
        # the model coalesces batches into a few flushes a second, and the timeline takes
        # them in as often (a relayout and repaint per batch of a flood stalled the GUI)
        self.model.refresh_soon()
        if not self._timeline_timer.isActive():
            self._timeline_timer.start(self.model.flush_interval_ms)  # as often as the table
        newest = self.index_.latest_of_kind(EventKind.ROOTS_ASKED, self._asked_upto)
        refused = [
            rec
            for row in self.index_.rows_of_kind(EventKind.DENIAL, self._asked_upto)
            if self.index_.ts[row] >= self._started_at
            and isinstance(rec := self.index_.record(row), dict)
        ]
        self._asked_upto = len(self.index_)
        if refused:
            self.denied.emit(refused)
        if newest:
            self.roots_asked_seen.emit(
                {
                    server: datetime.fromtimestamp(t, UTC)
                    .isoformat(timespec="milliseconds")
                    .replace("+00:00", "Z")
                    for server, t in newest.items()
                }
            )

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._error = message
        self._update_status()

    @Slot(object)
    def _on_following(self, trouble: BaseException | None) -> None:
        self._trouble = "" if trouble is None else watch_trouble_text(trouble)
        self._update_status()

    @Slot(int)
    def _on_rows_appended(self, _added: int) -> None:
        if self.follow_box.isChecked():
            self.table.scrollToBottom()

    @Slot()
    def _on_reset(self) -> None:
        self.detail.clear()
        if self.follow_box.isChecked():
            self.table.scrollToBottom()
        self._update_status()

    @Slot(bool)
    def _on_follow(self, on: bool) -> None:
        if on:
            self.table.scrollToBottom()

    @Slot(int)
    def _on_user_scroll(self, action: int) -> None:
        # Scrolling up means the user wants to read: stop following; scrolling back to the end
        # follows again, as a terminal does.
        if action == QAbstractSlider.SliderAction.SliderNoAction.value:
            return
        QTimer.singleShot(0, self._follow_from_scroll)

    @Slot()
    def _follow_from_scroll(self) -> None:
        sb = self.table.verticalScrollBar()
        self.follow_box.setChecked(sb.value() >= sb.maximum())

    @Slot(QItemSelection, QItemSelection)
    def _on_selection(self, _sel: QItemSelection, _desel: QItemSelection) -> None:
        rows = self.table.selectionModel().selectedRows()
        self.allow_button.setVisible(bool(rows) and is_refusal(self.model.record_at(rows[0].row())))
        if not rows:
            self.detail.clear()
            return
        self.show_detail(rows[0])

    # -- a refusal, allowed from its row ----------------------------------------------------------

    def allow_menu_for(self, view_row: int) -> QMenu | None:
        """The menu of what the refusal of row *view_row* may be granted (None: the row is not
        a refusal); its entries ask for the grant (:attr:`allow_requested`)."""
        rec = self.model.record_at(view_row) if 0 <= view_row < self.model.rowCount() else None
        refusal = rec if rec is not None and is_refusal(rec) else None
        return self._allow_menus.make(refusal, self.tr("Allow what this refusal asked"))

    @property
    def allow_menu(self) -> QMenu | None:
        """The allow menu open now (or last), kept while it is shown."""
        return self._allow_menus.shown

    @Slot()
    def open_allow_menu(self) -> QMenu | None:
        """Open the allow menu of the refusal in the current row, under it (the keyboard's
        way); None when that row is not a refusal."""
        index = self.table.currentIndex()
        rows = self.table.selectionModel().selectedRows()
        if rows:
            index = rows[0]
        if not index.isValid():
            return None
        rect = self.table.visualRect(self.table.model().index(index.row(), 0))
        return self._popup(index.row(), rect.bottomLeft())

    @Slot()
    def _allow_clicked(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            menu = self.allow_menu_for(rows[0].row())
            if menu is not None:
                at = self.allow_button.mapToGlobal(self.allow_button.rect().bottomLeft())
                self._allow_menus.show(menu, at)

    @Slot(QPoint)
    def _row_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        if not index.isValid():
            index = self.table.currentIndex()
        if index.isValid():
            self._popup(index.row(), pos)

    def _popup(self, view_row: int, pos: QPoint) -> QMenu | None:
        return self._allow_menus.show_in_view(self.allow_menu_for(view_row), pos)

    def select_index_row(self, index_row: int) -> bool:
        """Select the event of log index row *index_row* in the table (a timeline mark's);
        False when the filter or a clear hides it."""
        self.model.refresh()  # it may have come in the last moment
        view_row = self.model.view_row_of(index_row)
        if view_row is None:
            self.status.setText(self.tr("That event is hidden by the filter or the cleared view"))
            # the pane shows the event clicked, never the one selected before it
            self.table.clearSelection()
            self._show_record(self.index_.record(index_row))
            return False
        self.follow_box.setChecked(False)  # the user is looking at something: stay there
        self.table.selectRow(view_row)
        self.table.scrollTo(self.model.index(view_row, 0))
        return True

    def show_detail(self, index: QModelIndex) -> None:
        """Show the JSON of the event at *index* in the detail pane."""
        self._show_record(self.model.record_at(index.row()))

    def _show_record(self, rec: EventRecord | None) -> None:
        if rec is None:
            self.detail.setPlainText(self.tr("This event is no longer on disk."))
        else:
            self.detail.setPlainText(json.dumps(rec, indent=2, ensure_ascii=False))

    @Slot()
    def _apply_filter(self) -> None:
        self._filter_timer.stop()
        server = self.server_box.currentData()
        kind = self.kind_box.currentData()
        self.model.set_filter(
            server if isinstance(server, str) else None,
            kind if isinstance(kind, str) else None,
            self.text_edit.text(),
        )
        self._update_status()

    def _update_placeholder(self) -> None:
        if self.model.filtered and len(self.index_):
            text = (
                self.tr("Filtering…")
                if self.model.filtering
                else self.tr("No event matches the filter.")
            )
        elif len(self.index_) and self.model.rowCount() == 0:
            text = self.tr("The view was cleared; new events appear here as they come.")
        else:
            text = self.tr(
                "No events yet. Each server run behind roots-bridge logs here its handshake, "
                "every roots/list and every list_changed."
            )
        self.table.set_placeholder(text)

    @Slot()
    def _focus_filter(self) -> None:
        self.text_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.text_edit.selectAll()

    @Slot()
    def _fill_filters(self) -> None:
        self._refill(self.server_box, self.tr("All servers"), sorted(self.index_.servers))
        self._refill(self.kind_box, self.tr("All kinds"), list(self.index_.kinds), kind_name)

    @staticmethod
    def _refill(
        box: QComboBox, everything: str, names: list[str], shown: Callable[[str], str] = visible
    ) -> None:
        current = box.currentData()
        box.blockSignals(True)
        try:
            box.clear()
            box.addItem(everything, None)
            for name in names:
                box.addItem(shown(name) or "—", name)
            at = box.findData(current) if isinstance(current, str) else 0
            box.setCurrentIndex(max(at, 0))
        finally:
            box.blockSignals(False)

    @Slot()
    def _update_status(self) -> None:
        self._update_placeholder()
        shown = self.model.rowCount()
        total = len(self.index_)
        parts = [self.tr("Showing {shown} of %n event(s)", "", total).format(shown=shown)]
        if self.model.filtering:
            parts.append(
                self.tr("filtering, {percent}% done").format(percent=int(self.model.progress * 100))
            )
        if self.model.paused:
            parts.append(self.tr("paused, {n} new").format(n=self.model.pending))
        if self._error:
            parts.append(self.tr("not following: {error}").format(error=self._error))
        elif self._trouble:
            parts.append(self._trouble)
        self.status.setText(" · ".join(parts))

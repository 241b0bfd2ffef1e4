"""The live log's table model over the index of the event files.

The model shows rows of a `LogIndex` (a compact index of every event on disk) and reads an
event back from its file only when a view asks for a row it has not cached: like a browser table
over a database, a million events cost a few tens of megabytes. New events arrive in batches
from `LogFeed` (:mod:`roots_manager.gui.log.log_feed`), which watches the logs directory on a
thread of its own; the words of the summaries are in :mod:`roots_manager.gui.log.log_texts`.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
    Slot,
)

from roots_manager.core.directory.records import EventRecord
from roots_manager.core.log.index import LogIndex, TextSearch
from roots_manager.core.log.window import LogWindow
from roots_manager.core.servers.names import visible
from roots_manager.gui.log.log_texts import direction_name, kind_name, translated_summary
from roots_manager.support import freed_memory

TIME, SERVER, DIRECTION, KIND, ID, SUMMARY = range(6)
# Marked for extraction here, translated when shown (the translator may be installed later).
_HEADERS = (
    str(QT_TRANSLATE_NOOP("LogModel", "Time")),
    str(QT_TRANSLATE_NOOP("LogModel", "Server")),
    str(QT_TRANSLATE_NOOP("LogModel", "Direction")),
    str(QT_TRANSLATE_NOOP("LogModel", "Kind")),
    str(QT_TRANSLATE_NOOP("LogModel", "Id")),
    str(QT_TRANSLATE_NOOP("LogModel", "Summary")),
)

# Rows read back from the files and kept formatted; a screenful is ~50, so this covers fast
# scrolling.
ROW_CACHE = 4096

_Index = QModelIndex | QPersistentModelIndex
# plain ints: data() compares roles on every call, and enum comparisons cost more
_DISPLAY = Qt.ItemDataRole.DisplayRole.value
_ACCESSIBLE = Qt.ItemDataRole.AccessibleTextRole.value
_TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
# flags() is called for every cell on each paint: combine the flags once
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


class LogModel(QAbstractTableModel):
    """The events of a `LogIndex`, filtered, as a table (time, server, direction, kind, id,
    summary).

    New events and the results of a filter reach the view in coalesced flushes, at most one
    every `FLUSH_MS`: a view repaints after each insertion, and a repaint per batch of a fast
    stream is what would stall the GUI thread. A filter over many rows runs in slices of
    `SLICE_SECONDS` between which the event loop runs; its matches appear as they are found.
    """

    rows_appended = Signal(int)  # rows added at the end of the view
    sources_changed = Signal()  # servers or kinds seen for the first time (filter choices)
    pending_changed = Signal(int)  # events held back while paused
    updated = Signal()  # a flush happened: counts, progress or the pending figure may differ

    FLUSH_MS = 60
    # In a flood (the last two flushes, close together, each brought more rows than any screen
    # shows) every row in sight is new at each flush whatever their rate, and painting a
    # screenful of new rows is most of the GUI thread's work: flushes then come at most every
    # FLOOD_FLUSH_MS, which is well within the 200 ms in which a new event must show, and
    # leaves the CPU to the rest. One big batch (the first read of the files) is no flood.
    FLOOD_ROWS = 256
    FLOOD_FLUSH_MS = 150
    SLICE_SECONDS = 0.006
    # A filter over at most this many rows completes within `set_filter`.
    SYNC_ROWS = 20_000
    # New rows examined at once as they are indexed (a batch is a few hundred); more go on in
    # slices.
    LIVE_ROWS = 4096

    def __init__(self, index: LogIndex, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.index_ = index
        self.window = LogWindow()  # which index rows the view shows (its rules asserted)
        self._server: str | None = None
        self._kind: str | None = None
        self._text = ""
        self._search: TextSearch | None = None
        self._servers: set[int] | None = None
        self._kinds: set[int] | None = None
        self._paused = False
        self._cache: OrderedDict[int, tuple[str, str, str, str, str, str]] = OrderedDict()
        self._n_servers = 0
        self._n_kinds = 0
        self._last_flush = float("-inf")
        self._flooded = False  # the last two flushes brought FLOOD_ROWS or more each
        self._big = False  # the last flush brought FLOOD_ROWS or more
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.timeout.connect(self._flush)
        # a zero-interval timer, not a chain of posted calls: other timers get their turns
        self._work_timer = QTimer(self)
        self._work_timer.setInterval(0)
        self._work_timer.timeout.connect(self._work)

    # -- Qt model interface -----------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.window)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(_HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(_HEADERS)
        ):
            return QCoreApplication.translate("LogModel", _HEADERS[section])
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Called for every role of every visible cell on each paint: answer the roles we do
        # not serve before anything else, and the others from the cache of formatted rows.
        if role in (_DISPLAY, _ACCESSIBLE):
            tip = False
        elif role == _TOOLTIP:
            tip = True
        else:
            return None
        row = self.window.index_row(index.row())
        if row is None:
            return None
        col = index.column()
        if tip and col == TIME:
            return _full_time(self.index_.ts[row])
        cells = self._cache.get(row)
        if cells is None:
            cells = self._format(row)
        return cells[col] if 0 <= col < len(cells) else None

    # -- rows ---------------------------------------------------------------------------------

    def index_row(self, view_row: int) -> int:
        """The index row shown at *view_row*."""
        row = self.window.index_row(view_row)
        if row is None:
            raise IndexError(f"no view row {view_row}")
        return row

    def view_row_of(self, index_row: int) -> int | None:
        """The view row showing index row *index_row*; None when it is not shown (filtered
        out, cleared, or not in the view yet)."""
        return self.window.view_row_of(index_row)

    def index_rows(self) -> Iterator[int]:
        """The index rows shown, top to bottom."""
        return self.window.index_rows()

    def record_at(self, view_row: int) -> EventRecord | None:
        """The event shown at *view_row*, read back from its file (None if it is gone)."""
        return self.index_.record(self.index_row(view_row))

    def _format(self, row: int) -> tuple[str, str, str, str, str, str]:
        # All the cells of a row at once, in column order: the record is read and parsed once.
        ix = self.index_
        rec = ix.record(row)
        if rec is None:
            gone = QCoreApplication.translate("LogModel", "(no longer on disk)")
            direction, ident, summary = "", "", gone
        else:
            rid = rec.get("id")
            direction = direction_name(str(rec.get("dir", "")))
            ident = "" if rid is None else json.dumps(rid, ensure_ascii=False)
            summary = translated_summary(rec)
        got = (
            _clock_time(ix.ts[row]),
            visible(ix.servers[ix.server[row]]),
            direction,
            kind_name(ix.kinds[ix.kind[row]]),
            ident,
            summary,
        )
        cache = self._cache
        if len(cache) >= ROW_CACHE:
            cache.popitem(last=False)
        cache[row] = got
        return got

    # -- feeding ------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def pending(self) -> int:
        """Events indexed but held back from the view while paused."""
        return len(self.index_) - self.window.target if self._paused else 0

    @property
    def filtering(self) -> bool:
        """A filter is still going through rows in slices (its matches appear as found)."""
        return self._work_timer.isActive()

    @property
    def progress(self) -> float:
        """How far the filter has gone through its rows, from 0.0 to 1.0."""
        return self.window.progress

    def set_paused(self, paused: bool) -> None:
        """Hold new events back from the view (True) or show them, and those held (False)."""
        if paused == self._paused:
            return
        self._paused = paused
        if paused:
            self._flush()  # what was found before the pause is shown at once
        else:
            self._catch_up(self.SYNC_ROWS)
            self._flush()
        self.pending_changed.emit(self.pending)

    def refresh(self) -> None:
        """Add the events indexed since the last refresh to the view now, as one batch."""
        self._catch_up(None)
        self._flush()

    def refresh_soon(self) -> None:
        """Add the events indexed since the last refresh to the view with the next flush (at
        once if none happened for `FLUSH_MS`): what a follower calls for each indexed batch."""
        self._catch_up(self.LIVE_ROWS)
        if self._paused:
            # nothing moves in the view, so the held-back count can be told at once
            self.pending_changed.emit(self.pending)
        self._request_flush()

    def _catch_up(self, sync_rows: int | None) -> None:
        # Examine the rows up to the target: all of them here if at most *sync_rows* (None:
        # any number) are left, else in slices from the event loop.
        self._note_sources()
        w = self.window
        if not self._paused:
            w.aim(len(self.index_))  # unfiltered, nothing is left to examine after this
        left = w.left
        if left <= 0:
            return
        if sync_rows is None or left <= sync_rows:
            self._examine(w.target)
            self._work_timer.stop()
        elif not self._work_timer.isActive():
            self._work_timer.start()

    def _examine(self, stop: int) -> None:
        w = self.window
        found = self.index_.matching(
            w.done, stop, servers=self._servers, kinds=self._kinds, text=self._search or ""
        )
        w.examined(stop, found)

    @Slot()
    def _work(self) -> None:
        # One slice of a filter: rows in chunks until the slice's time is up.
        deadline = time.perf_counter() + self.SLICE_SECONDS
        chunk = 4096 if self._search is not None else 65536
        w = self.window
        while w.left > 0:
            self._examine(min(w.done + chunk, w.target))
            if time.perf_counter() >= deadline:
                break
        if w.left <= 0:
            self._work_timer.stop()
            if self._search is not None:
                self._search.forget()  # the next rows are few: no need to keep big windows
                freed_memory.give_back()  # nor the memory those windows took
            self._flush()
        else:
            self._request_flush()

    @property
    def flush_interval_ms(self) -> int:
        """The least time between two flushes now: `FLUSH_MS`, or `FLOOD_FLUSH_MS` while the
        last flushes brought a flood of rows."""
        return self.FLOOD_FLUSH_MS if self._flooded else self.FLUSH_MS

    def _request_flush(self) -> None:
        if self._flush_timer.isActive():
            return
        wait = self.flush_interval_ms - (time.perf_counter() - self._last_flush) * 1000
        if wait <= 0:
            self._flush()
        else:
            self._flush_timer.start(int(wait) + 1)

    @Slot()
    def _flush(self) -> None:
        # The only place rows enter the view.
        self._flush_timer.stop()
        before, self._last_flush = self._last_flush, time.perf_counter()
        close = (self._last_flush - before) * 1000 <= 2 * self.FLOOD_FLUSH_MS
        added = 0
        coming = self.window.pending()
        if coming is not None:
            self.beginInsertRows(QModelIndex(), coming.first, coming.first + coming.count - 1)
            added = self.window.take_pending()
            self.endInsertRows()
        big = added >= self.FLOOD_ROWS
        self._flooded, self._big = big and self._big and close, big
        if self._paused:
            self.pending_changed.emit(self.pending)
        if added > 0:
            self.rows_appended.emit(added)
        self.updated.emit()

    def _note_sources(self) -> None:
        ix = self.index_
        if len(ix.servers) != self._n_servers or len(ix.kinds) != self._n_kinds:
            self._n_servers, self._n_kinds = len(ix.servers), len(ix.kinds)
            if self._server is not None or self._kind is not None:
                # a server or kind filtered for may have got its code only now
                self._servers, self._kinds = self._codes()
            self.sources_changed.emit()

    # -- filtering and clearing ---------------------------------------------------------------

    @property
    def filtered(self) -> bool:
        return self._server is not None or self._kind is not None or bool(self._text)

    def set_filter(
        self, server: str | None = None, kind: str | None = None, text: str = ""
    ) -> None:
        """Show only events of *server* and *kind* (None: any) whose summary or JSON contains
        *text*, ignoring case. Over many rows the filter goes on in slices (`filtering`)."""
        text = text.strip()
        if (server, kind, text) == (self._server, self._kind, self._text):
            return
        self._server, self._kind, self._text = server, kind, text
        self._servers, self._kinds = self._codes()
        self._search = TextSearch(self.index_, text, translated_summary) if text else None
        self._restart(self.window.base)

    def clear_view(self) -> None:
        """Hide every event shown now; the files keep them, and new events still appear."""
        if not self._paused:
            self.window.aim(len(self.index_))
        self._cache.clear()
        self._restart(self.window.target)

    def _restart(self, base: int) -> None:
        # Empty the view and examine again from *base*: a filter over few rows completes
        # inside the reset, a long one goes on in slices.
        self._work_timer.stop()
        self.beginResetModel()
        self.window.restart(base, filtered=self.filtered)
        self._catch_up(self.SYNC_ROWS)
        self.window.take_pending()  # inside the reset: what was found is there when it ends
        self.endResetModel()
        self._last_flush = time.perf_counter()
        self.updated.emit()

    def _codes(self) -> tuple[set[int] | None, set[int] | None]:
        ix = self.index_
        servers = None
        kinds = None
        if self._server is not None:
            code = ix.code_of_server(self._server)
            servers = {code} if code is not None else set()
        if self._kind is not None:
            code = ix.code_of_kind(self._kind)
            kinds = {code} if code is not None else set()
        return servers, kinds


def _clock_time(t: float) -> str:
    lt = time.localtime(t)
    return f"{lt.tm_hour:02d}:{lt.tm_min:02d}:{lt.tm_sec:02d}.{int(t * 1000) % 1000:03d}"


def _full_time(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + f".{int(t * 1000) % 1000:03d}"

"""The live log's table model and the feed that keeps it current from the event files.

The model shows rows of a `LogIndex` (a compact index of every event on disk) and reads an
event back from its file only when a view asks for a row it has not cached: like a browser table
over a database, a million events cost a few tens of megabytes. New events arrive in batches
from `LogFeed`, which watches the logs directory on a thread of its own.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from array import array
from collections.abc import Iterator
from typing import Any

import watchfiles
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

from roots_manager.core import events
from roots_manager.core.logindex import LogIndex

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

_CELL = {DIRECTION: 0, ID: 1, SUMMARY: 2}

# Rows read back from the files and kept; a screenful is ~50, so this covers fast scrolling.
ROW_CACHE = 4096

_Index = QModelIndex | QPersistentModelIndex


class LogModel(QAbstractTableModel):
    """The events of a `LogIndex`, filtered, as a table (time, server, direction, kind, id,
    summary)."""

    rows_appended = Signal(int)  # rows added at the end of the view
    sources_changed = Signal()  # servers or kinds seen for the first time (filter choices)
    pending_changed = Signal(int)  # events held back while paused

    def __init__(self, index: LogIndex, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.index_ = index
        self._base = 0  # rows before this were cleared from the view
        self._end = 0  # index rows considered so far
        self._rows: array[int] | None = None  # view row -> index row; None when unfiltered
        self._server: str | None = None
        self._kind: str | None = None
        self._text = ""
        self._paused = False
        self._cache: dict[int, tuple[str, str, str]] = {}
        self._n_servers = 0
        self._n_kinds = 0

    # -- Qt model interface -----------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        if parent.isValid():
            return 0
        return len(self._rows) if self._rows is not None else self._end - self._base

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
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Called for every role of every visible cell on each paint: answer the roles we do
        # not serve before anything else.
        if role == Qt.ItemDataRole.DisplayRole or role == Qt.ItemDataRole.AccessibleTextRole:
            tip = False
        elif role == Qt.ItemDataRole.ToolTipRole:
            tip = True
        else:
            return None
        if not index.isValid():
            return None
        r, col = index.row(), index.column()
        if not (0 <= r < self.rowCount()) or not (0 <= col < len(_HEADERS)):
            return None
        row = self.index_row(r)
        ix = self.index_
        if col == TIME:
            return _full_time(ix.ts[row]) if tip else _clock_time(ix.ts[row])
        if col == SERVER:
            return ix.servers[ix.server[row]]
        if col == KIND:
            return ix.kinds[ix.kind[row]]
        return self._cells(row)[_CELL[col]]

    # -- rows ---------------------------------------------------------------------------------

    def index_row(self, view_row: int) -> int:
        """The index row shown at *view_row*."""
        return self._rows[view_row] if self._rows is not None else self._base + view_row

    def index_rows(self) -> Iterator[int]:
        """The index rows shown, top to bottom."""
        if self._rows is not None:
            return iter(self._rows)
        return iter(range(self._base, self._end))

    def record_at(self, view_row: int) -> dict[str, Any] | None:
        """The event shown at *view_row*, read back from its file (None if it is gone)."""
        return self.index_.record(self.index_row(view_row))

    def line_at(self, view_row: int) -> bytes | None:
        """The raw JSON line of the event shown at *view_row*."""
        return self.index_.line(self.index_row(view_row))

    def _cells(self, row: int) -> tuple[str, str, str]:
        got = self._cache.get(row)
        if got is not None:
            return got
        rec = self.index_.record(row)
        if rec is None:
            gone = QCoreApplication.translate("LogModel", "(no longer on disk)")
            got = ("", "", gone)
        else:
            ident = rec.get("id")
            got = (
                str(rec.get("dir", "")),
                "" if ident is None else json.dumps(ident, ensure_ascii=False),
                events.summarize(rec),
            )
        if len(self._cache) >= ROW_CACHE:
            # oldest first: dicts keep insertion order
            del self._cache[next(iter(self._cache))]
        self._cache[row] = got
        return got

    # -- feeding ------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def pending(self) -> int:
        """Events indexed but held back from the view while paused."""
        return len(self.index_) - self._end if self._paused else 0

    def set_paused(self, paused: bool) -> None:
        """Hold new events back from the view (True) or show them, and those held (False)."""
        if paused == self._paused:
            return
        self._paused = paused
        if not paused:
            self.refresh()
        self.pending_changed.emit(self.pending)

    def refresh(self) -> None:
        """Add the events indexed since the last refresh to the view, as one batch."""
        n = len(self.index_)
        self._note_sources()
        if n <= self._end:
            return
        if self._paused:
            self.pending_changed.emit(n - self._end)
            return
        if self._rows is None:
            added = n - self._end
            first = self.rowCount()
            self.beginInsertRows(QModelIndex(), first, first + added - 1)
            self._end = n
            self.endInsertRows()
        else:
            new = self._matching(self._end, n)
            self._end = n
            added = len(new)
            if added:
                first = len(self._rows)
                self.beginInsertRows(QModelIndex(), first, first + added - 1)
                self._rows.extend(new)
                self.endInsertRows()
        if added:
            self.rows_appended.emit(added)

    def _note_sources(self) -> None:
        ix = self.index_
        if len(ix.servers) != self._n_servers or len(ix.kinds) != self._n_kinds:
            self._n_servers, self._n_kinds = len(ix.servers), len(ix.kinds)
            self.sources_changed.emit()

    # -- filtering and clearing ---------------------------------------------------------------

    @property
    def filtered(self) -> bool:
        return self._server is not None or self._kind is not None or bool(self._text)

    def set_filter(
        self, server: str | None = None, kind: str | None = None, text: str = ""
    ) -> None:
        """Show only events of *server* and *kind* (None: any) whose JSON contains *text*."""
        text = text.strip()
        if (server, kind, text) == (self._server, self._kind, self._text):
            return
        self._server, self._kind, self._text = server, kind, text
        self._rebuild()

    def clear_view(self) -> None:
        """Hide every event shown now; the files keep them, and new events still appear."""
        self.beginResetModel()
        self._base = self._end = len(self.index_) if not self._paused else self._end
        self._rows = None if not self.filtered else array("Q")
        self._cache.clear()
        self.endResetModel()

    def _rebuild(self) -> None:
        self.beginResetModel()
        self._rows = self._matching(self._base, self._end) if self.filtered else None
        self.endResetModel()

    def _matching(self, start: int, stop: int) -> array[int]:
        ix = self.index_
        servers = None
        kinds = None
        if self._server is not None:
            code = ix.code_of_server(self._server)
            servers = {code} if code is not None else set()
        if self._kind is not None:
            code = ix.code_of_kind(self._kind)
            kinds = {code} if code is not None else set()
        return ix.matching(start, stop, servers=servers, kinds=kinds, text=self._text)


def _clock_time(t: float) -> str:
    lt = time.localtime(t)
    return f"{lt.tm_hour:02d}:{lt.tm_min:02d}:{lt.tm_sec:02d}.{int(t * 1000) % 1000:03d}"


def _full_time(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + f".{int(t * 1000) % 1000:03d}"


class LogFeed(QObject):
    """Keeps a `LogIndex` current and says when new events are in.

    The first read of what is on disk (possibly a million events) runs on a thread of its own
    while the view shows nothing yet. After that the thread only waits on watchfiles for
    changes in the logs directory (or a timeout, a safety net for file systems without change
    notification), and the GUI thread indexes the new bytes in slices of a few milliseconds.
    Indexing there rather than on the thread matters: Python code on a second thread makes
    every call from Qt into the model wait for the interpreter lock, which stalls painting.
    """

    indexed = Signal(int)  # events added to the index
    loaded = Signal()  # the first read of the files is done
    failed = Signal(str)
    _changed = Signal()  # from the watching thread: the directory changed

    # watchfiles yields at most this often while writes go on (ms): new events reach the view
    # well within 200 ms, in batches rather than one by one.
    DEBOUNCE_MS = 40
    STEP_MS = 5
    SAFETY_MS = 500
    # one slice of indexing on the GUI thread: about a few milliseconds of work
    SLICE_BYTES = 128 * 1024
    SLICE_SECONDS = 0.005

    def __init__(self, index: LogIndex, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.index_ = index
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loaded = False
        self._pumping = False
        self._changed.connect(self._pump_soon, Qt.ConnectionType.QueuedConnection)

    @property
    def is_loaded(self) -> bool:
        return self._loaded

    def start(self) -> None:
        """Read what is there and follow what comes, until `stop`."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, name="roots-manager-log-feed", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop following and wait for the thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def _run(self) -> None:
        logs = self.index_.layout.logs
        try:
            added = self.index_.scan()
            with contextlib.suppress(RuntimeError):  # the panel may be gone already
                self._changed.emit()  # the GUI thread takes over from here
                if added:
                    self.indexed.emit(added)
            for _changes in watchfiles.watch(
                logs,
                debounce=self.DEBOUNCE_MS,
                step=self.STEP_MS,
                rust_timeout=self.SAFETY_MS,
                yield_on_timeout=True,
                stop_event=self._stop,
                ignore_permission_denied=True,
                raise_interrupt=False,
            ):
                if self._stop.is_set():
                    break
                self._changed.emit()
        except Exception as exc:  # reported to the view; the files are untouched
            with contextlib.suppress(RuntimeError):
                self.failed.emit(f"{type(exc).__name__}: {exc}")

    @Slot()
    def _pump_soon(self) -> None:
        if not self._loaded:
            self._loaded = True
            self.loaded.emit()
        if not self._pumping:
            self._pumping = True
            QTimer.singleShot(0, self._pump)

    @Slot()
    def _pump(self) -> None:
        if self._stop.is_set():
            self._pumping = False
            return
        deadline = time.perf_counter() + self.SLICE_SECONDS
        added = 0
        while True:
            added += self.index_.scan(self.SLICE_BYTES)
            if not self.index_.behind or time.perf_counter() >= deadline:
                break
        if added:
            self.indexed.emit(added)
        if self.index_.behind:
            QTimer.singleShot(0, self._pump)  # let the view paint, then go on
        else:
            self._pumping = False

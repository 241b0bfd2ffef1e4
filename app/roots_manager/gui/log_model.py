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
from collections import OrderedDict
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
from roots_manager.core.logindex import LogIndex, TextSearch
from roots_manager.core.names import visible

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

# The templates of events.summarize(), listed here for Qt's translation tools; a test checks
# that this list and events.SUMMARY_TEMPLATES stay the same.
SUMMARY_TEMPLATES = (
    QT_TRANSLATE_NOOP("LogSummary", "started {command} (pid {pid}, {mode})"),
    QT_TRANSLATE_NOOP("LogSummary", "ended, exit code {code}"),
    QT_TRANSLATE_NOOP("LogSummary", "ended, exit code {code} ({reason})"),
    QT_TRANSLATE_NOOP("LogSummary", "protocol {protocol}"),
    QT_TRANSLATE_NOOP("LogSummary", "protocol {protocol}, roots capability injected"),
    QT_TRANSLATE_NOOP("LogSummary", "the server asked for its roots"),
    QT_TRANSLATE_NOOP("LogSummary", "the server asked for its roots in a batch"),
    QT_TRANSLATE_NOOP("LogSummary", "the server asked for its roots (held until you decide)"),
    QT_TRANSLATE_NOOP("LogSummary", "roots/list relayed to the host"),
    QT_TRANSLATE_NOOP("LogSummary", "no roots"),
    QT_TRANSLATE_NOOP("LogSummary", "{count} root(s): {uris}"),
    QT_TRANSLATE_NOOP("LogSummary", "roots changed, now no roots"),
    QT_TRANSLATE_NOOP("LogSummary", "roots changed, now {count} root(s): {uris}"),
    QT_TRANSLATE_NOOP("LogSummary", "list_changed relayed"),
    QT_TRANSLATE_NOOP("LogSummary", "list_changed sent on request"),
    QT_TRANSLATE_NOOP(
        "LogSummary",
        "list_changed not sent on request: the server has not fetched the list since the last "
        "notice",
    ),
    QT_TRANSLATE_NOOP(
        "LogSummary", "list_changed not sent on request: the handshake is not complete"
    ),
    QT_TRANSLATE_NOOP(
        "LogSummary", "list_changed not sent on request: protocol 2026-07-28 has no list_changed"
    ),
    QT_TRANSLATE_NOOP("LogSummary", "list_changed not sent on request: the bridge only observes"),
    QT_TRANSLATE_NOOP(
        "LogSummary", "waiting up to {timeout} s for your decision in the desktop app"
    ),
    QT_TRANSLATE_NOOP("LogSummary", "the decision arrived"),
    QT_TRANSLATE_NOOP("LogSummary", "no decision in time: answered with what is granted"),
    QT_TRANSLATE_NOOP(
        "LogSummary",
        "consent changed ({reason}): restarting the server, the host's messages wait",
    ),
    QT_TRANSLATE_NOOP(
        "LogSummary",
        "restarted for a consent change: pid {old} is now pid {new}; the host waited {ms} ms",
    ),
    QT_TRANSLATE_NOOP("LogSummary", "the server could not be restarted: {why}"),
    QT_TRANSLATE_NOOP("LogSummary", "{bytes} bytes that are not {reason}"),
    QT_TRANSLATE_NOOP("LogSummary", "response"),
    QT_TRANSLATE_NOOP("LogSummary", "{text}"),
)


# the bridge's modes, as a session start names them
_MODES: dict[str, str] = {
    "managed": str(QT_TRANSLATE_NOOP("LogSummary", "managed")),
    "observe": str(QT_TRANSLATE_NOOP("LogSummary", "observing only")),
}


def _translate_summary(template: str) -> str:
    return QCoreApplication.translate("LogSummary", template)


def bridge_mode_name(mode: str) -> str:
    """A bridge's mode (``managed``, ``observe``) in the user's language."""
    return _translate_summary(_MODES[mode]) if mode in _MODES else mode


def translated_summary(rec: dict[str, Any]) -> str:
    """An event's summary in the user's language."""
    template, values = events.summary_parts(rec)
    mode = values.get("mode")
    if isinstance(mode, str):
        values = {**values, "mode": bridge_mode_name(mode)}
    try:
        return _translate_summary(template).format(**values)
    except Exception:  # a translation with broken placeholders: the English summary
        return template.format(**values)


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
    SLICE_SECONDS = 0.006
    # A filter over at most this many rows completes within `set_filter`.
    SYNC_ROWS = 20_000
    # New rows examined at once as they are indexed (a batch is a few hundred); more go on in
    # slices.
    LIVE_ROWS = 4096

    def __init__(self, index: LogIndex, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.index_ = index
        self._base = 0  # rows before this were cleared from the view
        self._shown = 0  # unfiltered: index rows [_base, _shown) are in the view
        self._done = 0  # index rows examined against the current filter so far
        self._target = 0  # index rows to examine: all indexed, or those known when paused
        self._rows: array[int] | None = None  # view row -> index row; None when unfiltered
        self._found = array("Q")  # filtered: matches not yet inserted into the view
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
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.timeout.connect(self._flush)
        # a zero-interval timer, not a chain of posted calls: other timers get their turns
        self._work_timer = QTimer(self)
        self._work_timer.setInterval(0)
        self._work_timer.timeout.connect(self._work)

    # -- Qt model interface -----------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        if parent.isValid():
            return 0
        return len(self._rows) if self._rows is not None else self._shown - self._base

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
        r = index.row()
        rows = self._rows
        if rows is not None:
            if not 0 <= r < len(rows):
                return None
            row = rows[r]
        else:
            row = self._base + r
            if r < 0 or row >= self._shown:
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
        return self._rows[view_row] if self._rows is not None else self._base + view_row

    def index_rows(self) -> Iterator[int]:
        """The index rows shown, top to bottom."""
        if self._rows is not None:
            return iter(self._rows)
        return iter(range(self._base, self._shown))

    def record_at(self, view_row: int) -> dict[str, Any] | None:
        """The event shown at *view_row*, read back from its file (None if it is gone)."""
        return self.index_.record(self.index_row(view_row))

    def line_at(self, view_row: int) -> bytes | None:
        """The raw JSON line of the event shown at *view_row*."""
        return self.index_.line(self.index_row(view_row))

    def _format(self, row: int) -> tuple[str, str, str, str, str, str]:
        # All the cells of a row at once, in column order: the record is read and parsed once.
        ix = self.index_
        rec = ix.record(row)
        if rec is None:
            gone = QCoreApplication.translate("LogModel", "(no longer on disk)")
            direction, ident, summary = "", "", gone
        else:
            rid = rec.get("id")
            direction = str(rec.get("dir", ""))
            ident = "" if rid is None else json.dumps(rid, ensure_ascii=False)
            summary = translated_summary(rec)
        got = (
            _clock_time(ix.ts[row]),
            visible(ix.servers[ix.server[row]]),
            direction,
            ix.kinds[ix.kind[row]],
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
        return len(self.index_) - self._target if self._paused else 0

    @property
    def filtering(self) -> bool:
        """A filter is still going through rows in slices (its matches appear as found)."""
        return self._work_timer.isActive()

    @property
    def progress(self) -> float:
        """How far the filter has gone through its rows, from 0.0 to 1.0."""
        span = self._target - self._base
        return 1.0 if span <= 0 else min(max((self._done - self._base) / span, 0.0), 1.0)

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
        if not self._paused:
            self._target = len(self.index_)
        if self._rows is None:
            self._done = self._target  # unfiltered: nothing to examine
            return
        left = self._target - self._done
        if left <= 0:
            return
        if sync_rows is None or left <= sync_rows:
            self._examine(self._target)
            self._work_timer.stop()
        elif not self._work_timer.isActive():
            self._work_timer.start()

    def _examine(self, stop: int) -> None:
        found = self.index_.matching(
            self._done, stop, servers=self._servers, kinds=self._kinds, text=self._search or ""
        )
        self._done = stop
        self._found.extend(found)

    @Slot()
    def _work(self) -> None:
        # One slice of a filter: rows in chunks until the slice's time is up.
        deadline = time.perf_counter() + self.SLICE_SECONDS
        chunk = 4096 if self._search is not None else 65536
        while self._done < self._target:
            self._examine(min(self._done + chunk, self._target))
            if time.perf_counter() >= deadline:
                break
        if self._done >= self._target:
            self._work_timer.stop()
            if self._search is not None:
                self._search.forget()  # the next rows are few: no need to keep big windows
            self._flush()
        else:
            self._request_flush()

    def _request_flush(self) -> None:
        if self._flush_timer.isActive():
            return
        wait = self.FLUSH_MS - (time.perf_counter() - self._last_flush) * 1000
        if wait <= 0:
            self._flush()
        else:
            self._flush_timer.start(int(wait) + 1)

    @Slot()
    def _flush(self) -> None:
        # The only place rows enter the view.
        self._flush_timer.stop()
        self._last_flush = time.perf_counter()
        added = 0
        if self._rows is None:
            added = self._done - self._shown
            if added > 0:
                first = self._shown - self._base
                self.beginInsertRows(QModelIndex(), first, first + added - 1)
                self._shown = self._done
                self.endInsertRows()
        elif self._found:
            added = len(self._found)
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + added - 1)
            self._rows.extend(self._found)
            self._found = array("Q")
            self.endInsertRows()
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
        self._restart(self._base)

    def clear_view(self) -> None:
        """Hide every event shown now; the files keep them, and new events still appear."""
        if not self._paused:
            self._target = len(self.index_)
        self._cache.clear()
        self._restart(self._target)

    def _restart(self, base: int) -> None:
        # Empty the view and examine again from *base*: a filter over few rows completes
        # inside the reset, a long one goes on in slices.
        self._work_timer.stop()
        self.beginResetModel()
        self._base = self._done = self._shown = base
        self._rows = array("Q") if self.filtered else None
        self._found = array("Q")
        self._catch_up(self.SYNC_ROWS)
        if self._rows is not None:
            self._rows.extend(self._found)
            self._found = array("Q")
        else:
            self._shown = self._done
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
        # a zero-interval timer rather than a chain of posted calls, so the event loop serves
        # other timers between slices
        self._pump_timer = QTimer(self)
        self._pump_timer.setInterval(0)
        self._pump_timer.timeout.connect(self._pump)
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
        if not self._pump_timer.isActive():
            self._pump_timer.start()

    @Slot()
    def _pump(self) -> None:
        if self._stop.is_set():
            self._pump_timer.stop()
            return
        deadline = time.perf_counter() + self.SLICE_SECONDS
        added = 0
        while True:
            added += self.index_.scan(self.SLICE_BYTES)
            if not self.index_.behind or time.perf_counter() >= deadline:
                break
        if added:
            self.indexed.emit(added)
        if not self.index_.behind:
            self._pump_timer.stop()  # else the next slice comes after the view has painted

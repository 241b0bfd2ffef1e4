"""The feed that keeps the live log's index current: a thread waits on the logs directory,
the GUI thread indexes new bytes in slices."""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import time
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from roots_manager.core.log.index import LogIndex
from roots_manager.support import freed_memory
from roots_manager.support.dirwatch import SteadyWatch


class LogFeed(QObject):
    """Keeps a `LogIndex` current and says when new events are in.

    The first read of what is on disk (possibly a million events) runs on a thread of its own
    while the view shows nothing yet. After that the thread only waits on a :class:`SteadyWatch`
    for changes in the logs directory (or a timeout, a safety net for file systems without change
    notification), and the GUI thread indexes the new bytes in slices of a few milliseconds.
    While the directory cannot be watched (no inotify instance left, the folder removed) the
    watch polls it and tries again every 2 s at most; ``following`` says so, and says when
    it follows again.
    Indexing there rather than on the thread matters: Python code on a second thread makes
    every call from Qt into the model wait for the interpreter lock, which stalls painting.
    """

    indexed = Signal(int)  # events added to the index
    loaded = Signal()  # the first read of the files is done
    failed = Signal(str)
    following = Signal(object)
    """Why new events are not followed live (an exception: polled meanwhile, retried), or None
    once they are again."""
    _changed = Signal()  # from the watching thread: the directory changed
    _rewatching = Signal()  # from the watching thread: it watches again after a flood

    # the watch gathers changes for at most this long while writes go on (s): new events reach
    # the view well within 200 ms, in batches rather than one by one
    DEBOUNCE = 0.040
    SETTLE = 0.005
    SAFETY = 0.5
    # A flood is read by polling the files' sizes, not through change notification: the
    # kernel sends a notice per write, and handling 30,000 of them a second took a third as
    # much CPU as all the rest of the app. When the files grew by FLOOD_BYTES or more between
    # two changes noticed, the thread polls every POLL_MS while they grow by that much a poll
    # (about 4,000 events a second), then watches again, and the view looks once more
    # REWATCH_LOOK_MS later, for what was written while the watch was being set up.
    POLL_MS = 40
    FLOOD_BYTES = 48 * 1024
    REWATCH_LOOK_MS = 100
    # one slice of indexing on the GUI thread: a millisecond or two of work per read, a few
    # reads per turn of the event loop (under a parallel CPU load a turn's wall time is a
    # multiple of its CPU time, so each turn must stay short for painting to keep up)
    SLICE_BYTES = 32 * 1024
    SLICE_SECONDS = 0.003

    def __init__(self, index: LogIndex, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.index_ = index
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._dirwatch: SteadyWatch | None = None
        self._thread: threading.Thread | None = None
        self._told: str | None = None
        """The trouble last told by ``following`` (None: following live)."""
        self._loaded = False
        # a zero-interval timer rather than a chain of posted calls, so the event loop serves
        # other timers between slices
        self._pump_timer = QTimer(self)
        self._pump_timer.setInterval(0)
        self._pump_timer.timeout.connect(self._pump)
        self._changed.connect(self._pump_soon, Qt.ConnectionType.QueuedConnection)
        self._rewatching.connect(self._look_again, Qt.ConnectionType.QueuedConnection)

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
        with self._lock:
            self._stop.set()
            if self._dirwatch is not None:
                self._dirwatch.stop()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def _run(self) -> None:
        logs = self.index_.layout.logs
        try:
            added = self.index_.scan()
            freed_memory.give_back()  # what reading a million events used for a moment
            # What exists now (the app's modules, widgets, the index) lives as long as the app:
            # out of the collector's sight, a full collection while a flood is followed costs
            # a few ms instead of tens (it went through every one of them).
            gc.freeze()
            with contextlib.suppress(RuntimeError):  # the panel may be gone already
                self._changed.emit()  # the GUI thread takes over from here
                if added:
                    self.indexed.emit(added)
            while self._watch(logs):
                self._poll_flood(logs)
                with contextlib.suppress(RuntimeError):
                    self._rewatching.emit()
        except Exception as exc:  # reported to the view; the files are untouched
            with contextlib.suppress(RuntimeError):
                self.failed.emit(f"{type(exc).__name__}: {exc}")

    def _watch(self, logs: Path) -> bool:
        """Tell each change in *logs* until the files grew by `FLOOD_BYTES` or more since the
        last change (True: a flood) or the feed stops (False)."""
        size = _total_size(logs)
        with self._lock:
            if self._stop.is_set():
                return False
            self._dirwatch = watch = SteadyWatch([str(logs)], on_trouble=self._trouble)
        self._trouble(watch.trouble)  # a watch after a flood: in place again, or not yet
        with watch:
            # the timeout is a safety net for file systems that send no notices
            while (changes := watch.wait(self.SAFETY, self.DEBOUNCE, self.SETTLE)) is not None:
                self._changed.emit()
                if changes:
                    now = _total_size(logs)
                    if abs(now - size) >= self.FLOOD_BYTES:
                        return True
                    size = now  # a trickle: notices are few, keep watching
        return False

    def _trouble(self, error: BaseException | None) -> None:
        told = None if error is None else str(error)
        if told == self._told:
            return
        self._told = told
        with contextlib.suppress(RuntimeError):  # the panel may be gone already
            self.following.emit(error)

    def _poll_flood(self, logs: Path) -> None:
        """Tell the growth of the files in *logs* every `POLL_MS` for as long as it is a
        flood's."""
        before = _total_size(logs)
        while not self._stop.wait(self.POLL_MS / 1000):
            now = _total_size(logs)
            if now != before:
                self._changed.emit()
            if abs(now - before) < self.FLOOD_BYTES:
                return
            before = now

    @Slot()
    def _look_again(self) -> None:
        QTimer.singleShot(self.REWATCH_LOOK_MS, self, self._pump_soon)

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


def _total_size(logs: Path) -> int:
    """The bytes of all the files in *logs* (0 when it cannot be read)."""
    total = 0
    try:
        with os.scandir(logs) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):  # rotated away meanwhile
                    total += entry.stat().st_size
    except OSError:
        return 0
    return total

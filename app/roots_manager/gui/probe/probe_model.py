"""The probe's matrix as a table model, and the worker that runs a probe off the GUI thread.

The probe is asyncio code (the SDK's client). It runs on an event loop of its own in a worker
thread, so the dialog works the same under qasync and under a plain Qt loop (the tests'), and
a server that is slow to start never freezes the window; rows reach the model through queued
signals, in the order they were found.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor

from roots_manager.core.probe.reasons import Status, Step
from roots_manager.core.probe.report import CELL_MARK, Report, short
from roots_manager.core.probe.verdict import Outcome, Row
from roots_manager.gui.probe.probe_texts import reading_text

TOOL, OPERATION, TARGET, INSIDE, OUTSIDE, READING = range(6)

COLOURS = {
    Outcome.WORKED: QColor(198, 239, 206),
    Outcome.REFUSED: QColor(255, 199, 206),
    Outcome.TIMED_OUT: QColor(255, 235, 156),
    Outcome.SERVER_GONE: QColor(217, 217, 217),
}
_Index = QModelIndex | QPersistentModelIndex


class ProbeRowsModel(QAbstractTableModel):
    """The rows of one probe run, appended in batches as they are found."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[Row] = []
        self.report: Report | None = None
        self._headers = [
            self.tr("Tool"),
            self.tr("Operation"),
            self.tr("Target"),
            self.tr("Inside"),
            self.tr("Outside"),
            self.tr("Reading"),
        ]
        self._marks = {
            Outcome.WORKED: self.tr("worked"),
            Outcome.REFUSED: self.tr("refused"),
            Outcome.TIMED_OUT: self.tr("timed out"),
            Outcome.SERVER_GONE: self.tr("server gone"),
            Outcome.NOT_RUN: self.tr("not run"),
        }
        assert set(self._marks) == set(CELL_MARK)

    def clear(self) -> None:
        """Forget the rows of the previous run."""
        self.beginResetModel()
        self.rows = []
        self.report = None
        self.endResetModel()

    def add_rows(self, rows: Sequence[Row]) -> None:
        """Append *rows* (one insertion for the batch)."""
        if not rows:
            return
        first = len(self.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self.rows.extend(rows)
        self.endInsertRows()

    def finish(self, report: Report) -> None:
        """The run ended: its report is the truth (rows the signals have not delivered yet)."""
        self.add_rows(report.rows[len(self.rows) :])
        self.report = report

    def row_at(self, row: int) -> Row | None:
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index.row())
        if row is None:
            return None
        col = index.column()
        cell = row.inside if col == INSIDE else row.outside if col == OUTSIDE else None
        if role == Qt.ItemDataRole.DisplayRole:
            if cell is not None:
                return self._marks[cell.outcome]
            if col == TOOL:
                return row.tool
            if col == OPERATION:
                return row.operation.value
            if col == TARGET:
                return row.target_kind.value
            if col == READING:
                return reading_text(row, self._marks)
        if role == Qt.ItemDataRole.BackgroundRole and cell is not None:
            return COLOURS.get(cell.outcome)
        if role == Qt.ItemDataRole.ForegroundRole and cell is not None and cell.outcome in COLOURS:
            return QColor(0, 0, 0)  # the colours are light: dark text in any theme
        if role == Qt.ItemDataRole.ToolTipRole and cell is not None:
            text = cell.detail
            return short(self.report, text) if self.report is not None else text
        return None


class ProbeWorker(QObject):
    """Runs one probe in a thread of its own; reports rows, progress and the end by signals."""

    rows_found = Signal(object)
    """A list of :class:`Row`, in the order found."""
    progressed = Signal(int, int, object)
    """(cells done, cells planned, what happens now: a :class:`Status`)."""
    planned = Signal(object)
    """The tools to be probed (a list of :class:`PathTool`), once the server has listed them."""
    finished = Signal(object)
    """The :class:`Report`, or None when the run was cancelled."""
    failed = Signal(str)

    def __init__(
        self,
        command: list[str],
        name: str,
        logs: Path | None,
        protocol: str,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.protocol = protocol
        self.command = command
        self.name = name
        self.logs = logs
        """The user's log folder: the Log tab shows the probe's traffic as it happens."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Report] | None = None
        self._thread: threading.Thread | None = None
        self._cancelled = threading.Event()

    def start(self) -> None:
        """Start the run."""
        self._thread = threading.Thread(target=self._run, name="probe", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        """Stop the run: the server is stopped with the usual ladder, the scratch tree removed."""
        self._cancelled.set()
        loop, task = self._loop, self._task
        if loop is not None and task is not None:
            loop.call_soon_threadsafe(task.cancel)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the thread to end; True if it has."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        from roots_manager.probe.runner import probe

        def progress(done: int, total: int, row: Row | None, status: Status) -> None:
            if row is not None:
                self.rows_found.emit([row])
            if status.step is Step.PLANNED:
                self.planned.emit(list(status.params.get("plan") or []))
            self.progressed.emit(done, total, status)

        async def main() -> Report:
            self._loop = asyncio.get_running_loop()
            self._task = asyncio.current_task()
            if self._cancelled.is_set():
                raise asyncio.CancelledError
            return await probe(
                self.command,
                name=self.name,
                progress=progress,
                logs=self.logs,
                protocol=self.protocol,
            )

        try:
            report = asyncio.run(main())
        except (asyncio.CancelledError, KeyboardInterrupt):
            self.finished.emit(None)
        except Exception as exc:  # reported in the dialog, never a traceback on the user
            self.failed.emit(str(exc) or type(exc).__name__)
        else:
            self.finished.emit(report)

"""Exporting the events the Log tab shows: to JSON Lines or CSV, and the dialog that asks where.

The texts keep the ``LogPanel`` translation context they had inside the panel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from roots_manager.core.log import export
from roots_manager.core.log.index import LogIndex


def export_shown(index: LogIndex, rows: Iterable[int], path: Path, fmt: str | None = None) -> int:
    """Write the events of index *rows* to *path* (its format from its suffix unless *fmt*);
    returns how many."""
    fmt = fmt or export.format_for(path)
    if fmt == export.CSV:
        recs = (index.record(r) for r in rows)
        return export.write_csv((r for r in recs if r is not None), path)
    lines = (line for _, line in index.lines(rows) if line is not None)
    return export.write_jsonl(lines, path)


def ask_export(parent: QWidget, write: Callable[[Path, str], int]) -> tuple[int, Path] | None:
    """Ask where to export, then *write* there; how many events went to which file, or None
    when the user gave up or the file could not be written (a box says why)."""
    jsonl = QCoreApplication.translate("LogPanel", "JSON Lines (*.jsonl)")
    csv = QCoreApplication.translate("LogPanel", "CSV (*.csv)")
    name, chosen = QFileDialog.getSaveFileName(
        parent,
        QCoreApplication.translate("LogPanel", "Export the shown events"),
        str(Path.home() / "roots-log.jsonl"),
        f"{jsonl};;{csv}",
    )
    if not name:
        return None
    path = Path(name)
    fmt = export.CSV if chosen == csv or path.suffix.lower() == ".csv" else export.JSONL
    if not path.suffix:
        path = path.with_suffix(".csv" if fmt == export.CSV else ".jsonl")
    try:
        n = write(path, fmt)
    except OSError as exc:
        QMessageBox.warning(
            parent,
            QCoreApplication.translate("LogPanel", "Export failed"),
            QCoreApplication.translate("LogPanel", "Could not write {path}: {error}").format(
                path=path, error=exc.strerror
            ),
        )
        return None
    return n, path

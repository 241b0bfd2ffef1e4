"""The servers panel's table of servers: how it is set up, and its columns' first widths.

Its texts are the servers panel's own, in the ``ServersPanel`` translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QTableView, QWidget

from roots_manager.gui.servers.servers_model import (
    BRIDGE,
    COMMAND,
    LAST_ASKED,
    SERVER,
    STALE,
    STARTED,
    STATUS,
    ServersModel,
)


def make_servers_table(parent: QWidget, model: ServersModel) -> QTableView:
    """A table of *model*'s servers, one selected at a time, whose widths the user controls."""
    table = QTableView(parent)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.verticalHeader().setVisible(False)
    table.setAlternatingRowColors(True)
    table.setTabKeyNavigation(False)  # Tab goes on to the detail; the arrow keys pick a server
    table.setAccessibleName(QCoreApplication.translate("ServersPanel", "Servers"))
    # widths the user controls: fitted once to the first rows (or restored), then left
    # alone as rows come and go, so that nothing reflows under the pointer
    sh = table.horizontalHeader()
    sh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    sh.setStretchLastSection(True)  # the command line takes what is left
    return table


def fit_columns(table: QTableView) -> None:
    """Fit the columns to the rows shown, but at least as wide as what a running server shows
    there (its bridge and times often come a moment after its row)."""
    metrics = table.fontMetrics()
    pad = 3 * metrics.averageCharWidth()
    stamp = metrics.horizontalAdvance("2026-12-31 23:59:59") + pad
    least = {
        SERVER: metrics.horizontalAdvance("m" * 10) + pad,
        STATUS: metrics.horizontalAdvance(QCoreApplication.translate("ServersModel", "running"))
        + 9 * pad,
        BRIDGE: metrics.horizontalAdvance("pid 123456, managed, protocol 2025-11-25") + pad,
        STARTED: stamp,
        LAST_ASKED: stamp,
        # the warning mark and its word, which come later than the first rows do
        STALE: table.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        + metrics.horizontalAdvance(QCoreApplication.translate("ServersModel", "stale"))
        + pad,
    }
    header = table.horizontalHeader()
    for col in range(COMMAND):
        table.resizeColumnToContents(col)
        header.resizeSection(col, max(header.sectionSize(col), least.get(col, 0)))


def show_running_columns(table: QTableView, model: ServersModel) -> None:
    """Show the Bridge and Started columns only while a server listed has a bridge running:
    empty, they took the width of a bridge's words from the columns that say something."""
    running = any(
        (row := model.row_at(i)) is not None and row.markers for i in range(model.rowCount())
    )
    for col in (BRIDGE, STARTED):
        table.setColumnHidden(col, not running)

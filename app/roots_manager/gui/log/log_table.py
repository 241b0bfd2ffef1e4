"""The Log tab's table of events, set up to never measure its contents."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QHeaderView

from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events
from roots_manager.gui.common.placeholder_view import PlaceholderTableView
from roots_manager.gui.log.log_model import DIRECTION, ID, KIND, SERVER, TIME
from roots_manager.gui.log.log_texts import direction_name, kind_name


def events_table(model: QAbstractItemModel, fm: QFontMetrics) -> PlaceholderTableView:
    """A table over *model* with rows and columns sized from *fm* once."""
    table = PlaceholderTableView()
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setWordWrap(False)
    table.setAlternatingRowColors(True)
    table.setShowGrid(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    # Fixed row heights and column widths: a view over a million rows must never measure its
    # contents.
    vh = table.verticalHeader()
    vh.hide()
    vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vh.setDefaultSectionSize(fm.height() + 6)
    hh = table.horizontalHeader()
    hh.setStretchLastSection(True)
    hh.setHighlightSections(False)
    hh.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    pad = 4 * fm.averageCharWidth()
    widths = {
        TIME: fm.horizontalAdvance("00:00:00.000"),
        SERVER: fm.horizontalAdvance("m" * 14),
        # the words of the language shown (a kind longer than these is elided)
        DIRECTION: max(fm.horizontalAdvance(direction_name(d)) for d in events.DIRECTIONS),
        KIND: max(
            fm.horizontalAdvance(kind_name(k))
            for k in (EventKind.LIST_CHANGED_RELAYED, EventKind.SERVER_RESTARTED)
        ),
        ID: fm.horizontalAdvance("0" * 6),
    }
    for col, w in widths.items():
        hh.resizeSection(col, w + pad)
    return table

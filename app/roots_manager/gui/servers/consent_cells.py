"""The consent matrix as the servers panel shows it: the table of cells, its legend, the text
of an empty matrix, and the menu of one cell.

Its texts are the servers panel's own, in the ``ServersPanel`` translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QStyle,
    QWidget,
)

from roots_manager.core.store.grants import Scope
from roots_manager.gui.common.placeholder_view import PlaceholderTableView
from roots_manager.gui.common.resources import scope_icon
from roots_manager.gui.servers.consent_matrix import ConsentMatrixModel

MATRIX_COLUMN_WIDTH = 110
MATRIX_FIT_LIMIT = 200
"""Up to this many roots the matrix's columns fit their names. Fitting measures every column
again at each change (a running bridge's marker changes with every answer it gives), about a
millisecond a column: past this many, the columns keep a fixed width the user can drag."""


def make_matrix_view(parent: QWidget, model: ConsentMatrixModel) -> PlaceholderTableView:
    """The table of *model*'s cells: a click cycles a cell, a right-click asks for its menu
    (``customContextMenuRequested``), and an empty matrix says why it is empty."""
    matrix = PlaceholderTableView(parent)
    # sized before the model comes: set on a header of 50,000 sections, the minimum
    # resizes each one, in time that grows with the square of their number
    matrix.horizontalHeader().setMinimumSectionSize(MATRIX_COLUMN_WIDTH)
    matrix.horizontalHeader().setDefaultSectionSize(MATRIX_COLUMN_WIDTH)
    matrix.setModel(model)
    matrix.setAccessibleName(
        QCoreApplication.translate("ServersPanel", "Consent: which server sees which root")
    )
    matrix.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    matrix.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    matrix.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    # fixed widths while the columns change, so that Qt does not measure thousands of them
    # before it is known how many there are
    model.modelAboutToBeReset.connect(
        lambda: matrix.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    )
    model.modelReset.connect(lambda: _size_columns(matrix, model))
    model.modelReset.connect(lambda: matrix.set_placeholder(_placeholder(model)))
    _size_columns(matrix, model)
    matrix.set_placeholder(_placeholder(model))
    matrix.clicked.connect(model.cycle)
    return matrix


def _placeholder(model: ConsentMatrixModel) -> str:
    if model.rowCount() == 0:
        return QCoreApplication.translate(
            "ServersPanel", "Each server appears here as a row once it has run behind roots-bridge."
        )
    if model.columnCount() == 0:
        return QCoreApplication.translate(
            "ServersPanel",
            "You have no roots yet: add folders in the Roots tab, and each becomes a column here.",
        )
    return ""


def _size_columns(matrix: PlaceholderTableView, model: ConsentMatrixModel) -> None:
    fit = model.columnCount() <= MATRIX_FIT_LIMIT
    matrix.horizontalHeader().setSectionResizeMode(
        QHeaderView.ResizeMode.ResizeToContents if fit else QHeaderView.ResizeMode.Interactive
    )


def make_legend(parent: QWidget) -> QWidget:
    """What each mark of a cell means."""
    legend = QWidget(parent)
    legend.setAccessibleName(
        QCoreApplication.translate("ServersPanel", "Legend of the consent cells")
    )
    row = QHBoxLayout(legend)
    row.setContentsMargins(0, 0, 0, 0)
    size = parent.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
    for scope, words in (
        (Scope.ALWAYS, QCoreApplication.translate("ServersPanel", "Always: from now on")),
        (
            Scope.WHILE_RUNNING,
            QCoreApplication.translate("ServersPanel", "While running: until the server stops"),
        ),
        (None, QCoreApplication.translate("ServersPanel", "Not granted")),
    ):
        mark = QLabel(legend)
        mark.setPixmap(scope_icon(scope).pixmap(size, size))
        row.addWidget(mark)
        row.addWidget(QLabel(words, legend))
        row.addSpacing(size)
    row.addWidget(
        QLabel(QCoreApplication.translate("ServersPanel", "Read-only: said in the cell"), legend)
    )
    row.addStretch(1)
    return legend


def cell_menu(parent: QWidget, model: ConsentMatrixModel, index: QModelIndex) -> QMenu:
    """The menu of the cell at *index*: its scope, one of three, and whether it is read-only."""
    menu = QMenu(parent)
    current = model.scope_at(index)
    # one of three: radio items, not check boxes
    choice = QActionGroup(menu)
    choice.setExclusive(True)
    for scope, text in (
        (Scope.ALWAYS, QCoreApplication.translate("ServersPanel", "&Always")),
        (Scope.WHILE_RUNNING, QCoreApplication.translate("ServersPanel", "&While running")),
        (None, QCoreApplication.translate("ServersPanel", "&Not granted")),
    ):
        action = menu.addAction(scope_icon(scope), text)
        action.setCheckable(True)
        action.setChecked(current == scope)
        choice.addAction(action)
        action.triggered.connect(lambda _=False, s=scope: model.set_scope(index, s))
    if current is not None:
        menu.addSeparator()
        read_only = menu.addAction(
            QCoreApplication.translate(
                "ServersPanel", "&Read-only (holds only while the server runs confined)"
            )
        )
        read_only.setCheckable(True)
        read_only.setChecked(model.read_only_at(index))
        read_only.triggered.connect(lambda on: model.set_read_only(index, bool(on)))
    return menu

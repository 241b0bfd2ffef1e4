"""The servers as a master list: grouped by what starts them, each with its status badge.

A server's row is its name and its badge in words: beside the name while they fit, else under
it, wrapped to the list's width. At a 1.5 scale, or in Japanese, a badge's words are longer than
a column beside the name could hold, and a state cut short ("running, confined from its…")
cannot be read.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QPainter, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from roots_manager.core.hosts.known import HostSpec
from roots_manager.core.servers.names import visible
from roots_manager.gui.servers.serverview.badge import Attention, Badge, Protection, badge
from roots_manager.gui.servers.serverview.facts import ServerFacts
from roots_manager.gui.servers.serverview.groups import Group, Starter, group_servers

_NameRole = Qt.ItemDataRole.UserRole + 1
BadgeRole = Qt.ItemDataRole.UserRole + 2
"""A server row's badge in words (its name is the row's text)."""

_WRAP = int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignLeft)
_PAD = 3
"""Pixels around a server row's text."""
_INDENT = 12
"""How far a badge under its server's name is set in."""


def group_title(group: Group) -> str:
    """A group's header: its host's name, this app, or started by hand."""
    if group.starter is Starter.HOST and group.host is not None:
        return group.host.label
    if group.starter is Starter.APP:
        return QCoreApplication.translate("ServerList", "Started by this app")
    return QCoreApplication.translate("ServerList", "Started by hand")


class _BadgeDelegate(QStyledItemDelegate):
    """Paints a server row as its name and its badge's words: beside the name (aligned with
    the other rows' badges) while they fit, else under it, wrapped to the width there is."""

    def __init__(self, view: ServerList) -> None:
        super().__init__(view)
        self.view = view
        self.names_width = 0
        """The widest name listed: where the badges start when they fit beside the names."""

    def _layout(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> tuple[int, int, bool]:
        """The text's width, where the badge starts, and whether it fits beside the name."""
        depth = 1 if index.parent().isValid() else 0
        width = max(self.view.viewport().width() - depth * self.view.indentation() - 3 * _PAD, 40)
        gap = option.fontMetrics.horizontalAdvance("  ")
        beside = self.names_width + gap
        words = str(index.data(BadgeRole))
        fits = beside + option.fontMetrics.horizontalAdvance(words) <= width
        return width, beside, fits

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        words = index.data(BadgeRole)
        if not words:
            return super().sizeHint(option, index)
        metrics = option.fontMetrics
        width, _, fits = self._layout(option, index)
        if fits:
            return QSize(width, metrics.lineSpacing() + 2 * _PAD)
        below = metrics.boundingRect(QRect(0, 0, width - _INDENT, 10_000), _WRAP, str(words))
        return QSize(width, metrics.lineSpacing() + below.height() + 2 * _PAD)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        words = index.data(BadgeRole)
        if not words:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        name = opt.text
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:  # the row's background, selection and focus as any row's
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        _, beside, fits = self._layout(opt, index)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        rect = opt.rect.adjusted(_PAD + 2, _PAD, -_PAD, -_PAD)
        line = opt.fontMetrics.lineSpacing()
        left = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        painter.save()
        painter.setPen(opt.palette.color(role))
        painter.setFont(opt.font)
        top = QRect(rect.left(), rect.top(), rect.width(), line)
        painter.drawText(
            top, left, opt.fontMetrics.elidedText(name, Qt.TextElideMode.ElideRight, rect.width())
        )
        if fits:
            painter.drawText(top.adjusted(beside, 0, 0, 0), left, str(words))
        else:
            below = QRect(
                rect.left() + _INDENT, rect.top() + line, rect.width() - _INDENT, rect.height()
            )
            painter.drawText(below, _WRAP, str(words))
        painter.restore()


class ServerList(QTreeWidget):
    """Every server under the header of what starts it; a server row is selectable, a header
    is not."""

    server_selected = Signal(object)
    """The selected server's name changed (None: none selected)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(1)
        self.setHeaderHidden(True)
        self.setAccessibleName(self.tr("Servers by what starts them"))
        self.setRootIsDecorated(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # a row is as tall as its badge's words wrap to
        self.setUniformRowHeights(False)
        self.setWordWrap(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._delegate = _BadgeDelegate(self)
        self.setItemDelegate(self._delegate)
        self._items: dict[str, QTreeWidgetItem] = {}
        self._filling = False
        self._laid_out_width = -1
        self.currentItemChanged.connect(self._current_changed)

    def badge_text(self, b: Badge) -> str:
        """The words of a server's badge, as the list shows them under its name."""
        words = [self.tr("running") if b.running else self.tr("not running")]
        words.append(
            {
                Protection.CONFINED: self.tr("confined"),
                Protection.CONFINED_NEXT_START: self.tr("confined from its next start"),
                Protection.ADVISORY: self.tr("advisory"),
            }[b.protection]
        )
        if b.stale:
            words.append(self.tr("stale"))
        if b.attention is Attention.CONSENT_PENDING:
            words.append(self.tr("waiting for consent"))
        elif b.attention is Attention.COMMAND_CHANGED:
            words.append(self.tr("command changed"))
        if b.refusals:
            words.append(self.tr("%n refusals", "", b.refusals))
        return self.tr(", ", "between the words of a badge").join(words)

    def fill(
        self,
        facts: Mapping[str, ServerFacts],
        hosts: Mapping[str, HostSpec],
        app_connected: Collection[str],
    ) -> None:
        """Show the servers of *facts*, keeping the selected one selected."""
        keep = self.selected_server()
        self._filling = True
        try:
            self.clear()
            self._items = {}
            bold = self.font()
            bold.setBold(True)
            metrics = self.fontMetrics()
            self._delegate.names_width = max(
                (metrics.horizontalAdvance(visible(n)) for n in facts), default=0
            )
            for group in group_servers(facts, hosts, app_connected):
                head = QTreeWidgetItem(self, [group_title(group)])
                head.setFlags(Qt.ItemFlag.ItemIsEnabled)
                head.setFont(0, bold)
                for name in group.servers:
                    words = self.badge_text(badge(facts[name]))
                    item = QTreeWidgetItem(head, [visible(name)])
                    item.setData(0, BadgeRole, words)
                    item.setToolTip(0, f"{visible(name)}: {words}")
                    item.setData(
                        0,
                        Qt.ItemDataRole.AccessibleDescriptionRole,
                        words,
                    )
                    item.setData(0, _NameRole, name)
                    self._items[name] = item
                head.setExpanded(True)
            if keep in self._items:
                # the same server stays selected: nothing to tell
                self.setCurrentItem(self._items[keep])
        finally:
            self._filling = False
        if keep is not None and keep not in self._items:
            self.server_selected.emit(None)

    def badge_of(self, name: str) -> str | None:
        """The badge's words the list shows for server *name* (None: not listed)."""
        item = self._items.get(name)
        return str(item.data(0, BadgeRole)) if item is not None else None

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.viewport().width() != self._laid_out_width:
            # the badges wrap to the new width: every row's height is asked again
            self._laid_out_width = self.viewport().width()
            self.doItemsLayout()

    def names(self) -> list[str]:
        """The servers listed, in the order shown."""
        return list(self._items)

    def selected_server(self) -> str | None:
        item = self.currentItem()
        name = item.data(0, _NameRole) if item is not None else None
        return str(name) if name is not None else None

    def select_server(self, name: str | None) -> None:
        """Make *name* the selected server (None: none)."""
        item = self._items.get(name) if name is not None else None
        if item is None:
            self.setCurrentIndex(QModelIndex())
        elif item is not self.currentItem():
            self.setCurrentItem(item)

    def _current_changed(self, *_: object) -> None:
        if not self._filling:
            self.server_selected.emit(self.selected_server())

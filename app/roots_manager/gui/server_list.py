"""The servers as a master list: grouped by what starts them, each with its status badge."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from roots_manager.core.hosts.known import HostSpec
from roots_manager.core.names import visible
from roots_manager.core.serverview.badge import Attention, Badge, Protection, badge
from roots_manager.core.serverview.facts import ServerFacts
from roots_manager.core.serverview.groups import Group, Starter, group_servers

_NameRole = Qt.ItemDataRole.UserRole + 1


def badge_text(b: Badge) -> str:
    """The words of a server's badge, as the list shows them beside its name."""
    words = [
        QCoreApplication.translate("ServerList", "running")
        if b.running
        else QCoreApplication.translate("ServerList", "not running")
    ]
    words.append(
        {
            Protection.CONFINED: QCoreApplication.translate("ServerList", "confined"),
            Protection.CONFINED_NEXT_START: QCoreApplication.translate(
                "ServerList", "confined from its next start"
            ),
            Protection.ADVISORY: QCoreApplication.translate("ServerList", "advisory"),
        }[b.protection]
    )
    if b.stale:
        words.append(QCoreApplication.translate("ServerList", "stale"))
    if b.attention is Attention.CONSENT_PENDING:
        words.append(QCoreApplication.translate("ServerList", "waiting for consent"))
    elif b.attention is Attention.COMMAND_CHANGED:
        words.append(QCoreApplication.translate("ServerList", "command changed"))
    if b.refusals:
        words.append(QCoreApplication.translate("ServerList", "%n refusals", None, b.refusals))
    return ", ".join(words)


def group_title(group: Group) -> str:
    """A group's header: its host's name, this app, or started by hand."""
    if group.starter is Starter.HOST and group.host is not None:
        return group.host.label
    if group.starter is Starter.APP:
        return QCoreApplication.translate("ServerList", "Started by this app")
    return QCoreApplication.translate("ServerList", "Started by hand")


class ServerList(QTreeWidget):
    """Every server under the header of what starts it; a server row is selectable, a header
    is not."""

    server_selected = Signal(object)
    """The selected server's name changed (None: none selected)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(2)
        self.setHeaderLabels([self.tr("Server"), self.tr("Status")])
        self.setAccessibleName(self.tr("Servers by what starts them"))
        self.setRootIsDecorated(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformRowHeights(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(True)
        self._items: dict[str, QTreeWidgetItem] = {}
        self._filling = False
        self.currentItemChanged.connect(self._current_changed)

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
            for group in group_servers(facts, hosts, app_connected):
                head = QTreeWidgetItem(self, [group_title(group)])
                head.setFlags(Qt.ItemFlag.ItemIsEnabled)
                head.setFont(0, bold)
                head.setFirstColumnSpanned(True)
                for name in group.servers:
                    words = badge_text(badge(facts[name]))
                    item = QTreeWidgetItem(head, [visible(name), words])
                    item.setToolTip(1, words)
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

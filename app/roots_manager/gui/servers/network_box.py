"""A confined server's network, in its Protection section: allowed, only the domains listed
(through Roots Manager's proxy), or blocked; for domains, the list with Add and Remove.

Every change goes through :mod:`roots_manager.actions.confinement` (``set_network``,
``set_domains``), as ``servers network NAME allowed|domains|blocked`` does. A domain typed is
checked with :func:`roots_manager.support.domains.pattern` before anything is saved: one that is
none is said under the line, which keeps what was typed to be corrected.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions import confinement
from roots_manager.core.confinement.confined import network_state
from roots_manager.core.store.state import State
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.support.domains import DomainError, pattern

STATES = ("allowed", "domains", "blocked")
"""The choices of the box, in its order (as :func:`network_state` names them)."""
DOMAIN_LINES = 4
"""The domains the list keeps room for; past them it scrolls."""


class NetworkBox(QWidget):
    """The network of the server shown, when it runs confined."""

    def __init__(self, watcher: StoreWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.server: str | None = None
        self.label = QLabel(self.tr("N&etwork when confined:"), self)
        self.choice = QComboBox(self)
        self.choice.addItem(self.tr("Allowed"), "allowed")
        self.choice.addItem(self.tr("Only these domains"), "domains")
        self.choice.addItem(self.tr("Blocked"), "blocked")
        self.choice.setAccessibleName(self.tr("Network when confined"))
        self.choice.setToolTip(
            self.tr(
                "Allowed: it may connect anywhere. Only these domains: it reaches the network "
                "only through Roots Manager's proxy, and through it only the domains listed. "
                "Blocked: no network connection at all. A change takes effect at its next start."
            )
        )
        self.label.setBuddy(self.choice)
        self.choice.activated.connect(self._chosen)

        self.domains = QListWidget(self)
        self.domains.setAccessibleName(self.tr("Domains it may reach"))
        self.domains.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.domains.itemSelectionChanged.connect(self._selection_changed)
        lines = self.domains.fontMetrics().lineSpacing() * DOMAIN_LINES
        self.domains.setFixedHeight(lines + 2 * self.domains.frameWidth() + 8)
        delete = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.domains)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.remove_selected)
        self.none_yet = QLabel(
            self.tr("No domain yet: every connection is refused until you add one."), self
        )
        self.none_yet.setWordWrap(True)
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText(self.tr("api.github.com, *.npmjs.org or an address"))
        self.edit.setAccessibleName(self.tr("Domain to add"))
        self.edit.setToolTip(
            self.tr(
                "A name (api.github.com: that name alone), every name beneath one "
                "(*.npmjs.org), or an address; Enter adds it"
            )
        )
        self.edit.returnPressed.connect(self.add_typed)
        self.add_button = QPushButton(self.tr("Add domain"), self)
        self.add_button.clicked.connect(self.add_typed)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setToolTip(self.tr("Take the selected domains away (Delete)"))
        self.remove_button.clicked.connect(self.remove_selected)
        self.error = QLabel(self)
        self.error.setWordWrap(True)
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # what was typed, shown as typed
        self.error.setVisible(False)
        self.edit.textEdited.connect(lambda _text: self.error.setVisible(False))

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.label)
        top.addWidget(self.choice)
        top.addStretch(1)
        add_row = QHBoxLayout()
        add_row.setContentsMargins(0, 0, 0, 0)
        add_row.addWidget(self.edit, 1)
        add_row.addWidget(self.add_button)
        add_row.addWidget(self.remove_button)
        self.listed = QWidget(self)
        """The domains, Add and Remove: shown while the network is limited to domains."""
        inner = QVBoxLayout(self.listed)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.domains)
        inner.addWidget(self.none_yet)
        inner.addLayout(add_row)
        inner.addWidget(self.error)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.listed)
        QWidget.setTabOrder(self.choice, self.domains)
        QWidget.setTabOrder(self.domains, self.edit)
        QWidget.setTabOrder(self.edit, self.add_button)
        QWidget.setTabOrder(self.add_button, self.remove_button)
        watcher.state_changed.connect(self._state_changed)
        self.show_server(None)

    @property
    def focus_chain(self) -> list[QWidget]:
        """Its controls in Tab's order (those hidden are skipped by Tab)."""
        return [self.choice, self.domains, self.edit, self.add_button, self.remove_button]

    def show_server(self, name: str | None) -> None:
        """Show the network of server *name* (None: none selected)."""
        if name != self.server:
            self.edit.clear()
            self.error.setVisible(False)
        self.server = name
        self._state_changed(self.watcher.state)

    def state(self) -> str:
        """The choice shown: ``allowed``, ``domains`` or ``blocked``."""
        return str(self.choice.currentData())

    def listed_domains(self) -> list[str]:
        """The domains the list shows, in its order."""
        return [self.domains.item(i).text() for i in range(self.domains.count())]

    def _state_changed(self, state: State) -> None:
        name = self.server
        srv = state.servers.get(name) if name is not None else None
        now = network_state(srv) if srv is not None else "allowed"
        self.choice.setCurrentIndex(STATES.index(now))
        self.choice.setEnabled(srv is not None)
        kept = self.domains.currentItem()
        current = kept.text() if kept is not None else None
        self.domains.clear()
        for domain in srv.network_domains if srv is not None else []:
            self.domains.addItem(domain)
            if domain == current:
                self.domains.setCurrentRow(self.domains.count() - 1)
        self.listed.setVisible(now == "domains")
        self.none_yet.setVisible(self.domains.count() == 0)
        self.domains.setVisible(self.domains.count() > 0)
        self._selection_changed()

    def _selection_changed(self) -> None:
        self.remove_button.setEnabled(bool(self.domains.selectedItems()))

    def choose(self, wanted: str) -> bool:
        """Set the network of the server shown to *wanted* (one of :data:`STATES`); whether it
        was saved."""
        name = self.server
        if name is None or wanted not in STATES:
            return False
        if wanted == "domains":  # its domains as they were: the store keeps them
            done = self.watcher.act(lambda store: confinement.set_domains(store, name))
        else:
            blocked = wanted == "blocked"
            done = self.watcher.act(lambda store: confinement.set_network(store, name, blocked))
        self._state_changed(self.watcher.state)  # a refused change puts the box back
        if done is not None and wanted == "domains":
            self.edit.setFocus()  # what comes next: a domain to add
        return done is not None

    def _chosen(self, index: int) -> None:
        self.choose(STATES[index])

    def add_typed(self) -> bool:
        """Add the domain typed to the server shown; one that is none is said under the line
        and kept there to be corrected. Whether it was added."""
        name = self.server
        typed = self.edit.text().strip()
        if name is None or not typed:
            return False
        try:
            domain = pattern(typed)
        except DomainError:
            self.error.setText(
                self.tr(
                    "{text} is not a domain: write a name (api.github.com), every name beneath "
                    "one (*.npmjs.org) or an address, without a port or a scheme."
                ).format(text=typed)
            )
            self.error.setVisible(True)
            self.edit.setFocus()
            self.edit.selectAll()
            return False
        done = self.watcher.act(lambda store: confinement.set_domains(store, name, [domain]))
        if done is None:
            return False
        self.error.setVisible(False)
        self.edit.clear()
        self._state_changed(self.watcher.state)
        self.edit.setFocus()
        return True

    def remove_selected(self) -> bool:
        """Take the selected domains away from the server shown; whether any was."""
        name = self.server
        chosen = [i.text() for i in self.domains.selectedItems()]
        if name is None or not chosen:
            return False
        row = self.domains.row(self.domains.selectedItems()[0])
        done = self.watcher.act(lambda store: confinement.set_domains(store, name, (), chosen))
        self._state_changed(self.watcher.state)
        if self.domains.count():
            self.domains.setCurrentRow(min(row, self.domains.count() - 1))
            self.domains.setFocus()
        else:
            self.edit.setFocus()
        return done is not None

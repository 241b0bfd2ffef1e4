"""The Confine switch of the selected server, with what it means and whether it can work here."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions.confinement import confine, set_ask, switch_restart_on_revoke
from roots_manager.core.confinement.confined import network_state, starts_confined
from roots_manager.core.servers.defaults import ASK_SECONDS_DEFAULT
from roots_manager.core.servers.names import visible
from roots_manager.core.store.state import State
from roots_manager.gui.common import confinement_text
from roots_manager.gui.common.folder_dialog import pick_folder
from roots_manager.gui.common.resources import lock_icon
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.sandbox.availability import Availability, availability


class ConfineBox(QWidget):
    """A switch that stores whether one server starts confined to its grants.

    It writes the same setting as ``roots-manager servers confine NAME on|off`` and follows the
    store, so a change made by the CLI shows here too. When this machine cannot confine, the
    switch cannot be turned on, and says why; a server already set to confined can still be
    turned off, since its bridge refuses to start it until then.
    """

    confinement_changed = Signal(str, bool)
    """The stored setting of a server (name, confined or not) was changed from this switch."""

    _PathRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, watcher: StoreWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.machine: Availability = availability()
        self._server: str | None = None

        self.switch = QCheckBox(self.tr("Confine this server to its gr&ants"), self)
        self.switch.setIcon(lock_icon())
        self.switch.setAccessibleName(self.tr("Confine the selected server to its grants"))
        self.switch.toggled.connect(self._switched)
        self.explanation = QLabel(self)
        self.explanation.setWordWrap(True)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.machine_label = QLabel(
            confinement_text.availability_text(self.machine) + " " + confinement_text.platforms(),
            self,
        )
        self.machine_label.setWordWrap(True)
        self.machine_label.setEnabled(self.machine.available)

        self.restart_switch = QCheckBox(self.tr("Restart it when a folder is revo&ked"), self)
        self.restart_switch.setToolTip(
            self.tr(
                "Stop and start the server again behind the host's back when a folder it was "
                "told is revoked (and, confined, when its grants change): the host stays "
                "connected, and the server forgets the folder. On by default for confined "
                "servers; from the server's next start."
            )
        )
        self.restart_switch.toggled.connect(self._restart_switched)
        self.ask_switch = QCheckBox(
            self.tr(
                "Ask me before refusing a read or a connection: the call waits up to {seconds} s"
            ).format(seconds=ASK_SECONDS_DEFAULT),
            self,
        )
        self.ask_switch.setToolTip(
            self.tr(
                "While the host waits for a request, a read outside the server's grants waits "
                "for you instead of failing: allow a folder holding it (here, in the Log, or "
                "roots-manager grant) and that very call reads it, with no restart; so does a "
                "connection to a domain not among those it is limited to (Allow domain). From "
                "the server's next start."
            )
        )
        self.ask_switch.toggled.connect(self._ask_switched)
        self.stale_hint = QLabel(self)
        self.stale_hint.setWordWrap(True)
        self.stale_button = QPushButton(self.tr("Turn on restart on rev&oke"), self)
        self.stale_button.clicked.connect(lambda: self.restart_switch.setChecked(True))
        self.learning_hint = QLabel(self)
        self.learning_hint.setWordWrap(True)
        self.learning_button = QPushButton(self.tr("Un&do learning"), self)
        self.learning_button.setToolTip(
            self.tr("Put back the confinement setting it had before learning started")
        )
        self.learning_button.clicked.connect(self._put_back)

        self.extra = QListWidget(self)
        self.extra.setAccessibleName(self.tr("Extra paths the confined server may use"))
        self.add_read = QPushButton(self.tr("Extra read-onl&y path…"), self)
        self.add_read.clicked.connect(lambda: self._add_extra(write=False))
        self.add_write = QPushButton(self.tr("E&xtra writable path…"), self)
        self.add_write.clicked.connect(lambda: self._add_extra(write=True))
        self.remove_extra = QPushButton(self.tr("Re&move path"), self)
        self.remove_extra.clicked.connect(self._remove_extra)
        self.extra.currentItemChanged.connect(lambda *_: self._update_extra_buttons())

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.switch)
        row.addWidget(self.explanation, 1)
        stale = QHBoxLayout()
        stale.setContentsMargins(0, 0, 0, 0)
        stale.addWidget(self.stale_hint, 1)
        stale.addWidget(self.stale_button)
        left = QHBoxLayout()
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.learning_hint, 1)
        left.addWidget(self.learning_button)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for b in (self.add_read, self.add_write, self.remove_extra):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addLayout(left)
        self._settings = layout.count()
        layout.addWidget(self.restart_switch)
        layout.addWidget(self.ask_switch)
        layout.addLayout(stale)
        layout.addWidget(self.extra)
        layout.addLayout(buttons)
        layout.addWidget(self.machine_label)
        watcher.state_changed.connect(self._state_changed)
        watcher.live_looked_at.connect(self._look_at_learning)  # a method: let go with the box
        self._stale = False
        self.show_server(None)

    def add_setting(self, widget: QWidget) -> None:
        """Put *widget*, a setting of the confined server (its network), under the switch."""
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertWidget(self._settings, widget)
        self._settings += 1

    def show_server(self, name: str | None, *, stale_unrestartable: bool = False) -> None:
        """Show the setting of server *name* (None: no server selected).

        *stale_unrestartable*: it was told its roots changed, has not asked since, and its
        bridge cannot restart it: the box proposes restart on revoke.
        """
        self._server = name
        self._stale = stale_unrestartable
        self._state_changed(self.watcher.state)

    def _state_changed(self, state: State) -> None:
        name = self._server
        srv = state.servers.get(name) if name is not None else None
        on = srv is not None and starts_confined(state, srv, self.watcher.by_default)
        self.switch.blockSignals(True)
        self.switch.setChecked(on)
        self.switch.blockSignals(False)
        self.switch.setEnabled(name is not None and (self.machine.available or on))
        restarts = bool(srv and srv.restarts_on_revoke)
        self.restart_switch.blockSignals(True)
        self.restart_switch.setChecked(restarts)
        self.restart_switch.blockSignals(False)
        self.restart_switch.setEnabled(name is not None)
        self.ask_switch.blockSignals(True)
        asks = bool(srv and srv.asks)
        self.ask_switch.setChecked(asks)
        self.ask_switch.blockSignals(False)
        self.ask_switch.setEnabled(name is not None and (on or asks))
        proposal = self._stale and not restarts and name is not None
        self.stale_hint.setVisible(proposal)
        self.stale_button.setVisible(proposal)
        if proposal:
            self.stale_hint.setText(
                self.tr(
                    "{server} was told its folders changed and has not asked for them since: it "
                    "may still use a folder you revoked. Restart on revoke makes a revocation "
                    "restart it, from its next start."
                ).format(server=visible(name or ""))
            )
        self._show_learning_left(name)
        self._fill_extra(srv.allow_read if srv else [], srv.allow_write if srv else [])
        if name is None:
            self.explanation.setText(self.tr("Select a server to confine it or not."))
            self.switch.setToolTip("")
            return
        said = [confinement_text.means(on, network_state(srv) if srv is not None else "allowed")]
        said.append(
            confinement_text.next_start(restarts)
            if on
            else self.tr("turning it on takes effect when the server next starts")
        )
        if on and srv is not None and srv.asks:
            said.append(
                self.tr(
                    "as it asks, a folder granted read-only while it runs is read at once, "
                    "with no restart; one granted to write, or a revocation, restarts it"
                )
            )
        # the core's lines are lower-case clauses, meant to follow a label
        sentence = self.tr("{clause}.", "a clause made a sentence: its full stop")
        self.explanation.setText(
            " ".join(sentence.format(clause=t[:1].upper() + t[1:]) for t in said)
        )
        self.switch.setToolTip(
            self.tr(
                "Start {server} confined to the folders it was granted; a change takes effect "
                "when it next starts"
            ).format(server=visible(name))
            if self.machine.available
            else confinement_text.availability_text(self.machine)
        )

    def _look_at_learning(self) -> None:
        self._show_learning_left(self._server)

    def _show_learning_left(self, name: str | None) -> None:
        """Say so when a learning of *name* ended without finishing (its process was killed)
        and left it confined, and offer to put its setting back."""
        from roots_manager.core.runs import live

        mark = None if name is None else live.learning_marker(self.watcher.store.layout, name)
        # one that was confined before has nothing to put back
        left = mark is not None and not mark.alive and mark.before is not True
        self.learning_hint.setVisible(left)
        self.learning_button.setVisible(left)
        if mark is None or not left:
            return
        self.learning_hint.setText(
            (
                self.tr(
                    "Learning {server} ended without finishing and left it confined; it was "
                    "not confined before."
                )
                if mark.before is False
                else self.tr(
                    "Learning {server} ended without finishing and left it confined; before, "
                    "the default for new servers decided whether it was."
                )
            ).format(server=visible(mark.server))
        )

    def _put_back(self) -> None:
        name = self._server
        if name is None:
            return
        from roots_manager.actions.learning import put_back

        self.watcher.act(lambda store: put_back(store, name))
        self._state_changed(self.watcher.state)

    def _switched(self, on: bool) -> None:
        name = self._server
        if name is None:
            return
        if self.watcher.act(lambda store: confine(store, name, on)) is None:
            self._state_changed(self.watcher.state)  # refused: show what is stored
            return
        self.confinement_changed.emit(name, on)

    def _restart_switched(self, on: bool) -> None:
        name = self._server
        if name is None:
            return
        if self.watcher.act(lambda store: switch_restart_on_revoke(store, name, on)) is None:
            self._state_changed(self.watcher.state)

    def _ask_switched(self, on: bool) -> None:
        name = self._server
        if name is None:
            return
        seconds = None if on else 0  # on: the default
        if self.watcher.act(lambda store: set_ask(store, name, seconds)) is None:
            self._state_changed(self.watcher.state)

    def _fill_extra(self, read: list[str], write: list[str]) -> None:
        self.extra.clear()
        for path, label in [(p, self.tr("read: {path}")) for p in read] + [
            (p, self.tr("read and write: {path}")) for p in write
        ]:
            item = QListWidgetItem(label.format(path=visible(path)))
            item.setData(self._PathRole, path)
            self.extra.addItem(item)
        named = self._server is not None
        # as tall as its paths, up to five; none takes no room from the servers table
        rows = min(self.extra.count(), 5)
        self.extra.setFixedHeight(self.extra.sizeHintForRow(0) * rows + 2 * self.extra.frameWidth())
        self.extra.setVisible(rows > 0)
        self.extra.setEnabled(named)
        self.add_read.setEnabled(named)
        self.add_write.setEnabled(named)
        self._update_extra_buttons()

    def _update_extra_buttons(self) -> None:
        self.remove_extra.setEnabled(self.extra.currentItem() is not None)

    def _add_extra(self, *, write: bool) -> None:
        name = self._server
        if name is None:
            return
        title = (
            self.tr("A folder {server} may also write")
            if write
            else self.tr("A folder {server} may also read")
        )
        path = pick_folder(self, title.format(server=visible(name)))
        if path:
            self.add_extra_path(path, write=write)

    def add_extra_path(self, path: str, *, write: bool) -> None:
        """Let the selected server, when confined, also read (or write) *path*."""
        name = self._server
        if name is None:
            return
        paths = [path]
        self.watcher.act(
            lambda store: confine(
                store, name, allow_read=() if write else paths, allow_write=paths if write else ()
            )
        )

    def _remove_extra(self) -> None:
        name, item = self._server, self.extra.currentItem()
        if name is None or item is None:
            return
        path = str(item.data(self._PathRole))
        self.watcher.act(lambda store: confine(store, name, forget=[path]))

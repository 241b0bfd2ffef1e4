"""The Confine switch of the selected server, with what it means and whether it can work here."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from roots_manager.core.confined import set_confinement
from roots_manager.core.model import State
from roots_manager.core.names import visible
from roots_manager.gui import confinement_text
from roots_manager.gui.resources import lock_icon
from roots_manager.gui.watcher import StoreWatcher
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

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.switch)
        row.addWidget(self.explanation, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.machine_label)
        watcher.state_changed.connect(self._state_changed)
        self.show_server(None)

    def show_server(self, name: str | None) -> None:
        """Show the setting of server *name* (None: no server selected)."""
        self._server = name
        self._state_changed(self.watcher.state)

    def _state_changed(self, state: State) -> None:
        name = self._server
        srv = state.servers.get(name) if name is not None else None
        on = bool(srv and srv.confine)
        self.switch.blockSignals(True)
        self.switch.setChecked(on)
        self.switch.blockSignals(False)
        self.switch.setEnabled(name is not None and (self.machine.available or on))
        if name is None:
            self.explanation.setText(self.tr("Select a server to confine it or not."))
            self.switch.setToolTip("")
            return
        said = [confinement_text.means(on)]
        said.append(
            confinement_text.next_start()
            if on
            else self.tr("turning it on takes effect when the server next starts")
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

    def _switched(self, on: bool) -> None:
        name = self._server
        if name is None:
            return
        if self.watcher.edit(lambda s: set_confinement(s, name, on)) is None:
            self._state_changed(self.watcher.state)  # refused: show what is stored
            return
        self.confinement_changed.emit(name, on)

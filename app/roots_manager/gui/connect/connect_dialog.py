"""The Connect a server dialog: a command line and a name, or a server the store knows."""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Sequence

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.directory.layout import Layout
from roots_manager.core.servers.command import (
    DEMO_SERVER_NAME,
    default_name,
    demo_command,
    split_command,
)
from roots_manager.core.store.file import Store, StoreError
from roots_manager.core.store.state import State, server_name_error
from roots_manager.gui.common.errors import error_text


class ConnectDialog(QDialog):
    """Ask for a server to connect: a command line and a name, or a server the store knows."""

    def __init__(self, layout: Layout, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layout_ = layout
        self.setWindowTitle(self.tr("Connect a server"))
        self.setObjectName("ConnectDialog")
        self._name_edited = False
        self._known: dict[str, list[str]] = {}

        intro = QLabel(
            self.tr(
                "Start a server through the bridge, with Roots Manager as its host, to watch "
                "how it uses roots. The server sees the folders you grant it."
            )
        )
        intro.setWordWrap(True)

        self.known = QComboBox()
        self.known.setAccessibleName(self.tr("Known servers"))
        self.known.addItem(self.tr("(type a command line below)"), None)
        for name, command in self._known_servers().items():
            self._known[name] = command
            self.known.addItem(name, name)
        self.known.setEnabled(bool(self._known))
        self.known.currentIndexChanged.connect(self._on_known_picked)

        self.command_edit = QLineEdit()
        self.command_edit.setAccessibleName(self.tr("Command line"))
        self.command_edit.setPlaceholderText(
            self.tr("for example: npx -y @modelcontextprotocol/server-filesystem")
        )
        self.command_edit.textChanged.connect(self._on_command_changed)
        # wide enough for its example and a real command line, not a cut-off stub
        metrics = self.command_edit.fontMetrics()
        self.command_edit.setMinimumWidth(
            metrics.horizontalAdvance(self.command_edit.placeholderText())
            + 4 * metrics.averageCharWidth()
        )

        self.demo_button = QPushButton(self.tr("Use the &demo server"))
        self.demo_button.setAccessibleName(self.tr("Use the demo server"))
        self.demo_button.clicked.connect(self._use_demo)

        self.name_edit = QLineEdit()
        self.name_edit.setAccessibleName(self.tr("Server name"))
        self.name_edit.textEdited.connect(self._on_name_edited)
        self.name_edit.textChanged.connect(self._validate)

        self.error_label = QLabel()
        self.error_label.setObjectName("connectError")
        self.error_label.setWordWrap(True)
        self.error_label.setAccessibleName(self.tr("Problem with the input"))

        form = QFormLayout()
        known_label = QLabel(self.tr("&Known server:"))
        known_label.setBuddy(self.known)
        form.addRow(known_label, self.known)
        command_label = QLabel(self.tr("Command &line:"))
        command_label.setBuddy(self.command_edit)
        form.addRow(command_label, self.command_edit)
        form.addRow("", self.demo_button)
        name_label = QLabel(self.tr("Server &name:"))
        name_label.setBuddy(self.name_edit)
        form.addRow(name_label, self.name_edit)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(self.tr("C&onnect"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addLayout(form)
        box.addWidget(self.error_label)
        box.addWidget(self.buttons)
        self.command_edit.setFocus()
        self._validate()

    def _known_servers(self) -> dict[str, list[str]]:
        try:
            state: State = Store(self.layout_).read()
        except (StoreError, OSError):
            return {}  # the main window reports a broken store; here it only means no list
        return {n: list(s.command) for n, s in sorted(state.servers.items()) if s.command}

    # ---- values ---------------------------------------------------------------------------

    def server_name(self) -> str:
        """The server name entered, trimmed."""
        return self.name_edit.text().strip()

    def command(self) -> list[str]:
        """The command line entered, split into an argv (empty if it cannot be split)."""
        try:
            return split_command(self.command_edit.text())
        except ValueError:
            return []

    def set_command(self, command: Sequence[str], name: str | None = None) -> None:
        """Fill the dialog with *command* (and *name*, else a name guessed from it)."""
        self.command_edit.setText(
            shlex.join(command)
            if os.name != "nt"
            else " ".join(f'"{a}"' if " " in a else a for a in command)
        )
        if name is not None:
            self.name_edit.setText(name)
            self._name_edited = True

    # ---- reactions ------------------------------------------------------------------------

    @Slot(int)
    def _on_known_picked(self, index: int) -> None:
        name = self.known.itemData(index)
        if isinstance(name, str) and name in self._known:
            self.set_command(self._known[name], name)

    @Slot()
    def _use_demo(self) -> None:
        self.set_command(demo_command(), DEMO_SERVER_NAME)

    @Slot(str)
    def _on_name_edited(self, text: str) -> None:
        self._name_edited = bool(text)

    @Slot(str)
    def _on_command_changed(self, text: str) -> None:
        if not self._name_edited:
            self.name_edit.setText(default_name(self.command()))
        self._validate()

    def problem(self) -> str | None:
        """What is wrong with the input, for the user, or None when it can be connected."""
        text = self.command_edit.text()
        if not text.strip():
            return self.tr("Enter the command line that starts the server.")
        try:
            argv = split_command(text)
        except ValueError as exc:
            reason = str(exc)
            # shlex's own messages are English; the two it has get words of their own
            if "quotation" in reason:
                reason = self.tr("a quotation mark is not closed")
            elif "escaped" in reason:
                reason = self.tr("it ends with a lone backslash")
            return self.tr("The command line cannot be read: {0}.").format(reason)
        if not argv:
            return self.tr("Enter the command line that starts the server.")
        program = argv[0]
        if os.sep in program or (os.altsep and os.altsep in program):
            if not os.path.exists(program):
                return self.tr("The program {0} does not exist.").format(program)
            if os.path.isdir(program) or not os.access(program, os.X_OK):
                return self.tr("{0} is not a program that can be run.").format(program)
        elif shutil.which(program) is None:
            return self.tr("The program {0} is not found on the search path (PATH).").format(
                program
            )
        name = self.name_edit.text()
        if not name.strip():
            return self.tr("Enter a name for the server: grants are made to this name.")
        name_error = server_name_error(name)
        if name_error is not None:  # control or text-direction characters, as the bridge says
            return error_text(name_error)
        return None

    @Slot()
    def _validate(self) -> None:
        problem = self.problem()
        self.error_label.setText(problem or "")
        self.error_label.setVisible(problem is not None)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(problem is None)

    def accept(self) -> None:
        """Close the dialog only when the input can be connected."""
        if self.problem() is None:
            super().accept()

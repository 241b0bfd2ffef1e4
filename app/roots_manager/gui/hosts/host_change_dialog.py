"""The change Protect (or switching it off) would make to a host's file, shown before it is made.

The Hosts tab plans the change dry (:func:`roots_manager.core.hosts.operations.change` with
``dry_run``), shows its diff here, the way ``hosts wrap --dry-run`` prints it, and writes it only
once the user says so. The dialog is window-modal and opened, not executed: the app keeps
running (and relaying) while it is up.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFontDatabase, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.hosts.diff import line_kind
from roots_manager.core.hosts.operations import FileResult

ADDED = QColor(46, 160, 67)
REMOVED = QColor(218, 54, 51)


class ChangePreview(QDialog):
    """The diff of one host file, with the button that makes the change and Cancel."""

    def __init__(self, result: FileResult, server: str, on: bool, parent: QWidget) -> None:
        super().__init__(parent)
        host = result.file.host.label
        self.setWindowTitle(
            self.tr("Protect {server}?").format(server=server)
            if on
            else self.tr("Stop protecting {server}?").format(server=server)
        )
        if on:
            text = self.tr(
                "{server} will start behind the bridge: it sees only the folders you grant it. "
                "{host}'s file changes as shown below; a backup is kept, and Undo last change "
                "takes it back."
            )
        else:
            text = self.tr(
                "{server} will start without the bridge again, and see what its command line "
                "gives it. {host}'s file changes as shown below; a backup is kept."
            )
        sentence = QLabel(text.format(server=server, host=host), self)
        sentence.setWordWrap(True)
        self.diff = DiffView(self)
        self.diff.setAccessibleName(self.tr("The change to {file}").format(file=result.file.path))
        self.diff.show_diff(result.diff)
        buttons = QDialogButtonBox(self)
        self.apply_button: QPushButton = buttons.addButton(
            self.tr("&Protect") if on else self.tr("&Stop protecting"),
            QDialogButtonBox.ButtonRole.AcceptRole,
        )
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(sentence)
        layout.addWidget(self.diff, 1)
        layout.addWidget(buttons)
        self.setWindowModality(self.windowModality().WindowModal)
        self.resize(720, 420)


class DiffView(QPlainTextEdit):
    """A unified diff, read-only, in the fixed font: added lines green, removed ones red, hunk
    headers dimmed, as a terminal shows them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))

    def show_diff(self, diff: str) -> None:
        self.setPlainText(diff)
        dim = self.palette().color(QPalette.ColorRole.PlaceholderText)
        colours = {"added": ADDED, "removed": REMOVED, "hunk": dim, "header": dim}
        selections = []
        doc = self.document()
        for number, line in enumerate(diff.splitlines()):
            colour = colours.get(line_kind(line))
            if colour is None:
                continue
            selection = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setForeground(colour)
            selection.format = fmt
            cursor = QTextCursor(doc.findBlockByNumber(number))
            cursor.select(QTextCursor.SelectionType.LineUnderCursor)
            selection.cursor = cursor
            selections.append(selection)
        self.setExtraSelections(selections)

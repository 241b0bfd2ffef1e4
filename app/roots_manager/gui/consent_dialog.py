"""The consent prompt: a dialog asking whether a new or changed server may see roots."""

from __future__ import annotations

import shlex

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFontDatabase, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.interaction import ConsentAnswer, ConsentQuestion, Reply
from roots_manager.core.names import visible
from roots_manager.gui.roots_model import unavailable_text
from roots_manager.gui.servers_model import local_time

RootIdRole = Qt.ItemDataRole.UserRole + 1


class ConsentDialog(QDialog):
    """Asks one :class:`ConsentQuestion`; nothing is pre-checked."""

    answered = Signal(object)
    """The user decided; the argument is a :class:`ConsentAnswer`, or None for "not now"."""

    def __init__(self, question: ConsentQuestion, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.question = question
        self._sent = False
        self.setWindowTitle(self.tr("A server asks for your folders"))
        self.setAccessibleName(
            self.tr("Consent request from {server}").format(server=visible(question.server))
        )

        title = QLabel(
            self.tr("<h3>May <i>{server}</i> see your folders?</h3>").format(
                server=_html(visible(question.server))
            ),
            self,
        )
        title.setTextFormat(Qt.TextFormat.RichText)
        if question.reason == "new-server":
            why = self.tr(
                "This server has not run behind Roots Manager before. Until you decide, it is "
                "told about no folder."
            )
        else:
            why = self.tr(
                "This server's command line changed since you approved it. Its grants are "
                "suspended until you decide; a changed command may be a different program."
            )
        reason = QLabel(why, self)
        reason.setWordWrap(True)
        when = QLabel(
            self.tr("Asked at {when}.").format(when=local_time(question.requested_at)), self
        )

        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.command = QPlainTextEdit(shlex.join(question.command), self)
        self.command.setReadOnly(True)
        self.command.setFont(mono)
        self.command.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self.command.setAccessibleName(self.tr("Full command line"))
        command_label = QLabel(self.tr("Full co&mmand line:"), self)
        command_label.setBuddy(self.command)

        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(reason)
        layout.addWidget(when)
        layout.addWidget(command_label)
        layout.addWidget(self.command)
        if question.previous_command is not None:
            self.previous = QPlainTextEdit(shlex.join(question.previous_command), self)
            self.previous.setReadOnly(True)
            self.previous.setFont(mono)
            self.previous.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 12)
            self.previous.setAccessibleName(self.tr("Previously approved command line"))
            previous_label = QLabel(self.tr("Previously &approved command line:"), self)
            previous_label.setBuddy(self.previous)
            layout.addWidget(previous_label)
            layout.addWidget(self.previous)

        self.model = QStandardItemModel(self)
        for r in question.roots:
            item = QStandardItem(f"{r.name} — {r.path}")
            item.setData(r.id, RootIdRole)
            item.setEditable(False)
            item.setCheckable(True)
            item.setCheckState(Qt.CheckState.Unchecked)
            if r.unavailable is not None:
                # a missing folder is never sent to a server, so it cannot be ticked either
                item.setEnabled(False)
                item.setText(
                    self.tr("{name} — {path} ({reason})").format(
                        name=r.name, path=r.path, reason=unavailable_text(r.unavailable)
                    )
                )
            self.model.appendRow(item)
        self.roots = QListView(self)
        self.roots.setModel(self.model)
        self.roots.setAccessibleName(self.tr("Roots the server may see"))
        roots_label = QLabel(
            self.tr("&Roots it may see (tick the ones you allow):")
            if question.roots
            else self.tr("You have no roots yet: allowing approves the server with no folder."),
            self,
        )
        roots_label.setWordWrap(True)
        roots_label.setBuddy(self.roots)
        layout.addWidget(roots_label)
        layout.addWidget(self.roots, 1)

        notice = QLabel(
            self.tr(
                "Roots tell a server where to look; they are not an access control. A server "
                "can still open any file its process may."
            ),
            self,
        )
        notice.setWordWrap(True)
        layout.addWidget(notice)
        if question.waiting:
            layout.addWidget(
                QLabel(
                    self.tr("{count} more request(s) wait after this one.").format(
                        count=question.waiting
                    ),
                    self,
                )
            )

        self.buttons = QDialogButtonBox(self)
        self.session_button = QPushButton(self.tr("Allow for this &session"), self)
        self.always_button = QPushButton(self.tr("Al&ways allow"), self)
        self.deny_button = QPushButton(self.tr("&Deny"), self)
        self.later_button = QPushButton(self.tr("&Later"), self)
        self.later_button.setToolTip(
            self.tr("Decide later: the request stays pending and the server waits or sees nothing")
        )
        self.buttons.addButton(self.session_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.always_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.deny_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.buttons.addButton(self.later_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.session_button.clicked.connect(lambda: self._send("session"))
        self.always_button.clicked.connect(lambda: self._send("always"))
        self.deny_button.clicked.connect(lambda: self._send("deny"))
        self.later_button.clicked.connect(self.reject)
        layout.addWidget(self.buttons)
        # no default button: Enter must not allow anything by accident
        for b in (self.session_button, self.always_button, self.deny_button, self.later_button):
            b.setAutoDefault(False)
            b.setDefault(False)
        self.model.itemChanged.connect(self._update_buttons)
        self._update_buttons()
        self.roots.setFocus()
        self.resize(560, 480)

    def checked_root_ids(self) -> list[str]:
        """The ids of the roots ticked."""
        out = []
        for row in range(self.model.rowCount()):
            item = self.model.item(row)
            if item is not None and item.checkState() == Qt.CheckState.Checked:
                out.append(str(item.data(RootIdRole)))
        return out

    def set_checked(self, root_ids: list[str]) -> None:
        """Tick exactly the roots *root_ids*."""
        for row in range(self.model.rowCount()):
            item = self.model.item(row)
            if item is not None:
                on = item.data(RootIdRole) in root_ids
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def _update_buttons(self, *_: object) -> None:
        some = bool(self.checked_root_ids()) or not self.question.roots
        self.session_button.setEnabled(some)
        self.always_button.setEnabled(some)

    def _send(self, decision: str) -> None:
        ids = () if decision == "deny" else tuple(self.checked_root_ids())
        self._emit(ConsentAnswer(decision, ids))  # type: ignore[arg-type]
        self.accept()

    def _emit(self, answer: ConsentAnswer | None) -> None:
        if not self._sent:
            self._sent = True
            self.answered.emit(answer)

    def reject(self) -> None:
        self._emit(None)
        super().reject()

    def withdraw(self) -> None:
        """Close without an answer: the request was settled elsewhere."""
        self._sent = True
        super().reject()


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class DialogPrompt(QObject):
    """The GUI's :class:`roots_manager.core.interaction.ConsentPrompt`.

    With the main window shown, a question opens its dialog at once; with the window hidden it
    waits, and ``attention_needed`` lets the tray tell the user, whose click opens it.
    """

    attention_needed = Signal(object)
    """A question waits while the window is hidden; the argument is the question."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self.dialog: ConsentDialog | None = None
        self._waiting: tuple[ConsentQuestion, Reply] | None = None

    def ask(self, question: ConsentQuestion, reply: Reply) -> None:
        """Open the dialog for *question*, or wait for the window if it is hidden."""
        self._waiting = (question, reply)
        if self.window.isVisible():
            self.show_waiting()
        else:
            self.attention_needed.emit(question)

    def show_waiting(self) -> None:
        """Open the dialog of the question waiting, if any."""
        if self._waiting is None:
            if self.dialog is not None:
                self.dialog.raise_()
                self.dialog.activateWindow()
            return
        question, reply = self._waiting
        self._waiting = None
        dialog = ConsentDialog(question, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog = dialog

        def answered(answer: ConsentAnswer | None) -> None:
            if self.dialog is dialog:
                self.dialog = None
            reply(answer)

        dialog.answered.connect(answered)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()

    def withdraw(self, request_id: str) -> None:
        """Close the dialog or forget the waiting question about *request_id*."""
        if self._waiting is not None and self._waiting[0].request_id == request_id:
            self._waiting = None
        if self.dialog is not None and self.dialog.question.request_id == request_id:
            dialog, self.dialog = self.dialog, None
            dialog.withdraw()

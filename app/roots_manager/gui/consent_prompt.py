"""The GUI's consent prompt: when a question opens its dialog, and what becomes of the answer."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QWidget

from roots_manager.core.consent.questions import ConsentAnswer, ConsentQuestion, Reply
from roots_manager.core.paths import Layout
from roots_manager.gui.consent_dialog import AddRoots, ConsentDialog


class DialogPrompt(QObject):
    """The GUI's :class:`roots_manager.core.consent.questions.ConsentPrompt`.

    With the main window shown, a question opens its dialog at once; with the window hidden it
    waits, and ``attention_needed`` lets the tray tell the user, whose click opens it.
    """

    attention_needed = Signal(object)
    """A question waits while the window is hidden; the argument is the question."""

    def __init__(
        self,
        window: QWidget,
        *,
        layout: Layout | None = None,
        add_roots: AddRoots | None = None,
    ) -> None:
        super().__init__(window)
        self.window = window
        self.layout = layout
        self.add_roots = add_roots
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
        dialog = ConsentDialog(question, self.window, layout=self.layout, add_roots=self.add_roots)
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

"""The GUI's consent prompt: when a question opens its dialog, and what becomes of the answer."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtWidgets import QWidget

from roots_manager.actions.questions import ConsentAnswer, ConsentQuestion, Reply
from roots_manager.core.directory.layout import Layout
from roots_manager.gui.consent.consent_dialog import AddRoots, ConsentDialog

GAP = 8
"""Pixels between the welcome and a consent dialog moved below it."""


class DialogPrompt(QObject):
    """The GUI's :class:`roots_manager.actions.questions.ConsentPrompt`.

    With the main window shown, a question opens its dialog at once; with the window hidden it
    waits, and ``attention_needed`` lets the tray tell the user, whose click opens it. The
    dialog opens below *clear_of* (the first run's welcome) while that is shown: a new user's
    first request, the demo's at once, would cover the sentences that say what it is about.
    """

    attention_needed = Signal(object)
    """A question waits while the window is hidden; the argument is the question."""

    def __init__(
        self,
        window: QWidget,
        *,
        layout: Layout | None = None,
        add_roots: AddRoots | None = None,
        clear_of: QWidget | None = None,
        confined: Callable[[str], bool | None] | None = None,
        network: Callable[[str], str] | None = None,
    ) -> None:
        """*confined* tells whether a server runs confined (the dialog's footer says what
        roots are worth for it), *network* what its network is then (``allowed``,
        ``domains``, ``blocked``)."""
        super().__init__(window)
        self.confined = confined
        self.network = network
        self.window = window
        self.clear_of = clear_of
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
        dialog = ConsentDialog(
            question,
            self.window,
            layout=self.layout,
            add_roots=self.add_roots,
            confined=None if self.confined is None else self.confined(question.server),
            network="allowed" if self.network is None else self.network(question.server),
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog = dialog

        def answered(answer: ConsentAnswer | None) -> None:
            if self.dialog is dialog:
                self.dialog = None
            reply(answer)

        dialog.answered.connect(answered)
        self.place(dialog)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()

    def place(self, dialog: QWidget) -> None:
        """Before it is shown: put *dialog* centred across the window and below
        :attr:`clear_of` while that is shown, as far as the screen allows.

        Placed before it is shown, the position is the program's, which window managers keep
        (they place a new window themselves once it is mapped, over the window's middle)."""
        banner = self.clear_of
        if banner is None or not banner.isVisible():
            return
        dialog.adjustSize()
        window = self.window.frameGeometry()
        # the title bar the window manager will add, as the main window has one
        title = self.window.geometry().top() - window.top()
        below = banner.mapToGlobal(QPoint(0, banner.height())).y() + GAP
        height = dialog.height() + title
        screen = self.window.screen()
        lowest = below + height if screen is None else screen.availableGeometry().bottom() + 1
        top = max(window.top(), min(below, lowest - height))
        left = window.left() + (window.width() - dialog.width()) // 2
        dialog.move(left, top)

    def withdraw(self, request_id: str) -> None:
        """Close the dialog or forget the waiting question about *request_id*."""
        if self._waiting is not None and self._waiting[0].request_id == request_id:
            self._waiting = None
        if self.dialog is not None and self.dialog.question.request_id == request_id:
            dialog, self.dialog = self.dialog, None
            dialog.withdraw()

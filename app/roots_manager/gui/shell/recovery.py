"""The dialog shown when the store cannot be read: explain, and offer to recover."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.store.file import Store, StoreError


class RecoveryDialog(QDialog):
    """Says why the store cannot be used and offers :meth:`Store.recover`.

    Accepted once the store can be read again; rejected when the user quits instead.
    """

    recovered = Signal(str)
    """The store was recovered; the argument says how and where the bad file went."""

    def __init__(self, store: Store, error: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.setWindowTitle(self.tr("Roots Manager cannot read its store"))
        intro = QLabel(
            self.tr(
                "<b>Your settings file cannot be read.</b> Nothing has been changed or lost: "
                "the file stays as it is until you choose."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.details = QPlainTextEdit(error, self)
        self.details.setReadOnly(True)
        self.details.setAccessibleName(self.tr("What is wrong"))
        self.explain = QLabel(
            self.tr(
                "Restoring puts back the last good copy (saved before the last change) and "
                "keeps the file that cannot be read next to it, so nothing is deleted."
            ),
            self,
        )
        self.explain.setWordWrap(True)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)

        self.buttons = QDialogButtonBox(self)
        self.restore_button = QPushButton(self.tr("&Restore the last good copy"), self)
        self.empty_button = QPushButton(self.tr("Start &empty"), self)
        self.empty_button.setToolTip(
            self.tr(
                "Keep the file that cannot be read aside and start with no roots and no servers"
            )
        )
        self.empty_button.setVisible(False)
        self.quit_button = QPushButton(self.tr("&Quit"), self)
        self.buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.empty_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.buttons.addButton(self.quit_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.restore_button.clicked.connect(lambda: self._recover(empty=False))
        self.empty_button.clicked.connect(lambda: self._recover(empty=True))
        self.quit_button.clicked.connect(self.reject)
        self.restore_button.setDefault(True)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.details, 1)
        layout.addWidget(self.explain)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.resize(600, 340)

    def _recover(self, *, empty: bool) -> None:
        try:
            _, message = self.store.recover(empty=empty)
            self.store.read()
        except StoreError as exc:
            # no good copy: say so and offer to start empty instead
            self.status.setText(
                self.tr(
                    "There is no good copy to restore. You can keep the file that cannot be read "
                    "aside and start empty."
                )
            )
            self.details.setPlainText(str(exc))
            self.empty_button.setVisible(True)
            self.empty_button.setFocus()
            self.restore_button.setEnabled(False)
            return
        self.recovered.emit(message)
        self.accept()

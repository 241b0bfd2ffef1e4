"""A line of text with a button, shown in the main window when something needs the user."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget


class Banner(QFrame):
    """A line of text with a button, shown above the tabs when something needs the user."""

    def __init__(self, button_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.button = QPushButton(button_text, self)
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(8, 4, 8, 4)
        self.row.addWidget(self.label, 1)
        self.row.addWidget(self.button)
        self.setVisible(False)

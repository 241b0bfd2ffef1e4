"""The first-run welcome: what the app does and how a host reaches it, until dismissed."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

WELCOME_DISMISSED_KEY = "welcomeDismissed"


class WelcomeBanner(QFrame):
    """Three lines for a new user, shown above the tabs until "Got it" is clicked once."""

    dismissed = Signal()

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setObjectName("welcome")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(self.tr("Welcome"))
        self.label = QLabel(
            self.tr(
                "<b>Welcome.</b> Roots Manager keeps one list of the folders you work in (your "
                "roots) and decides, for each MCP server, which of them it may see.<br>"
                "A host reaches it through roots-bridge, put in front of a server in the host's "
                "configuration (Help ▸ Use with your host), or try Servers ▸ Connect a server… "
                "with the demo server.<br>"
                "Every roots request and change notice then shows live in the Log."
            ),
            self,
        )
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setWordWrap(True)
        self.button = QPushButton(self.tr("Got it"), self)
        self.button.setToolTip(self.tr("Hide this welcome for good"))
        self.button.clicked.connect(self.dismiss)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 8, 6)
        row.addWidget(self.label, 1)
        row.addWidget(self.button, 0, Qt.AlignmentFlag.AlignTop)
        self.setVisible(not self.was_dismissed(settings))

    @staticmethod
    def was_dismissed(settings: QSettings) -> bool:
        """Whether the user has dismissed the welcome already."""
        return bool(settings.value(WELCOME_DISMISSED_KEY, False, type=bool))

    def dismiss(self) -> None:
        """Hide the welcome, for this window and every later start."""
        self.settings.setValue(WELCOME_DISMISSED_KEY, True)
        self.setVisible(False)
        self.dismissed.emit()

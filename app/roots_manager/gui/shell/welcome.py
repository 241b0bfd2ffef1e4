"""The first-run welcome: what the app does and how a host reaches it, until dismissed."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from roots_manager.core.hosts.found import FoundHost

WELCOME_DISMISSED_KEY = "welcomeDismissed"


class WelcomeBanner(QFrame):
    """Three lines for a new user, shown above the tabs until "Got it" is clicked once."""

    dismissed = Signal()
    protect_requested = Signal()
    """The user wants to protect the servers found (:meth:`show_found`)."""

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
        self.found = QLabel(self)
        self.found.setWordWrap(True)
        self.found.setVisible(False)
        self.protect_button = QPushButton(self.tr("&Protect them…"), self)
        self.protect_button.setVisible(False)
        self.protect_button.clicked.connect(self.protect_requested)
        text = QVBoxLayout()
        text.addWidget(self.label)
        text.addWidget(self.found)
        buttons = QVBoxLayout()
        buttons.addWidget(self.protect_button)
        buttons.addWidget(self.button)
        buttons.addStretch(1)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 8, 6)
        row.addLayout(text, 1)
        row.addLayout(buttons)
        self.setVisible(not self.was_dismissed(settings))

    @staticmethod
    def was_dismissed(settings: QSettings) -> bool:
        """Whether the user has dismissed the welcome already."""
        return bool(settings.value(WELCOME_DISMISSED_KEY, False, type=bool))

    def show_found(self, found: list[FoundHost]) -> None:
        """Say which hosts were found with servers to protect, and offer to protect them."""
        parts = [
            self.tr("{host} (%n server(s))", "", len(f.servers)).format(host=f.host.label)
            for f in found
        ]
        self.found.setText(
            self.tr(
                "<b>Found {hosts}.</b> Protect their servers, so each sees only the folders "
                "you grant it?"
            ).format(hosts=", ".join(parts))
        )
        self.found.setVisible(bool(found))
        self.protect_button.setVisible(bool(found))
        if found:
            self.protect_button.setDefault(True)

    def dismiss(self) -> None:
        """Hide the welcome, for this window and every later start."""
        self.settings.setValue(WELCOME_DISMISSED_KEY, True)
        self.setVisible(False)
        self.dismissed.emit()

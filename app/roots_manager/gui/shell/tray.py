"""The tray icon: the number of pending consent requests, and a way back to the window."""

from __future__ import annotations

from PySide6.QtCore import QObject, QRect, Qt, Signal
from PySide6.QtGui import QAction, QFont, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QMenu, QSystemTrayIcon

from roots_manager.core.servers.names import visible


def badge_icon(base: QIcon, count: int) -> QIcon:
    """*base* with *count* drawn in a badge (in the palette's highlight colours), if non-zero."""
    if count <= 0:
        return base
    icon = QIcon()
    palette = QApplication.palette()
    for size in (16, 22, 24, 32, 48, 64):
        pix = base.pixmap(size, size)
        if pix.isNull():
            pix = QPixmap(size, size)
            pix.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pix)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        side = max(8, int(size * 0.62))
        rect = QRect(size - side, size - side, side, side)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(palette.color(QPalette.ColorRole.Highlight))
        painter.drawEllipse(rect)
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(max(6, int(side * 0.7)))
        painter.setFont(font)
        painter.setPen(palette.color(QPalette.ColorRole.HighlightedText))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(count) if count < 10 else "9+")
        painter.end()
        icon.addPixmap(pix)
    return icon


class Tray(QObject):
    """The app's tray icon and its menu: Show, Review pending requests, Quit."""

    show_requested = Signal()
    review_requested = Signal()
    quit_requested = Signal()

    def __init__(self, icon: QIcon, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.base_icon = icon
        self.pending = 0
        self.icon = QSystemTrayIcon(icon, self)
        self.menu = QMenu()
        self.show_action = QAction(self.tr("&Show Roots Manager"), self)
        self.show_action.triggered.connect(self.show_requested)
        self.review_action = QAction(self.tr("&Review pending requests"), self)
        self.review_action.triggered.connect(self.review_requested)
        self.quit_action = QAction(self.tr("&Quit"), self)
        self.quit_action.triggered.connect(self.quit_requested)
        self.menu.addAction(self.show_action)
        self.menu.addAction(self.review_action)
        self.menu.addSeparator()
        self.menu.addAction(self.quit_action)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._activated)
        self.icon.messageClicked.connect(self._message_clicked)
        self._message_is_request = False
        self.set_pending(0)

    @staticmethod
    def available() -> bool:
        """Whether the desktop shows tray icons at all."""
        return QSystemTrayIcon.isSystemTrayAvailable()

    def show(self) -> None:
        self.icon.show()

    def hide(self) -> None:
        self.icon.hide()

    def set_pending(self, count: int) -> None:
        """Show *count* pending requests on the icon, its tooltip and its menu."""
        self.pending = count
        self.icon.setIcon(badge_icon(self.base_icon, count))
        if count:
            tip = self.tr("Roots Manager: %n consent request(s) waiting", "", count)
        else:
            tip = self.tr("Roots Manager")
        self.icon.setToolTip(tip)
        self.review_action.setText(
            self.tr("&Review pending requests ({count})").format(count=count)
        )
        self.review_action.setEnabled(count > 0)

    def notify_request(self, server: str) -> None:
        """Tell the user that *server* waits for a decision; clicking leads to the dialog."""
        self._message_is_request = True
        self.icon.showMessage(
            self.tr("A server asks for your folders"),
            self.tr("{server} waits for your decision. Click to review.").format(
                server=visible(server)
            ),
            QSystemTrayIcon.MessageIcon.Information,
            15000,
        )

    def notify(self, title: str, text: str) -> None:
        """Show a plain message from the tray."""
        self._message_is_request = False
        self.icon.showMessage(title, text, QSystemTrayIcon.MessageIcon.Information, 8000)

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (
            QSystemTrayIcon.ActivationReason.Trigger,
            QSystemTrayIcon.ActivationReason.DoubleClick,
        ):
            if self.pending:
                self.review_requested.emit()
            else:
                self.show_requested.emit()

    def _message_clicked(self) -> None:
        if self._message_is_request:
            self.review_requested.emit()
        else:
            self.show_requested.emit()

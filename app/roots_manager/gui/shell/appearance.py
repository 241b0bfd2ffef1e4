"""Light or dark, as the system is: a dark palette when the desktop asks for one.

Qt's platform themes hand over a dark palette on some desktops and not on others (the X11 and
offscreen platforms know nothing of the portal's colour scheme on many setups, and Fusion is
light by default). When the system says dark and the palette is still light, a dark Fusion
palette is set; when it turns light again, the style's own palette comes back.

Fusion outlines check boxes and radio marks with a shade of the *window* colour, which in a dark
palette is as dark as the *base* of a list: an unticked box in a list (the consent prompt's roots)
disappears. With the dark palette, Fusion is wrapped so that those marks are outlined with a
light shade instead.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleOption,
    QStyleOptionButton,
    QStyleOptionViewItem,
    QWidget,
)

_ROLES_DARK: dict[QPalette.ColorRole, QColor] = {
    QPalette.ColorRole.Window: QColor(45, 45, 48),
    QPalette.ColorRole.WindowText: QColor(225, 225, 225),
    QPalette.ColorRole.Base: QColor(30, 30, 32),
    QPalette.ColorRole.AlternateBase: QColor(40, 40, 44),
    QPalette.ColorRole.ToolTipBase: QColor(55, 55, 60),
    QPalette.ColorRole.ToolTipText: QColor(230, 230, 230),
    QPalette.ColorRole.PlaceholderText: QColor(140, 140, 145),
    QPalette.ColorRole.Text: QColor(225, 225, 225),
    QPalette.ColorRole.Button: QColor(55, 55, 60),
    QPalette.ColorRole.ButtonText: QColor(225, 225, 225),
    QPalette.ColorRole.BrightText: QColor(255, 90, 90),
    QPalette.ColorRole.Light: QColor(75, 75, 80),
    QPalette.ColorRole.Midlight: QColor(62, 62, 66),
    QPalette.ColorRole.Mid: QColor(40, 40, 44),
    QPalette.ColorRole.Dark: QColor(25, 25, 28),
    QPalette.ColorRole.Shadow: QColor(10, 10, 10),
    QPalette.ColorRole.Highlight: QColor(42, 110, 200),
    QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
    QPalette.ColorRole.Link: QColor(110, 170, 255),
    QPalette.ColorRole.LinkVisited: QColor(170, 140, 255),
}


def dark_palette() -> QPalette:
    """A dark palette for the Fusion style, disabled texts dimmed."""
    palette = QPalette()
    for role, color in _ROLES_DARK.items():
        palette.setColor(role, color)
    # disabled, yet readable: 3.8:1 on a button (120 gave 2.7:1, which read as missing)
    dim = QColor(145, 145, 150)
    for role in (
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
    ):
        palette.setColor(QPalette.ColorGroup.Disabled, role, dim)
    return palette


def is_dark(palette: QPalette) -> bool:
    """Whether *palette* draws light text on dark windows."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


OUTLINED_MARKS = (
    QStyle.PrimitiveElement.PE_IndicatorCheckBox,
    QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck,
    QStyle.PrimitiveElement.PE_IndicatorRadioButton,
)
MARK_OUTLINE_SOURCE = QColor(195, 195, 200)
"""In a dark palette, the window colour Fusion derives a mark's outline from (darker by 40%,
then lighter by 10%): an outline of about 153, 4.8:1 on the window and 5.7:1 on a list's base
(150 gave 3:1 on the window, which users found hard to see)."""


class DarkMarksStyle(QProxyStyle):
    """Fusion, with check boxes and radio marks that stay visible on a dark base."""

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        if element in OUTLINED_MARKS and is_dark(option.palette):
            copy = (
                QStyleOptionViewItem(option)
                if isinstance(option, QStyleOptionViewItem)
                else QStyleOptionButton(option)
                if isinstance(option, QStyleOptionButton)
                else QStyleOption(option)
            )
            palette = QPalette(option.palette)
            palette.setColor(QPalette.ColorRole.Window, MARK_OUTLINE_SOURCE)
            copy.palette = palette
            option = copy
        super().drawPrimitive(element, option, painter, widget)


def _outline_marks(app: QApplication) -> None:
    """Wrap the app's style in :class:`DarkMarksStyle` if it is Fusion, once."""
    style = app.style()
    if style is None or isinstance(style, DarkMarksStyle) or style.name().casefold() != "fusion":
        return
    app.setStyle(DarkMarksStyle("Fusion"))


def apply_color_scheme(app: QApplication, scheme: Qt.ColorScheme | None = None) -> bool:
    """Follow *scheme* (default: the system's); returns whether the palette is dark now."""
    hints = QGuiApplication.styleHints()
    wanted = scheme if scheme is not None else hints.colorScheme()
    current = app.palette()
    if wanted == Qt.ColorScheme.Dark and not is_dark(current):
        _outline_marks(app)
        app.setPalette(dark_palette())
    elif wanted == Qt.ColorScheme.Light and is_dark(current):
        style = app.style()
        app.setPalette(style.standardPalette() if style is not None else QPalette())
    return is_dark(app.palette())


def follow_system_color_scheme(app: QApplication) -> None:
    """Apply the system's colour scheme now and whenever it changes."""
    apply_color_scheme(app)
    QGuiApplication.styleHints().colorSchemeChanged.connect(
        lambda scheme: apply_color_scheme(app, scheme)
    )

"""Dark when the system is dark: the palette follows the colour scheme, both ways."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from roots_manager.gui.appearance import apply_color_scheme, is_dark


def test_the_palette_follows_the_color_scheme_both_ways(qapp: QApplication) -> None:
    before = qapp.palette()
    try:
        assert not is_dark(before)  # Fusion under the offscreen platform is light
        assert apply_color_scheme(qapp, Qt.ColorScheme.Dark)
        dark = qapp.palette()
        assert is_dark(dark)
        text = dark.color(QPalette.ColorRole.Text)
        assert text.lightness() > dark.color(QPalette.ColorRole.Base).lightness() + 100
        # placeholders stay readable on the dark base, and differ from ordinary text
        placeholder = dark.color(QPalette.ColorRole.PlaceholderText)
        assert dark.color(QPalette.ColorRole.Base).lightness() + 60 < placeholder.lightness()
        assert placeholder != text
        assert apply_color_scheme(qapp, Qt.ColorScheme.Dark)  # again: nothing changes
        assert not apply_color_scheme(qapp, Qt.ColorScheme.Light)
        assert not is_dark(qapp.palette())
    finally:
        qapp.setPalette(before)

"""Dark when the system is dark: the palette follows the colour scheme, both ways."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QListView, QStyle, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

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


def _unticked_box_contrast(qtbot: QtBot) -> int:
    """How far from the list's base the outline of an unticked box in a list is, in lightness."""
    model = QStandardItemModel()
    item = QStandardItem("web-shop — /srv/web-shop")
    item.setCheckable(True)
    item.setCheckState(Qt.CheckState.Unchecked)
    model.appendRow(item)
    view = QListView()
    view.setModel(model)
    qtbot.addWidget(view)
    view.resize(300, 80)
    view.show()
    qtbot.waitExposed(view)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualRect(model.index(0, 0))
    option.features |= QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
    style = view.style()
    box = style.subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, option, view)
    image = view.viewport().grab().toImage()
    base = view.palette().color(QPalette.ColorRole.Base).lightness()
    return max(
        abs(image.pixelColor(x, y).lightness() - base)
        for x in range(box.left(), box.right() + 1)
        for y in range(box.top(), box.bottom() + 1)
    )


def test_an_unticked_box_in_a_list_stays_visible_in_the_dark(
    qapp: QApplication, qtbot: QtBot
) -> None:
    before = qapp.palette()
    style = qapp.style().name()
    try:
        assert _unticked_box_contrast(qtbot) > 40  # light: a dark outline on white
        assert apply_color_scheme(qapp, Qt.ColorScheme.Dark)
        assert _unticked_box_contrast(qtbot) > 40
    finally:
        qapp.setPalette(before)
        qapp.setStyle(style)

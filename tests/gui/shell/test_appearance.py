"""Dark when the system is dark: the palette follows the colour scheme, both ways."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QListView,
    QPushButton,
    QStyle,
    QStyleOptionButton,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from roots_manager.gui.shell.appearance import apply_color_scheme, is_dark


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


def _luminance(c: QColor) -> float:
    def channel(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_in_the_dark_an_unticked_box_and_a_disabled_button_stand_out(
    qapp: QApplication, qtbot: QtBot
) -> None:
    before = qapp.palette()
    style = qapp.style().name()
    try:
        assert apply_color_scheme(qapp, Qt.ColorScheme.Dark)
        page = QWidget()
        lay = QVBoxLayout(page)
        box = QCheckBox("Follow newest")
        disabled = QPushButton("Rename")
        disabled.setEnabled(False)
        lay.addWidget(box)
        lay.addWidget(disabled)
        qtbot.addWidget(page)
        page.show()
        qtbot.waitExposed(page)
        image = page.grab().toImage()
        window = page.palette().color(QPalette.ColorRole.Window)
        option = QStyleOptionButton()
        option.initFrom(box)
        mark = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
        mark.translate(box.pos())
        outline = max(
            contrast(image.pixelColor(x, y), window)
            for x in range(mark.left(), mark.right() + 1)
            for y in range(mark.top(), mark.bottom() + 1)
        )
        # WCAG asks 3:1 of a control's outline; 3:1 was measured and found hard to see
        assert outline >= 4.5, outline
        palette = disabled.palette()
        dimmed = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText)
        button = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Button)
        enabled = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.ButtonText)
        assert contrast(dimmed, button) >= 3.0, contrast(dimmed, button)
        assert contrast(enabled, button) > contrast(dimmed, button) + 3  # still looks disabled
    finally:
        qapp.setPalette(before)
        qapp.setStyle(style)

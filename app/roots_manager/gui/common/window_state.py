"""The main window's view state kept across runs: the current tab and every splitter's panes.

A splitter's panes are kept per language: the same words take another width in Japanese than in
English, so a split made to fit one language is not forced on another.

Geometry and column widths have their own keys (:mod:`~roots_manager.gui.shell.main_window`); what is
here is read back with suspicion, because the settings file outlives the layout that wrote it:
a tab index that no longer exists is ignored, and a splitter's sizes are applied only if they
have one size per pane (a splitter that gained or lost a pane keeps its default split).
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QSplitter, QTabWidget, QWidget

TAB_KEY = "currentTab"
SPLITTER_GROUP = "splitters"


def splitters_of(window: QWidget) -> list[QSplitter]:
    """The window's named splitters (a splitter without an object name is not kept)."""
    return [s for s in window.findChildren(QSplitter) if s.objectName()]


def _splitter_key(splitter: QSplitter, language: str) -> str:
    return f"{SPLITTER_GROUP}/{language}/{splitter.objectName()}"


def save(settings: QSettings, window: QWidget, tabs: QTabWidget, language: str) -> None:
    """Save the current tab and the pane sizes of every named splitter of *window*, the
    latter for the interface's *language*."""
    settings.setValue(TAB_KEY, tabs.currentIndex())
    for splitter in splitters_of(window):
        settings.setValue(_splitter_key(splitter, language), splitter.sizes())


def _sizes(value: object, count: int) -> list[int] | None:
    """*value* as one non-negative pane size per pane, with some room in all; else None.

    An INI file gives a list back as strings (or a lone string for a one-item list)."""
    items = [value] if isinstance(value, str | int) else value
    if not isinstance(items, list) or len(items) != count:
        return None
    try:
        sizes = [int(v) for v in items]
    except (TypeError, ValueError):
        return None
    if any(s < 0 for s in sizes) or sum(sizes) <= 0:
        return None
    return sizes


def restore(settings: QSettings, window: QWidget, tabs: QTabWidget, language: str) -> None:
    """Put back what :func:`save` saved (the splits of *language*), skipping whatever no
    longer fits the window."""
    index = settings.value(TAB_KEY)
    try:
        tab = int(index) if isinstance(index, int | str) else -1
    except ValueError:
        tab = -1
    if 0 <= tab < tabs.count():
        tabs.setCurrentIndex(tab)
    for splitter in splitters_of(window):
        sizes = _sizes(settings.value(_splitter_key(splitter, language)), splitter.count())
        if sizes is not None:
            splitter.setSizes(sizes)


def clamp_to_screen(window: QWidget) -> None:
    """Keep *window*, title bar and all, within the available area of its screen.

    A geometry saved at another scale or on a larger monitor can put the close button
    off-screen; it is shrunk to fit, then moved in.
    """
    screen = window.screen()
    if screen is None:
        return
    area = screen.availableGeometry()
    frame = window.frameGeometry()
    extra_w = frame.width() - window.width()
    extra_h = frame.height() - window.height()
    width = min(window.width(), area.width() - extra_w)
    height = min(window.height(), area.height() - extra_h)
    if (width, height) != (window.width(), window.height()):
        window.resize(max(width, window.minimumWidth()), max(height, window.minimumHeight()))
    frame = window.frameGeometry()
    x = min(max(frame.x(), area.left()), area.right() + 1 - frame.width())
    y = min(max(frame.y(), area.top()), area.bottom() + 1 - frame.height())
    if (x, y) != (frame.x(), frame.y()):
        window.move(max(x, area.left()), max(y, area.top()))

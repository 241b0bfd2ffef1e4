"""Qt objects made from the shipped resources: the application icon and the translators."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QCoreApplication,
    QLibraryInfo,
    QLocale,
    QPointF,
    QRectF,
    Qt,
    QTranslator,
)
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QApplication, QStyle

from roots_manager.core.store.grants import Scope
from roots_manager.support import resources


def app_icon() -> QIcon:
    """The application icon, with every rendered size for crisp HiDPI and the SVG as fallback."""
    icon = QIcon()
    for png in resources.icon_pngs().values():
        pixmap = QPixmap()
        if pixmap.loadFromData(png.read_bytes(), "PNG"):
            icon.addPixmap(pixmap)
    svg = resources.icon_svg()
    if icon.isNull() and svg.is_file():
        with resources.as_path(svg) as path:
            icon.addFile(str(path))
    return icon


def action_icon(theme: str, fallback: QStyle.StandardPixmap) -> QIcon:
    """The desktop theme's icon *theme* (freedesktop names), else Qt's own *fallback*.

    Qt's standard pixmaps ship with Qt itself, so an action has an icon on every platform,
    with or without an icon theme (the offscreen platform and most Windows setups have none).
    """
    themed = QIcon.fromTheme(theme)
    if not themed.isNull():
        return themed
    style = QApplication.style()
    return style.standardIcon(fallback) if style is not None else QIcon()


def drawn_icon(draw: Callable[[QPainter, float], None]) -> QIcon:
    """An icon drawn here at the usual sizes: *draw* paints on a 16-unit square, one unit
    being given (antialiased, on a transparent ground)."""
    icon = QIcon()
    for size in (16, 24, 32, 48):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        draw(painter, size / 16)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


def lock_icon() -> QIcon:
    """A padlock: the desktop theme's where it has one, else one drawn here.

    Drawn rather than taken from an emoji font, which many desktops (and the offscreen
    platform) lack; the marked item's tooltip says the same in words.
    """
    themed = QIcon.fromTheme("changes-prevent")
    if not themed.isNull():
        return themed

    def draw(painter: QPainter, u: float) -> None:
        # the shackle in the text's colour, so that it shows on a dark palette too
        ink = QGuiApplication.palette().color(QPalette.ColorRole.Text)
        painter.setPen(QPen(ink, 1.6 * u))
        painter.drawArc(QRectF(4.5 * u, 1.5 * u, 7 * u, 9 * u), 0, 180 * 16)
        painter.drawLine(int(4.5 * u), int(6 * u), int(4.5 * u), int(7.5 * u))
        painter.drawLine(int(11.5 * u), int(6 * u), int(11.5 * u), int(7.5 * u))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(200, 150, 30))
        painter.drawRoundedRect(QRectF(2.5 * u, 7 * u, 11 * u, 8 * u), 1.5 * u, 1.5 * u)

    return drawn_icon(draw)


def scope_icon(scope: str | None) -> QIcon:
    """The mark of a grant's scope in the consent matrix and its legend.

    ``ALWAYS``: a green disc with a tick; ``WHILE_RUNNING``: an amber clock (it ends with the running
    server); None: a grey dash. Drawn here so that they look the same on every desktop; the
    cell's words say the same.
    """

    def draw(painter: QPainter, u: float) -> None:
        if scope == Scope.ALWAYS:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(46, 139, 87))
            painter.drawEllipse(QRectF(1 * u, 1 * u, 14 * u, 14 * u))
            pen = QPen(QColor(255, 255, 255), 2 * u)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawPolyline(
                [QPointF(4.5 * u, 8.5 * u), QPointF(7 * u, 11 * u), QPointF(11.5 * u, 5.5 * u)]
            )
        elif scope == Scope.WHILE_RUNNING:
            painter.setPen(QPen(QColor(200, 130, 20), 1.8 * u))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QRectF(1.5 * u, 1.5 * u, 13 * u, 13 * u))
            pen = QPen(QColor(200, 130, 20), 1.6 * u)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawPolyline(
                [QPointF(8 * u, 4 * u), QPointF(8 * u, 8 * u), QPointF(11 * u, 10 * u)]
            )
        else:
            pen = QPen(QColor(150, 150, 150), 1.6 * u)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawLine(QPointF(4.5 * u, 8 * u), QPointF(11.5 * u, 8 * u))

    return drawn_icon(draw)


class Catalogue(QTranslator):
    """A translator loaded from memory; it owns the bytes, which Qt reads without copying."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = data

    def load_data(self) -> bool:
        """Parse the catalogue; False if it is not a valid ``.qm`` file."""
        return bool(self.load(self.data))


def load_translator(language: str | None = None) -> tuple[str, QTranslator] | None:
    """A translator for *language* (``ja``, ``zh_CN``), or for the user's interface languages
    if None (not the regional format, which Windows and macOS set apart).

    Returns the language code chosen and the loaded translator, or None for English or a
    language with no shipped catalogue.
    """
    locale_name = language or resources.preferred_language(QLocale.system().uiLanguages())
    found = resources.translation_for(locale_name)
    if found is None:
        return None
    code, qm = found
    # loading from memory works even when the package is zipped
    translator = Catalogue(qm.read_bytes())
    if not translator.load_data():
        return None
    return code, translator


def shown_language(language: str | None = None) -> str:
    """The language the interface is shown in for the setting *language* (None: the user's
    interface languages): a shipped catalogue's code, else ``en``."""
    locale_name = language or resources.preferred_language(QLocale.system().uiLanguages())
    found = resources.translation_for(locale_name)
    return found[0] if found is not None else "en"


def install_translators(app: QCoreApplication, language: str | None = None) -> list[QTranslator]:
    """Install the app's catalogue and Qt's own (dialog buttons and the like) for *language*,
    with what Qt's own leaves untranslated; for English, the catalogue of its plural forms.

    The caller keeps the returned translators: a translator that is garbage-collected stops
    translating.
    """
    installed: list[QTranslator] = []
    found = load_translator(language)
    if found is None:
        # English: the source text, but its plural forms ("%n server(s)") come from a catalogue
        plurals = Catalogue(resources.translation_file("en").read_bytes())
        if plurals.load_data():
            app.installTranslator(plurals)
            installed.append(plurals)
        return installed
    code, translator = found
    app.installTranslator(translator)
    installed.append(translator)
    qt = QTranslator()
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt.load(f"qtbase_{code}", qt_dir):
        app.installTranslator(qt)
        installed.append(qt)
    gaps_file = resources.qt_gaps_file(code)
    if gaps_file.is_file():
        gaps = Catalogue(gaps_file.read_bytes())
        if gaps.load_data():
            app.installTranslator(gaps)
            installed.append(gaps)
    return installed

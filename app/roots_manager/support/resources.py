"""The files shipped inside the package: the icon, translations, desktop entry and metainfo.

They live in the ``roots_manager.resources`` package (the top-level ``resources/`` folder of the
source tree) and are reached through :mod:`importlib.resources`, so they are found the same way
in a source checkout, an installed wheel, a zip and a frozen bundle.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path

from roots_manager import APP_ID

PACKAGE = "roots_manager.resources"
ICON_SIZES: tuple[int, ...] = (16, 24, 32, 48, 64, 128, 256, 512)
"""The PNG sizes rendered from the SVG (``scripts/render-icons.py``)."""
TRANSLATION_PREFIX = "roots_manager"
LANGUAGES: tuple[str, ...] = ("en", "ja", "zh_CN")
"""The languages of the user interface; English is the source language (its file holds only
the plural forms, "1 server" and "2 servers", which the source text writes "%n server(s)")."""


def root() -> Traversable:
    """The resources package itself."""
    return files(PACKAGE)


def icon_svg() -> Traversable:
    """The scalable application icon."""
    return root() / "icons" / f"{APP_ID}.svg"


def icon_png(size: int) -> Traversable:
    """The application icon rendered at *size* x *size* pixels (one of :data:`ICON_SIZES`)."""
    if size not in ICON_SIZES:
        raise ValueError(f"no {size}px icon; sizes: {', '.join(map(str, ICON_SIZES))}")
    return root() / "icons" / f"{size}x{size}" / f"{APP_ID}.png"


def icon_pngs() -> dict[int, Traversable]:
    """Every rendered size of the application icon that is present, by size."""
    found = {}
    for size in ICON_SIZES:
        t = icon_png(size)
        if t.is_file():
            found[size] = t
    return found


def translations_dir() -> Traversable:
    """The folder of ``.ts`` sources and compiled ``.qm`` catalogues."""
    return root() / "translations"


def translation_file(language: str, suffix: str = ".qm") -> Traversable:
    """The catalogue of *language* (``en``, ``ja``, ``zh_CN``), present or not."""
    return translations_dir() / f"{TRANSLATION_PREFIX}_{language}{suffix}"


def qt_gaps_file(language: str) -> Traversable:
    """Qt's own texts that Qt's catalogue for *language* leaves untranslated (its folder
    dialog's "Look in:"), translated here; present or not."""
    return translations_dir() / f"qt_gaps_{language}.qm"


def translation_for(locale_name: str) -> tuple[str, Traversable] | None:
    """The shipped catalogue that best serves *locale_name*, with its language code.

    *locale_name* is a POSIX or BCP 47 name (``ja_JP.UTF-8``, ``zh-Hans-CN``, ``zh_TW``).
    Simplified Chinese serves every ``zh`` locale, since it is the only Chinese shipped.
    Returns None for English and for languages with no catalogue.
    """
    name = locale_name.split(".")[0].split("@")[0].replace("-", "_")
    if not name or name in ("C", "POSIX"):
        return None
    parts = name.split("_")
    lang = parts[0].lower()
    candidates = []
    if len(parts) > 1:
        candidates.append(f"{lang}_{parts[-1].upper()}")
    candidates.append(lang)
    if lang == "zh":
        candidates.append("zh_CN")
    for code in candidates:
        if code in LANGUAGES and code != "en":
            t = translation_file(code)
            if t.is_file():
                return code, t
    return None


def preferred_language(ui_languages: Iterable[str]) -> str:
    """The shipped language the user's ordered list of interface languages asks for first.

    *ui_languages* is what the system gives as the user's interface languages, most wanted
    first (``QLocale.uiLanguages()``: ``ja-JP``, ``en-US``), not the regional format, which on
    Windows and macOS is set apart (English menus with Japanese dates, and the other way round).
    A language with no catalogue is passed over; English, and an empty list, give ``en``.
    """
    for name in ui_languages:
        if name.split("-")[0].split("_")[0].lower() == "en":
            return "en"
        found = translation_for(name)
        if found is not None:
            return found[0]
    return "en"


def available_languages() -> list[str]:
    """The languages the interface can be shown in now: English and every compiled catalogue."""
    return ["en", *(code for code in LANGUAGES[1:] if translation_file(code).is_file())]


def desktop_entry() -> Traversable:
    """The freedesktop ``.desktop`` entry."""
    return root() / f"{APP_ID}.desktop"


def metainfo() -> Traversable:
    """The AppStream metainfo."""
    return root() / f"{APP_ID}.metainfo.xml"


@contextlib.contextmanager
def as_path(resource: Traversable) -> Iterator[Path]:
    """A real file for *resource*, for APIs that want a path (extracted only if zipped)."""
    with as_file(resource) as path:
        yield Path(path)

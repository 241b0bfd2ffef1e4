"""The shipped resources: icon, desktop entry, metainfo and translations, found through
importlib.resources and checked with the freedesktop validators."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtSvg import QSvgRenderer

from roots_manager import APP_ID
from roots_manager.support import resources
from tests.conftest import only_on_linux

REPO = Path(__file__).resolve().parent.parent


def tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise AssertionError(f"{name} is not installed: apt-get install {package} (.ci/run does)")
    return path


def validate(argv: list[str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"{' '.join(argv)} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc


@only_on_linux("the freedesktop validators are Linux tools")
def test_desktop_entry_is_valid() -> None:
    with resources.as_path(resources.desktop_entry()) as path:
        proc = validate([tool("desktop-file-validate", "desktop-file-utils"), str(path)])
    assert "error" not in (proc.stdout + proc.stderr).lower()
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read_string(resources.desktop_entry().read_text(encoding="utf-8"))
    group = entry["Desktop Entry"]
    assert group["Icon"] == APP_ID
    assert group["Exec"].split()[0] == "roots-manager"
    assert group["Name[ja]"] and group["Comment[zh_CN]"]


@only_on_linux("the freedesktop validators are Linux tools")
def test_metainfo_is_valid() -> None:
    with resources.as_path(resources.metainfo()) as path:
        validate([tool("appstreamcli", "appstream"), "validate", "--no-net", str(path)])
    doc = ET.fromstring(resources.metainfo().read_bytes())
    assert doc.findtext("id") == APP_ID
    assert doc.findtext("launchable") == f"{APP_ID}.desktop"
    assert doc.find("content_rating") is not None
    releases = doc.findall("releases/release")
    assert releases, "the metainfo lists no release"
    from roots_manager import __version__

    if __version__ != "0.0.0":
        assert releases[0].get("version") == __version__, "add a <release> for this version"
    shots = [s.findtext("image") or "" for s in doc.findall("screenshots/screenshot")]
    assert shots and all("/docs/" in s for s in shots)


def test_icon_svg_and_every_png_size() -> None:
    svg = resources.icon_svg()
    renderer = QSvgRenderer(svg.read_bytes())
    assert renderer.isValid()
    pngs = resources.icon_pngs()
    assert sorted(pngs) == list(resources.ICON_SIZES)
    for size, png in pngs.items():
        image = QImage()
        assert image.loadFromData(png.read_bytes(), "PNG"), f"{size}px icon does not load"
        assert (image.width(), image.height()) == (size, size)
        assert image.hasAlphaChannel()


def test_icon_png_refuses_unknown_sizes() -> None:
    with pytest.raises(ValueError, match="no 20px icon"):
        resources.icon_png(20)


@pytest.mark.parametrize(
    ("locale", "code"),
    [
        ("ja_JP.UTF-8", "ja"),
        ("ja", "ja"),
        ("zh_CN", "zh_CN"),
        ("zh-Hans-CN", "zh_CN"),
        ("zh_TW", "zh_CN"),
        ("en_US", None),
        ("C", None),
        ("fr_FR", None),
    ],
)
def test_translation_for_locale(locale: str, code: str | None) -> None:
    found = resources.translation_for(locale)
    assert (found[0] if found else None) == code


def test_desktop_files_use_the_app_id_everywhere() -> None:
    names = {p.name for p in (REPO / "resources").iterdir() if p.is_file()}
    assert f"{APP_ID}.desktop" in names
    assert f"{APP_ID}.metainfo.xml" in names
    assert resources.available_languages() == ["en", "ja", "zh_CN"]


def _messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    doc = ET.parse(ts).getroot()
    found = {}
    for ctx in doc.findall("context"):
        name = ctx.findtext("name") or ""
        for msg in ctx.findall("message"):
            found[(name, msg.findtext("source") or "")] = msg
    return found


def test_translation_sources_are_up_to_date(tmp_path: Path) -> None:
    """Every tr() string in the GUI is in the committed .ts files (run update-translations)."""
    lupdate = Path(sys.executable).parent / "pyside6-lupdate"
    if not lupdate.exists():
        lupdate = Path(tool("pyside6-lupdate", "PySide6 (pip)"))
    fresh = tmp_path / "fresh.ts"
    sources = sorted(str(p) for p in (REPO / "app" / "roots_manager" / "gui").rglob("*.py"))
    subprocess.run(
        [str(lupdate), *sources, "-ts", str(fresh)], check=True, capture_output=True, timeout=300
    )
    wanted = set(_messages(fresh))
    for lang in ("ja", "zh_CN"):
        ts = REPO / "resources" / "translations" / f"roots_manager_{lang}.ts"
        have = set(_messages(ts))
        missing = sorted(wanted - have)
        assert not missing, (
            f"{ts.name} lacks {len(missing)} string(s); run scripts/update-translations. "
            f"First: {missing[:5]}"
        )


PLACEHOLDER = re.compile(r"\{[^}]*\}|%p%|%\d|%n")


@pytest.mark.parametrize("lang", ["en", "ja", "zh_CN"])
def test_translations_are_complete_and_keep_placeholders(lang: str) -> None:
    ts = REPO / "resources" / "translations" / f"roots_manager_{lang}.ts"
    problems = []
    for (ctx, source), msg in _messages(ts).items():
        tr = msg.find("translation")
        assert tr is not None
        # a plural (tr with n) has one form per plural rule of the language: each is checked
        forms = [f.text or "" for f in tr.findall("numerusform")] or [tr.text or ""]
        if tr.get("type") in ("unfinished", "vanished", "obsolete") or not all(
            f.strip() for f in forms
        ):
            problems.append(f"{ctx}: {source!r} is not translated")
            continue
        for text in forms:
            if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(source)):
                problems.append(f"{ctx}: {source!r} -> {text!r} changes the placeholders")
            elif ("&" in source.replace("&&", "")) != ("&" in text.replace("&&", "")):
                problems.append(f"{ctx}: {source!r} -> {text!r} loses or adds a keyboard mnemonic")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["ja", "zh_CN"])
def test_compiled_catalogues_match_their_sources(lang: str, tmp_path: Path) -> None:
    """The committed .qm is what lrelease makes of the committed .ts (run update-translations)."""
    from PySide6.QtCore import QTranslator

    ts = REPO / "resources" / "translations" / f"roots_manager_{lang}.ts"
    lrelease = Path(sys.executable).parent / "pyside6-lrelease"
    if not lrelease.exists():
        lrelease = Path(tool("pyside6-lrelease", "PySide6 (pip)"))
    fresh = tmp_path / "fresh.qm"
    subprocess.run([str(lrelease), str(ts), "-qm", str(fresh)], check=True, capture_output=True)
    shipped = resources.translation_file(lang)
    assert shipped.is_file(), f"{shipped} is missing: run scripts/update-translations"
    assert shipped.read_bytes() == fresh.read_bytes(), (
        f"{shipped} is older than its .ts: run scripts/update-translations"
    )
    translator = QTranslator()
    data = shipped.read_bytes()  # Qt reads the catalogue in place: keep the bytes alive
    assert translator.load(data)
    assert translator.translate("ConnectDialog", "Connect a server") not in ("", "Connect a server")


def test_qt_icon_and_translators(qapp) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QCoreApplication

    from roots_manager.gui.common.resources import app_icon, install_translators, load_translator

    icon = app_icon()
    assert not icon.isNull()
    assert {s.width() for s in icon.availableSizes()} >= {16, 32, 256}

    assert load_translator("en_US") is None
    found = load_translator("zh_TW")
    assert found is not None and found[0] == "zh_CN"

    installed = install_translators(qapp, "ja_JP")
    try:
        assert installed
        text = QCoreApplication.translate("ConnectDialog", "Connect a server")
        assert text == "サーバーに接続"
    finally:
        for t in installed:
            QCoreApplication.removeTranslator(t)
    assert QCoreApplication.translate("ConnectDialog", "Connect a server") == "Connect a server"


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "Added 1 root", "Added 2 roots"),
        ("ja", "1 件のルートを追加しました", "2 件のルートを追加しました"),
        ("zh_CN", "已添加 1 个根目录", "已添加 2 个根目录"),
    ],
)
def test_counts_use_the_plural_forms_of_each_language(  # type: ignore[no-untyped-def]
    qapp, language: str, one: str, two: str
) -> None:
    from PySide6.QtCore import QCoreApplication

    from roots_manager.gui.common.resources import install_translators

    installed = install_translators(qapp, language)
    try:
        assert installed, f"no catalogue for {language}"
        say = lambda n: QCoreApplication.translate("MainWindow", "Added %n root(s)", None, n)  # noqa: E731
        assert (say(1), say(2)) == (one, two)
    finally:
        for t in installed:
            QCoreApplication.removeTranslator(t)


@pytest.mark.parametrize(
    ("ui_languages", "code"),
    [
        (["ja-JP", "en-US"], "ja"),
        (["en-GB", "ja-JP"], "en"),  # English first: English, though Japanese is read too
        (["fr-FR", "de", "zh-Hant-TW", "en"], "zh_CN"),  # unshipped languages are passed over
        (["fr-FR"], "en"),
        ([], "en"),
        (["zh-Hans-CN"], "zh_CN"),
    ],
)
def test_the_interface_language_is_the_first_shipped_one_the_user_reads(
    ui_languages: list[str], code: str
) -> None:
    assert resources.preferred_language(ui_languages) == code


@pytest.mark.parametrize(
    ("environment", "code"),
    [
        # regional format French, interface languages French then Japanese: Japanese, the
        # first one shipped (the regional format alone would give English)
        ({"LANG": "fr_FR.UTF-8", "LANGUAGE": "fr:ja"}, "ja"),
        ({"LANG": "ja_JP.UTF-8", "LANGUAGE": "en_US:ja"}, None),
    ],
)
@only_on_linux("LANGUAGE sets Qt's interface languages on Linux; Windows and macOS ask the system")
def test_the_app_follows_the_system_s_interface_languages(
    environment: dict[str, str], code: str | None
) -> None:
    probe = (
        "from PySide6.QtCore import QCoreApplication\n"
        "from roots_manager.gui.common.resources import load_translator\n"
        "app = QCoreApplication([])\n"
        "found = load_translator()\n"
        "print(found[0] if found else None)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    out = subprocess.run(
        [sys.executable, "-c", probe],
        env={**env, **environment},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == [str(code)]

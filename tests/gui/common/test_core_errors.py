"""The core's refusals reach the user in their language, with the same values filled in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from roots_manager.actions.roots import rename
from roots_manager.core.roots import uri
from roots_manager.core.store import state as model
from roots_manager.core.store.file import Store
from roots_manager.gui.common.resources import install_translators
from roots_manager.gui.common.watcher import StoreWatcher
from tests.catalogue import LANGUAGES, catalogued


@pytest.mark.parametrize("catalogue", LANGUAGES)
def test_every_core_error_template_is_in_the_catalogues(catalogue: str) -> None:
    # marked where the core defines it, found there by lupdate: written once
    missing = set(model.ERROR_TEMPLATES + uri.ERROR_TEMPLATES) - catalogued("CoreError", catalogue)
    assert not missing, f"not in the {catalogue} catalogue (scripts/update-translations): {missing}"


@pytest.fixture(params=["ja", "zh_CN"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    translators = install_translators(qapp, request.param)
    assert translators, f"the {request.param} catalogue must load"
    yield request.param
    for t in translators:
        qapp.removeTranslator(t)


def test_every_template_is_translated(language: str) -> None:
    # (tests/test_resources.py checks that every translation keeps its placeholders)
    for template in model.ERROR_TEMPLATES + uri.ERROR_TEMPLATES:
        shown = QCoreApplication.translate("CoreError", template)
        assert shown != template, f"{language}: not translated: {template}"


def test_a_refused_edit_is_reported_in_the_users_language(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot, language: str
) -> None:
    folder = tmp_path / "proj"
    folder.mkdir()
    with store.transaction() as state:
        state.add_root(str(folder), "proj")
    with qtbot.waitSignal(watcher.edit_failed, timeout=10_000) as refused:
        assert watcher.act(lambda s: rename(s, "proj", "a\x1bb")) is None
    expected = {
        "ja": "ルートの名前に制御文字や文字方向の制御文字は使えません（U+001B）",
        "zh_CN": "根目录的名称不能包含控制字符或文字方向字符（U+001B）",
    }[language]
    assert refused.args == [expected]
    assert store.read().roots[0].name == "proj"

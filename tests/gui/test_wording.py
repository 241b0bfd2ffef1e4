"""The words of the app: plural forms, names that match, nothing cut, every key where expected."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from roots_manager.core.log import events
from roots_manager.gui.common.resources import install_translators
from roots_manager.gui.connect.connect_dialog import ConnectDialog
from roots_manager.gui.log.log_texts import translated_summary
from roots_manager.gui.roots.detect import DetectDialog
from roots_manager.gui.shell.app import AppController
from roots_manager.support import resources
from tests.gui.shell_support import folders


def test_counts_read_naturally_and_the_tabs_are_named_as_they_are_titled(
    controller: AppController, tmp_path: Path, qtbot: QtBot
) -> None:
    window = controller.window
    assert window is not None
    (a,) = folders(tmp_path, "alpha")
    window.roots_panel.add_paths([str(a)])
    assert window.statusBar().currentMessage() == "Added 1 root"
    b, c = folders(tmp_path, "beta", "gamma")
    window.roots_panel.add_paths([str(b), str(c)])
    assert window.statusBar().currentMessage() == "Added 2 roots"
    # the Roots tab sends the user to the tab by the title it has
    servers_tab = window.tabs.tabText(1).replace("&", "")
    assert f"the {servers_tab} tab" in window.roots_panel.hint.text()
    # Settings: Ctrl+, everywhere, besides the platform's own key
    settings = next(
        a for a in window.menuBar().actions()[0].menu().actions() if "Settings" in a.text()
    )
    assert QKeySequence("Ctrl+,") in settings.shortcuts()


def test_the_connect_dialogs_command_field_shows_its_whole_example(
    layout: Any, qtbot: QtBot
) -> None:
    dialog = ConnectDialog(layout)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    edit = dialog.command_edit
    needed = edit.fontMetrics().horizontalAdvance(edit.placeholderText())
    assert edit.width() > needed, (edit.width(), needed)


def test_detect_projects_shows_no_figure_before_it_starts(tmp_path: Path, qtbot: QtBot) -> None:
    dialog = DetectDialog(set(), str(tmp_path))
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.progress.isTextVisible()  # no "0%" for a scan not begun
    folders(tmp_path, "p/.git")
    dialog.start_scan()
    assert dialog.progress.isTextVisible()
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=30_000)
    assert dialog.status.text() == "1 project found in 2 folders."


@pytest.fixture
def japanese(qapp: QApplication):  # type: ignore[no-untyped-def]
    installed = install_translators(qapp, "ja")
    assert installed
    yield
    for t in installed:
        qapp.removeTranslator(t)


def test_why_a_bridge_ended_is_said_in_the_users_language(japanese: None) -> None:
    ended = events.event(events.RUN_END, "fs", "s", exit_code=0, reason="host closed stdin")
    assert translated_summary(ended) == "終了しました（終了コード 0、ホストが標準入力を閉じました）"
    killed = events.event(events.RUN_END, "fs", "s", exit_code=1, reason="SIGTERM received")
    assert "SIGTERM を受信しました" in translated_summary(killed)
    odd = events.event(events.RUN_END, "fs", "s", exit_code=1, reason="something new")
    assert "something new" in translated_summary(odd)  # unknown words are shown as they are


def test_no_english_count_says_s_in_brackets(qapp: QApplication) -> None:
    # every message with a count (tr with n) has its English forms: "1 root", "2 roots"
    with resources.as_path(resources.translation_file("en", ".ts")) as ts:
        doc = ET.parse(ts).getroot()
    counted = [
        (ctx.findtext("name") or "", msg.findtext("source") or "")
        for ctx in doc.findall("context")
        for msg in ctx.findall("message")
        if msg.get("numerus") == "yes"
    ]
    assert len(counted) >= 16
    for context, source in counted:
        for n in (1, 2):
            shown = QCoreApplication.translate(context, source, "", n)
            assert ("(s)" not in shown and f"{n} " in shown) or "%p%" in source, (source, n, shown)
    one = QCoreApplication.translate("RootsPanel", "Remove %n root(s)", "", 1)
    two = QCoreApplication.translate("RootsPanel", "Remove %n root(s)", "", 2)
    assert (one, two) == ("Remove 1 root", "Remove 2 roots")
    changed = "%n row(s) changed since the previous run ({when}, no version)"
    assert QCoreApplication.translate("ProbeDialog", changed, "", 1).startswith("1 row changed")

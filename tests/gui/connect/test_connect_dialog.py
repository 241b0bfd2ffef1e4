"""The Connect a server dialog: a command line or a known server, validated as typed."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox
from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.servers.command import default_name, demo_command, split_command
from roots_manager.core.store.file import Store
from roots_manager.gui.connect.connect_dialog import ConnectDialog


def make(layout: Layout, qtbot: QtBot) -> ConnectDialog:
    dialog = ConnectDialog(layout)
    qtbot.addWidget(dialog)
    return dialog


def ok_enabled(dialog: ConnectDialog) -> bool:
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_empty_input_cannot_be_connected(layout: Layout, qtbot: QtBot) -> None:
    dialog = make(layout, qtbot)
    assert not ok_enabled(dialog)
    assert "Enter the command line" in dialog.error_label.text()
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted


def test_errors_name_what_is_wrong(layout: Layout, qtbot: QtBot, tmp_path: Path) -> None:
    dialog = make(layout, qtbot)
    dialog.command_edit.setText("node 'unclosed")
    assert "cannot be read" in dialog.error_label.text()
    assert "quotation mark is not closed" in dialog.error_label.text()
    assert not ok_enabled(dialog)

    dialog.command_edit.setText("surely-no-such-program-xyz --flag")
    assert "surely-no-such-program-xyz" in dialog.error_label.text()
    assert "PATH" in dialog.error_label.text()

    missing = tmp_path / "bin" / "server"
    dialog.command_edit.setText(shlex.join([str(missing)]))
    assert f"{missing} does not exist" in dialog.error_label.text()

    dialog.command_edit.setText(shlex.join([str(tmp_path)]))
    assert "not a program that can be run" in dialog.error_label.text()

    dialog.command_edit.setText(shlex.join(demo_command()))
    dialog.name_edit.setText("   ")
    assert "name" in dialog.error_label.text()
    assert not ok_enabled(dialog)
    dialog.name_edit.setText("files\u202egnp.exe")  # reads as another name
    assert "text-direction" in dialog.error_label.text()
    assert "U+202E" in dialog.error_label.text()
    assert not ok_enabled(dialog)


def test_typed_command_is_split_and_named(layout: Layout, qtbot: QtBot, tmp_path: Path) -> None:
    dialog = make(layout, qtbot)
    script = tmp_path / "my server" / "dist" / "index.js"
    qtbot.keyClicks(dialog.command_edit, f"{sys.executable} '{script}' --verbose")
    assert dialog.command() == [sys.executable, str(script), "--verbose"]
    assert dialog.server_name() == "my server"  # guessed from the script's folder
    assert ok_enabled(dialog), dialog.error_label.text()
    assert dialog.error_label.isHidden()

    # a name the user typed is not overwritten by further edits of the command
    dialog.name_edit.clear()
    qtbot.keyClicks(dialog.name_edit, "mine")
    qtbot.keyClicks(dialog.command_edit, " --more")
    assert dialog.server_name() == "mine"

    qtbot.mouseClick(
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton
    )
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.command()[-1] == "--more"


def test_demo_button_fills_the_demo_server(layout: Layout, qtbot: QtBot) -> None:
    dialog = make(layout, qtbot)
    qtbot.mouseClick(dialog.demo_button, Qt.MouseButton.LeftButton)
    assert dialog.command() == demo_command()
    assert dialog.server_name() == "roots-demo"
    assert ok_enabled(dialog)


def test_known_servers_come_from_the_store(layout: Layout, qtbot: QtBot) -> None:
    with Store(layout).transaction() as state:
        state.server_started("files", [sys.executable, "-m", "some.files server"], "s1")
        state.server_started("never-ran", [sys.executable], "s2")
        state.servers["never-ran"].command = None
    dialog = make(layout, qtbot)
    items = [dialog.known.itemText(i) for i in range(dialog.known.count())]
    assert items[1:] == ["files"]  # only servers with a command line to start
    dialog.known.setCurrentIndex(1)
    assert dialog.server_name() == "files"
    assert dialog.command() == [sys.executable, "-m", "some.files server"]


def test_no_known_servers_with_an_unreadable_store(layout: Layout, qtbot: QtBot) -> None:
    layout.store.write_text("{ not json", encoding="utf-8")
    dialog = make(layout, qtbot)
    assert dialog.known.count() == 1
    assert not dialog.known.isEnabled()


def test_default_names() -> None:
    assert default_name(["npx", "-y", "@modelcontextprotocol/server-filesystem"]) == (
        "server-filesystem"
    )
    assert default_name(["uvx", "mcp-server-git@1.2"]) == "mcp-server-git"
    assert default_name(["python3", "-m", "pkg.weather"]) == "weather"
    assert default_name(["/opt/bin/my-server", "--port", "1"]) == "my-server"
    assert default_name(demo_command()) == "roots-demo"
    assert default_name([]) == ""


def test_split_command_reports_bad_quoting() -> None:
    assert split_command("a 'b c' d") == ["a", "b c", "d"]
    try:
        split_command('a "b')
    except ValueError as exc:
        assert "quotation" in str(exc)
    else:
        raise AssertionError("an unbalanced quote must be refused")

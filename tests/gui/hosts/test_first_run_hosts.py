"""A first run that starts from the hosts found: Claude Desktop found in a temporary home, its
servers protected through the diff, a folder granted, and the welcome gone; the real host file,
the real store and the real window."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard
from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.hosts.first_run import CHANGE, DONE, FOLDERS, SERVERS
from roots_manager.gui.shell.app import app_settings
from roots_manager.gui.shell.main_window import MainWindow
from tests.core.hosts.hosts_samples import SAMPLES

TWO = """{
  "mcpServers": {
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"]},
    "git": {"command": "uvx", "args": ["mcp-server-git"]},
    "web": {"url": "https://example.invalid/mcp"}
  }
}
"""


@pytest.fixture
def desktop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    config = home / "xdg" / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(TWO)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))
    return config


@pytest.fixture
def window(store: Store, layout: Layout, qtbot: QtBot) -> Iterator[Callable[[], MainWindow]]:
    """The real main window on the real store; its watcher's thread is stopped at the end."""
    watchers: list[StoreWatcher] = []

    def make() -> MainWindow:
        watcher = StoreWatcher(store)
        watcher.start()
        watchers.append(watcher)
        w = MainWindow(watcher, app_settings(layout))
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        return w

    yield make
    for watcher in watchers:
        watcher.stop()


def test_the_first_run_protects_the_hosts_found_through_their_diff(
    desktop: Path,
    store: Store,
    window: Callable[[], MainWindow],
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    original = desktop.read_bytes()
    w = window()
    qtbot.waitUntil(lambda: w.welcome.protect_button.isVisible(), timeout=5000)
    assert "Found Claude Desktop (2 servers)" in w.welcome.found.text()
    assert desktop.read_bytes() == original  # found, not touched

    w.welcome.protect_button.click()
    wizard = w.first_run
    assert wizard is not None and wizard.currentId() == SERVERS
    items = [wizard.servers_page.list.item(i) for i in range(wizard.servers_page.list.count())]
    assert [i.text() for i in items] == ["Claude Desktop: fs", "Claude Desktop: git"]
    assert all(i.checkState() == Qt.CheckState.Checked for i in items)
    items[1].setCheckState(Qt.CheckState.Unchecked)  # git stays as it is

    wizard.next()
    assert wizard.currentId() == CHANGE
    shown = wizard.change_page.diff.toPlainText()
    assert shown.startswith(f"--- {desktop}") and '"--server", "fs"' in shown
    changed = [line for line in shown.splitlines()[2:] if line[:1] in "+-"]
    assert changed and not [line for line in changed if "mcp-server-git" in line], shown
    assert desktop.read_bytes() == original  # shown, not made

    wizard.next()  # Protect: the change is made
    assert wizard.currentId() == FOLDERS
    entries = json.loads(desktop.read_text())["mcpServers"]
    assert Path(entries["fs"]["command"]).name == "roots-bridge"
    assert entries["git"] == {"command": "uvx", "args": ["mcp-server-git"]}
    assert wizard.folders_page.ticked() == []  # nothing ticked for them

    notes = tmp_path / "notes"
    notes.mkdir()
    wizard.folders_page.add_folder(str(notes))
    wizard.next()  # Grant
    assert wizard.currentId() == DONE
    assert "1 server protected" in wizard.done_page.text.text()
    assert "Restart Claude Desktop" in wizard.done_page.text.text()
    # made and saved: Finish alone, no Cancel that would seem to take it back
    assert wizard.button(QWizard.WizardButton.FinishButton).isVisible()
    assert not wizard.button(QWizard.WizardButton.CancelButton).isVisible()
    assert not wizard.button(QWizard.WizardButton.BackButton).isVisible()
    state = store.read()
    [root] = [r for r in state.roots if r.path == str(notes)]
    assert [(g.root, g.scope.value) for g in state.grants_of("fs")] == [(root.id, "always")]
    assert state.grants_of("git") == []

    with qtbot.waitSignal(wizard.finished, timeout=5000):
        wizard.button(QWizard.WizardButton.FinishButton).click()
    assert w.first_run is None
    assert not w.welcome.isVisible()  # done: the welcome goes, for good

    hint = w.hosts_panel.hint
    assert not hint.isHidden() and "Restart Claude Desktop" in hint.text()  # the Hosts tab too

    # one step for Undo takes the change back, byte for byte
    with qtbot.waitSignal(w.hosts_panel.hosts_changed, timeout=10000):
        w.hosts_panel.undo()
    assert desktop.read_bytes() == original
    # as Claude Desktop last read it: nothing to restart for
    assert hint.isHidden(), hint.text()


def test_protecting_two_hosts_is_one_undo_that_names_both_files(
    desktop: Path, store: Store, window: Callable[[], MainWindow], qtbot: QtBot
) -> None:
    cursor = desktop.parents[2] / ".cursor" / "mcp.json"  # beside Claude Desktop, in $HOME
    cursor.parent.mkdir()
    cursor.write_text('{"mcpServers": {"notes": {"command": "notes-server"}}}\n')
    originals = {desktop: desktop.read_bytes(), cursor: cursor.read_bytes()}
    w = window()
    qtbot.waitUntil(lambda: w.welcome.protect_button.isVisible(), timeout=5000)
    w.welcome.protect_button.click()
    wizard = w.first_run
    assert wizard is not None
    wizard.next()  # the change shown
    wizard.next()  # Protect: both files
    assert all(path.read_bytes() != data for path, data in originals.items())
    wizard.next()  # no folder: Done
    with qtbot.waitSignal(wizard.finished, timeout=5000):
        wizard.button(QWizard.WizardButton.FinishButton).click()

    with qtbot.waitSignal(w.hosts_panel.hosts_changed, timeout=10000) as undone:
        w.hosts_panel.undo()
    assert all(path.read_bytes() == data for path, data in originals.items())
    assert {r.file.path for r in undone.args[0]} == set(originals)
    shown = w.statusBar().currentMessage()
    assert shown.startswith("Changed 2 files: ") and str(desktop) in shown
    assert str(cursor) in shown


def test_no_host_found_keeps_the_welcome_as_it_was(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    window: Callable[[], MainWindow],
    qtbot: QtBot,
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "empty"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "empty" / "xdg"))
    w = window()
    qtbot.wait(100)
    assert w.welcome.isVisible()
    assert not w.welcome.protect_button.isVisible() and not w.welcome.found.isVisible()


def test_cancelling_before_protect_changes_nothing(
    desktop: Path, store: Store, window: Callable[[], MainWindow], qtbot: QtBot
) -> None:
    original = desktop.read_bytes()
    w = window()
    qtbot.waitUntil(lambda: w.welcome.protect_button.isVisible(), timeout=5000)
    w.welcome.protect_button.click()
    wizard = w.first_run
    assert wizard is not None
    wizard.next()
    assert wizard.currentId() == CHANGE
    with qtbot.waitSignal(wizard.finished, timeout=5000):
        wizard.reject()
    assert desktop.read_bytes() == original
    assert "fs" not in store.read().servers
    assert w.welcome.isVisible() and w.welcome.protect_button.isVisible()


def test_the_sample_host_files_are_read_for_the_first_run(tmp_path: Path) -> None:
    """Every host the Hosts tab knows offers its stdio servers, not its remote ones."""
    from roots_manager.core.hosts import operations as hostchanges
    from roots_manager.core.hosts.found import unprotected
    from roots_manager.core.hosts.known import Platform

    home = tmp_path / "home"
    config = home / "xdg" / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(SAMPLES["claude-desktop"])
    platform = Platform("linux", home, {"XDG_CONFIG_HOME": str(home / "xdg")})
    [found] = unprotected(hostchanges.report(platform, []))
    assert found.host.id == "claude-desktop"
    assert [name for _file, name in found.servers] == ["fs"]  # web is remote


def test_the_hosts_are_looked_for_off_the_gui_thread(
    desktop: Path, window: Callable[[], MainWindow], qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading the hosts' files (a heavy user's ~/.claude.json holds 100 MiB) never holds the
    window still: the first run's look for hosts runs in a thread of its own."""
    from roots_manager.gui.shell import main_window

    where: list[str] = []
    real = main_window.read_hosts

    def looked(*args: object) -> object:
        where.append(threading.current_thread().name)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(main_window, "read_hosts", looked)
    w = window()
    qtbot.waitUntil(lambda: w.welcome.protect_button.isVisible(), timeout=5000)
    assert where and threading.main_thread().name not in where, where
    assert "Found Claude Desktop (2 servers)" in w.welcome.found.text()


def test_the_servers_are_grouped_under_their_host_without_opening_the_hosts_tab(
    desktop: Path, store: Store, window: Callable[[], MainWindow], qtbot: QtBot
) -> None:
    """The host files are read in the background at start, so the Servers tab groups each
    server under the host that starts it before the Hosts tab was ever shown."""
    wrapped = {
        "mcpServers": {
            "fs": {
                "command": "roots-bridge",
                "args": [
                    "--server",
                    "fs",
                    "--",
                    "npx",
                    "-y",
                    "@modelcontextprotocol/server-filesystem",
                ],
            }
        }
    }
    desktop.write_text(json.dumps(wrapped))
    with store.transaction() as state:
        state.server_started("fs", ["npx", "-y", "@modelcontextprotocol/server-filesystem"], "r")
    w = window()

    def groups() -> dict[str, list[str]]:
        tree = w.servers_panel.server_list
        return {
            tree.topLevelItem(i).text(0): [
                tree.topLevelItem(i).child(j).text(0)
                for j in range(tree.topLevelItem(i).childCount())
            ]
            for i in range(tree.topLevelItemCount())
        }

    qtbot.waitUntil(lambda: groups().get("Claude Desktop") == ["fs"], timeout=5000)
    assert w.tabs.currentIndex() != w.tabs.indexOf(w.hosts_panel)


@pytest.mark.parametrize("through_roots", [False, True])
def test_the_folders_page_suggests_the_folders_the_servers_arguments_name(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    store: Store,
    window: Callable[[], MainWindow],
    qtbot: QtBot,
    through_roots: bool,
) -> None:
    """Issue 38: the folders page started empty although fs's own arguments named a folder.
    It suggests it, ticked, for fs alone; and the change page offers {roots} instead."""
    home = tmp_path / "home"
    project = tmp_path / "work" / "project"
    project.mkdir(parents=True)
    config = home / "xdg" / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    fs_args = ["-y", "@modelcontextprotocol/server-filesystem", str(project)]
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "fs": {"command": "npx", "args": fs_args},
                    "git": {"command": "uvx", "args": ["mcp-server-git"]},
                }
            }
        )
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))
    w = window()
    qtbot.waitUntil(lambda: w.welcome.protect_button.isVisible(), timeout=5000)
    w.welcome.protect_button.click()
    wizard = w.first_run
    assert wizard is not None
    wizard.next()
    assert wizard.currentId() == CHANGE
    offer = wizard.change_page.roots_box
    assert offer.isVisible() and not offer.isChecked() and "fs" in offer.text()
    assert "{roots}" in offer.text() and "git" not in offer.text()
    if through_roots:
        offer.setChecked(True)  # the diff shows {roots} in place of the folder
        assert '"{roots}"' in wizard.change_page.diff.toPlainText()
    wizard.next()  # Protect
    assert wizard.currentId() == FOLDERS
    page = wizard.folders_page
    rows = [page.list.item(i) for i in range(page.list.count())]
    assert [r.text() for r in rows] == [f"{project} (named in the arguments of fs)"]
    assert rows[0].checkState() == Qt.CheckState.Checked
    wizard.next()  # Grant
    assert wizard.currentId() == DONE
    state = store.read()
    [root] = [r for r in state.roots if r.path == str(project)]
    fs_name = next(n for n in state.servers if n.startswith("fs"))
    assert [g.root for g in state.grants_of(fs_name)] == [root.id]
    assert not [g for g in state.grants if g.server != fs_name]  # git is not given it
    args = json.loads(config.read_text())["mcpServers"]["fs"]["args"]
    assert ("{roots}" in args) is through_roots and (str(project) in args) is not through_roots

"""Issue 38: a refusal is allowed from where people look, not only from the notice: a refusal's
row of the Log and its line in the server's Recent activity offer the same one-click grants,
from the mouse and from the keyboard, never the app's own code or a secret; and the Servers
tab's notice says what roots are worth for the servers in view (held by the kernel where they
run confined).

Real processes: a confined SDK server behind a real ``roots-bridge``, refused by the kernel, the
refusals logged by the bridge and read by the whole app, the grants made on the real store, and
the same call then read again through the same bridge.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QWidget
from pytestqt.qtbot import QtBot

import roots_manager
from roots_manager.actions import refusals
from roots_manager.core.confinement.offers import Offer
from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events
from roots_manager.core.store.file import Store
from roots_manager.gui.log.log_view import LogPanel
from roots_manager.gui.servers.servers_view import ServersPanel
from roots_manager.support.refusal import Refusal
from tests.conftest import only_on_linux, run_cli
from tests.fakes import FAKES
from tests.fakes.bridge_host import BridgeHost
from tests.gui.shell_support import app_window

FILE_TOOL = FAKES / "file_tool_server.py"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def entries(menu: QMenu) -> list[tuple[str, bool]]:
    return [(a.text(), a.isEnabled()) for a in menu.actions() if not a.isSeparator()]


def choose(menu: QMenu, offer: Offer) -> None:
    """Choose *offer* in the open *menu* from the keyboard (the arrows, then Return)."""
    [action] = [a for a in menu.actions() if a.data() == offer.value]
    menu.setActiveAction(action)
    QTest.keyClick(menu, Qt.Key.Key_Return)
    assert not menu.isVisible()


class Host:
    """A host's calls of the file tool, through the bridge in front of the confined server."""

    def __init__(self, bridge: BridgeHost) -> None:
        self.bridge = bridge
        self.next_id = 10

    def read(self, path: Path) -> str:
        self.next_id += 1
        self.bridge.send(
            {
                "jsonrpc": "2.0",
                "id": self.next_id,
                "method": "tools/call",
                "params": {"name": "read_file", "arguments": {"path": str(path)}},
            }
        )
        answer = self.bridge.response(self.next_id)
        content = answer["result"]["content"]
        return str(content[0]["text"])


@pytest.fixture
def confined_host(home: Path, layout: Layout) -> Iterator[Host]:
    granted = home / "granted"
    granted.mkdir()
    run_cli("roots", "add", str(granted))
    run_cli("grant", "--new", "srv", str(granted))
    # refusals allowed after the fact: the app runs, so a read would otherwise wait as a
    # question (tests/security/test_asking.py and the notice's tests ask)
    run_cli("servers", "ask", "srv", "off")
    bridge = BridgeHost("srv", [sys.executable, str(FILE_TOOL)], "--confine")
    try:
        bridge.handshake()
        yield Host(bridge)
    finally:
        bridge.close()


def back_to(window: QWidget, widget: QWidget, qtbot: QtBot) -> None:
    """The window active again and *widget* in focus, as after a menu closed (offscreen, the
    closed menu stays the active window until another is activated)."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)


def refusal_row(panel: LogPanel, path: Path) -> int | None:
    panel.model.refresh()
    for row in range(panel.model.rowCount()):
        rec = panel.model.record_at(row)
        if rec and rec.get("kind") == events.DENIAL and rec.get("path") == str(path):
            return row
    return None


def read_again(qtbot: QtBot, host: Host, path: Path, expected: str) -> None:
    """The same call, through the same bridge, until the server under its new grants
    reads *path* (a grant is served at once by its supervisor, or by a restart)."""
    got: list[str] = []

    def works() -> bool:
        got.append(host.read(path))
        return got[-1] == expected

    qtbot.waitUntil(works, timeout=60_000)


@only_on_linux("confinement (Landlock) and its observer are Linux only")
def test_a_refusal_is_allowed_from_its_log_row_and_from_recent_activity_by_keyboard(
    home: Path, layout: Layout, store: Store, confined_host: Host, qtbot: QtBot
) -> None:
    (home / "a").mkdir()
    (home / "b").mkdir()
    (home / "a" / "notes.txt").write_text("in a\n", encoding="utf-8")
    (home / "b" / "todo.txt").write_text("in b\n", encoding="utf-8")
    with app_window(layout, qtbot) as window:
        window.show()
        qtbot.waitExposed(window)
        assert confined_host.read(home / "a" / "notes.txt") == "EACCES"
        panel = window.log_panel
        assert panel is not None
        window.tabs.setCurrentIndex(window.log_tab_index)
        qtbot.waitUntil(
            lambda: refusal_row(panel, home / "a" / "notes.txt") is not None, timeout=30_000
        )
        row = refusal_row(panel, home / "a" / "notes.txt")
        assert row is not None
        panel.follow_box.setChecked(False)
        panel.table.selectRow(row)
        assert panel.allow_button.isVisible()  # Allow… beside the status, for the mouse
        # the keyboard: Ctrl+Shift+A on the row opens what the notice offers
        back_to(window, panel.table, qtbot)
        QTest.keyClick(panel.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier
                       | Qt.KeyboardModifier.ShiftModifier)  # fmt: skip
        menu = panel.allow_menu
        assert menu is not None and menu.isVisible()
        assert entries(menu) == [
            ("Allow folder: ~/a", True),
            ("Allow read-only: ~/a", True),
            ("Allow this file: ~/a/notes.txt", True),
        ]
        with qtbot.waitSignal(window.denial_notice.allowed) as granted:
            choose(menu, Offer.FOLDER)
        assert granted.args == ["srv", str(home / "a")]
        state = store.read()
        [root] = [r for r in state.roots if r.path == str(home / "a")]
        assert any(g.server == "srv" and g.root == root.id and not g.read_only
                   for g in state.grants)  # fmt: skip
        assert window.statusBar().currentMessage() == "Granted ~/a to srv."
        # the notice no longer offers what was granted from the Log
        assert all(g.folder != str(home / "a") for g in window.denial_notice.refusals.groups())
        read_again(qtbot, confined_host, home / "a" / "notes.txt", "in a\n")

        # a refusal in the server's Recent activity: Allow this file, from the keyboard too
        assert confined_host.read(home / "b" / "todo.txt") == "EACCES"
        window.tabs.setCurrentIndex(1)
        servers = window.findChild(ServersPanel)
        assert servers is not None
        servers.views.setCurrentIndex(0)
        servers.select_server("srv")
        # its live bridge confines it: the notice says the kernel holds it, not "advice"
        assert "srv runs confined: the kernel holds it" in servers.notice.text()
        recent = servers.detail.recent

        def refusal_line() -> int | None:
            servers.detail.show_recent()
            for i in range(recent.count()):
                if "todo.txt" in recent.item(i).text():
                    return i
            return None

        qtbot.waitUntil(lambda: refusal_line() is not None, timeout=30_000)
        line = refusal_line()
        assert line is not None
        recent.setCurrentRow(line)
        assert servers.detail.allow_button.isVisible()
        back_to(window, recent, qtbot)
        QTest.keyClick(recent, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
        menu = servers.detail.allow_menu
        assert menu is not None and menu.isVisible()
        assert ("Allow this file: ~/b/todo.txt", True) in entries(menu)
        with qtbot.waitSignal(window.denial_notice.allowed):
            choose(menu, Offer.FILE)
        srv = store.read().servers["srv"]
        assert srv.allow_read == [str(home / "b" / "todo.txt")] and not srv.allow_write
    # a file allowed widens no running server behind its host's back (the host started it
    # confined): its next start reads it
    confined_host.bridge.close()
    again = BridgeHost("srv", [sys.executable, str(FILE_TOOL)], "--confine")
    try:
        again.handshake()
        assert Host(again).read(home / "b" / "todo.txt") == "in b\n"
    finally:
        again.close()


def denial(path: Path, operation: str = "read") -> dict[str, Any]:
    return events.event(events.DENIAL, "srv", "r1", path=str(path), operation=operation,
                        during="start-up")  # fmt: skip


def test_a_log_row_never_offers_the_apps_own_code_or_a_secret(
    home: Path, layout: Layout, store: Store, qtbot: QtBot
) -> None:
    """The offers are the notice's: a write into the app's own __pycache__ is offered nothing,
    a read there is offered the file and the folder read-only, never the folder; ~/.ssh
    nothing; and the use case refuses an offer that was not made, whoever asks."""
    cache = Path(roots_manager.__file__).resolve().parent / "__pycache__"
    with store.transaction() as state:
        state.server_started("srv", ["srv"], "r1", confined=True)
    writer = events.EventWriter(layout, "r1")
    for rec in (
        denial(cache / "uri.cpython-312.pyc", "write"),
        denial(cache / "uri.cpython-312.pyc"),
        denial(home / ".ssh" / "id_ed25519"),
    ):
        writer.write(rec)
    writer.close()
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.start()
    try:
        qtbot.waitUntil(
            lambda: panel.model.refresh() or panel.model.rowCount() == 3, timeout=20_000
        )
        menus = [panel.allow_menu_for(row) for row in range(3)]
        assert all(m is not None for m in menus)
        write, read, secret = (entries(m) for m in menus if m is not None)
        assert len(write) == 1 and not write[0][1]
        assert write[0][0].startswith("Not offered in one click: Roots Manager's own code")
        assert [t.split(":")[0] for t, on in read if on] == ["Allow read-only", "Allow this file"]
        assert ("No folder offered" in read[-1][0]) and not read[-1][1]
        assert secret == [("Not offered in one click: credentials (~/.ssh)", False)]
        # asked all the same (a stale menu, another front end), the use case refuses
        rec = panel.model.record_at(0)
        assert rec is not None
        with pytest.raises(Refusal, match="is not offered"):
            refusals.allow(store, rec, Offer.FOLDER)
        assert not store.read().roots
    finally:
        panel.stop()


def test_a_row_that_is_not_a_refusal_offers_no_allow(layout: Layout, qtbot: QtBot) -> None:
    writer = events.EventWriter(layout, "r1")
    writer.write(events.event(events.MESSAGE, "srv", "r1", dir=events.HOST_TO_SERVER, id=1,
                              method="tools/call"))  # fmt: skip
    writer.close()
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.show()
    panel.start()
    try:
        qtbot.waitUntil(
            lambda: panel.model.refresh() or panel.model.rowCount() == 1, timeout=20_000
        )
        panel.table.selectRow(0)
        assert not panel.allow_button.isVisible()
        assert panel.allow_menu_for(0) is None and panel.open_allow_menu() is None
    finally:
        panel.stop()

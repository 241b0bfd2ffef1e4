"""What a server's row keeps: the user's decision and its time, and its last roots request after
its bridge has ended."""

from __future__ import annotations

import re
from pathlib import Path

from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.servers.command import demo_command
from roots_manager.core.store.file import Store
from roots_manager.gui.servers.servers_model import LAST_ASKED, STATUS
from roots_manager.gui.shell.app import AppController
from tests.fakes.bridge_host import BridgeHost, events_of
from tests.gui.shell_support import folders

WAIT_MS = 30_000
STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"


def cell(app: AppController, name: str, column: int) -> str:
    assert app.window is not None
    model = app.window.servers_panel.servers_model
    for r in range(model.rowCount()):
        if model.index(r, 0).data() == name:
            return str(model.index(r, column).data())
    return ""


def test_a_denied_server_says_so_and_keeps_its_last_request_once_stopped(
    layout: Layout, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    folders(tmp_path, "alpha")
    app = AppController(layout)
    app.start()
    host = BridgeHost("newcomer", demo_command(), "--consent-timeout", "60")
    try:
        assert app.window is not None and app.prompt is not None
        qtbot.addWidget(app.window)
        host.handshake()
        qtbot.waitUntil(
            lambda: app.prompt is not None and app.prompt.dialog is not None, timeout=WAIT_MS
        )
        assert app.prompt.dialog is not None
        app.prompt.dialog.deny_button.click()

        qtbot.waitUntil(lambda: "denied on" in cell(app, "newcomer", STATUS), timeout=WAIT_MS)
        assert re.search(f"denied on {STAMP}", cell(app, "newcomer", STATUS))
        srv = store.read().servers["newcomer"]
        assert srv.decision == "deny" and srv.decided_at

        qtbot.waitUntil(
            lambda: bool(events_of(layout, "newcomer", "roots-list-answered")), timeout=WAIT_MS
        )
        qtbot.waitUntil(
            lambda: re.fullmatch(STAMP, cell(app, "newcomer", LAST_ASKED)) is not None,
            timeout=WAIT_MS,
        )
        host.close()
        qtbot.waitUntil(lambda: "not running" in cell(app, "newcomer", STATUS), timeout=WAIT_MS)
        assert re.fullmatch(STAMP, cell(app, "newcomer", LAST_ASKED)), "the last request was lost"
    finally:
        host.close()
        app.shutdown()

    # a new run of the app finds the last request in the logs, and the decision in the store
    again = AppController(layout)
    again.start()
    try:
        assert again.window is not None
        qtbot.addWidget(again.window)
        qtbot.waitUntil(
            lambda: re.fullmatch(STAMP, cell(again, "newcomer", LAST_ASKED)) is not None,
            timeout=WAIT_MS,
        )
        assert "denied on" in cell(again, "newcomer", STATUS)
    finally:
        again.shutdown()

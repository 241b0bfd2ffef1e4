"""The consent prompt as a new user meets it: the server's real deadline, and adding folders."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from roots_manager.core.consent.wait import WaitStage, wait_of
from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events
from roots_manager.core.servers.command import demo_command
from roots_manager.core.store.file import Store
from roots_manager.gui.consent.consent_dialog import ConsentDialog
from roots_manager.gui.shell.app import AppController
from tests.fakes.bridge_host import BridgeHost, events_of
from tests.gui.shell_support import answer_folder_dialog, folders

WAIT_MS = 30_000


@pytest.fixture
def app(layout: Layout, qtbot: QtBot) -> Iterator[AppController]:
    c = AppController(layout)
    c.start()
    assert c.window is not None
    qtbot.addWidget(c.window)
    yield c
    c.shutdown()


def open_dialog(app: AppController, qtbot: QtBot) -> ConsentDialog:
    assert app.prompt is not None
    qtbot.waitUntil(
        lambda: app.prompt is not None and app.prompt.dialog is not None, timeout=WAIT_MS
    )
    dialog = app.prompt.dialog
    assert dialog is not None
    return dialog


def test_wait_of_reads_the_stages_a_bridge_logs() -> None:
    start = {"kind": events.CONSENT_WAIT, "timeout": 30.0, "ts": "2026-01-01T10:00:00.000Z"}
    asked = {"kind": events.ROOTS_ASKED, "held": True, "ts": "2026-01-01T10:00:02.000Z"}
    over = {"kind": events.CONSENT_DECIDED, "outcome": "timeout"}
    assert wait_of([{"kind": events.ROOTS_ASKED}]) is None
    first = wait_of([start])
    assert first is not None and first.stage is WaitStage.NOT_ASKED
    assert first.remaining(0.0) is None
    held = wait_of([start, asked])
    assert held is not None and held.stage is WaitStage.HOLDING and held.held_since
    assert held.remaining(held.held_since + 7) == pytest.approx(23.0)
    assert held.remaining(held.held_since + 99) == 0.0
    done = wait_of([start, asked, over])
    assert done is not None and done.stage is WaitStage.TIMED_OUT
    decided = wait_of([start, asked, {"kind": events.CONSENT_DECIDED, "outcome": "decided"}])
    assert decided is not None and decided.stage is WaitStage.DECIDED


@pytest.mark.usefixtures("advisory_new_servers")
def test_the_prompt_counts_down_the_servers_wait_then_says_what_it_was_told(
    app: AppController, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    (a,) = folders(tmp_path, "alpha")
    with store.transaction() as state:
        rid = state.add_root(str(a)).id
    host = BridgeHost("roots-demo", demo_command(), "--consent-timeout", "6")
    try:
        host.handshake()
        dialog = open_dialog(app, qtbot)
        # the bridge holds the server's roots/list: a live countdown, in whole seconds
        qtbot.waitUntil(
            lambda: (
                re.fullmatch(r"roots-demo is waiting: [1-6] s", dialog.wait_label.text())
                is not None
            ),
            timeout=WAIT_MS,
        )
        first = dialog.wait_label.text()
        qtbot.waitUntil(lambda: dialog.wait_label.text() != first, timeout=5_000)
        # then, plainly, what the server was told, and that deciding still helps
        qtbot.waitUntil(lambda: "time ran out" in dialog.wait_label.text(), timeout=WAIT_MS)
        assert "answered with no folder" in dialog.wait_label.text()
        assert "still reaches it" in dialog.wait_label.text()
        assert events_of(app.layout, "roots-demo", "consent-decided")[0]["outcome"] == "timeout"

        dialog.set_checked([rid])
        dialog.always_button.click()
        qtbot.waitUntil(
            lambda: any(
                a.as_uri() in (e.get("uris") or [])
                for e in events_of(app.layout, "roots-demo", "list-changed-sent")
            ),
            timeout=WAIT_MS,
        )
    finally:
        host.close()


def test_first_run_prompt_can_add_a_folder_and_take_a_drop(
    app: AppController, store: Store, tmp_path: Path, qtbot: QtBot, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    picked, dropped = folders(tmp_path, "picked", "dropped")
    with store.transaction() as state:
        state.server_started("newcomer", ["/usr/bin/newcomer"], "session-1")
    dialog = open_dialog(app, qtbot)
    assert dialog.model.rowCount() == 0
    assert dialog.add_button.isVisible()
    # no root yet, the welcome shown: the prompt opens below it, not over what it says
    assert app.window is not None
    welcome = app.window.welcome
    assert welcome.isVisible()
    below = welcome.mapToGlobal(QPoint(0, welcome.height())).y()
    assert dialog.frameGeometry().top() >= below, (dialog.frameGeometry(), below)
    assert dialog.screen().availableGeometry().contains(dialog.frameGeometry())
    assert "Add folder" in dialog.roots_label.text()
    # no bridge of it runs: the prompt says so rather than counting down nothing
    assert "is not waiting now" in dialog.wait_label.text()

    # the folder dialog opens in the home folder, not wherever the app was started from
    started: list[str] = []
    monkeypatch.chdir(tmp_path)
    answer_folder_dialog(picked, started)
    dialog.add_button.click()
    assert started == [str(Path.home())]
    assert [r.path for r in store.read().roots] == [str(picked)]
    assert dialog.model.rowCount() == 1
    assert dialog.checked_root_ids() == [store.read().roots[0].id]
    assert dialog.always_button.isEnabled()

    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(dropped)), QUrl.fromLocalFile(str(tmp_path / "nope"))])
    viewport = dialog.roots.viewport()
    enter = QDragEnterEvent(
        QPoint(5, 5),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, enter)
    assert enter.isAccepted()
    drop = QDropEvent(
        QPoint(5, 5).toPointF(),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, drop)
    assert drop.isAccepted()
    assert sorted(r.path for r in store.read().roots) == sorted([str(picked), str(dropped)])
    assert len(dialog.checked_root_ids()) == 2

    dialog.always_button.click()
    state = store.read()
    assert not state.pending
    assert {g.root for g in state.grants if g.server == "newcomer"} == {r.id for r in state.roots}


def test_the_prompt_says_the_network_of_a_server_limited_to_domains(
    app: AppController, store: Store, qtbot: QtBot
) -> None:
    """Issue 42: the prompt's footer said the network "is not restricted" for a confined server
    whose network reaches only its domains."""
    from roots_manager.core.confinement import confined

    with store.transaction() as state:
        state.server_started("web", ["/usr/bin/web"], "session-1")
        confined.set_confinement(state, "web", True)
        confined.set_domains(state, "web", ["api.github.com"])
    dialog = open_dialog(app, qtbot)
    assert dialog.notice.text().endswith(
        "Its network reaches only its domains, through Roots Manager's proxy."
    )

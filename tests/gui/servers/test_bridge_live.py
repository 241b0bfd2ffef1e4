"""The app against real bridges in front of real servers: grants, consent, the stale flag."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.servers.servers_model import BRIDGE, STALE, STATUS
from roots_manager.gui.servers.servers_view import ServersPanel
from roots_manager.gui.shell.app import AppController
from tests.fakes.bridge_host import NEVER_REASKS, BridgeHost, events_of
from tests.gui.shell_support import folders

WAIT = 30_000


@pytest.fixture
def hosts() -> Iterator[list[BridgeHost]]:
    started: list[BridgeHost] = []
    yield started
    for h in started:
        h.close()


def server_row(panel: ServersPanel, name: str) -> int:
    m = panel.servers_model
    for r in range(m.rowCount()):
        if m.index(r, 0).data() == name:
            return r
    return -1


@pytest.mark.usefixtures("advisory_new_servers")
def test_toggling_the_matrix_makes_a_running_bridge_send_list_changed(
    watcher: StoreWatcher,
    store: Store,
    layout: Layout,
    tmp_path: Path,
    filesystem_server: list[str],
    hosts: list[BridgeHost],
    qtbot,
) -> None:  # type: ignore[no-untyped-def]
    a, b = folders(tmp_path, "alpha", "beta")
    with store.transaction() as state:
        state.add_root(str(a))
        state.add_root(str(b))
        state.set_policy("deny")  # a new server is known at once and sees nothing
    host = BridgeHost("fs", [*filesystem_server, str(a)])
    hosts.append(host)
    host.handshake()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: bool(events_of(layout, "fs", "roots-list-answered")), timeout=WAIT)
    qtbot.waitUntil(lambda: panel.matrix_model.rowCount() == 1, timeout=WAIT)
    qtbot.waitUntil(
        lambda: panel.servers_model.index(0, STATUS).data().startswith("running"), timeout=WAIT
    )
    assert not events_of(layout, "fs", "list-changed-sent")

    cell = panel.matrix_model.index(0, 1)
    assert panel.matrix_model.set_scope(cell, "always")
    assert [(g.server, g.scope) for g in store.read().grants] == [("fs", "always")]
    qtbot.waitUntil(lambda: bool(events_of(layout, "fs", "list-changed-sent")), timeout=WAIT)
    # the filesystem server re-asks and gets the new root
    qtbot.waitUntil(
        lambda: any(
            b.as_uri() in (e.get("uris") or [])
            for e in events_of(layout, "fs", "roots-list-answered")
        ),
        timeout=WAIT,
    )


def test_consent_dialog_answers_a_waiting_bridge(
    layout: Layout,
    store: Store,
    tmp_path: Path,
    filesystem_server: list[str],
    hosts: list[BridgeHost],
    qtbot,
) -> None:  # type: ignore[no-untyped-def]
    a, b = folders(tmp_path, "alpha", "beta")
    with store.transaction() as state:
        rb = (state.add_root(str(a)), state.add_root(str(b)))[1].id
    controller = AppController(layout)
    controller.start()
    try:
        assert controller.prompt is not None
        host = BridgeHost("newcomer", [*filesystem_server, str(a)], "--consent-timeout", "120")
        hosts.append(host)
        host.handshake()
        qtbot.waitUntil(lambda: controller.prompt.dialog is not None, timeout=WAIT)  # type: ignore[union-attr]
        dialog = controller.prompt.dialog
        assert dialog is not None
        assert dialog.question.server == "newcomer"
        assert dialog.question.reason == "new-server"
        assert str(filesystem_server[-1]) in dialog.command.toPlainText()
        assert events_of(layout, "newcomer", "consent-wait")
        assert not events_of(layout, "newcomer", "roots-list-answered")
        dialog.set_checked([rb])
        dialog.always_button.click()
        qtbot.waitUntil(
            lambda: any(
                b.as_uri() in (e.get("uris") or [])
                for e in events_of(layout, "newcomer", "roots-list-answered")
            ),
            timeout=WAIT,
        )
        assert not store.read().pending
    finally:
        controller.shutdown()


@pytest.mark.usefixtures("advisory_new_servers")
def test_stale_flag_for_a_server_that_does_not_re_ask(
    watcher: StoreWatcher,
    store: Store,
    layout: Layout,
    tmp_path: Path,
    hosts: list[BridgeHost],
    qtbot,
) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "alpha")
    with store.transaction() as state:
        state.add_root(str(a))
        state.set_policy("deny")
    host = BridgeHost("cacher", [sys.executable, str(NEVER_REASKS)])
    hosts.append(host)
    host.handshake()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: bool(events_of(layout, "cacher", "roots-list-answered")), timeout=WAIT)
    qtbot.waitUntil(lambda: server_row(panel, "cacher") >= 0, timeout=WAIT)
    row = server_row(panel, "cacher")
    qtbot.waitUntil(
        lambda: panel.servers_model.index(row, STATUS).data().startswith("running"), timeout=WAIT
    )
    assert panel.servers_model.index(row, STALE).data() == ""
    assert panel.matrix_model.set_scope(panel.matrix_model.index(0, 0), "always")
    qtbot.waitUntil(lambda: bool(events_of(layout, "cacher", "list-changed-sent")), timeout=WAIT)
    qtbot.waitUntil(lambda: panel.servers_model.index(row, STALE).data() == "stale", timeout=WAIT)
    assert len(events_of(layout, "cacher", "roots-list-answered")) == 1


def test_send_list_changed_shows_whether_the_server_asks_again(
    watcher: StoreWatcher,
    store: Store,
    layout: Layout,
    tmp_path: Path,
    filesystem_server: list[str],
    hosts: list[BridgeHost],
    qtbot,
) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "alpha")
    with store.transaction() as state:
        state.grant("fs", [state.add_root(str(a)).id])
        state.set_policy("deny")
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    # the server is known (it has a grant) and selected, but nothing runs yet
    qtbot.waitUntil(lambda: server_row(panel, "fs") >= 0, timeout=WAIT)
    panel.servers.setCurrentIndex(panel.servers_model.index(server_row(panel, "fs"), 0))
    assert panel.selected_server() == "fs"
    assert not panel.notify_button.isEnabled() and not panel.notify_action.isEnabled()
    host = BridgeHost("fs", [*filesystem_server, str(a)])
    hosts.append(host)
    host.handshake()
    qtbot.waitUntil(lambda: len(events_of(layout, "fs", "roots-list-answered")) == 1, timeout=WAIT)
    qtbot.waitUntil(panel.notify_button.isEnabled, timeout=WAIT)
    assert panel.notify_action.isEnabled()

    with qtbot.waitSignal(panel.list_changed_requested, timeout=WAIT) as asked:
        panel.notify_button.click()
    assert asked.args == ["fs", 1]
    # the reference server asks again after every list_changed, and gets the same roots
    qtbot.waitUntil(lambda: len(events_of(layout, "fs", "roots-list-answered")) == 2, timeout=WAIT)
    answers = events_of(layout, "fs", "roots-list-answered")
    assert answers[0]["uris"] == answers[1]["uris"] == [a.as_uri()]
    assert [e["outcome"] for e in events_of(layout, "fs", "list-changed-asked")] == ["sent"]
    assert not events_of(layout, "fs", "list-changed-sent")  # the roots did not change

    host.close()  # the bridge ends: nothing is left to ask
    qtbot.waitUntil(lambda: not panel.notify_button.isEnabled(), timeout=WAIT)
    assert not panel.notify_action.isEnabled()


def test_send_list_changed_is_not_offered_for_an_observing_bridge(
    watcher: StoreWatcher,
    store: Store,
    layout: Layout,
    tmp_path: Path,
    filesystem_server: list[str],
    hosts: list[BridgeHost],
    qtbot,
) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "alpha")
    with store.transaction() as state:
        state.grant("fs", [state.add_root(str(a)).id])
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    host = BridgeHost("fs", [*filesystem_server, str(a)], "--observe")
    hosts.append(host)
    host.handshake()
    qtbot.waitUntil(
        lambda: "observing only" in (panel.servers_model.index(0, BRIDGE).data() or ""),
        timeout=WAIT,
    )
    panel.servers.setCurrentIndex(panel.servers_model.index(0, 0))
    assert panel.selected_server() == "fs"
    assert not panel.notify_button.isEnabled() and not panel.notify_action.isEnabled()

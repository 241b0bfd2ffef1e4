"""The servers list and the consent matrix, against a real store and real marker files."""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox

from roots_manager.actions import confinement
from roots_manager.core.directory.layout import Layout
from roots_manager.core.runs import live
from roots_manager.core.runs.live import BridgeMarker
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import now_iso
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.servers.consent_matrix import CellScopeRole, ConsentMatrixModel
from roots_manager.gui.servers.servers_model import (
    BRIDGE,
    LAST_ASKED,
    STALE,
    STARTED,
    STATUS,
    ServersModel,
)
from roots_manager.gui.servers.servers_view import ServersPanel
from tests.conftest import only_on_linux, run_cli
from tests.gui.shell_support import folders


def seed(store: Store, tmp_path: Path) -> list[str]:
    a, b = folders(tmp_path, "alpha", "beta")
    with store.transaction() as state:
        ids = [state.add_root(str(a)).id, state.add_root(str(b)).id]
        state.grant("files", [])
        state.grant("notes", [ids[1]])
        for srv in state.servers.values():
            srv.confine = False  # advisory, as servers known before confinement by default
    return ids


def test_space_cycles_a_cell_and_every_step_is_saved(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    ids = seed(store, tmp_path)
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    m = panel.matrix_model
    assert [m.headerData(i, Qt.Orientation.Vertical) for i in range(m.rowCount())] == [
        "files",
        "notes",
    ]
    cell = m.index(0, 0)
    panel.matrix.setFocus()
    panel.matrix.setCurrentIndex(cell)

    def grants() -> list[tuple[str, str, str]]:
        return sorted((g.server, g.root, g.scope) for g in store.read().grants)

    qtbot.keyClick(panel.matrix, Qt.Key.Key_Space)
    assert ("files", ids[0], "session") in grants()
    assert cell.data(CellScopeRole) == "session"
    qtbot.keyClick(panel.matrix, Qt.Key.Key_Space)
    assert ("files", ids[0], "always") in grants()
    assert cell.data(CellScopeRole) == "always" and cell.data() == "Always"
    qtbot.keyClick(panel.matrix, Qt.Key.Key_Space)
    assert grants() == [("notes", ids[1], "always")]

    # the context menu sets a scope directly, including always -> while running
    m.set_scope(m.index(1, 1), "session")
    assert grants() == [("notes", ids[1], "session")]
    assert m.index(1, 1).data() == "While running"


def test_one_click_on_a_cell_changes_it_and_the_states_read_as_words(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    ids = seed(store, tmp_path)
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    qtbot.waitExposed(panel)
    m = panel.matrix_model
    cell = m.index(0, 0)
    assert cell.data() == "Not granted"
    assert not cell.flags() & Qt.ItemFlag.ItemIsUserCheckable  # no tri-state box to decipher
    assert cell.data(Qt.ItemDataRole.CheckStateRole) is None
    marks = [m.index(0, 0).data(Qt.ItemDataRole.DecorationRole)]
    center = panel.matrix.visualRect(cell).center()

    def scope_of() -> str | None:
        return next(
            (g.scope for g in store.read().grants if (g.server, g.root) == ("files", ids[0])),
            None,
        )

    qtbot.mouseClick(panel.matrix.viewport(), Qt.MouseButton.LeftButton, pos=center)
    assert scope_of() == "session" and cell.data() == "While running"
    marks.append(cell.data(Qt.ItemDataRole.DecorationRole))
    qtbot.mouseClick(panel.matrix.viewport(), Qt.MouseButton.LeftButton, pos=center)
    assert scope_of() == "always" and cell.data() == "Always"
    marks.append(cell.data(Qt.ItemDataRole.DecorationRole))
    qtbot.mouseClick(panel.matrix.viewport(), Qt.MouseButton.LeftButton, pos=center)
    assert scope_of() is None and cell.data() == "Not granted"
    # three marks anyone can tell apart, explained by the legend under the matrix
    images = [mark.pixmap(16, 16).toImage() for mark in marks]
    assert images[0] != images[1] != images[2] != images[0]
    legend = " ".join(w.text() for w in panel.legend.findChildren(QLabel))
    assert "Always" in legend and "While running" in legend and "Not granted" in legend

    # the right-click menu offers the three as one choice: radio items
    menu = panel._cell_menu(cell)
    scopes = [a for a in menu.actions() if a.isCheckable() and a.actionGroup() is not None]
    assert len(scopes) == 3
    group = scopes[0].actionGroup()
    assert group is not None and group.isExclusive()
    assert [a.isChecked() for a in scopes] == [False, False, True]


def test_policy_choice_is_saved_and_follows_the_cli(
    watcher: StoreWatcher, store: Store, qtbot
) -> None:  # type: ignore[no-untyped-def]
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.policy.setCurrentIndex(panel.policy.findData("deny"))
    panel.policy.activated.emit(panel.policy.currentIndex())
    assert store.read().policy == "deny"
    run_cli("policy", "ask")
    qtbot.waitUntil(lambda: panel.policy.currentData() == "ask", timeout=10_000)


@only_on_linux("confinement by default needs Landlock; macOS's sandbox is never a default")
def test_confining_new_servers_is_a_click_and_follows_the_cli(
    watcher: StoreWatcher, store: Store, qtbot
) -> None:  # type: ignore[no-untyped-def]
    """The switch for servers first seen from now on: on by default where this machine can
    confine (this kernel can: the test runs only where Landlock is), saved by a click."""
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    watcher.reload()
    assert watcher.by_default is True
    qtbot.waitUntil(lambda: panel.confine_new.isChecked(), timeout=10_000)
    assert panel.confine_new.isEnabled()
    qtbot.mouseClick(panel.confine_new, Qt.MouseButton.LeftButton)
    assert store.read().confine_new is False
    run_cli("policy", "--confine-new", "on")
    qtbot.waitUntil(lambda: panel.confine_new.isChecked(), timeout=10_000)


def test_running_and_stale_servers_show_from_their_markers(
    watcher: StoreWatcher, store: Store, layout: Layout, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    seed(store, tmp_path)
    watcher.reload()
    model = ServersModel(watcher)
    assert model.index(0, STATUS).data() == "not running"
    assert model.index(0, LAST_ASKED).data() == "never"
    # a marker of this very process: alive for as long as the test runs
    marker = BridgeMarker(
        run="s-test",
        server="files",
        pid=os.getpid(),
        started_at=now_iso(),
        command=["files-server", "--stdio"],
        protocol="2025-06-18",
        last_roots_list_at=now_iso(),
        last_list_changed_at=now_iso(),
        stale=True,
    )
    live.write_bridge_marker(layout, marker)
    qtbot.waitUntil(lambda: model.index(0, STATUS).data() == "running", timeout=10_000)
    assert "protocol 2025-06-18" in model.index(0, 2).data()
    assert model.index(0, STALE).data() == "stale"
    assert "has not asked" in model.index(0, STALE).data(Qt.ItemDataRole.ToolTipRole)
    live.remove_bridge_marker(layout, "s-test")
    qtbot.waitUntil(lambda: model.index(0, STATUS).data() == "not running", timeout=10_000)
    assert model.index(0, STALE).data() == ""


def test_the_all_grants_table_shows_bridge_columns_only_while_a_server_runs(
    watcher: StoreWatcher, store: Store, layout: Layout, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    seed(store, tmp_path)
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    table = panel.servers
    # nothing runs: no empty, wide Bridge column (nor Started) beside what says something
    assert table.isColumnHidden(BRIDGE) and table.isColumnHidden(STARTED)
    assert not table.isColumnHidden(STATUS)
    marker = BridgeMarker(
        run="s-cols",
        server="files",
        pid=os.getpid(),
        started_at=now_iso(),
        command=["files-server", "--stdio"],
        protocol="2025-06-18",
    )
    live.write_bridge_marker(layout, marker)
    qtbot.waitUntil(lambda: not table.isColumnHidden(BRIDGE), timeout=10_000)
    assert not table.isColumnHidden(STARTED)
    assert table.columnWidth(BRIDGE) > 0
    live.remove_bridge_marker(layout, "s-cols")
    qtbot.waitUntil(lambda: table.isColumnHidden(BRIDGE), timeout=10_000)


def test_models_pass_the_model_tester(
    watcher: StoreWatcher, store: Store, layout: Layout, tmp_path: Path, qtmodeltester
) -> None:  # type: ignore[no-untyped-def]
    ids = seed(store, tmp_path)
    with store.transaction() as state:
        state.grant("files", [ids[0]], "session", ["s-test"])
    live.write_bridge_marker(
        layout,
        BridgeMarker("s-test", "files", os.getpid(), now_iso(), ["x"], stale=True),
    )
    watcher.reload()
    servers = ServersModel(watcher)
    matrix = ConsentMatrixModel(watcher)
    assert servers.rowCount() == 2 and matrix.rowCount() == 2 and matrix.columnCount() == 2
    qtmodeltester.check(servers, force_py=True)
    qtmodeltester.check(matrix, force_py=True)


def test_a_new_user_is_told_how_servers_appear(watcher: StoreWatcher, store: Store, qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.empty_hint.isVisible()
    assert "roots-bridge" in panel.empty_hint.text()
    with store.transaction() as state:
        state.server_started("files", ["files-server"], "s1")
    qtbot.waitUntil(lambda: not panel.empty_hint.isVisible(), timeout=10_000)


def test_help_shows_a_host_configuration_that_starts_the_bridge(controller, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = controller.window
    window.explain_hosts()
    box = next(b for b in window.findChildren(QMessageBox) if b.isVisible())
    snippet = re.search(r"<pre>(.*)</pre>", box.text(), re.S)
    assert snippet is not None
    config = json.loads(html.unescape(snippet.group(1)))
    entry = config["mcpServers"]["fs"]
    # a full path: hosts often start servers with a short PATH
    assert Path(entry["command"]).name == "roots-bridge" and Path(entry["command"]).is_file()
    assert entry["args"][:3] == ["--server", "fs", "--"]
    box.close()


def test_approve_approves_the_command_on_screen_only(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    (a,) = folders(tmp_path, "alpha")
    with store.transaction() as state:
        state.server_started("files", ["files-server", "--v1"], "s1")
        state.grant("files", [state.add_root(str(a)).id])
        state.server_started("files", ["files-server", "--v2"], "s2")
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: "files" in watcher.state.servers, timeout=10_000)
    qtbot.waitUntil(lambda: watcher.state.servers["files"].suspended, timeout=10_000)
    panel.servers.setCurrentIndex(panel.servers_model.index(0, 0))
    assert panel.approve_button.isEnabled()

    # the server restarts with another command; the window has not caught up yet
    with store.transaction() as state:
        state.server_started("files", ["files-server", "--v3"], "s3")
    with qtbot.waitSignal(watcher.edit_failed, timeout=10_000) as refused:
        panel.approve_button.click()
    assert "another command line" in refused.args[0]
    assert store.read().servers["files"].suspended

    qtbot.waitUntil(lambda: watcher.state.servers["files"].command[-1] == "--v3", timeout=10_000)
    panel.approve_button.click()
    assert not store.read().servers["files"].suspended
    assert (
        store.read().servers["files"].fingerprint == store.read().servers["files"].seen_fingerprint
    )


def test_the_watcher_catches_up_without_change_notifications(store: Store, qtbot) -> None:  # type: ignore[no-untyped-def]
    w = StoreWatcher(store)
    w.start()
    try:
        # as on a file system that never reports changes, or after the watch thread failed
        assert w._thread is not None
        w._thread.stop()
        with qtbot.waitSignal(w.state_changed, timeout=10_000):
            run_cli("policy", "deny")
        assert w.state.policy == "deny"
    finally:
        w.stop()


def test_stored_look_alike_names_show_their_hidden_characters(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    ids = seed(store, tmp_path)
    # names a store may hold from before they were refused, or from a hand edit
    doc = json.loads(store.path.read_text(encoding="utf-8"))
    for name in ("files\u200b", "files "):
        doc["servers"][name] = {}
        doc["grants"].append({"server": name, "root": ids[0], "scope": "always"})
    store.path.write_text(json.dumps(doc), encoding="utf-8")
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    m, servers = panel.matrix_model, panel.servers_model
    headers = [m.headerData(i, Qt.Orientation.Vertical) for i in range(m.rowCount())]
    assert headers == ["files", "files\\x20", "files\\u200b", "notes"]
    assert sorted(servers.index(i, 0).data() for i in range(servers.rowCount())) == sorted(headers)
    # the escape is only on screen: the cell still edits the real name's grant
    row = headers.index("files\\u200b")
    assert "files\\u200b always sees" in m.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    m.set_scope(m.index(row, 0), None)
    assert sorted(g.server for g in store.read().grants) == ["files ", "notes"]


def test_the_servers_notice_says_what_roots_are_worth_for_the_servers_in_view(
    watcher: StoreWatcher, store: Store, qtbot
) -> None:  # type: ignore[no-untyped-def]
    """Issue 38: it said roots "are not an access control" for a server that runs confined
    (confinement is on by default); it says so only of one that does not."""
    with store.transaction() as state:
        state.server_started("locked", ["locked"], "r1", confined=True)
        state.server_started("open", ["open"], "r2", confined=False)
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    panel.views.setCurrentIndex(0)
    panel.select_server("locked")
    text = panel.notice.text()
    assert "not an access control" not in text
    assert "locked runs confined: the kernel holds it to the folders you grant." in text
    assert panel.notice.accessibleName() == "Notice: the kernel holds this server to its grants"
    panel.select_server("open")
    text = panel.notice.text()
    assert "open does not run confined: roots tell it where to look; they are not an access " \
        "control." in text  # fmt: skip
    # every server in view (All grants): one confined, one not
    panel.views.setCurrentIndex(1)
    assert "only a confined server (marked with a lock) is held to them" in panel.notice.text()
    # confined both: held, all of them
    watcher.act(lambda s: confinement.confine(s, "open", True))
    assert "These servers run confined: the kernel holds each" in panel.notice.text()
    # and a server whose live run is not confined is held only from its next start: told by
    # the real bridge's marker in the test above; here its setting alone
    panel.views.setCurrentIndex(0)
    panel.select_server("open")
    assert "open runs confined" in panel.notice.text()

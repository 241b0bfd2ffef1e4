"""The Servers tab's master list and the selected server's detail, driven as a user does."""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.hosts.known import HOSTS
from roots_manager.core.log import events
from roots_manager.core.log.index import LogIndex
from roots_manager.core.log.timeline import MarkKind
from roots_manager.core.runs import live
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Scope
from roots_manager.gui.common.resources import install_translators
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.log.timeline_view import LABEL_WIDTH, TimelineView
from roots_manager.gui.servers.server_list import ServerList
from roots_manager.gui.servers.servers_view import ServersPanel
from roots_manager.gui.servers.serverview.badge import Badge, Protection
from roots_manager.gui.servers.serverview.folders import CHOICES, NOT_GRANTED, Choice
from tests.bridge.wire import BridgeProc, bridge_argv, initialize, is_id
from tests.bridge.wire import events as logged
from tests.conftest import only_on_linux, run_cli
from tests.fakes import FAKES
from tests.gui.shell_support import folders

FILE_TOOL = FAKES / "file_tool_server.py"

ALWAYS = Choice(Scope.ALWAYS)
ALWAYS_READ_ONLY = Choice(Scope.ALWAYS, True)


def panel_with(watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot) -> ServersPanel:
    a, b = folders(tmp_path, "alpha", "beta")
    with store.transaction() as state:
        ids = [state.add_root(str(a)).id, state.add_root(str(b)).id]
        # started unconfined (advisory), as a bridge that could not confine records them
        state.server_started("files", ["npx", "files"], "run-f", confined=False)
        state.server_started("notes", ["npx", "notes"], "run-n", confined=False)
        state.grant("notes", [ids[1]])
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def grants_of(store: Store, server: str) -> dict[str, tuple[Scope, bool]]:
    state = store.read()
    names = {r.id: r.name for r in state.roots}
    return {names[g.root]: (g.scope, g.read_only) for g in state.grants if g.server == server}


def test_selecting_a_server_in_the_list_shows_its_folders_and_acts_on_it(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    assert panel.server_list.names() == ["files", "notes"]
    assert not panel.detail.isEnabled()  # nothing selected yet

    panel.server_list.select_server("notes")
    assert panel.detail.server == "notes" and panel.selected_server() == "notes"
    assert panel.detail_title.text() == "notes"
    rows = {r.name: r.choice for r in panel.detail.rows}
    assert rows == {"alpha": NOT_GRANTED, "beta": ALWAYS}
    box = panel.detail.folders.cellWidget(1, 0 + 1)
    assert box.currentText() == "always"
    # the confinement switch is the detail's, and follows the selection
    assert panel.confine_box._server == "notes"

    # selecting in the All grants table moves the list's selection too
    m = panel.servers_model
    row = next(r for r in range(m.rowCount()) if m.index(r, 0).data() == "files")
    panel.servers.selectRow(row)
    assert panel.server_list.selected_server() == "files"
    assert panel.detail.server == "files"


def test_a_folder_is_granted_changed_and_revoked_from_the_detail(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    panel.select_server("files")
    alpha = next(r for r in panel.detail.rows if r.name == "alpha")
    box = panel.detail.folders.cellWidget(0, 1)
    # what a user picking "always" in the row's box does
    box.setCurrentIndex(CHOICES.index(ALWAYS))
    box.activated.emit(CHOICES.index(ALWAYS))
    assert grants_of(store, "files") == {"alpha": (Scope.ALWAYS, False)}
    qtbot.waitUntil(lambda: panel.detail.choice_of(alpha.root_id) == ALWAYS)

    panel.detail.choose(alpha.root_id, ALWAYS_READ_ONLY)
    assert grants_of(store, "files") == {"alpha": (Scope.ALWAYS, True)}
    qtbot.waitUntil(lambda: panel.detail.choice_of(alpha.root_id) == ALWAYS_READ_ONLY)
    assert panel.detail.folders.cellWidget(0, 1).currentText() == "always, read-only"

    panel.detail.choose(alpha.root_id, NOT_GRANTED)
    assert grants_of(store, "files") == {}
    # the other server's grant was never touched
    assert grants_of(store, "notes") == {"beta": (Scope.ALWAYS, False)}


def test_add_folder_makes_a_root_and_grants_it_and_refuses_a_broad_one_unless_confirmed(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    panel.select_server("files")
    (gamma,) = folders(tmp_path, "gamma")
    assert panel.detail.add_folder(str(gamma))
    assert str(gamma) in [r.path for r in store.read().roots]
    assert grants_of(store, "files") == {"gamma": (Scope.ALWAYS, False)}
    qtbot.waitUntil(lambda: "gamma" in [r.name for r in panel.detail.rows])

    asked: list[str] = []

    def no(path: str) -> bool:
        asked.append(path)
        return False

    panel.detail.confirm_broad = no
    before = store.read()
    assert not panel.detail.add_folder("/")
    assert asked == ["/"]
    assert store.read().roots == before.roots and store.read().grants == before.grants

    panel.detail.confirm_broad = lambda path: True
    assert panel.detail.add_folder("/")
    assert "/" in [r.path for r in store.read().roots]
    assert ("/" in {r.path for r in store.read().roots}) and len(grants_of(store, "files")) == 2


def test_an_action_is_shown_only_while_it_applies(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    with store.transaction() as state:
        state.server_started("notes", ["npx", "notes", "--changed"], "run-n2")  # suspended
    watcher.reload()
    qtbot.waitUntil(lambda: store.read().servers["notes"].suspended)

    panel.select_server("files")
    assert panel.forget_button.isVisibleTo(panel) and panel.forget_button.isEnabled()
    assert panel.probe_button.isVisibleTo(panel)
    assert not panel.approve_button.isVisibleTo(panel)
    assert not panel.disconnect_button.isVisibleTo(panel)

    panel.select_server("notes")
    qtbot.waitUntil(lambda: panel.approve_button.isVisibleTo(panel))
    assert panel.approve_button.isEnabled()
    panel.approve_button.click()
    assert not store.read().servers["notes"].suspended
    qtbot.waitUntil(lambda: not panel.approve_button.isVisibleTo(panel))

    # Disconnect is there for a server this app connected, which the list groups apart
    panel.set_app_connected(frozenset({"files"}))
    panel.select_server("files")
    assert panel.disconnect_button.isVisibleTo(panel) and panel.disconnect_button.isEnabled()
    heads = [
        panel.server_list.topLevelItem(i).text(0)
        for i in range(panel.server_list.topLevelItemCount())
    ]
    assert heads == ["Started by this app", "Started by hand"]


def test_the_badge_and_the_last_events_of_the_selected_server(
    watcher: StoreWatcher, store: Store, layout: Layout, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    # the policy asks: a new server waits for the user's consent
    assert panel.server_list.badge_of("files") == "not running, advisory, waiting for consent"

    writer = events.EventWriter(layout, "run-f")
    for i in range(8):
        writer.write(
            events.event(
                events.MESSAGE, "files", "run-f", dir=events.HOST_TO_SERVER, id=i, method=f"m{i}"
            )
        )
    writer.write(
        events.event(
            events.MESSAGE, "notes", "run-f", dir=events.HOST_TO_SERVER, id=99, method="other"
        )
    )
    writer.close()
    index = LogIndex(layout)
    index.scan()
    panel.set_log_index(index)
    panel.select_server("files")
    shown = [panel.detail.recent.item(i).text() for i in range(panel.detail.recent.count())]
    assert len(shown) == 5
    assert "m7" in shown[0] and "m3" in shown[-1]  # the newest first
    assert not any("other" in line for line in shown)
    index.close()


def test_a_badge_counts_the_refusals_since_the_user_last_looked(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    """Denial events as the Log tells them (a folded one counts what it folds): each server's
    badge counts its own; selecting the server is looking, and its count goes; a refusal of the
    server on screen is seen there, so it is not counted."""
    panel = panel_with(watcher, store, tmp_path, qtbot)
    panel.select_server("notes")

    def refused(server: str, path: str | None = "/x", folded: int | None = None) -> dict:
        return events.event(
            events.DENIAL, server, "run", path=path, operation="read", folded=folded
        )

    panel.note_denials([refused("files"), refused("files", None, 40), refused("notes")])
    assert panel.server_list.badge_of("files").endswith(", 41 refusals")
    assert "refusal" not in panel.server_list.badge_of("notes")  # selected, on screen
    panel.select_server("files")
    assert "refusal" not in panel.server_list.badge_of("files")
    panel.note_denials([refused("notes")])
    assert panel.server_list.badge_of("notes").endswith(", 1 refusal")


def test_the_list_groups_the_servers_under_the_host_whose_file_wraps_them(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    panel.select_server("notes")
    host = HOSTS[0]
    panel.set_hosts({"notes": host})
    heads = {
        panel.server_list.topLevelItem(i).text(0): [
            panel.server_list.topLevelItem(i).child(j).text(0)
            for j in range(panel.server_list.topLevelItem(i).childCount())
        ]
        for i in range(panel.server_list.topLevelItemCount())
    }
    assert heads == {host.label: ["notes"], "Started by hand": ["files"]}
    assert panel.server_list.selected_server() == "notes"  # regrouping keeps the selection


def test_tab_walks_the_detail_top_to_bottom_and_scrolls_each_control_into_sight(
    watcher: StoreWatcher, store: Store, layout: Layout, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    index = LogIndex(layout)
    panel.set_log_index(index)
    # a window far smaller than the detail: its protection and activity are below the fold
    panel.resize(900, 420)
    panel.select_server("files")
    panel.activateWindow()
    qtbot.waitActive(panel)
    detail, box = panel.detail, panel.confine_box
    assert detail.lane is not None
    boxes = [detail.folders.cellWidget(i, 1) for i in range(detail.folders.rowCount())]
    expected = [
        detail.folders,
        *boxes,
        detail.learn_button,  # left of Add folder…, as shown
        detail.add_button,
        box.switch,
        detail.network.choice,
        box.restart_switch,
        box.add_read,
        box.add_write,
        detail.lane,
        detail.recent,
    ]
    scroll = panel.detail_scroll
    panel.forget_button.setFocus()
    qtbot.waitUntil(panel.forget_button.hasFocus)
    seen = []
    for _ in range(len(expected)):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        now = QApplication.focusWidget()
        seen.append(now)
        # whatever has the focus is in sight, whole: the pane scrolled to it
        where = now.mapTo(scroll.viewport(), QPoint(0, 0))
        assert where.y() >= 0 and where.y() + now.height() <= scroll.viewport().height()
    assert seen == expected
    assert scroll.verticalScrollBar().value() > 0  # it did have to scroll
    index.close()


def test_a_badge_too_long_for_the_list_wraps_under_its_name_and_is_read_whole(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    listed = panel.server_list
    long_words = listed.badge_of("files")
    short_words = listed.badge_of("notes")
    assert long_words == "not running, advisory, waiting for consent"
    assert short_words == "not running, advisory"
    line = listed.fontMetrics().lineSpacing()

    def height(name: str) -> int:
        return listed.visualItemRect(listed._items[name]).height()

    # wide: each badge on its server's line
    panel.resize(1600, 600)
    listed.setFixedWidth(listed.fontMetrics().horizontalAdvance(long_words) * 2)
    qtbot.waitUntil(lambda: height("files") < 2 * line)
    assert height("notes") < 2 * line
    # narrow, as at a 1.5 scale: the long badge goes under the name, on as many lines as its
    # words need in the width there is, never cut; the short one stays beside its name
    width = listed.fontMetrics().horizontalAdvance(long_words) * 2 // 3
    listed.setFixedWidth(width)
    qtbot.waitUntil(lambda: height("files") >= 3 * line)
    words_room = listed.fontMetrics().boundingRect(
        QRect(0, 0, listed.viewport().width() - listed.indentation() - 30, 10_000),
        int(Qt.TextFlag.TextWordWrap),
        long_words,
    )
    assert height("files") >= line + words_room.height()
    # and the whole badge on hover
    assert long_words in listed._items["files"].toolTip(0)


def test_the_refusals_of_a_badge_are_counted_in_each_language(qapp: QApplication) -> None:
    listed = ServerList()
    one = Badge(1, Protection.CONFINED, False, None, 1)
    many = Badge(1, Protection.CONFINED, False, None, 3)
    assert listed.badge_text(one) == "running, confined, 1 refusal"
    assert listed.badge_text(many) == "running, confined, 3 refusals"
    for language, words in (("ja", "拒否 3 件"), ("zh_CN", "3 次拒绝")):
        translators = install_translators(qapp, language)
        try:
            assert words in listed.badge_text(many)
        finally:
            for t in translators:
                qapp.removeTranslator(t)


def test_the_detail_paints_the_servers_own_lane_from_the_logs_timeline(
    watcher: StoreWatcher, store: Store, layout: Layout, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    writer = events.EventWriter(layout, "run-f")
    clock = [time.time() - 60]

    def write(kind: str, server: str, **fields: object) -> None:
        clock[0] += 2  # marks a few pixels apart, each one its own
        rec = events.event(kind, server, "run-f", **fields)
        rec["ts"] = datetime.fromtimestamp(clock[0], UTC).isoformat().replace("+00:00", "Z")
        writer.write(rec)

    for server in ("files", "notes"):
        for i in range(3):
            write(events.ROOTS_ASKED, server, dir=events.SERVER_TO_HOST, id=i)
            write(events.ROOTS_ANSWERED, server, dir=events.BRIDGE_TO_SERVER, id=i)
    write(events.LIST_CHANGED_SENT, "files")
    write(events.DENIAL, "files", path="/etc/x", operation="read")
    writer.close()
    index = LogIndex(layout)
    index.scan()
    log_timeline = TimelineView(index)  # the Log tab's
    log_timeline.refresh()
    panel.set_log_index(index, log_timeline.timeline)
    lane = panel.detail.lane
    assert lane is not None and lane.timeline is log_timeline.timeline  # one timeline, shared
    assert lane.legend_height == 0 and lane.height() < log_timeline.sizeHint().height()

    panel.select_server("files")
    assert lane.isVisibleTo(panel) and lane.lanes_shown() == ["files"]
    kinds = {m.kind for m in lane.timeline.lanes["files"].marks}
    assert kinds == {MarkKind.ASKED, MarkKind.ANSWERED, MarkKind.LIST_CHANGED, MarkKind.DENIED}
    # a click on its refusal's cross is that event, for the Log to select
    denial = next(m for m in lane.timeline.lanes["files"].marks if m.kind is MarkKind.DENIED)
    qtbot.waitUntil(lambda: lane.width() > LABEL_WIDTH + 50)
    at = lane.mark_position(denial, "files").toPoint()
    with qtbot.waitSignal(panel.detail.mark_clicked) as clicked:
        qtbot.mouseClick(lane, Qt.MouseButton.LeftButton, pos=at)
    assert clicked.args == [denial.row]

    panel.select_server("notes")
    assert lane.lanes_shown() == ["notes"]
    assert lane.point_of_row(denial.row) is None  # another server's marks are not painted
    index.close()


def test_restart_asks_each_bridge_that_can_restart_the_server_by_a_request_file(
    watcher: StoreWatcher, store: Store, layout: Layout, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    # two live bridges of files, started by a host the app does not know (this process stands
    # for their pid); one kept the host's handshake, one did not
    for run, restartable in (("run-f1", True), ("run-f2", False)):
        live.write_bridge_marker(
            layout,
            live.BridgeMarker(
                run=run,
                server="files",
                pid=os.getpid(),
                started_at="2026-12-01T00:00:00Z",
                command=["npx", "files"],
                restartable=restartable,
            ),
        )
    watcher.reload_markers()
    panel.select_server("files")
    qtbot.waitUntil(lambda: panel.restart_button.isVisibleTo(panel))
    assert panel.restart_button.isEnabled() and panel.restart_action.isEnabled()
    assert "files" not in panel.app_connected
    with qtbot.waitSignal(panel.restart_requested) as asked:
        panel.restart_button.click()
    assert asked.args == ["files", 1]
    taken = live.take_restart_request(layout, "run-f1")
    assert taken is not None and taken["by"] == "app"
    assert live.take_restart_request(layout, "run-f2") is None  # it could not have
    # a server whose bridges cannot restart it is not offered Restart
    panel.select_server("notes")
    assert not panel.restart_button.isVisibleTo(panel)


def test_a_grants_exceptions_are_shown_on_its_folder_row(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    """What ``grant --except`` and ``--hide`` keep from the server shows on the grant."""
    panel = panel_with(watcher, store, tmp_path, qtbot)
    with store.transaction() as state:
        beta = next(r for r in state.roots if r.name == "beta")
        state.set_inside("notes", [beta.id], read_only=["config"], hidden=[".env"])
    watcher.reload()
    panel.select_server("notes")
    texts = [panel.detail.folders.item(i, 0).text() for i in range(len(panel.detail.rows))]
    assert texts == ["alpha", "beta (except config, read-only; .env, hidden)"]


def _read(bridge: BridgeProc, msg_id: int, path: Path) -> str:
    """The file tool server's read of *path*, asked through the bridge as its host."""
    bridge.send(
        {
            "jsonrpc": "2.0",
            "id": msg_id,
            "method": "tools/call",
            "params": {"name": "read_file", "arguments": {"path": str(path)}},
        }
    )
    answer = bridge.expect(is_id(msg_id), f"the answer to read {path}")
    return str(answer["result"]["content"][0]["text"])


@only_on_linux("confinement (Landlock) is Linux only")
def test_a_folder_revoked_without_a_restart_is_still_readable_until_restart_now(
    watcher: StoreWatcher, layout: Layout, tmp_path: Path, qtbot: QtBot
) -> None:
    """Issue 38: revoked with restart on revoke off, the folder stays readable by the running
    confined server, and the app said "not granted". It says "still readable until restart"
    on that folder, with Restart now, which restarts the server under its grants of now."""
    work: dict[str, Path] = {}
    for name in ("kept", "taken"):
        path = work[name] = tmp_path / "work" / name
        path.mkdir(parents=True)
        (path / "hello.txt").write_text(f"in {name}\n", encoding="utf-8")
        run_cli("roots", "add", str(path))
        run_cli("grant", "--new", "srv", str(path))
    run_cli("servers", "confine", "srv", "on")
    run_cli("servers", "restart-on-revoke", "srv", "off")
    bridge = BridgeProc(bridge_argv("srv", [sys.executable, str(FILE_TOOL)]))
    try:
        bridge.send(initialize(1))
        bridge.expect(is_id(1), "the initialize result")
        bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert _read(bridge, 2, work["taken"] / "hello.txt") == "in taken\n"
        run_cli("revoke", "srv", str(work["taken"]))
        panel = ServersPanel(watcher)
        qtbot.addWidget(panel)
        panel.show()
        qtbot.waitUntil(
            lambda: any(m.server == "srv" and m.reachable for m in watcher.markers),
            timeout=30_000,
        )
        panel.select_server("srv")
        detail = panel.detail
        [taken] = [r for r in detail.rows if r.path == str(work["taken"])]
        [kept] = [r for r in detail.rows if r.path == str(work["kept"])]
        assert taken.choice == NOT_GRANTED and taken.until_restart and not kept.until_restart
        row = detail.rows.index(taken)
        assert detail.folders.item(row, 0).text() == "taken (still readable until restart)"
        assert "still readable until restart: 1 folder (taken)" in detail.until_restart.text()
        assert detail.restart_button.isVisibleTo(panel) and detail.restart_button.isEnabled()
        # what the app says is what the kernel does: no restart, and the server still reads it
        assert _read(bridge, 3, work["taken"] / "hello.txt") == "in taken\n"
        assert logged(layout, events.SERVER_RESTARTING) == []
        with qtbot.waitSignal(panel.restart_requested) as asked:
            detail.restart_button.click()
        assert asked.args == ["srv", 1]
        qtbot.waitUntil(lambda: bool(logged(layout, events.SERVER_RESTARTED)), timeout=30_000)
        [done] = logged(layout, events.SERVER_RESTARTED)
        assert done["reason"] == "asked by app"
        assert _read(bridge, 4, work["taken"] / "hello.txt") == "EACCES"
        assert _read(bridge, 5, work["kept"] / "hello.txt") == "in kept\n"
        # the marker follows: nothing is said to be readable any more
        qtbot.waitUntil(lambda: not any(r.until_restart for r in detail.rows), timeout=30_000)
        assert not detail.restart_button.isVisibleTo(panel)
    finally:
        bridge.close_stdin()
        bridge.wait()


def test_the_selection_stays_one_in_the_list_and_the_detail_as_servers_come_and_go(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    panel.select_server("files")

    def shown() -> tuple[list[str], str]:
        lit = [i.text(0) for i in panel.server_list.selectedItems()]
        return lit, panel.detail_title.text()

    assert shown() == (["files"], "files")
    # a server first seen (a host started it while the user looked at the Log) resets the
    # table: the selected server stays selected, in the list and in the detail
    with store.transaction() as state:
        state.server_started("web", ["npx", "web"], "run-w", confined=False)
    watcher.reload()
    qtbot.waitUntil(lambda: "web" in panel.server_list.names())
    assert shown() == (["files"], "files")
    assert panel.detail.server == "files" and panel.selected_server() == "files"
    # the selected server forgotten elsewhere: nothing is selected, and nothing is lit
    with store.transaction() as state:
        state.remove_server("files")
    watcher.reload()
    qtbot.waitUntil(lambda: "files" not in panel.server_list.names())
    assert shown() == ([], "No server selected")

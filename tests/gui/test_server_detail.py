"""The Servers tab's master list and the selected server's detail, driven as a user does."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from roots_manager.core.hosts.known import HOSTS
from roots_manager.core.log import events
from roots_manager.core.log.index import LogIndex
from roots_manager.core.paths import Layout
from roots_manager.core.serverview.folders import CHOICES, NOT_GRANTED, Choice
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Scope
from roots_manager.gui.servers_view import ServersPanel
from roots_manager.gui.watcher import StoreWatcher
from tests.gui.shell_support import folders

ALWAYS = Choice(Scope.ALWAYS)
ALWAYS_READ_ONLY = Choice(Scope.ALWAYS, True)


def panel_with(watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot) -> ServersPanel:
    a, b = folders(tmp_path, "alpha", "beta")
    with store.transaction() as state:
        ids = [state.add_root(str(a)).id, state.add_root(str(b)).id]
        state.server_started("files", ["npx", "files"], "run-f")
        state.server_started("notes", ["npx", "notes"], "run-n")
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
    item = panel.server_list._items["files"]
    # the policy asks: a new server waits for the user's consent
    assert item.text(1) == "not running, advisory, waiting for consent"

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

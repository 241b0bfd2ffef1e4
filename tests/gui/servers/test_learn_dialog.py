"""Learn… in a server's detail: learning started, the refusals counted as they are logged, the
proposal ticked (never /, the home folder or a secret), and Accept granting only the ticked
ones, on the real store; closing grants nothing and turns confinement back off."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events
from roots_manager.core.store.file import Store
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.servers.learn_dialog import TITLE_ROOM, LearnDialog
from roots_manager.gui.servers.server_detail import ServerDetail
from tests.conftest import only_on_linux

pytestmark = only_on_linux("learning runs the server confined (Landlock), Linux only")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def work(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "work" / "a", tmp_path / "work" / "b"
    a.mkdir(parents=True)
    b.mkdir(parents=True)
    return a, b


def opened(watcher: StoreWatcher, store: Store, qtbot: QtBot) -> tuple[ServerDetail, LearnDialog]:
    with store.transaction() as state:
        state.server_started("fs", ["npx", "-y", "@modelcontextprotocol/server-filesystem"], "r1")
    watcher.reload()
    detail = ServerDetail(watcher)
    qtbot.addWidget(detail)
    detail.show_server("fs")
    assert detail.learn_button.isEnabled()
    qtbot.mouseClick(detail.learn_button, Qt.MouseButton.LeftButton)
    dialog = detail.learn_dialog
    assert dialog is not None and dialog.isVisible()
    return detail, dialog  # the detail kept: it owns the dialog


def refused(layout: Layout, *recs: tuple[Path, str]) -> None:
    w = events.EventWriter(layout, "r1")
    for path, operation in recs:
        w.write(
            events.event(
                events.DENIAL,
                "fs",
                "r1",
                path=str(path),
                folder=str(path.parent),
                operation=operation,
                during="between",
            )
        )
    w.close()


def test_learn_counts_the_refusals_and_accept_grants_only_what_is_ticked(
    home: Path,
    work: tuple[Path, Path],
    watcher: StoreWatcher,
    store: Store,
    layout: Layout,
    qtbot: QtBot,
) -> None:
    a, b = work
    _detail, dialog = opened(watcher, store, qtbot)
    assert not store.read().servers["fs"].confine
    assert dialog.start(seconds=600)
    assert store.read().servers["fs"].confine  # confined while it learns
    assert dialog.stop_button.isVisible() and not dialog.start_button.isVisible()
    refused(
        layout,
        (a / "note.txt", "read"),
        (b / "out.txt", "write"),
        (home / ".ssh" / "id_x", "read"),
        (home, "list"),
        (Path("/"), "list"),
    )
    qtbot.waitUntil(lambda: "5 refused so far" in dialog.status.text(), timeout=10000)
    assert "left" in dialog.status.text()
    qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    items = [dialog.list.item(i) for i in range(dialog.list.count())]
    checkable = [i.text() for i in items if i.flags() & Qt.ItemFlag.ItemIsUserCheckable]
    assert checkable == [f"Folder, read-only: {a}", f"Folder: {b}"]
    assert all(i.checkState() == Qt.CheckState.Checked for i in items[:2])
    left = [i.text() for i in items[2:]]
    assert left == [
        "Left out: / (the whole file system)",
        "Left out: ~ (the home folder, or a folder holding it)",
        "Left out: ~/.ssh/id_x (credentials (~/.ssh))",
    ]
    items[1].setCheckState(Qt.CheckState.Unchecked)
    with qtbot.waitSignal(dialog.learned) as got:
        qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    assert got.args == ["fs"]
    assert not dialog.isVisible()
    state = store.read()
    granted = {r.path: g.read_only for g in state.grants for r in state.roots if r.id == g.root}
    assert granted == {str(a): True}  # b was unticked
    assert state.servers["fs"].confine  # it stays confined, with its new grant


def test_closing_grants_nothing_and_turns_confinement_back_off(
    home: Path,
    work: tuple[Path, Path],
    watcher: StoreWatcher,
    store: Store,
    layout: Layout,
    qtbot: QtBot,
) -> None:
    _detail, dialog = opened(watcher, store, qtbot)
    assert dialog.start(seconds=600)
    refused(layout, (work[0] / "note.txt", "read"))
    qtbot.waitUntil(lambda: "1 refused so far" in dialog.status.text(), timeout=10000)
    dialog.stop()
    assert dialog.accept_button.isVisible()
    dialog.close()
    state = store.read()
    assert state.grants == [] and not state.servers["fs"].confine


def test_the_time_given_ends_learning_by_itself(
    home: Path, watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    _detail, dialog = opened(watcher, store, qtbot)
    assert dialog.start(seconds=1)
    qtbot.waitUntil(lambda: dialog.proposal is not None, timeout=10000)
    assert "Nothing was refused" in dialog.status.text()
    assert not dialog.accept_button.isVisible()
    dialog.reject()
    assert not store.read().servers["fs"].confine


def test_a_running_server_that_cannot_be_restarted_confined_is_said_to_be(
    home: Path, watcher: StoreWatcher, store: Store, layout: Layout, qtbot: QtBot
) -> None:
    import os

    from roots_manager.core.runs import live
    from roots_manager.core.runs.live import BridgeMarker
    from roots_manager.core.store.state import now_iso

    _detail, dialog = opened(watcher, store, qtbot)
    unconfined = BridgeMarker("s-test", "fs", os.getpid(), now_iso(), ["npx"], restartable=False)
    live.write_bridge_marker(layout, unconfined)
    assert dialog.start(seconds=600)
    assert dialog.note.isVisibleTo(dialog)
    assert "fs is running unconfined now" in dialog.note.text()
    dialog.reject()
    assert not store.read().servers["fs"].confine


@pytest.mark.parametrize("language", ["ja", "zh_CN"])
def test_why_a_path_is_left_out_is_in_the_users_language(qapp: QApplication, language: str) -> None:
    from roots_manager.core.confinement.learning import propose
    from roots_manager.core.confinement.offers import broad, offers, secret
    from roots_manager.gui.common.confinement_text import reason_text
    from roots_manager.gui.common.resources import install_translators

    home = "/home/me"
    reasons = [
        secret("/home/me/.ssh/id_x", home=home),
        secret("/home/other/x", home=home),
        broad("/", home),
        broad(home, home),
        offers({"path": "relative", "operation": "read"}, home=home).refused,
        *(x.reason for x in propose(
            [{"path": "/srv/a/x", "operation": "read"}, {"path": "tcp", "operation": "connect"}],
            home=home, granted={"/srv/a": True},
        ).left_out),
    ]  # fmt: skip
    translators = install_translators(qapp, language)
    try:
        for reason in reasons:
            assert reason is not None
            assert reason_text(reason) != str(reason), reason
        assert "~/.ssh" in reason_text(secret("/home/me/.ssh/id_x", home=home) or "")
    finally:
        for t in translators:
            qapp.removeTranslator(t)
    assert reason_text(reasons[0] or "") == "credentials (~/.ssh)"  # English again


def test_quitting_the_app_while_learning_turns_confinement_back_off(
    home: Path, layout: Layout, qtbot: QtBot
) -> None:
    from roots_manager.gui.shell.app import AppController

    store = Store(layout)
    with store.transaction() as state:
        state.server_started("fs", ["npx", "-y", "@modelcontextprotocol/server-filesystem"], "r1")
    controller = AppController(layout)
    controller.start()
    try:
        assert controller.window is not None
        qtbot.addWidget(controller.window)
        detail = controller.window.servers_panel.detail
        detail.show_server("fs")
        dialog = detail.open_learning()
        assert dialog is not None and dialog.start(seconds=600)
        assert store.read().servers["fs"].confine
    finally:
        controller.shutdown()
    assert not store.read().servers["fs"].confine


def test_the_proposal_is_readable_whole_without_resizing_and_the_title_is_not_cut(
    home: Path, watcher: StoreWatcher, store: Store, layout: Layout, qtbot: QtBot
) -> None:
    deep = home / "projects" / "a-rather-long-project-name" / "and-a-sub-folder"
    folders = [deep / f"part-{i}" for i in range(6)]
    for f in folders:
        f.mkdir(parents=True)
    _detail, dialog = opened(watcher, store, qtbot)
    # its title whole, beside a frame's buttons
    title = dialog.fontMetrics().horizontalAdvance(dialog.windowTitle())
    assert dialog.width() >= title + TITLE_ROOM
    assert dialog.start(seconds=600)
    refused(layout, *((f, "list") for f in folders), (home / ".ssh" / "id_x", "read"))
    qtbot.waitUntil(lambda: "7 refused so far" in dialog.status.text(), timeout=10000)
    dialog.stop()
    qtbot.waitUntil(lambda: dialog.list.isVisible())
    view = dialog.list.viewport()
    metrics = dialog.list.fontMetrics()
    for i in range(dialog.list.count()):
        item = dialog.list.item(i)
        rect = dialog.list.visualItemRect(item)
        # every line shown whole: as wide as its words, and inside the list without scrolling
        assert metrics.horizontalAdvance(item.text()) <= view.width(), item.text()
        assert rect.top() >= 0 and rect.bottom() <= view.height(), item.text()
    # the wrapped status line whole too
    assert dialog.status.height() >= dialog.status.heightForWidth(dialog.status.width())
    dialog.reject()


def test_one_file_refused_is_proposed_alone_never_its_whole_folder(
    home: Path, watcher: StoreWatcher, store: Store, layout: Layout, qtbot: QtBot
) -> None:
    report = home / "Documents" / "report.pdf"
    report.parent.mkdir()
    report.write_text("a report\n", encoding="utf-8")
    _detail, dialog = opened(watcher, store, qtbot)
    assert dialog.start(seconds=600)
    refused(layout, (report, "read"))
    qtbot.waitUntil(lambda: "1 refused so far" in dialog.status.text(), timeout=10000)
    dialog.stop()
    items = [dialog.list.item(i) for i in range(dialog.list.count())]
    assert [i.text() for i in items] == ["This file, read-only: ~/Documents/report.pdf"]
    assert items[0].checkState() == Qt.CheckState.Checked
    assert dialog.accept_ticked()
    state = store.read()
    assert state.servers["fs"].allow_read == [str(report)]
    assert state.grants == []  # ~/Documents is not granted

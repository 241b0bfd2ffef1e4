"""The notice of a confined server's refusal: what it says, what it offers, and a grant made from
it in one click, on the real store; a refusal of a secret offered nothing; the Log panel telling
the refusals logged after it started."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Scope
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.log.log_view import LogPanel
from roots_manager.gui.servers.denial_notice import DenialNotice
from roots_manager.gui.servers.refusals_dialog import RefusalsDialog
from tests.gui.shell_support import app_window


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / "notes").mkdir(parents=True)
    (home / ".ssh").mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def watcher(store: Store) -> Iterator[StoreWatcher]:
    with store.transaction() as state:
        state.server_started("fs", ["npx", "-y", "@modelcontextprotocol/server-filesystem"], "r1")
    w = StoreWatcher(store)
    w.start()
    yield w
    w.stop()


def refusal(path: Path, operation: str = "read") -> dict[str, object]:
    return {
        "kind": events.DENIAL,
        "server": "fs",
        "path": str(path),
        "folder": str(path.parent),
        "operation": operation,
        "during": "request",
        "requests": [{"method": "tools/call", "tool": "read_file", "id": 3, "argument": "path"}],
    }


def test_a_refusal_is_told_and_its_folder_granted_in_one_click(
    home: Path, watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.show()
    notice.add([refusal(home / "notes" / "other.md"), refusal(home / "notes" / "todo.md")])
    text = notice.label.text()
    assert "fs was refused ~/notes/todo.md (read) while running tools/call read_file." in text
    assert "2 refusals of this folder." in text  # one group: one folder, one operation
    assert notice.folder_button.isVisible() and notice.read_only_button.isVisible()
    assert notice.file_button.isVisible()
    with qtbot.waitSignal(notice.allowed) as granted:
        notice.folder_button.click()
    assert granted.args == ["fs", str(home / "notes")]
    state = store.read()
    [root] = [r for r in state.roots if r.path == str(home / "notes")]
    [grant] = [g for g in state.grants if g.server == "fs" and g.root == root.id]
    assert grant.scope == Scope.ALWAYS and not grant.read_only
    # the other refusal in the same folder needs no second click
    assert not notice.isVisible() and notice.current is None


def test_a_file_is_allowed_alone_and_read_only_when_it_was_read(
    home: Path, watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.add([refusal(home / "notes" / "todo.md")])
    notice.file_button.click()
    server = store.read().servers["fs"]
    assert server.allow_read == [str(home / "notes" / "todo.md")] and not server.allow_write
    assert not store.read().roots  # no root made for a file


def test_a_servers_own_state_folder_is_made_and_allowed_in_one_click(
    home: Path, watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    """Issue 37: ``~/.serena`` refused at start-up (the home: too broad) offered nothing; now
    Allow and make, which makes that folder alone, private, and lets the server write there."""
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.show()
    state_folder = home / ".serena"
    made = {**refusal(state_folder, "create"), "call": "mkdir", "during": "start-up"}
    notice.add([made])
    assert notice.create_button.isVisible() and not notice.folder_button.isVisible()
    assert "~/.serena" in notice.create_button.toolTip()
    assert "No folder offered" not in notice.label.text()
    notice.create_button.click()
    assert state_folder.is_dir() and state_folder.stat().st_mode & 0o777 == 0o700
    server = store.read().servers["fs"]
    assert server.allow_write == [str(state_folder)] and not store.read().roots
    assert not notice.isVisible()


def test_a_secret_is_told_and_offered_nothing(
    home: Path, watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.show()
    notice.add([refusal(home / ".ssh" / "id_ed25519")])
    assert "Not offered in one click: credentials (~/.ssh)." in notice.label.text()
    for button in (notice.folder_button, notice.read_only_button, notice.file_button):
        assert not button.isVisible()
    assert notice.ignore_button.isVisible()
    offered = notice.offers_now()
    assert offered is not None and offered.offers == ()
    notice.ignore_button.click()
    assert not notice.isVisible()
    assert not store.read().roots and not store.read().servers["fs"].allow_read


def test_the_log_panel_tells_the_refusals_logged_after_it_started(
    layout: Layout, qtbot: QtBot, home: Path
) -> None:
    w = events.EventWriter(layout, "r1")
    old = events.event(events.DENIAL, "fs", "r1", path="/x/old", operation="read")
    old["ts"] = "2020-01-01T00:00:00.000Z"  # before the app started: in the log, not a notice
    w.write(old)
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.start()
    try:
        with qtbot.waitSignal(panel.denied, timeout=20_000) as told:
            w.write(
                events.event(
                    events.DENIAL, "fs", "r1", path=str(home / "notes" / "a"), operation="write"
                )
            )
        assert [r["path"] for r in told.args[0]] == [str(home / "notes" / "a")]
    finally:
        panel.stop()


def test_in_the_app_a_logged_refusal_is_a_notice_and_a_count_on_its_servers_badge(
    store: Store, layout: Layout, qtbot: QtBot, home: Path
) -> None:
    """The whole app: a denial event a bridge writes reaches the notice and the server list."""
    with store.transaction() as state:
        state.server_started("fs", ["npx", "fs"], "r1", confined=True)
    with app_window(layout, qtbot) as window:
        w = events.EventWriter(layout, "r1")
        w.write(events.event(events.DENIAL, "fs", "r1", path=str(home / "a"), operation="read"))
        w.close()
        qtbot.waitUntil(window.denial_notice.isVisible, timeout=20_000)
        badge = window.servers_panel.server_list.badge_of
        qtbot.waitUntil(lambda: badge("fs").endswith("1 refusal"), timeout=20_000)


def test_a_refusal_with_a_terminal_escape_or_a_bidi_override_shows_them_escaped(
    home: Path, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    """A refused path is the server's to name: its override must not reorder the sentence."""
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.add([refusal(home / "notes" / "\u202etxt.exe\x1b[2J")])
    text = notice.label.text()
    assert "~/notes/\\u202etxt.exe\\x1b[2J" in text
    assert "\u202e" not in text and "\x1b" not in text
    assert "\u202e" not in notice.label.toolTip()


def start_up(path: Path) -> dict[str, object]:
    return {**refusal(path), "during": "start-up", "requests": []}


def test_the_newest_refusal_that_can_be_acted_on_is_shown_over_start_up_noise(
    home: Path, watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    """Issue 38: the refusal that mattered sat behind 18 start-up refusals, one Ignore each.
    The newest that can be acted on is shown, with a count of the others; one click ignores
    the server's start-up refusals; the list shows them all, newest first, and allows from any
    row."""
    import roots_manager

    package = Path(roots_manager.__file__).resolve().parent
    noise = [start_up(home / f"lib{i}" / "x.so") for i in range(18)]
    noise.append(start_up(package / "__pycache__" / "uri.cpython-311.pyc"))
    (home / "projects" / "api-server").mkdir(parents=True)
    mattered = refusal(home / "projects" / "api-server" / "main.py")
    later = refusal(home / ".ssh" / "id_ed25519")  # newer, but nothing can be offered
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.show()
    notice.add([*noise, mattered, later])
    text = notice.label.text()
    assert "fs was refused ~/projects/api-server/main.py (read) while running" in text
    assert "(20 others waiting)" in text
    assert notice.start_up_button.isVisible() and notice.list_button.isVisible()
    assert "19 start-up refusals of fs" in notice.start_up_button.toolTip()
    # the list: every group, newest first, none offering the app's own code as a folder
    dialog = RefusalsDialog(notice)
    qtbot.addWidget(dialog)
    dialog.show()
    model = dialog.model
    folders = [model.index(r, 1).data() for r in range(model.rowCount())]
    assert folders[:2] == ["~/.ssh", "~/projects/api-server"]
    assert len(folders) == 21
    assert model.index(0, 3).data() == "tools/call read_file"  # what it was doing, briefly
    assert "was refused ~/.ssh/id_ed25519 (read) while running" in model.index(0, 3).data(
        Qt.ItemDataRole.ToolTipRole
    )
    own = folders.index(str(package / "__pycache__"))
    assert model.index(own, 3).data() == "start-up"
    assert "folder" not in model.index(own, 4).data().split(", ")
    dialog.select(own)
    assert not dialog.folder_button.isEnabled() and dialog.file_button.isEnabled()
    dialog.select(0)  # the secret: nothing but Ignore
    assert not dialog.folder_button.isEnabled() and not dialog.file_button.isEnabled()
    dialog.ignore_button.click()
    assert model.rowCount() == 20
    # Allow from a row of the list: the grant the notice would make
    dialog.select(folders.index("~/projects/api-server") - 1)
    chosen = dialog.selected()
    assert chosen is not None and chosen.folder == str(home / "projects" / "api-server"), chosen
    assert dialog.folder_button.isEnabled()
    with qtbot.waitSignal(notice.allowed) as granted:
        dialog.folder_button.click()
    assert granted.args == ["fs", str(home / "projects" / "api-server")]
    assert any(r.path == str(home / "projects" / "api-server") for r in store.read().roots)
    assert model.rowCount() == 19
    # one click for the start-up noise
    dialog.start_up_button.click()
    assert model.rowCount() == 0 and not notice.isVisible()


def test_a_refusal_that_waits_says_so_with_the_seconds_left_then_as_refused(
    home: Path, watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    """A server set to ask holds its refused read while the user answers (``waits``): the
    notice says the call waits, counts the seconds down, and reads as a plain refusal once
    the time is up."""
    import time

    from roots_manager.core.log.denials import iso
    from roots_manager.gui.servers.denial_notice import waits_left

    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.show()
    waiting = {**refusal(home / "notes" / "todo.md"), "waits": 3, "at": iso(time.time())}
    notice.add([waiting])
    assert "fs asks to read ~/notes/todo.md while running tools/call read_file" in (
        notice.label.text()
    )
    assert "waits 3 seconds more for your answer" in notice.label.text()
    assert notice.ticking.isActive() and notice.folder_button.isVisible()
    qtbot.waitUntil(lambda: "was refused" in notice.label.text(), timeout=10_000)
    assert not notice.ticking.isActive()
    assert waits_left(waiting, time.time() + 10) == 0 and waits_left(refusal(home)) == 0


def test_ignoring_a_refusal_that_waits_refuses_the_call_now(
    home: Path, watcher: StoreWatcher, store: Store, layout: Layout, qtbot: QtBot
) -> None:
    """Ignore on a question is the user's no: the server's running bridge is asked to refuse
    the reads waiting at once (a request file it takes), not left to wait out their time."""
    import os
    import time

    from roots_manager.core.log.denials import iso
    from roots_manager.core.runs import live
    from roots_manager.core.store.state import now_iso

    live.write_bridge_marker(
        layout, live.BridgeMarker("r-ask", "fs", os.getpid(), now_iso(), ["x"])
    )
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.show()
    notice.add([{**refusal(home / "notes" / "todo.md"), "waits": 30, "at": iso(time.time())}])
    assert "Refuse the call that waits" in notice.ignore_button.toolTip()
    notice.ignore_button.click()
    assert live.take_deny_request(layout, "r-ask") is not None
    assert not notice.isVisible()
    # a refusal that does not wait is only hidden: nothing is asked of the bridge
    notice.add([refusal(home / "notes" / "other.md")])
    notice.ignore_button.click()
    assert live.take_deny_request(layout, "r-ask") is None


def test_a_question_allowed_until_it_ends_or_once_saves_nothing(
    home: Path, watcher: StoreWatcher, store: Store, layout: Layout, qtbot: QtBot
) -> None:
    """For a call that waits, the notice asks how long: Always is the grant as ever; Until it
    ends and This once ask the server's running bridge to serve the reads (a request file it
    takes), and nothing is saved. A refusal that does not wait has no such choice."""
    import os
    import time

    from roots_manager.core.log.denials import iso
    from roots_manager.core.runs import live
    from roots_manager.core.store.state import now_iso

    live.write_bridge_marker(
        layout, live.BridgeMarker("r-ask", "fs", os.getpid(), now_iso(), ["x"])
    )
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.show()
    notice.add([refusal(home / "notes" / "old.md")])
    assert not notice.duration.isVisible()  # nothing waits
    notice.ignore_button.click()
    before = store.read()
    for duration, offer_button in (("run", "read_only_button"), ("once", "file_button")):
        waiting = {**refusal(home / "notes" / "todo.md"), "waits": 30, "at": iso(time.time())}
        notice.add([waiting])
        assert notice.duration.isVisible()
        notice.duration.setCurrentIndex(notice.duration.findData(duration))
        getattr(notice, offer_button).click()
        [asked] = live.take_allow_request(layout, "r-ask")
        target = home / "notes" if duration == "run" else home / "notes" / "todo.md"
        assert (asked["path"], asked["for"], asked["by"]) == (str(target), duration, "app")
        assert not notice.isVisible()
    after = store.read()
    assert (after.roots, after.grants) == (before.roots, before.grants)
    assert after.servers["fs"].allow_read == before.servers["fs"].allow_read


def test_an_allow_of_a_waiting_question_is_confirmed_for_how_long_it_holds(
    home: Path, watcher: StoreWatcher, layout: Layout, qtbot: QtBot
) -> None:
    """Allowed for a while (nothing saved), the status bar says what and for how long, as it
    says a grant saved."""
    import os
    import time

    from roots_manager.core.log.denials import iso
    from roots_manager.core.runs import live
    from roots_manager.core.store.state import now_iso
    from roots_manager.gui.shell.app import app_settings
    from roots_manager.gui.shell.main_window import MainWindow

    live.write_bridge_marker(layout, live.BridgeMarker("r-ok", "fs", os.getpid(), now_iso(), ["x"]))
    window = MainWindow(watcher, app_settings(layout))
    qtbot.addWidget(window)
    window.show()
    notice = window.denial_notice
    for duration, offer_button, said in (
        ("once", "file_button", "Allowed ~/notes/todo.md to fs this once."),
        ("run", "read_only_button", "Allowed ~/notes to fs until it ends."),
    ):
        waiting = {**refusal(home / "notes" / "todo.md"), "waits": 30, "at": iso(time.time())}
        notice.add([waiting])
        notice.duration.setCurrentIndex(notice.duration.findData(duration))
        getattr(notice, offer_button).click()
        assert live.take_allow_request(layout, "r-ok")
        assert window.statusBar().currentMessage() == said

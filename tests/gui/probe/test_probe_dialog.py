"""The Probe… dialog: a real probe of a puppet server, its matrix, verdict, saved table and Cancel."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path

import psutil
from PySide6.QtCore import QItemSelectionModel, Qt

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log.index import LogIndex
from roots_manager.core.probe.plan import BOUNDARY_KINDS
from roots_manager.core.probe.verdict import Outcome
from roots_manager.core.store.file import Store
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.log.log_model import LogModel
from roots_manager.gui.probe.probe_dialog import ProbeDialog
from roots_manager.gui.probe.probe_model import COLOURS, INSIDE, OUTSIDE
from roots_manager.gui.servers.servers_view import ServersPanel
from tests.fakes import FAKES

PUPPET = FAKES / "probe_puppet_server.py"
RUN_LIMIT = 90_000


BOUNDARY = {kind.value for kind in BOUNDARY_KINDS}


def puppet(behaviour: str, *extra: str) -> list[str]:
    return [sys.executable, str(PUPPET), behaviour, "{allow}", *extra]


def test_a_run_fills_the_matrix_shows_the_verdict_and_keeps_the_table(
    layout: Layout, qtbot
) -> None:  # type: ignore[no-untyped-def]
    dialog = ProbeDialog(layout, "pup", puppet("first-root-only"))
    qtbot.addWidget(dialog)
    dialog.show()
    # before the run the plan has only its phases; the tools come once the server lists them
    assert "known once the server lists them" in dialog.plan.text()
    assert "probe:pup" in dialog.plan.text() and "Without {allow}" not in dialog.plan.text()
    with qtbot.waitSignal(dialog.run_finished, timeout=RUN_LIMIT) as done:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        assert dialog.running and not dialog.start_button.isEnabled()
    report = done.args[0]
    plan = dialog.plan.text()
    assert "read_file (reads): 11 pairs" in plan and "write_file (writes): 11 pairs" in plan
    assert "resources/read of the resources the server listed: 11 pairs" in plan
    assert "known once" not in plan
    # the probe's traffic is in the user's log, under its own name, for the Log tab
    assert report.log == {
        "server": "probe:pup",
        "session": report.log["session"],
        "folder": str(layout.logs),
    }
    assert any(p.name.startswith(report.log["session"]) for p in layout.logs.iterdir())
    index = LogIndex(layout)
    index.scan()
    records = [index.record(r) for r in range(len(index))]
    model = LogModel(index)
    model.refresh()
    assert model.rowCount() == len(records) > 0
    assert {r["server"] for r in records if r} == {"probe:pup"}
    assert sum(1 for r in records if r and r["kind"] == "roots-list-answered") == 4
    index.close()
    assert report is not None and report.complete
    assert not dialog.running and dialog.start_button.isEnabled()
    # the verdict in words, each finding marked, and one sentence on top to act on
    assert "Uses only the first root: <b>yes</b>" in dialog.verdict.text()
    assert "given two roots from the start" in dialog.verdict.text()
    assert "Keeps to its roots: <b>yes</b>" in dialog.verdict.text()
    assert "first_root_only" not in dialog.verdict.text()
    outside = sum(1 for r in report.rows if r.target_kind.value in BOUNDARY and r.conclusive)
    assert dialog.headline.text().startswith(
        f"pup keeps to its roots: {outside} of {outside} outside targets refused"
    ), dialog.headline.text()
    assert dialog.headline.isVisible() and not dialog.plan.isVisible()
    dialog.plan_button.click()  # the plan, folded away, is there when asked for
    assert dialog.plan.isVisible()
    model = dialog.model
    assert model.rowCount() == len(report.rows) > 20
    # outcomes are coloured side by side: a refused partner next to a working inside call
    first = model.row_at(0)
    assert first is not None and first.target_kind.value == "sibling"
    assert model.index(0, INSIDE).data(Qt.ItemDataRole.BackgroundRole) == COLOURS[Outcome.WORKED]
    assert model.index(0, OUTSIDE).data(Qt.ItemDataRole.BackgroundRole) == COLOURS[Outcome.REFUSED]
    # selecting a cell shows the raw request and answer of that call
    dialog.table.selectionModel().select(
        model.index(0, OUTSIDE), QItemSelectionModel.SelectionFlag.ClearAndSelect
    )
    raw = dialog.raw.toPlainText()
    assert raw.startswith("# outside: refused")
    assert '"method": "tools/call"' in raw and "<tree>/packages/billing/notes.txt" in raw
    assert "Access denied" in raw
    # the app always keeps the table; a second run links to what changed since the first
    saved = list((layout.probes / "pup").glob("*--1.0.0.json"))
    assert len(saved) == 1
    assert not dialog.changes.isVisible()
    with qtbot.waitSignal(dialog.run_finished, timeout=RUN_LIMIT):
        dialog.start()
    assert len(list((layout.probes / "pup").glob("*.json"))) == 2
    assert dialog.changes.isVisible()
    assert "0 rows changed since the previous run (" in dialog.changes.text()
    assert ", version 1.0.0)" in dialog.changes.text()
    dialog.show_changes()
    assert "No row changed its outcome." in dialog.raw.toPlainText()


def _puppets(marker: str) -> list[psutil.Process]:
    found = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            if marker in (p.info["cmdline"] or []):
                found.append(p)
        except psutil.Error:
            continue
    return found


def test_cancel_stops_the_server_and_removes_the_scratch_tree(layout: Layout, qtbot) -> None:  # type: ignore[no-untyped-def]
    marker = f"marker-{secrets.token_hex(4)}"
    dialog = ProbeDialog(layout, "slow", puppet("hang", marker))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.start()
    # each row's status replaces the last at once, and the rows after the hanging tool's come
    # within milliseconds of it: what was shown is recorded, not looked for in the label
    assert dialog.worker is not None
    shown: list[str] = []
    dialog.worker.progressed.connect(lambda _done, _total, status: shown.append(status.text))

    # the hanging tool holds the run for its 10 s timeout each time the roots change: cancel
    # once it has held it the first time, with more such waits to come
    def server() -> psutil.Process | None:
        # the bridge's command line holds the marker too; the server's starts with the puppet
        return next((p for p in _puppets(marker) if p.cmdline()[1] == str(PUPPET)), None)

    qtbot.waitUntil(lambda: server() is not None, timeout=RUN_LIMIT)
    found = server()
    assert found is not None
    tree = Path(found.cmdline()[3])
    assert tree.name == "tree" and tree.is_dir()

    def held() -> None:
        assert any(text.startswith("slow_read:") for text in shown), shown[-5:]

    qtbot.waitUntil(held, timeout=RUN_LIMIT)
    # while it runs, its bridge's marker is in the run's private folder, not where the app
    # looks: no server of the user's seems to run
    assert not list(layout.live.glob("bridge-*.json"))
    assert list(tree.parent.glob("home/live/bridge-*.json"))
    with qtbot.waitSignal(dialog.run_finished, timeout=RUN_LIMIT) as done:
        qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert done.args == [None]
    assert dialog.status.text() == "Cancelled. The server was stopped."
    assert not tree.parent.exists()
    qtbot.waitUntil(lambda: not _puppets(marker), timeout=10_000)  # neither bridge nor server
    assert list(layout.probes.glob("*/*.json")) == []  # a cancelled run keeps no table


def test_the_servers_panel_offers_the_probe_for_a_server_with_a_command(
    watcher: StoreWatcher, store: Store, qtbot
) -> None:  # type: ignore[no-untyped-def]
    with store.transaction() as state:
        state.server_started("ran", puppet("enforcing"), "s1")
        state.grant("never-ran", [])
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    names = [panel.servers_model.row_at(i).name for i in range(panel.servers_model.rowCount())]  # type: ignore[union-attr]
    for name in ("never-ran", "ran"):
        panel.servers.selectRow(names.index(name))
        assert panel.probe_button.isEnabled() is (name == "ran")
        assert panel.probe_action.isEnabled() is (name == "ran")
    # a probe's roots traffic in the log (under probe:NAME) adds no server to the table
    panel.servers_model.note_last_asked({"probe:ran": "2026-11-30T12:00:00.000Z"})
    assert panel.servers_model.rowCount() == len(names)
    with qtbot.waitSignal(panel.probe_requested) as asked:
        qtbot.mouseClick(panel.probe_button, Qt.MouseButton.LeftButton)
    assert asked.args == ["ran"]


def test_the_servers_menu_opens_the_dialog_with_the_servers_last_command(
    controller, store: Store, qtbot
) -> None:  # type: ignore[no-untyped-def]
    with store.transaction() as state:
        state.server_started("ran", puppet("enforcing"), "s1")
    window = controller.window
    qtbot.waitUntil(lambda: "ran" in window.watcher.state.servers, timeout=10_000)
    panel = window.servers_panel
    names = [panel.servers_model.row_at(i).name for i in range(panel.servers_model.rowCount())]  # type: ignore[union-attr]
    panel.servers.selectRow(names.index("ran"))
    servers_menu = next(
        a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "Servers"
    )
    assert panel.probe_action in servers_menu.actions()
    panel.probe_action.trigger()
    dialogs = window.findChildren(ProbeDialog)
    assert len(dialogs) == 1
    assert dialogs[0].isVisible() and not dialogs[0].running  # nothing runs before Start
    assert dialogs[0].command.text().endswith("puppet_server.py enforcing '{allow}'")
    dialogs[0].close()


def test_the_protocol_choice_changes_the_plan_and_a_server_without_2026_says_so(
    layout: Layout, qtbot
) -> None:  # type: ignore[no-untyped-def]
    dialog = ProbeDialog(layout, "pup", puppet("enforcing"))
    qtbot.addWidget(dialog)
    dialog.show()
    assert "(list_changed: does the server ask again?)" in dialog.plan.text()
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("2026-07-28"))
    assert "there is no list_changed" in dialog.plan.text()
    with qtbot.waitSignal(dialog.run_finished, timeout=RUN_LIMIT) as done:
        dialog.start()
        assert not dialog.protocol.isEnabled()
    report = done.args[0]
    assert report is not None and not report.complete
    assert report.problem_detail.code == "not_modern"
    assert "the server does not speak 2026-07-28" in dialog.status.text()
    assert "error -32601" in dialog.status.text() and dialog.protocol.isEnabled()


def test_a_command_without_allow_is_offered_it(layout: Layout, qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = ProbeDialog(layout, "pup", [sys.executable, str(PUPPET), "first-root-only"])
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.allow_note.isVisible() and dialog.allow_button.isVisible()
    assert "Without {allow}" in dialog.allow_note.text()
    qtbot.mouseClick(dialog.allow_button, Qt.MouseButton.LeftButton)
    assert dialog.command.text().endswith(" first-root-only {allow}")
    assert not dialog.allow_note.isVisible() and not dialog.allow_button.isVisible()


def test_a_server_with_no_path_tool_has_nothing_to_probe_and_nothing_saved(
    layout: Layout, qtbot
) -> None:  # type: ignore[no-untyped-def]
    dialog = ProbeDialog(layout, "bare", puppet("no-paths"))
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.run_finished, timeout=RUN_LIMIT) as done:
        dialog.start()
    assert done.args[0] is not None
    assert dialog.headline.text() == "Nothing to probe: bare has no tool that takes a path."
    assert not dialog.verdict.isVisible()
    assert not (layout.probes / "bare").exists() or not list((layout.probes / "bare").iterdir())


def test_the_dialog_opens_on_a_small_screen_whole(layout: Layout, qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = ProbeDialog(layout, "pup", puppet("first-root-only"))
    qtbot.addWidget(dialog)
    dialog.show()
    screen = dialog.screen()
    assert screen is not None
    assert screen.availableGeometry().contains(dialog.frameGeometry())

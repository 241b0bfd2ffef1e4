"""The Confine switch and the matrix's lock and read-only grants, against a real store file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from roots_manager.core.confinement import confined
from roots_manager.core.directory.layout import Layout
from roots_manager.core.runs import live
from roots_manager.core.runs.live import BridgeMarker
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import now_iso
from roots_manager.gui.common import confinement_text
from roots_manager.gui.common.resources import install_translators
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.servers.consent_matrix import CellReadOnlyRole, ServerConfinedRole
from roots_manager.gui.servers.servers_view import ServersPanel
from roots_manager.sandbox.landlock import TEST_ABI_ENV
from tests.catalogue import LANGUAGES, catalogued
from tests.conftest import run_cli
from tests.gui.shell_support import folders


def panel_with(watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot) -> ServersPanel:
    a, b = folders(tmp_path, "alpha", "beta")
    with store.transaction() as state:
        ids = [state.add_root(str(a)).id, state.add_root(str(b)).id]
        state.grant("files", [ids[0]])
        state.grant("notes", [ids[1]])
        for srv in state.servers.values():
            srv.confine = False  # turned off, or known before confinement was the default
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def select(panel: ServersPanel, name: str) -> None:
    m = panel.servers_model
    row = next(r for r in range(m.rowCount()) if m.index(r, 0).data() == name)
    panel.servers.selectRow(row)


def test_the_switch_writes_the_setting_and_follows_the_cli(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    box = panel.confine_box
    assert not box.switch.isEnabled()  # nothing selected
    select(panel, "files")
    assert box.switch.isEnabled() and not box.switch.isChecked()
    assert box.explanation.text().startswith("Not confined: roots are advice")

    # keyboard only: the switch follows Add folder in the tab order, and Space turns it on
    panel.activateWindow()
    qtbot.waitActive(panel)
    panel.detail.add_button.setFocus()
    qtbot.waitUntil(panel.detail.add_button.hasFocus)
    qtbot.keyClick(panel.detail.add_button, Qt.Key.Key_Tab)
    qtbot.waitUntil(box.switch.hasFocus)
    with qtbot.waitSignal(box.confinement_changed) as changed:
        qtbot.keyClick(box.switch, Qt.Key.Key_Space)
    assert changed.args == ["files", True]
    assert store.read().servers["files"].confine is True
    assert not store.read().servers["notes"].confine
    assert box.explanation.text().startswith("Confined: the kernel refuses every file")
    assert "network is not restricted" in box.explanation.text()
    assert "restart it with the new rules" in box.explanation.text()
    assert "confined" in panel.servers_model.index(panel.servers.currentIndex().row(), 1).data()

    qtbot.keyClick(box.switch, Qt.Key.Key_Space)
    assert store.read().servers["files"].confine is False

    # a change made by the CLI shows in the switch
    run_cli("servers", "confine", "files", "on")
    qtbot.waitUntil(lambda: box.switch.isChecked(), timeout=10_000)
    run_cli("servers", "confine", "files", "off")
    qtbot.waitUntil(lambda: not box.switch.isChecked(), timeout=10_000)


def test_the_matrix_marks_confined_servers_and_read_only_grants(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    m = panel.matrix_model
    run_cli("servers", "confine", "files", "on")
    qtbot.waitUntil(
        lambda: m.headerData(0, Qt.Orientation.Vertical, ServerConfinedRole), timeout=10_000
    )
    lock = m.headerData(0, Qt.Orientation.Vertical, Qt.ItemDataRole.DecorationRole)
    assert lock is not None and not lock.isNull()
    assert m.headerData(1, Qt.Orientation.Vertical, Qt.ItemDataRole.DecorationRole) is None
    tip = m.headerData(0, Qt.Orientation.Vertical, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("files: confined\n") and confined.CONFINED_MEANS in tip
    assert confined.ADVISORY_MEANS in m.headerData(
        1, Qt.Orientation.Vertical, Qt.ItemDataRole.ToolTipRole
    )

    # the cell menu makes the grant read-only, in the store, and the cell says so
    cell = m.index(0, 0)
    menu = panel._cell_menu(cell)
    entry = next(a for a in menu.actions() if a.text().startswith("&Read-only"))
    assert "holds only while the server runs confined" in entry.text()
    assert not entry.isChecked()
    entry.trigger()
    assert [g.read_only for g in store.read().grants if g.server == "files"] == [True]
    assert cell.data() == "Always, read-only"
    assert cell.data(CellReadOnlyRole) is True
    assert cell.data(Qt.ItemDataRole.AccessibleTextRole) == "files, alpha: always, read-only"
    assert "the kernel lets it read" in cell.data(Qt.ItemDataRole.ToolTipRole)

    # only the scope changing keeps it read-only
    m.set_scope(cell, "session")
    assert [(g.scope, g.read_only) for g in store.read().grants if g.server == "files"] == [
        ("session", True)
    ]
    assert cell.data() == "While running, read-only"

    # on a server that is not confined, the cell says read-only is not enforced
    run_cli("servers", "confine", "files", "off")
    qtbot.waitUntil(
        lambda: not m.headerData(0, Qt.Orientation.Vertical, ServerConfinedRole), timeout=10_000
    )
    assert "not enforced" in cell.data(Qt.ItemDataRole.ToolTipRole)

    menu = panel._cell_menu(cell)
    entry = next(a for a in menu.actions() if a.text().startswith("&Read-only"))
    assert entry.isChecked()
    entry.trigger()
    assert [g.read_only for g in store.read().grants if g.server == "files"] == [False]
    assert cell.data() == "While running"

    # a cell with no grant has nothing to make read-only
    empty = m.index(1, 0)
    assert not any(a.text().startswith("&Read-only") for a in panel._cell_menu(empty).actions())


def test_the_switch_is_off_with_the_reason_where_the_machine_cannot_confine(
    watcher: StoreWatcher,
    store: Store,
    tmp_path: Path,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(TEST_ABI_ENV, "0")
    panel = panel_with(watcher, store, tmp_path, qtbot)
    box = panel.confine_box
    select(panel, "files")
    assert not box.switch.isEnabled()
    assert "cannot confine servers: this Linux kernel has no Landlock" in box.machine_label.text()
    assert "no Landlock" in box.switch.toolTip()

    # a server already set to confined can still be turned off: its bridge refuses to start
    run_cli("servers", "confine", "notes", "on")
    select(panel, "notes")
    qtbot.waitUntil(lambda: box.switch.isChecked(), timeout=10_000)
    assert box.switch.isEnabled()
    box.switch.click()
    assert store.read().servers["notes"].confine is False
    assert not box.switch.isEnabled()


CORE_CONFINEMENT_TEXTS = (
    confined.CONFINED_MEANS,
    confined.ADVISORY_MEANS,
    confined.NEXT_START,
    confined.NEXT_START_NO_RESTART,
)


@pytest.mark.parametrize("catalogue", LANGUAGES)
def test_the_cores_confinement_texts_are_in_the_catalogues(catalogue: str) -> None:
    missing = set(CORE_CONFINEMENT_TEXTS) - catalogued("CoreText", catalogue)
    assert not missing, f"not in the {catalogue} catalogue (scripts/update-translations): {missing}"


@pytest.mark.parametrize("language", ["ja", "zh_CN"])
def test_the_confinement_texts_are_translated(qapp: QApplication, language: str) -> None:
    translators = install_translators(qapp, language)
    try:
        for text in CORE_CONFINEMENT_TEXTS:
            assert QCoreApplication.translate("CoreText", text) != text
        assert confinement_text.platforms() != (
            "Confinement works on Linux (Landlock); on macOS it is untested; on Windows it is "
            "unavailable."
        )
    finally:
        for t in translators:
            qapp.removeTranslator(t)


def test_restart_on_revoke_follows_confinement_by_default_and_can_be_set(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    box = panel.confine_box
    select(panel, "files")
    assert box.restart_switch.isEnabled() and not box.restart_switch.isChecked()
    box.switch.click()  # confined: restarting is the default
    qtbot.waitUntil(box.restart_switch.isChecked, timeout=10_000)
    assert store.read().servers["files"].restart_on_revoke is None
    assert "restart it with the new rules" in box.explanation.text()
    box.restart_switch.click()
    assert store.read().servers["files"].restart_on_revoke is False
    qtbot.waitUntil(lambda: "next start" in box.explanation.text(), timeout=10_000)
    box.restart_switch.click()  # back to the default, not a setting of its own
    assert store.read().servers["files"].restart_on_revoke is None
    # the CLI's change shows here
    run_cli("servers", "confine", "files", "off")
    run_cli("servers", "restart-on-revoke", "files", "on")
    watcher.reload()
    qtbot.waitUntil(
        lambda: box.restart_switch.isChecked() and not box.switch.isChecked(), timeout=10_000
    )


def test_asking_before_a_refusal_is_a_switch_of_a_confined_server(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    """The switch writes what ``servers ask`` writes, for a confined server only, and follows
    the CLI's change; it is on by default."""
    panel = panel_with(watcher, store, tmp_path, qtbot)
    box = panel.confine_box
    select(panel, "files")
    if not box.switch.isChecked():
        box.switch.click()
    qtbot.waitUntil(box.ask_switch.isEnabled, timeout=10_000)
    assert box.ask_switch.isChecked() and "30 s" in box.ask_switch.text()  # the default
    box.ask_switch.click()
    assert store.read().servers["files"].ask_seconds == 0  # off
    box.ask_switch.click()
    assert store.read().servers["files"].ask_seconds is None  # the default again
    run_cli("servers", "ask", "files", "off")
    watcher.reload()
    qtbot.waitUntil(lambda: not box.ask_switch.isChecked(), timeout=10_000)
    run_cli("servers", "ask", "files", "12")
    watcher.reload()
    qtbot.waitUntil(box.ask_switch.isChecked, timeout=10_000)
    assert "read at once, with no restart" in box.explanation.text()
    box.switch.click()  # not confined: nothing to ask, but it can still be turned off
    qtbot.waitUntil(lambda: not box.switch.isChecked(), timeout=10_000)
    assert box.ask_switch.isEnabled() and box.ask_switch.isChecked()
    box.ask_switch.click()
    qtbot.waitUntil(lambda: not box.ask_switch.isEnabled(), timeout=10_000)


def test_a_stale_server_that_cannot_be_restarted_gets_a_proposal(
    watcher: StoreWatcher, store: Store, layout: Layout, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    box = panel.confine_box
    marker = BridgeMarker("s-test", "files", os.getpid(), now_iso(), ["x"], stale=True)
    live.write_bridge_marker(layout, marker)
    watcher.reload()
    select(panel, "files")
    qtbot.waitUntil(box.stale_hint.isVisible, timeout=10_000)
    assert "may still use a folder you revoked" in box.stale_hint.text()
    box.stale_button.click()
    assert store.read().servers["files"].restart_on_revoke is True
    qtbot.waitUntil(lambda: not box.stale_hint.isVisible(), timeout=10_000)
    # a bridge that restarts its server on revoke needs no proposal
    with store.transaction() as state:
        state.servers["files"].restart_on_revoke = None
    live.write_bridge_marker(layout, BridgeMarker(**{**vars(marker), "restartable": True}))
    watcher.reload()
    qtbot.waitUntil(lambda: not box.stale_button.isVisible(), timeout=10_000)
    assert "restarted" not in panel.servers_model.index(0, 2).data()
    live.write_bridge_marker(
        layout, BridgeMarker(**{**vars(marker), "confined": True, "restarts": 2})
    )
    watcher.reload()
    qtbot.waitUntil(
        lambda: "restarted 2 time" in panel.servers_model.index(0, 2).data(), timeout=10_000
    )
    assert "running confined" in panel.servers_model.index(0, 2).data()
    live.remove_bridge_marker(layout, "s-test")


def test_extra_paths_are_shown_added_and_removed(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    box = panel.confine_box
    assert not box.add_read.isEnabled()
    select(panel, "files")
    assert not box.extra.isVisible()  # no extra path: no room taken
    extra = tmp_path / "cache"
    box.add_extra_path(str(extra), write=True)
    run_cli("servers", "confine", "files", "--allow-read", str(tmp_path / "models"))
    watcher.reload()
    qtbot.waitUntil(lambda: box.extra.count() == 2, timeout=10_000)
    assert box.extra.isVisible()
    shown = [box.extra.item(i).text() for i in range(2)]
    assert shown == [f"read: {tmp_path / 'models'}", f"read and write: {extra}"]
    assert not box.remove_extra.isEnabled()
    box.extra.setCurrentRow(1)
    box.remove_extra.click()
    srv = store.read().servers["files"]
    assert srv.allow_write == [] and srv.allow_read == [str(tmp_path / "models")]
    qtbot.waitUntil(lambda: box.extra.count() == 1, timeout=10_000)


def _dead_pid() -> int:
    """The pid of a real process that has ended (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_learning_that_was_killed_is_said_and_put_back_in_one_click(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot: QtBot, layout: Layout
) -> None:
    panel = panel_with(watcher, store, tmp_path, qtbot)
    box = panel.confine_box
    # what servers learn leaves when it is killed: the server confined, and its marker
    with store.transaction() as state:
        confined.set_confinement(state, "files", True)
    select(panel, "files")
    live.write_learning_marker(layout, "files", 1_700_000_000.0, False)  # while it runs
    watcher.reload()
    assert box.learning_hint.isHidden() and box.learning_button.isHidden()
    marker = layout.live / next(p.name for p in layout.live.glob("learning-*.json"))
    doc = json.loads(marker.read_text())
    doc["pid"], doc["process_started"] = _dead_pid(), None  # its process gone
    marker.write_text(json.dumps(doc))
    # the box notices by itself, with the server still selected
    qtbot.waitUntil(box.learning_button.isVisible, timeout=10_000)
    assert box.switch.isChecked()
    assert box.learning_hint.text() == (
        "Learning files ended without finishing and left it confined; it was not confined before."
    )
    select(panel, "notes")
    assert box.learning_hint.isHidden() and box.learning_button.isHidden()
    select(panel, "files")
    qtbot.mouseClick(box.learning_button, Qt.MouseButton.LeftButton)
    assert store.read().servers["files"].confine is False
    assert not list(layout.live.glob("learning-*.json"))
    assert box.learning_button.isHidden() and not box.switch.isChecked()

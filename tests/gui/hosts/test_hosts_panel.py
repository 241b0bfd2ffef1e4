"""The Hosts tab against real host files in a fake home folder, and the real store."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt

from roots_manager.core.hosts.known import Platform
from roots_manager.core.store.file import Store
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.hosts.hosts_view import COMMAND, FILE, HOST, PROTECT, SERVER, HostsPanel
from tests.core.hosts.hosts_samples import BROKEN, SAMPLES


def claude_desktop(tmp_path: Path) -> tuple[Path, Platform]:
    """Claude Desktop's file, the sample, in a fake home; and that home as the platform."""
    home = tmp_path / "home"
    desktop = home / "xdg" / "Claude" / "claude_desktop_config.json"
    desktop.parent.mkdir(parents=True)
    desktop.write_text(SAMPLES["claude-desktop"])
    return desktop, Platform("linux", home, {"XDG_CONFIG_HOME": str(home / "xdg")})


def test_protect_wraps_the_server_and_undo_takes_it_back(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    desktop, platform = claude_desktop(tmp_path)
    home = platform.home
    original = desktop.read_bytes()
    goose = home / "xdg" / "goose" / "config.yaml"
    goose.parent.mkdir(parents=True)
    goose.write_text(BROKEN["yaml"][0])

    panel = HostsPanel(watcher, platform=lambda: platform)
    qtbot.addWidget(panel)
    assert panel.model.rowCount() == 0  # nothing is read before the tab shows
    panel.show()
    qtbot.waitExposed(panel)
    m = panel.model

    def cells(col: int) -> list[str]:
        return [m.data(m.index(r, col)) for r in range(m.rowCount())]

    assert cells(SERVER) == ["fs", "web", ""]
    assert cells(HOST)[0] == "Claude Desktop (user)" and cells(FILE)[0] == str(desktop)
    assert cells(PROTECT)[0] == "Not protected"
    assert "remote" in cells(PROTECT)[1]
    assert "line 4" in cells(PROTECT)[2]
    fs, web = m.index(0, PROTECT), m.index(1, PROTECT)
    assert m.data(fs, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert m.data(web, Qt.ItemDataRole.CheckStateRole) is None
    assert not m.flags(web) & Qt.ItemFlag.ItemIsUserCheckable
    assert cells(COMMAND)[0] == "npx -y @modelcontextprotocol/server-filesystem"
    assert not panel.undo_button.isEnabled()
    undo_width = panel.undo_button.width()

    # the change is shown first, as --dry-run prints it, and nothing is written yet
    m.setData(fs, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    preview = panel.preview
    assert preview is not None and preview.isVisible()
    shown = preview.diff.toPlainText()
    assert shown.startswith(f"--- {desktop}") and '"--server",' in shown
    assert desktop.read_bytes() == original
    assert m.data(fs, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    with qtbot.waitSignal(panel.hosts_changed, timeout=10000):
        preview.apply_button.click()
    assert panel.preview is None
    entry = json.loads(desktop.read_text())["mcpServers"]["fs"]
    assert Path(entry["command"]).name == "roots-bridge"
    assert entry["args"][:3] == ["--server", "fs", "--"]
    assert "fs" in store.read().servers  # known before it first runs
    fs = m.index(0, PROTECT)
    assert m.data(fs, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert m.data(fs) == "Behind the bridge as fs"
    assert cells(COMMAND)[0] == "npx -y @modelcontextprotocol/server-filesystem"  # its own
    assert panel.hint.isVisible() and "Restart Claude Desktop" in panel.hint.text()
    assert panel.undo_button.isEnabled()
    qtbot.wait(50)  # laid out again
    assert panel.undo_button.width() == undo_width, "the buttons moved for the hint"

    with qtbot.waitSignal(panel.hosts_changed, timeout=10000):
        panel.undo_button.click()
    assert desktop.read_bytes() == original
    assert m.data(m.index(0, PROTECT), Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert not panel.undo_button.isEnabled()
    # the file is as Claude Desktop last read it: nothing to restart for
    assert not panel.hint.isVisible(), panel.hint.text()


def test_cancelling_the_shown_change_writes_nothing(
    watcher: StoreWatcher, store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    desktop, platform = claude_desktop(tmp_path)
    original = desktop.read_bytes()
    panel = HostsPanel(watcher, platform=lambda: platform)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    m = panel.model
    m.setData(m.index(0, PROTECT), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    preview = panel.preview
    assert preview is not None
    with qtbot.waitSignal(preview.finished, timeout=5000):
        qtbot.keyClick(preview, Qt.Key.Key_Escape)
    assert panel.preview is None
    assert desktop.read_bytes() == original
    assert "fs" not in store.read().servers
    assert m.data(m.index(0, PROTECT), Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert not panel.hint.isVisible() and not panel.undo_button.isEnabled()


def test_a_refused_change_is_reported_and_nothing_written(
    watcher: StoreWatcher, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "home"
    cursor = home / ".cursor" / "mcp.json"
    cursor.parent.mkdir(parents=True)
    cursor.write_text(SAMPLES["cursor"])
    platform = Platform("linux", home, {})
    panel = HostsPanel(watcher, platform=lambda: platform)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    # the host rewrites its file with an error after the tab read it
    cursor.write_text("{ broken")
    with qtbot.waitSignal(panel.change_failed, timeout=10000) as failed:
        panel.model.setData(
            panel.model.index(0, PROTECT),
            Qt.CheckState.Checked.value,
            Qt.ItemDataRole.CheckStateRole,
        )
    assert "syntax error" in failed.args[0]
    assert cursor.read_text() == "{ broken"
    assert "line 1" in panel.model.data(panel.model.index(0, PROTECT))


def test_a_discontinued_host_is_listed_with_the_day_it_ended(
    watcher: StoreWatcher, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "home"
    roo = home / "xdg/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"
    roo.parent.mkdir(parents=True)
    roo.write_text(SAMPLES["roo-code"])
    platform = Platform("linux", home, {"XDG_CONFIG_HOME": str(home / "xdg")})
    panel = HostsPanel(watcher, platform=lambda: platform)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    m = panel.model
    qtbot.waitUntil(lambda: m.rowCount() > 0)
    # still read, and protectable, but said to be gone
    assert m.data(m.index(0, HOST)) == "Roo Code (user, discontinued 2026-05-15)"
    assert m.data(m.index(0, SERVER)) == "fs"

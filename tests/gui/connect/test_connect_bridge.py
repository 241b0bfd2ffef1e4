"""Connect a server through the real bridge, with the app as the host.

The demo server reports each roots/list answer on stderr, which the bridge passes through to
the app; grants made with the CLI while it runs reach it as list_changed through the bridge.
"""

from __future__ import annotations

from pathlib import Path

import psutil
import pytest
from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.servers.command import demo_command
from roots_manager.core.store.file import Store
from roots_manager.gui.connect.connect import ConnectionManager
from roots_manager.gui.shell.app import AppController
from roots_manager.gui.shell.main_window import MainWindow
from tests.conftest import run_cli
from tests.fakes.bridge_host import BridgeHost
from tests.gui.shell_support import answer_message_box, button_named

WAIT_MS = 30_000
NAME = "roots-demo"


@pytest.fixture
def manager(layout: Layout, qtbot: QtBot):  # type: ignore[no-untyped-def]
    m = ConnectionManager(layout)
    yield m
    m.shutdown()


def answers(m: ConnectionManager) -> list[str]:
    return [line for line in m.stderr_tail(NAME) if "roots/list answered" in line]


def wait_answer(qtbot: QtBot, m: ConnectionManager, count: int) -> str:
    """Wait for the demo server's *count*-th roots/list answer and return its line."""

    def arrived() -> None:
        assert len(answers(m)) >= count, (
            f"waiting for roots/list answer #{count}; stderr so far:\n"
            + "\n".join(m.stderr_tail(NAME))
        )

    qtbot.waitUntil(arrived, timeout=WAIT_MS)
    return answers(m)[count - 1]


def tree(pid: int) -> list[psutil.Process]:
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def assert_gone(qtbot: QtBot, procs: list[psutil.Process]) -> None:
    def gone() -> None:
        alive = []
        for p in procs:
            try:
                if p.status() != psutil.STATUS_ZOMBIE:
                    alive.append(f"{p.pid} {p.cmdline()}")
            except psutil.NoSuchProcess:
                pass
        assert not alive, f"processes left running: {alive}"

    qtbot.waitUntil(gone, timeout=WAIT_MS)


@pytest.mark.usefixtures("advisory_new_servers")
def test_demo_through_the_bridge_sees_grants_made_with_the_cli(
    manager: ConnectionManager, qtbot: QtBot, tmp_path: Path
) -> None:
    project = tmp_path / "my project #1"
    project.mkdir()
    run_cli("roots", "add", str(project), "--name", "project")

    with qtbot.waitSignal(manager.connected, timeout=WAIT_MS):
        manager.connect_server(NAME, demo_command())
    assert manager.server_info(NAME)["name"] == "roots-demo"

    # a server never seen, no app running: the bridge answers at once with nothing granted
    first = wait_answer(qtbot, manager, 1)
    assert "after the handshake" in first
    assert first.endswith("no roots"), first

    run_cli("grant", NAME, "project")
    second = wait_answer(qtbot, manager, 2)
    assert "after list_changed" in second
    assert project.as_uri() in second
    assert '"project"' in second

    run_cli("revoke", NAME, "project")
    third = wait_answer(qtbot, manager, 3)
    assert "after list_changed" in third and third.endswith("no roots"), third

    pid = manager.bridge_pid(NAME)
    assert pid is not None
    procs = tree(pid)
    assert len(procs) >= 2, "the bridge should run the demo server as its child"
    with qtbot.waitSignal(manager.disconnected, timeout=WAIT_MS) as sig:
        manager.disconnect_server(NAME)
    assert sig.args == [NAME, 0]
    assert manager.connections() == []
    assert_gone(qtbot, procs)


def test_a_command_the_bridge_cannot_start_fails_clearly(
    manager: ConnectionManager, qtbot: QtBot, tmp_path: Path
) -> None:
    missing = str(tmp_path / "no-such-server")
    with qtbot.waitSignal(manager.failed, timeout=WAIT_MS) as sig:
        manager.connect_server("ghost", [missing])
    assert sig.args[0] == "ghost"
    assert "exit code 127" in sig.args[1]
    assert missing in sig.args[1]


def test_shutdown_leaves_no_bridge_or_server_running(
    manager: ConnectionManager, qtbot: QtBot
) -> None:
    with qtbot.waitSignal(manager.connected, timeout=WAIT_MS):
        manager.connect_server(NAME, demo_command())
    wait_answer(qtbot, manager, 1)
    pid = manager.bridge_pid(NAME)
    assert pid is not None
    procs = tree(pid)
    manager.shutdown()
    assert_gone(qtbot, procs)


def select_server(window: MainWindow, name: str) -> None:
    """Select the row of server *name* in the Servers table, as a click would."""
    view = window.servers_panel.servers
    model = window.servers_panel.servers_model
    rows = [r for r in range(model.rowCount()) if model.index(r, 0).data() == name]
    assert rows, f"no row for {name}"
    view.selectRow(rows[0])


def test_disconnect_ends_only_the_selected_server_the_app_connected_once_confirmed(
    controller: AppController, store: Store, qtbot: QtBot
) -> None:
    with store.transaction() as state:
        state.set_policy("deny")  # no consent prompt in the way
    window = controller.window
    assert window is not None
    button = window.servers_panel.disconnect_button
    assert not button.isEnabled() and not window.disconnect_action.isEnabled()

    outside = BridgeHost("outside", demo_command())
    try:
        outside.handshake()
        window.connect_command(NAME, demo_command())
        manager = window.connections
        assert manager is not None
        qtbot.waitUntil(lambda: manager.is_connected(NAME), timeout=WAIT_MS)
        panel_model = window.servers_panel.servers_model
        qtbot.waitUntil(lambda: panel_model.rowCount() == 2, timeout=WAIT_MS)

        # a server an outside host started is not the app's to end
        select_server(window, "outside")
        assert not button.isEnabled() and not window.disconnect_action.isEnabled()
        select_server(window, NAME)
        assert button.isEnabled() and window.disconnect_action.isEnabled()

        # asked first; keeping it running leaves it connected
        seen: list[str] = []
        answer_message_box(button_named("Keep running"), seen)
        button.click()
        assert seen and NAME in seen[0]
        assert manager.is_connected(NAME)

        answer_message_box(button_named("Disconnect"))
        with qtbot.waitSignal(manager.disconnected, timeout=WAIT_MS) as ended:
            window.disconnect_action.trigger()
        assert ended.args is not None and ended.args[0] == NAME
        assert outside.proc.poll() is None, "the outside host's bridge was ended"
        select_server(window, "outside")
        assert not button.isEnabled()
    finally:
        outside.close()

    # a command that cannot start leaves nothing to disconnect
    with qtbot.waitSignal(manager.failed, timeout=WAIT_MS):
        window.connect_command("nowhere", ["/nonexistent/server-binary"])
    qtbot.waitUntil(lambda: manager.connections() == [], timeout=WAIT_MS)
    assert not window.disconnect_action.isEnabled()

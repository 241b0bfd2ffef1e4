"""The app as an MCP host on its own: handshake, pings, the shutdown ladder, failures.

These run the host connection against real processes started directly (the ``launcher`` seam),
so that the host side is checked apart from the bridge; tests/gui/connect/test_connect_bridge.py runs
the same manager through the real bridge.
"""

from __future__ import annotations

import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import psutil
import pytest
from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.servers.command import demo_command
from roots_manager.gui.connect.connect import ConnectionManager
from roots_manager.gui.connect.host_connection import PROTOCOL_VERSION, HostTimings, terminate_heard
from roots_manager.support.stop_ladder import Rung, Step, StopLadder

WAIT_MS = 30_000


def direct(name: str, command: Sequence[str], options: Sequence[str]) -> list[str]:
    """Start the server itself, with no bridge in between."""
    return list(command)


def script(tmp_path: Path, name: str, body: str) -> list[str]:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return [sys.executable, str(path)]


# A minimal stdio server: answers initialize, then pings the host and reports the answer.
PINGER = """
    import json, sys
    def send(m):
        sys.stdout.write(json.dumps(m) + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        m = json.loads(line)
        if m.get("method") == "initialize":
            caps = m["params"]["capabilities"]
            print("pinger: host capabilities", json.dumps(caps), file=sys.stderr, flush=True)
            send({"jsonrpc": "2.0", "id": m["id"], "result": {
                "protocolVersion": m["params"]["protocolVersion"], "capabilities": {},
                "serverInfo": {"name": "pinger", "version": "1"}}})
        elif m.get("method") == "notifications/initialized":
            send({"jsonrpc": "2.0", "id": "p1", "method": "ping"})
            send({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage", "params": {}})
        elif m.get("id") == "p1":
            print("pinger: ping answered", json.dumps(m), file=sys.stderr, flush=True)
        elif m.get("id") == "s1":
            print("pinger: sampling answered", json.dumps(m), file=sys.stderr, flush=True)
    print("pinger: stdin closed", file=sys.stderr, flush=True)
"""

# The handshake's answer, then nothing more until stdin closes (indented as the scripts are).
ANSWER_INITIALIZE = """
    for line in sys.stdin:
        m = json.loads(line)
        if m.get("method") == "initialize":
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "serverInfo": {"name": "test-server", "version": "1"}}}) + "\\n")
            sys.stdout.flush()
"""

# Answers the handshake, then ignores stdin EOF and SIGTERM; its child does the same.
STUBBORN = (
    """
    import json, signal, subprocess, sys, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = subprocess.Popen([sys.executable, "-c",
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"])
    print("stubborn: child", child.pid, file=sys.stderr, flush=True)
"""
    + ANSWER_INITIALIZE
    + """
    while True:
        time.sleep(0.1)
"""
)


@pytest.fixture
def manager(layout: Layout, qtbot: QtBot):  # type: ignore[no-untyped-def]
    m = ConnectionManager(layout, launcher=direct)
    yield m
    m.shutdown()


@pytest.fixture
def quick(layout: Layout, qtbot: QtBot):  # type: ignore[no-untyped-def]
    """A manager whose waits are short: the shutdown ladder's steps, or the handshake's."""
    made: list[ConnectionManager] = []

    def make(**timings: int) -> ConnectionManager:
        m = ConnectionManager(layout, launcher=direct, timings=HostTimings(**timings))
        made.append(m)
        return m

    yield make
    for m in made:
        m.shutdown()


def lines_of(m: ConnectionManager, name: str) -> list[str]:
    return m.stderr_tail(name)


def wait_line(qtbot: QtBot, m: ConnectionManager, name: str, needle: str) -> str:
    def found() -> None:
        assert any(needle in line for line in m.stderr_tail(name)), (
            f"no stderr line with {needle!r}; got: {m.stderr_tail(name)}"
        )

    qtbot.waitUntil(found, timeout=WAIT_MS)
    return next(line for line in m.stderr_tail(name) if needle in line)


def test_handshake_declares_no_roots_and_answers_pings(
    manager: ConnectionManager, qtbot: QtBot, tmp_path: Path
) -> None:
    with qtbot.waitSignal(manager.connected, timeout=WAIT_MS) as sig:
        manager.connect_server("pinger", script(tmp_path, "pinger.py", PINGER))
    assert sig.args == ["pinger"]
    assert manager.connections() == ["pinger"]
    assert manager.is_connected("pinger")
    assert manager.server_info("pinger")["name"] == "pinger"
    assert manager.protocol_version("pinger") == PROTOCOL_VERSION

    caps = wait_line(qtbot, manager, "pinger", "host capabilities")
    assert caps.endswith("{}"), caps  # no roots: the bridge is the one that injects it
    pong = wait_line(qtbot, manager, "pinger", "ping answered")
    assert '"result": {}' in pong and '"id": "p1"' in pong
    refused = wait_line(qtbot, manager, "pinger", "sampling answered")
    assert '"code": -32601' in refused

    with qtbot.waitSignal(manager.disconnected, timeout=WAIT_MS) as sig:
        manager.disconnect_server("pinger")
    assert sig.args == ["pinger", 0]
    assert manager.connections() == []


def test_demo_server_directly_sees_a_host_without_roots(
    manager: ConnectionManager, qtbot: QtBot
) -> None:
    with qtbot.waitSignal(manager.connected, timeout=WAIT_MS):
        manager.connect_server("demo", demo_command())
    wait_line(qtbot, manager, "demo", "declared no roots capability")
    pid = manager.bridge_pid("demo")
    assert pid is not None
    with qtbot.waitSignal(manager.disconnected, timeout=WAIT_MS):
        manager.disconnect_server("demo")
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_shutdown_ladder_kills_a_stubborn_server_and_its_child(
    quick: Callable[..., ConnectionManager], qtbot: QtBot, tmp_path: Path
) -> None:
    manager = quick(stdin_grace_ms=300, term_grace_ms=300)
    with qtbot.waitSignal(manager.connected, timeout=WAIT_MS):
        manager.connect_server("stubborn", script(tmp_path, "stubborn.py", STUBBORN))
    line = wait_line(qtbot, manager, "stubborn", "stubborn: child")
    child = psutil.Process(int(line.split()[-1]))
    pid = manager.bridge_pid("stubborn")
    assert pid is not None
    parent = psutil.Process(pid)

    started = time.monotonic()
    with qtbot.waitSignal(manager.disconnected, timeout=WAIT_MS) as sig:
        manager.disconnect_server("stubborn")
    assert sig.args[0] == "stubborn"
    assert sig.args[1] != 0  # it had to be killed
    assert time.monotonic() - started >= 0.5  # stdin closed, then SIGTERM, then SIGKILL
    for proc in (parent, child):
        qtbot.waitUntil(lambda p=proc: _gone(p), timeout=WAIT_MS)


# Answers the handshake, ignores stdin EOF, and notes when it is asked to terminate (and stays),
# in a file beside itself: its stderr is gone with the connection.
DEAF_TO_EOF = (
    """
    import json, signal, sys, time
    def note(what):
        with open(sys.argv[0] + ".log", "a") as f:
            f.write(what + "\\n")
    signal.signal(signal.SIGTERM, lambda *_: note("SIGTERM"))
"""
    + ANSWER_INITIALIZE
    + """
    note("stdin closed")
    while True:
        time.sleep(0.1)
"""
)


def test_without_a_terminate_step_the_ladder_kills_after_stdin_s_grace(
    quick: Callable[..., ConnectionManager], qtbot: QtBot, tmp_path: Path
) -> None:
    # Windows' ladder: QProcess.terminate posts WM_CLOSE, which a console bridge never sees, so
    # stdin's close is the polite step and the kill follows. The terminate step's grace is
    # longer than the test waits: only a ladder without that step gets to the kill in time.
    manager = quick(stdin_grace_ms=1000, term_grace_ms=3_600_000, terminate=False)
    with qtbot.waitSignal(manager.connected, timeout=WAIT_MS):
        manager.connect_server("deaf", script(tmp_path, "deaf.py", DEAF_TO_EOF))
    pid = manager.bridge_pid("deaf")
    assert pid is not None
    proc = psutil.Process(pid)
    with qtbot.waitSignal(manager.disconnected, timeout=WAIT_MS) as sig:
        manager.disconnect_server("deaf")
    assert sig.args[0] == "deaf" and sig.args[1] != 0  # killed
    assert (tmp_path / "deaf.py.log").read_text().splitlines() == ["stdin closed"]
    qtbot.waitUntil(lambda: _gone(proc), timeout=WAIT_MS)


def test_the_terminate_step_is_left_out_on_windows_only() -> None:
    assert not terminate_heard("win32")
    assert terminate_heard("linux") and terminate_heard("darwin")


@pytest.mark.unit
def test_the_app_s_timings_make_its_ladder() -> None:
    """The app's waits are milliseconds (tests shorten them); the ladder it climbs has them in
    seconds, the kill waited out for as long as the SIGTERM when the app quits."""
    assert HostTimings().ladder == StopLadder(5.0, 2.0, kill_wait=2.0, terminate=True)
    short = HostTimings(stdin_grace_ms=300, term_grace_ms=300, terminate=False).ladder
    assert list(short.rungs) == [Rung(Step.CLOSE_STDIN, 0.3), Rung(Step.KILL, 0.3)]


def _gone(proc: psutil.Process) -> None:
    try:
        status = proc.status()
    except psutil.NoSuchProcess:
        return
    assert status == psutil.STATUS_ZOMBIE, f"{proc.pid} still runs ({status})"


def test_shutdown_blocks_until_every_server_ended(
    quick: Callable[..., ConnectionManager], qtbot: QtBot, tmp_path: Path
) -> None:
    manager = quick(stdin_grace_ms=300, term_grace_ms=300)
    with qtbot.waitSignal(manager.connected, timeout=WAIT_MS):
        manager.connect_server("stubborn", script(tmp_path, "stubborn.py", STUBBORN))
    with qtbot.waitSignal(manager.connected, timeout=WAIT_MS):
        manager.connect_server("demo", demo_command())
    pids = [manager.bridge_pid("stubborn"), manager.bridge_pid("demo")]
    assert None not in pids
    procs = [psutil.Process(p) for p in pids if p is not None]
    manager.shutdown()
    for proc in procs:
        _gone(proc)


def test_a_program_that_cannot_start_fails_clearly(
    manager: ConnectionManager, qtbot: QtBot, tmp_path: Path
) -> None:
    missing = str(tmp_path / "no-such-server")
    with qtbot.waitSignal(manager.failed, timeout=WAIT_MS) as sig:
        manager.connect_server("ghost", [missing])
    assert sig.args[0] == "ghost"
    assert missing in sig.args[1]
    assert manager.connections() == []


def test_a_bridge_that_cannot_start_ends_its_connection(layout: Layout, qtbot: QtBot) -> None:
    missing = "/nonexistent/roots-bridge"
    m = ConnectionManager(layout, launcher=lambda name, command, options: [missing, *command])
    try:
        changes: list[int] = []
        m.connections_changed.connect(lambda: changes.append(len(m.connections())))
        for _ in range(2):  # and the name is free again for the next attempt
            with qtbot.waitSignal(m.failed, timeout=WAIT_MS) as sig:
                m.connect_server("fs", demo_command())
            assert missing in sig.args[1]
            qtbot.waitUntil(lambda: m.connections() == [], timeout=WAIT_MS)
        qtbot.waitUntil(lambda: changes == [1, 0, 1, 0], timeout=WAIT_MS)
    finally:
        m.shutdown()


def test_a_server_that_exits_before_the_handshake_fails_with_its_stderr(
    manager: ConnectionManager, qtbot: QtBot
) -> None:
    argv = [sys.executable, "-c", "import sys; sys.stderr.write('boom: no config\\n'); sys.exit(3)"]
    with qtbot.waitSignal(manager.failed, timeout=WAIT_MS) as sig:
        manager.connect_server("crash", argv)
    assert "exit code 3" in sig.args[1]
    assert "boom: no config" in sig.args[1]


def test_names_and_duplicates_are_refused(manager: ConnectionManager, qtbot: QtBot) -> None:
    with qtbot.waitSignal(manager.failed, timeout=WAIT_MS) as sig:
        manager.connect_server("  ", demo_command())
    assert "not a usable server name" in sig.args[1]
    # the names the bridge would refuse: control and text-direction characters
    for bad in ("bell\x07", "evil\u202etxt.exe", "del\x7f"):
        with qtbot.waitSignal(manager.failed, timeout=WAIT_MS) as sig:
            manager.connect_server(bad, demo_command())
        assert "not a usable server name" in sig.args[1], bad
    with qtbot.waitSignal(manager.failed, timeout=WAIT_MS) as sig:
        manager.connect_server("empty", [])
    assert "empty" in sig.args[1]
    with qtbot.waitSignal(manager.connected, timeout=WAIT_MS):
        manager.connect_server("demo", demo_command())
    with qtbot.waitSignal(manager.failed, timeout=WAIT_MS) as sig:
        manager.connect_server("demo", demo_command())
    assert "already connected" in sig.args[1]
    assert manager.connections() == ["demo"]


SILENT = """
    import sys, time
    for line in sys.stdin:
        pass  # never answers initialize
    time.sleep(0.2)
"""


def test_disconnecting_while_the_handshake_waits_ends_the_attempt(
    manager: ConnectionManager, qtbot: QtBot, tmp_path: Path
) -> None:
    failures: list[tuple[str, str]] = []
    manager.failed.connect(lambda n, m: failures.append((n, m)))
    manager.connect_server("silent", script(tmp_path, "silent.py", SILENT))
    qtbot.waitUntil(lambda: manager.bridge_pid("silent") is not None, timeout=WAIT_MS)
    pid = manager.bridge_pid("silent")
    assert pid is not None and not manager.is_connected("silent")
    proc = psutil.Process(pid)
    with qtbot.waitSignal(manager.disconnected, timeout=WAIT_MS) as sig:
        manager.disconnect_server("silent")
    assert sig.args == ["silent", 0]
    assert failures == []
    assert manager.connections() == []
    _gone(proc)


def test_a_handshake_that_never_comes_fails_after_the_timeout(
    quick: Callable[..., ConnectionManager], qtbot: QtBot, tmp_path: Path
) -> None:
    manager = quick(handshake_timeout_ms=300)
    disconnections: list[str] = []
    manager.disconnected.connect(lambda n, c: disconnections.append(n))
    ended: list[int] = []
    with qtbot.waitSignal(manager.failed, timeout=WAIT_MS) as sig:
        manager.connect_server("silent", script(tmp_path, "silent.py", SILENT))
    assert "did not answer the handshake" in sig.args[1]
    qtbot.waitUntil(lambda: manager.connections() == [] and manager.bridge_pid("silent") is None)
    assert disconnections == [] and ended == []

"""A bridge stopped the way each host stops a server leaves nothing running and logs the end.

The everything server runs as npm runs it for npx (npm exec, then sh, then node): a tree, the
shape that outlived the bridge. Each host's way is taken from what the hosts do: close stdin (the
SDKs), SIGTERM, and Claude Code's ladder (SIGINT, SIGTERM 100 ms later, SIGKILL at 500 ms).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from tests.bridge.wire import BridgeProc, bridge_argv, events, initialize, is_id
from tests.conftest import only_on_linux
from tests.fakes import FAKES

PEERS = Path(__file__).resolve().parent.parent / "peers"
# never reads its stdin, shrugs off every polite signal, and keeps a child of its own
STUBBORN = FAKES / "stubborn_server.py"
# floods the bridge with requests for roots and never reads an answer
FLOODING = FAKES / "flooding_server.py"
# reads every line and answers, but its input's end changes nothing: a polite signal ends it
DEAF_TO_EOF = FAKES / "deaf_to_eof_server.py"

# the hosts' and the bridge's lifecycles with plain server trees, started unconfined: a confined
# server's tree is its supervisor's to end, and `npm exec --prefix DIR` runs a program from DIR,
# which the rules derived from a command line never name (a folder there is the user's to grant)
pytestmark = pytest.mark.usefixtures("advisory_new_servers")


@pytest.fixture
def everything_server() -> list[str]:
    npm = shutil.which("npm")
    if npm is None or not (PEERS / "node_modules" / ".bin" / "mcp-server-everything").exists():
        raise AssertionError("the everything server needs npm and 'npm ci --prefix tests/peers'")
    return [npm, "exec", "--prefix", str(PEERS), "--offline", "--", "mcp-server-everything"]


def started(argv: list[str]) -> tuple[BridgeProc, list[psutil.Process]]:
    """A bridge in front of *argv*, past the handshake, and the server's whole tree."""
    bridge = BridgeProc(argv)
    bridge.send(initialize(1))
    bridge.expect(is_id(1), "the initialize result", timeout=60)
    bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    tree = psutil.Process(bridge.proc.pid).children(recursive=True)
    assert any("node" in " ".join(p.cmdline()) for p in tree), [p.cmdline() for p in tree]
    return bridge, tree


def left(tree: list[psutil.Process], within: float = 5.0) -> list[str]:
    """What of *tree* still runs after *within* seconds."""
    deadline = time.monotonic() + within
    alive = tree
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        time.sleep(0.05)
    return [" ".join(p.cmdline()) for p in alive]


def ladder(bridge: BridgeProc, way: str) -> None:
    proc = bridge.proc
    if way == "close stdin":
        bridge.close_stdin()
    elif way == "the SDKs' ladder":  # close stdin, SIGTERM 2 s later, SIGKILL 2 s after that
        bridge.close_stdin()
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                proc.wait(2)
                break
            except subprocess.TimeoutExpired:
                proc.send_signal(sig)
    elif way == "SIGTERM":
        proc.send_signal(signal.SIGTERM)
    else:  # Claude Code's: SIGINT, SIGTERM 100 ms later, SIGKILL at 500 ms
        proc.send_signal(signal.SIGINT)
        time.sleep(0.1)
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        time.sleep(0.4)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
    proc.wait(15)


@pytest.mark.parametrize("way", ["close stdin", "SIGTERM", "SIGINT, SIGTERM, SIGKILL"])
def test_a_host_stopping_the_bridge_its_way_leaves_nothing_running(
    everything_server: list[str], layout: Layout, way: str
) -> None:
    bridge, tree = started(bridge_argv("everything", everything_server))
    try:
        ladder(bridge, way)
        assert left(tree) == [], f"still running after the host stopped the bridge ({way})"
        assert events(layout, ev.RUN_END), "the end of the session was not logged"
        assert not [p for p in layout.live.iterdir() if p.suffix == ".json"], os.listdir(
            layout.live
        )
    finally:
        bridge.kill()
        for p in tree:
            if p.is_running():
                p.kill()


def stubborn_tree(bridge: BridgeProc) -> list[psutil.Process]:
    """The stubborn server's tree under *bridge*, once its own child has started."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        tree = psutil.Process(bridge.proc.pid).children(recursive=True)
        if any("time.sleep(600)" in " ".join(p.cmdline()) for p in tree):
            return tree
        time.sleep(0.05)
    raise AssertionError("the server and its child did not start")


def end_stubborn() -> None:
    for p in psutil.Process().children(recursive=True):
        if "sleep(600)" in " ".join(p.cmdline()):
            p.kill()


@pytest.mark.parametrize("way", ["the SDKs' ladder", "SIGINT, SIGTERM, SIGKILL"])
def test_a_server_that_never_reads_nor_yields_is_ended_within_the_hosts_ladder(
    layout: Layout, way: str
) -> None:
    """The bridge kills such a tree before the host kills the bridge, and logs that it did."""
    bridge = BridgeProc(bridge_argv("stubborn", [sys.executable, str(STUBBORN)]))
    try:
        tree = stubborn_tree(bridge)
        bridge.send(initialize(1))  # never read
        ladder(bridge, way)
        assert left(tree, within=1.0) == [], (
            f"still running after the host stopped the bridge ({way})"
        )
        [end] = events(layout, ev.RUN_END)
        assert end["stopped_by"] == "SIGKILL, at the host's pace", end
        assert bridge.proc.returncode != -signal.SIGKILL, "the host had to kill the bridge"
    finally:
        bridge.kill()
        end_stubborn()


@pytest.mark.parametrize("way", ["the SDKs' ladder", "SIGINT, SIGTERM, SIGKILL"])
def test_a_flooding_server_that_never_reads_ends_with_its_bridge_and_the_log_ends_last(
    layout: Layout, way: str
) -> None:
    """Behind it the bridge once answered the backlog for seconds after the host's signal, was
    killed by the host's ladder, and logged thousands of answers after its session's end. The
    requests that come once the run ends go unanswered (counted), the tree is gone before the
    host's SIGKILL, and the session's end is the log's last event."""
    bridge = BridgeProc(bridge_argv("flooding", [sys.executable, str(FLOODING)]))
    try:
        bridge.send(initialize(1))  # never read, never answered
        time.sleep(2)  # the pipes full, and a backlog behind them
        tree = psutil.Process(bridge.proc.pid).children(recursive=True)
        assert tree, "the server did not start"
        ladder(bridge, way)
        assert bridge.proc.returncode != -signal.SIGKILL, "the host had to kill the bridge"
        _, alive = psutil.wait_procs(tree, timeout=0)
        assert not alive, f"still running when the bridge ended ({way}): {alive}"
        [end] = events(layout, ev.RUN_END)
        logged = [e for e in events(layout) if e.get("session") == end["session"]]
        assert logged[-1]["kind"] == ev.RUN_END, [e["kind"] for e in logged[-3:]]
        assert logged[-1].get("unanswered", 0) > 0, logged[-1]
    finally:
        bridge.kill()


@pytest.mark.parametrize(
    "options",
    [
        pytest.param((), id="unconfined"),
        pytest.param(
            ("--confine",), id="confined", marks=only_on_linux("a supervisor confines on Linux")
        ),
    ],
)
def test_a_server_that_reads_but_ignores_its_inputs_end_ends_before_the_sdks_sigterm(
    layout: Layout, options: tuple[str, ...]
) -> None:
    """The SDKs close stdin, then send SIGTERM 2 s later: a bridge that gave such a server the
    SDKs' own 2 s was still there to be signalled. Now it ends first, the server's tree with
    it, and logs how it ended the server."""
    bridge = BridgeProc(bridge_argv("deaf", [sys.executable, str(DEAF_TO_EOF)], *options))
    try:
        bridge.send(initialize(1))
        bridge.expect(is_id(1), "the initialize result", timeout=60)
        time.sleep(1.0)  # past its start: a one-shot's server gets the SDKs' 2 s
        tree = psutil.Process(bridge.proc.pid).children(recursive=True)
        bridge.close_stdin()
        try:
            bridge.proc.wait(2)  # the SDKs' SIGTERM would come now
        except subprocess.TimeoutExpired:
            raise AssertionError("the bridge was still running when the SDKs signal it") from None
        _, alive = psutil.wait_procs(tree, timeout=0)
        assert not alive, f"the server's tree outlived the bridge: {alive}"
        [end] = events(layout, ev.RUN_END)
        assert end["stopped_by"] in ("SIGTERM", "SIGKILL"), end
    finally:
        bridge.kill()


def test_a_bridge_killed_with_sigkill_leaves_no_unconfined_server_running(layout: Layout) -> None:
    """A host's SIGKILL, sent first, lets the bridge run no code: the server's warden, which
    outlives it, ends the tree that reads no stdin and ignores every polite signal."""
    bridge = BridgeProc(bridge_argv("stubborn", [sys.executable, str(STUBBORN)]))
    try:
        tree = [p for p in stubborn_tree(bridge) if "roots-bridge-warden" not in p.cmdline()]
        bridge.proc.send_signal(signal.SIGKILL)
        bridge.proc.wait(5)
        assert left(tree) == [], "the server's tree outlived the bridge's SIGKILL"
    finally:
        bridge.kill()
        end_stubborn()


def markers(layout: Layout) -> list[str]:
    return [p.name for p in layout.live.iterdir() if p.suffix == ".json"]


@pytest.mark.parametrize(
    "options",
    [
        pytest.param((), id="unconfined"),
        pytest.param(
            ("--confine",), id="confined", marks=only_on_linux("a supervisor confines on Linux")
        ),
    ],
)
def test_a_bridge_killed_with_sigkill_leaves_no_live_marker(
    layout: Layout, options: tuple[str, ...]
) -> None:
    """A bridge killed outright runs no code to take its live marker away: the warden does, so
    the app and ``servers list`` never show a run that is over."""
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    bridge = BridgeProc(bridge_argv("sleeper", sleeper, *options))
    try:
        deadline = time.monotonic() + 20
        while not markers(layout):
            assert bridge.proc.poll() is None, bridge.stderr()
            assert time.monotonic() < deadline, "the bridge never wrote its marker"
            time.sleep(0.05)
        tree = psutil.Process(bridge.proc.pid).children(recursive=True)
        bridge.proc.send_signal(signal.SIGKILL)
        bridge.proc.wait(5)
        assert left(tree) == [], "the server's tree outlived the bridge's SIGKILL"
        deadline = time.monotonic() + 5
        while markers(layout) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert markers(layout) == [], "the killed bridge's live marker was left behind"
    finally:
        bridge.kill()


def test_a_host_that_kills_at_once_after_sigterm_finds_no_marker_left(
    everything_server: list[str], layout: Layout
) -> None:
    """Codex, quitting, sends SIGTERM and SIGKILL about 12 ms later: the bridge has no time to
    end in order, but its live marker goes at the first signal and the tree has been told."""
    bridge, tree = started(bridge_argv("everything", everything_server))
    try:
        deadline = time.monotonic() + 10
        while not [p for p in layout.live.iterdir() if p.suffix == ".json"]:
            assert time.monotonic() < deadline, "the bridge never wrote its marker"
            time.sleep(0.05)
        bridge.proc.send_signal(signal.SIGTERM)
        time.sleep(0.012)
        bridge.proc.send_signal(signal.SIGKILL)
        bridge.proc.wait(15)
        assert left(tree) == [], "still running after the host killed the bridge"
        assert not [p for p in layout.live.iterdir() if p.suffix == ".json"], os.listdir(
            layout.live
        )
    finally:
        bridge.kill()
        for p in tree:
            if p.is_running():
                p.kill()

"""The host's first exchange relayed while the bridge still loads, and recorded as ever.

A bridge whose load is held (an import finder that waits on a file the test makes) shows what
goes on before the rest of it is there: the host's ``initialize`` reaches the server with the
roots capability told, and the server's answer reaches the host; once the bridge has loaded, it
records that handshake exactly as it records one it relayed itself, and goes on from there.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.runs import live
from roots_manager.core.store.file import Store
from tests.bridge.wire import (
    Bridged,
    events,
    grant_folder,
    initialize,
    initialize_result,
    is_id,
    is_method,
    wait_for,
)
from tests.conftest import only_on_posix

HELD_LOAD = """
import os, runpy, sys, time

class Held:
    '''Holds the import of the bridge's run (or of BRIDGE_HELD_MODULE) until the file
    BRIDGE_GO_FILE names is there.'''

    def find_spec(self, name, path=None, target=None):
        if name == os.environ.get("BRIDGE_HELD_MODULE", "roots_manager.bridge.run.runner"):
            sys.meta_path.remove(self)
            while not os.path.exists(os.environ["BRIDGE_GO_FILE"]):
                time.sleep(0.01)
        return None

sys.meta_path.insert(0, Held())
runpy.run_module("roots_manager.bridge", run_name="__main__", alter_sys=True)
"""
"""``python -m roots_manager.bridge`` whose load stops before its run, until the test says go."""

INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}

pytestmark = only_on_posix(
    "the early relay waits on the host's pipe with poll(), which Windows has not for pipes: "
    "there the run relays everything"
)


def _handshakes(layout: Layout) -> list[dict[str, Any]]:
    """The handshake events of every run, without what differs from run to run."""
    return [
        {k: v for k, v in e.items() if k not in ("ts", "session")}
        for e in events(layout, ev.HANDSHAKE)
    ]


def _loaded(layout: Layout) -> bool:
    """Whether a bridge has loaded and taken over (its live marker is written then)."""
    return bool(live.live_runs(layout))


def test_the_initialize_is_answered_before_the_bridge_has_loaded(
    layout: Layout, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uri = grant_folder(store, tmp_path, "pup", "work")
    go = tmp_path / "go"
    monkeypatch.setenv("BRIDGE_GO_FILE", str(go))
    pair = Bridged(run=("-c", HELD_LOAD))
    try:
        pair.bridge.send(initialize(1, {"roots": {}, "sampling": {}}))
        told = pair.server.expect(is_method("initialize"), "the initialize, before the load")
        assert told["params"]["capabilities"] == {"roots": {"listChanged": True}, "sampling": {}}
        pair.server.send(initialize_result(1))
        pair.bridge.expect(is_id(1), "the answer, with the bridge's run not loaded yet")
        assert not _loaded(layout) and not go.exists()
        pair.bridge.send(INITIALIZED)
        go.touch()
        pair.server.expect(is_method("notifications/initialized"), "initialized, once loaded")
        assert pair.ask(2) == [uri]
    finally:
        pair.close()
    assert not events(layout, ev.ERROR), events(layout, ev.ERROR)
    host, server = _handshakes(layout)
    assert host["dir"] == ev.HOST_TO_SERVER and host["injected"] == {"roots": {"listChanged": True}}
    assert server["dir"] == ev.SERVER_TO_HOST and server["negotiated"] is True


def test_the_handshake_relayed_early_is_recorded_as_one_relayed_by_the_run(
    layout: Layout, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grant_folder(store, tmp_path, "pup", "work")
    go = tmp_path / "go"
    monkeypatch.setenv("BRIDGE_GO_FILE", str(go))

    def run(early: bool) -> list[dict[str, Any]]:
        before = len(_handshakes(layout))
        pair = Bridged(run=("-c", HELD_LOAD))
        try:
            if not early:
                go.touch()
                wait_for(lambda: _loaded(layout), "the bridge loaded")
            pair.bridge.send(initialize(1, {"roots": {"listChanged": False}}))
            pair.server.expect(is_method("initialize"), "initialize")
            pair.server.send(initialize_result(1))
            pair.bridge.expect(is_id(1), "the initialize result")
            pair.bridge.send(INITIALIZED)
            go.touch()
            pair.server.expect(is_method("notifications/initialized"), "initialized")
            pair.server.send({"jsonrpc": "2.0", "id": "r", "method": "roots/list"})
            pair.server.expect(is_id("r"), "the roots")
            pair.server.exit(0)
            assert pair.bridge.wait() == 0
        finally:
            pair.close()
            go.unlink(missing_ok=True)
        return _handshakes(layout)[before:]

    assert run(early=True) == run(early=False)
    assert not events(layout, ev.ERROR), events(layout, ev.ERROR)


def test_a_hurried_hosts_initialized_reaches_the_server_after_the_answer(
    layout: Layout, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # initialized in the same write as initialize: read with it, it waits for the bridge,
    # while the answer goes before it
    go = tmp_path / "go"
    monkeypatch.setenv("BRIDGE_GO_FILE", str(go))
    pair = Bridged(run=("-c", HELD_LOAD))
    try:
        pair.bridge.send(f"{_line(initialize(1))}\n{_line(INITIALIZED)}".encode())
        pair.server.expect(is_method("initialize"), "the initialize, before the load")
        pair.server.send(initialize_result(1))
        pair.bridge.expect(is_id(1), "the answer, before the load")
        with pytest.raises(AssertionError):
            pair.server.expect(is_method("notifications/initialized"), "not yet", timeout=1)
        go.touch()
        pair.server.expect(is_method("notifications/initialized"), "initialized, once loaded")
    finally:
        pair.close()
    assert not events(layout, ev.ERROR), events(layout, ev.ERROR)


def test_a_bridge_that_refuses_its_command_line_relays_no_answer(
    layout: Layout, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the name is checked once the early relay runs: the server's answer waits for the verdict
    go = tmp_path / "go"
    monkeypatch.setenv("BRIDGE_GO_FILE", str(go))
    monkeypatch.setenv("BRIDGE_HELD_MODULE", "roots_manager.core.servers.names")
    pair = Bridged("pup ", run=("-c", HELD_LOAD))
    try:
        pair.bridge.send(initialize(1))
        pair.server.expect(is_method("initialize"), "the initialize, before the check")
        pair.server.send(initialize_result(1))
        with pytest.raises(AssertionError):
            pair.bridge.expect(is_id(1), "no answer before the verdict", timeout=1)
        go.touch()
        assert pair.bridge.wait() == 2
        assert "begins or ends with a space" in pair.bridge.stderr
        assert pair.bridge.out.all() == []
    finally:
        pair.close()


def test_a_first_line_that_is_not_an_initialize_waits_for_the_bridge(
    layout: Layout, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a 2026-07-28 host's first request: the roots capability is told in its _meta, by the run
    go = tmp_path / "go"
    monkeypatch.setenv("BRIDGE_GO_FILE", str(go))
    pair = Bridged(run=("-c", HELD_LOAD))
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    try:
        pair.bridge.send(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}
        )
        with pytest.raises(AssertionError):
            pair.server.expect(is_method("tools/list"), "nothing before the load", timeout=1)
        go.touch()
        sent = pair.server.expect(is_method("tools/list"), "the request, once loaded")
        caps = sent["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
        assert caps == {"roots": {}}
    finally:
        pair.close()


def test_a_line_begun_before_the_load_and_ended_after_it_goes_whole(
    layout: Layout, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    go = tmp_path / "go"
    monkeypatch.setenv("BRIDGE_GO_FILE", str(go))
    pair = Bridged(run=("-c", HELD_LOAD))
    line = _line(initialize(1)).encode() + b"\n"
    stdin = pair.bridge.proc.stdin
    assert stdin is not None
    try:
        stdin.write(line[:20])
        stdin.flush()
        wait_for(lambda: _sent_and_waiting(pair), "the first bytes read")
        go.touch()
        wait_for(lambda: _loaded(layout), "the bridge loaded")
        stdin.write(line[20:])
        stdin.flush()
        told = pair.server.expect(is_method("initialize"), "the initialize, whole")
        assert told["params"]["capabilities"] == {"roots": {"listChanged": True}}
        pair.server.send(initialize_result(1))
        pair.bridge.expect(is_id(1), "the answer")
    finally:
        pair.close()
    assert not events(layout, ev.ERROR), events(layout, ev.ERROR)


def test_a_server_that_speaks_first_is_relayed_by_the_run(
    layout: Layout, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the server's first line is not the answer: it waits for the bridge (a request for roots
    # there would be the mediator's to answer), and the answer after it too, in order
    go = tmp_path / "go"
    monkeypatch.setenv("BRIDGE_GO_FILE", str(go))
    pair = Bridged(run=("-c", HELD_LOAD))
    note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "hi"}}
    try:
        pair.bridge.send(initialize(1))
        pair.server.expect(is_method("initialize"), "the initialize, before the load")
        pair.server.send(note)
        pair.server.send(initialize_result(1))
        with pytest.raises(AssertionError):
            pair.bridge.expect(is_id(1), "nothing before the load", timeout=1)
        go.touch()
        pair.bridge.expect(is_method("notifications/message"), "the server's first line")
        pair.bridge.expect(is_id(1), "then the answer")
    finally:
        pair.close()
    assert not events(layout, ev.ERROR), events(layout, ev.ERROR)


def _line(msg: dict[str, Any]) -> str:
    import json

    return json.dumps(msg, separators=(",", ":"))


def _sent_and_waiting(pair: Bridged) -> bool:
    """Whether the bridge read what the host wrote (its stdin pipe is empty)."""
    import fcntl
    import termios

    assert pair.bridge.proc.stdin is not None
    got = fcntl.ioctl(pair.bridge.proc.stdin.fileno(), termios.FIONREAD, b"\0\0\0\0")
    return int.from_bytes(got, sys.byteorder) == 0

"""A server that starts slowly (a first npx download) still gets its roots, however late."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.bridge.wire import (
    Bridged,
    events,
    grant_folder,
    initialize,
    initialize_result,
    is_id,
    is_method,
)


def test_a_server_answering_after_the_hold_limit_gets_its_roots(
    layout: Layout, store: Store, tmp_path: Path
) -> None:
    uri = grant_folder(store, tmp_path, "pup", "proj")
    p = Bridged("pup")
    try:
        # a host that does not wait for the result before it says initialized
        p.bridge.send(initialize(1))
        p.bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        p.server.expect(is_method("initialize"), "initialize")
        time.sleep(12)  # the server is still downloading: past the 10 s hold of initialized
        p.server.send(initialize_result(1))
        p.bridge.expect(is_id(1), "the initialize result")
        p.server.expect(is_method("notifications/initialized"), "initialized")
        assert p.ask(7) == [uri]
        assert any("stays held" in str(e.get("message")) for e in events(layout))
    finally:
        p.close()


@pytest.mark.parametrize("late", [12, 40])
def test_the_filesystem_server_started_late_gets_its_roots_from_a_hurried_host(
    filesystem_server: list[str], tmp_path: Path, layout: Layout, late: int
) -> None:
    # a host that says initialized at once, before the initialize result: the reference server
    # looks at the roots capability only if initialized comes after its own answer, so the
    # bridge must hold initialized for as long as the server takes to start
    from tests.bridge.wire import BridgeProc, bridge_argv
    from tests.conftest import run_cli
    from tests.e2e.test_bridge_filesystem import make

    granted = make(tmp_path, "proj")
    run_cli("roots", "add", *granted)
    run_cli("grant", "--new", "fs", *granted)
    slow = ["sh", "-c", f'sleep {late}; exec "$@"', "slow", *filesystem_server]
    bridge = BridgeProc(bridge_argv("fs", slow))
    try:
        bridge.send(initialize(1))
        bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        bridge.expect(is_id(1), "the initialize result", timeout=late + 30)
        deadline = time.monotonic() + 30
        listed = ""
        n = 1
        while time.monotonic() < deadline:
            n += 1
            call = {"name": "list_allowed_directories", "arguments": {}}
            bridge.send({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": call})
            reply = bridge.expect(is_id(n), "list_allowed_directories")
            listed = json.dumps(reply.get("result"))
            if granted[0] in listed:
                break
            time.sleep(0.1)
        assert granted[0] in listed, f"the server allows only {listed}"
    finally:
        bridge.kill()


def test_the_filesystem_server_started_late_gets_its_roots(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    import anyio
    from mcp import Client

    from tests.conftest import run_cli
    from tests.e2e.test_bridge_filesystem import make, params, until

    granted = make(tmp_path, "proj")
    run_cli("roots", "add", *granted)
    run_cli("grant", "--new", "fs", *granted)
    slow = ["sh", "-c", 'sleep 12; exec "$@"', "slow", *filesystem_server]

    async def scenario() -> None:
        async with Client(params("fs", slow)) as client:
            await until(client, granted, "the roots of a server that started late")

    anyio.run(scenario)


def test_a_decision_made_while_the_server_starts_reaches_it(
    layout: Layout, store: Store, tmp_path: Path
) -> None:
    import os

    from roots_manager.core.runs import live

    folder = tmp_path / "decided early"
    folder.mkdir()
    with store.transaction() as s:
        root = s.add_root(str(folder))
    live.write_app_marker(layout, pid=os.getpid())
    p = Bridged("newcomer")
    try:
        p.bridge.send(initialize(1))
        p.bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        p.server.expect(is_method("initialize"), "initialize")
        time.sleep(2)
        with store.transaction() as s:
            s.decide("newcomer", "always", [root.id])
        time.sleep(10.5)  # past the hold limit of the early initialized
        p.server.send(initialize_result(1))
        p.bridge.expect(is_id(1), "the initialize result")
        p.server.expect(is_method("notifications/initialized"), "initialized")
        assert p.ask(7) == [root.uri]
        assert events(layout, ev.CONSENT_DECIDED)
    finally:
        p.close()
        live.remove_app_marker(layout)


def test_an_error_answering_initialize_releases_the_held_initialized(layout: Layout) -> None:
    p = Bridged("pup")
    try:
        p.bridge.send(initialize(1))
        p.bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        p.server.expect(is_method("initialize"), "initialize")
        # no pattern the relay looks for is in it: seen only because initialized is held
        p.server.send({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no"}})
        p.bridge.expect(is_id(1), "the error answering initialize")
        p.server.expect(is_method("notifications/initialized"), "initialized", timeout=5)
    finally:
        p.close()


def test_initialized_after_an_error_answering_initialize_is_not_held(layout: Layout) -> None:
    """The error carries no pattern the relay looks for; read or not, it ends the handshake's
    wait, so an initialized the host sends after it goes straight to the server."""
    p = Bridged("pup")
    try:
        p.bridge.send(initialize(1))
        p.server.expect(is_method("initialize"), "initialize")
        p.server.send({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no"}})
        p.bridge.expect(is_id(1), "the error answering initialize")
        p.bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        p.server.expect(is_method("notifications/initialized"), "initialized", timeout=5)
    finally:
        p.close()

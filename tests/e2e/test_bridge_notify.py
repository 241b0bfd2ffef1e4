"""`roots-manager notify`: a list_changed on request, through a real bridge to a puppet server."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from roots_manager.core import events as ev
from roots_manager.core import live
from roots_manager.core.paths import Layout
from tests.bridge.wire import (
    BridgeProc,
    Puppet,
    bridge_argv,
    events,
    handshake,
    is_id,
    is_method,
    wait_for,
)
from tests.conftest import run_cli

LIST_CHANGED = "notifications/roots/list_changed"


@pytest.fixture
def bridged(layout: Layout) -> Iterator[tuple[BridgeProc, Puppet]]:
    server = Puppet()
    bridge = BridgeProc(bridge_argv("pup", server.command()))
    server.accept()
    wait_for(
        lambda: [m for m in live.bridge_markers(layout) if m.server == "pup"] or None,
        "the bridge's live marker",
    )
    yield bridge, server
    bridge.kill()
    server.close()


def pending_lines(server: Puppet) -> list[object]:
    assert server.lines is not None
    server.lines._drain()
    return [json.loads(line) for line in server.lines.seen]


def test_notify_sends_list_changed_once_until_the_server_fetches(
    bridged: tuple[BridgeProc, Puppet], layout: Layout
) -> None:
    bridge, server = bridged
    early = run_cli("notify", "pup")
    assert "the handshake is not complete" in early.stdout

    handshake(bridge, server)
    sent = run_cli("notify", "pup")
    assert "list_changed sent on request" in sent.stdout
    server.expect(is_method(LIST_CHANGED), "the requested list_changed")

    # the server has not fetched since: a second notice would be a storm
    again = run_cli("notify", "pup")
    assert "has not fetched the list since the last notice" in again.stdout
    server.send({"jsonrpc": "2.0", "id": "s1", "method": "roots/list"})
    server.expect(is_id("s1"), "the roots/list answer")
    assert not any(
        isinstance(m, dict) and m.get("method") == LIST_CHANGED for m in pending_lines(server)
    ), "a second list_changed went out before the server fetched the list"

    # having fetched, it may be told again
    assert "list_changed sent on request" in run_cli("notify", "pup").stdout
    server.expect(is_method(LIST_CHANGED), "the second requested list_changed")

    asked = [(e["outcome"], e["by"]) for e in events(layout, ev.LIST_CHANGED_ASKED)]
    assert asked == [
        ("handshake", "cli"),
        ("sent", "cli"),
        ("not-fetched", "cli"),
        ("sent", "cli"),
    ]
    # nothing is left behind in the per-user directory
    assert not [p for p in layout.home.iterdir() if p.name.startswith("notify-")]


def test_notify_without_a_running_bridge_is_refused(layout: Layout) -> None:
    proc = run_cli("notify", "nobody", check=False)
    assert proc.returncode == 1
    assert "no bridge of nobody is running" in proc.stderr

"""`roots-manager notify`: a list_changed on request, through a real bridge to a puppet server."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.runs import live
from tests.bridge.wire import (
    Bridged,
    Puppet,
    events,
    handshake,
    is_id,
    is_method,
    wait_for,
)
from tests.conftest import run_cli

LIST_CHANGED = "notifications/roots/list_changed"


def start(layout: Layout, *options: str) -> Bridged:
    p = Bridged("pup", *options)
    wait_for(
        lambda: [m for m in live.bridge_markers(layout) if m.server == "pup"] or None,
        "the bridge's live marker",
    )
    return p


@pytest.fixture
def bridged(layout: Layout) -> Iterator[Bridged]:
    p = start(layout)
    yield p
    p.close()


def notify(*args: str) -> subprocess.CompletedProcess[str]:
    # the bridge looks at least once a second; the wait only bounds a broken run
    return run_cli("notify", "pup", "--wait", "60", *args, check=False)


def pending_lines(server: Puppet) -> list[object]:
    assert server.lines is not None
    server.lines._drain()
    return [json.loads(line) for line in server.lines.seen]


def requests_left(layout: Layout) -> list[str]:
    return [p.name for p in layout.home.iterdir() if p.name.startswith("notify-")]


def test_notify_sends_list_changed_once_until_the_server_fetches(
    bridged: Bridged, layout: Layout
) -> None:
    bridge, server = bridged.bridge, bridged.server
    early = notify()
    assert early.returncode == 1
    assert "the handshake is not complete" in early.stderr

    handshake(bridge, server)
    sent = notify()
    assert sent.returncode == 0, sent.stderr
    assert "list_changed sent on request" in sent.stdout
    server.expect(is_method(LIST_CHANGED), "the requested list_changed")

    # the server has not fetched since: a second notice would be a storm
    again = notify()
    assert again.returncode == 1
    assert "has not fetched the list since the last notice" in again.stderr
    server.send({"jsonrpc": "2.0", "id": "s1", "method": "roots/list"})
    server.expect(is_id("s1"), "the roots/list answer")
    assert not any(
        isinstance(m, dict) and m.get("method") == LIST_CHANGED for m in pending_lines(server)
    ), "a second list_changed went out before the server fetched the list"

    # having fetched, it may be told again; with --json, what each bridge did
    told = notify("--json")
    assert told.returncode == 0, told.stdout
    doc = json.loads(told.stdout)
    assert doc["version"] == 1 and doc["server"] == "pup" and doc["sent"] == 1
    assert [b["outcome"] for b in doc["bridges"]] == ["sent"] and "error" not in doc
    server.expect(is_method(LIST_CHANGED), "the second requested list_changed")

    asked = [(e["outcome"], e["by"], e.get("dir")) for e in events(layout, ev.LIST_CHANGED_ASKED)]
    assert asked == [
        ("handshake", "cli", None),
        ("sent", "cli", ev.BRIDGE_TO_SERVER),
        ("not-fetched", "cli", None),
        ("sent", "cli", ev.BRIDGE_TO_SERVER),
    ]
    assert len({e["request"] for e in events(layout, ev.LIST_CHANGED_ASKED)}) == 4
    assert requests_left(layout) == []


def test_notify_refuses_an_observing_bridge_and_leaves_nothing(layout: Layout) -> None:
    p = start(layout, "--observe")
    try:
        proc = notify()
        assert proc.returncode == 1
        assert "only observes" in proc.stderr
        as_json = notify("--json")
        assert as_json.returncode == 1 and as_json.stderr == ""
        doc = json.loads(as_json.stdout)  # the report, and the failure in it
        assert [b["outcome"] for b in doc["bridges"]] == ["observing"] and doc["sent"] == 0
        assert doc["error"]["code"] == "not-sent" and "only observes" in doc["error"]["message"]
        assert requests_left(layout) == []
        assert events(layout, ev.LIST_CHANGED_ASKED) == []
    finally:
        p.close()


def test_a_request_left_by_an_ended_bridge_is_swept(layout: Layout) -> None:
    live.ask_list_changed(layout, "20260101T000000-deadbeef", "cli")  # no such bridge runs
    assert requests_left(layout) == ["notify-20260101T000000-deadbeef.json"]
    p = start(layout)
    try:
        wait_for(lambda: requests_left(layout) == [] or None, "the stale request swept")
    finally:
        p.close()


def test_notify_without_a_running_bridge_is_refused(layout: Layout) -> None:
    proc = run_cli("notify", "nobody", check=False)
    assert proc.returncode == 1
    assert "no bridge of nobody is running" in proc.stderr
    as_json = run_cli("notify", "nobody", "--json", check=False)
    assert as_json.returncode == 1 and as_json.stderr == ""
    assert json.loads(as_json.stdout)["error"]["code"] == "not-running"

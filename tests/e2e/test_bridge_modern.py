"""2026-07-28 through the bridge: capability injection and input_required rounds for roots."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.bridge.wire import Bridged, bridge_argv, events, is_id, is_method
from tests.fakes import FAKES

TOOL_SERVER = FAKES / "roots_tool_server.py"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "test-host", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def grant(store: Store, tmp_path: Path, server: str, *names: str) -> list[str]:
    uris = []
    with store.transaction() as s:
        for name in names:
            folder = tmp_path / name
            folder.mkdir(parents=True, exist_ok=True)
            root = s.add_root(str(folder))
            s.grant(server, [root.id])
            uris.append(root.uri)
    return uris


def test_sdk_host_2026_without_roots_callback_gets_roots_through_the_bridge(
    store: Store, tmp_path: Path, layout
) -> None:
    uris = grant(store, tmp_path, "tool", "alpha beta", "中文")
    params = StdioServerParameters(
        command=sys.executable,
        args=bridge_argv("tool", [sys.executable, str(TOOL_SERVER)])[1:],
        env=os.environ.copy(),
    )

    async def call() -> str:
        async with Client(params, mode="2026-07-28") as client:
            result = await client.call_tool("show_roots", {})
            assert not result.is_error, result
            block = result.content[0]
            assert block.type == "text"
            return block.text

    text = anyio.run(call)
    assert [r["uri"] for r in json.loads(text)] == uris
    resolved = events(layout, ev.MRTR_RESOLVED)
    assert resolved and resolved[0]["uris"] == uris and resolved[0]["path"] == "retry"
    assert events(layout, ev.HANDSHAKE)[0]["injected"] == {"roots": {}}


@pytest.fixture
def pair() -> Iterator[Bridged]:
    p = Bridged("m")
    yield p
    p.close()


def req(msg_id: object):  # type: ignore[no-untyped-def]
    return lambda m: isinstance(m, dict) and m.get("id") == msg_id and "method" in m


def call(msg_id: object, name: str = "t", **params: object) -> dict[str, object]:
    meta = json.loads(json.dumps(META))
    return {
        "jsonrpc": "2.0",
        "id": msg_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": {"a": 1}, **params, "_meta": meta},
    }


def test_meta_injection_keeps_everything_else(pair: Bridged) -> None:
    pair.bridge.send(call(1))
    got = pair.server.expect(is_method("tools/call"), "the tool call")
    caps = got["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    assert caps == {"roots": {}}
    assert got["params"]["arguments"] == {"a": 1} and got["id"] == 1
    # a request that declares roots itself is left alone
    msg = call(2)
    msg["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = {"roots": {"x": 1}}
    pair.bridge.send(msg)
    got = pair.server.expect(req(2), "the second call")
    assert got["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] == {
        "roots": {"x": 1}
    }
    # server/discover passes with the capability added and its result untouched
    pair.bridge.send(
        {"jsonrpc": "2.0", "id": 3, "method": "server/discover", "params": {"_meta": dict(META)}}
    )
    pair.server.expect(is_method("server/discover"), "discover")
    pair.server.send({"jsonrpc": "2.0", "id": 3, "result": {"supportedVersions": ["2026-07-28"]}})
    assert pair.bridge.expect(is_id(3), "discover result")["result"] == {
        "supportedVersions": ["2026-07-28"]
    }


def test_roots_only_rounds_are_resolved_by_the_bridge(
    pair: Bridged, store: Store, tmp_path: Path, layout
) -> None:
    uris = grant(store, tmp_path, "m", "one")
    pair.bridge.send(call(10))
    pair.server.expect(req(10), "the host's call")
    state1 = 'opaque-state-1 \u00e9\u2603 {"x":1}'
    pair.server.send(
        {
            "jsonrpc": "2.0",
            "id": 10,
            "result": {
                "resultType": "input_required",
                "requestState": state1,
                "inputRequests": {"r1": {"method": "roots/list"}},
            },
        }
    )
    retry1 = pair.server.expect(
        lambda m: isinstance(m, dict) and m.get("method") == "tools/call" and m["id"] != 10,
        "the bridge's first retry",
    )
    assert isinstance(retry1["id"], str) and retry1["id"].startswith("roots-bridge-")
    assert retry1["params"]["requestState"] == state1
    assert retry1["params"]["inputResponses"] == {
        "r1": {"roots": [{"uri": uris[0], "name": "one"}]}
    }
    assert retry1["params"]["arguments"] == {"a": 1} and retry1["params"]["name"] == "t"
    # a second round, asked on the bridge's own request
    pair.server.send(
        {
            "jsonrpc": "2.0",
            "id": retry1["id"],
            "result": {
                "resultType": "input_required",
                "requestState": "s2",
                "inputRequests": {"r2": {"method": "roots/list"}},
            },
        }
    )
    retry2 = pair.server.expect(
        lambda m: (
            isinstance(m, dict)
            and m.get("method") == "tools/call"
            and m["id"] not in (10, retry1["id"])
        ),
        "the bridge's second retry",
    )
    assert retry2["params"]["requestState"] == "s2"
    assert list(retry2["params"]["inputResponses"]) == ["r2"]
    pair.server.send(
        {
            "jsonrpc": "2.0",
            "id": retry2["id"],
            "result": {"resultType": "complete", "content": [{"type": "text", "text": "done"}]},
        }
    )
    final = pair.bridge.expect(is_id(10), "the final result under the host's id")
    assert final["result"]["content"][0]["text"] == "done"
    # the host saw nothing of the rounds
    assert not [m for m in pair.bridge.out.all() if isinstance(m, dict)]
    assert len(events(layout, ev.MRTR_RESOLVED)) == 2


def test_mixed_rounds_leave_elicitation_to_the_host(
    pair: Bridged, store: Store, tmp_path: Path, layout
) -> None:
    uris = grant(store, tmp_path, "m", "mixed")
    pair.bridge.send(call("h1"))
    pair.server.expect(req("h1"), "the host's call")
    elicit = {
        "method": "elicitation/create",
        "params": {"message": "sure?", "requestedSchema": {"type": "object", "properties": {}}},
    }
    pair.server.send(
        {
            "jsonrpc": "2.0",
            "id": "h1",
            "result": {
                "resultType": "input_required",
                "requestState": "mixed-state",
                "inputRequests": {"ask": elicit, "where": {"method": "roots/list"}},
            },
        }
    )
    to_host = pair.bridge.expect(is_id("h1"), "the input_required for the host")
    assert to_host["result"]["inputRequests"] == {"ask": elicit}
    assert to_host["result"]["requestState"] == "mixed-state"
    # the host retries with its own answer; the bridge adds the roots
    pair.bridge.send(
        call(
            "h2",
            inputResponses={"ask": {"action": "accept", "content": {}}},
            requestState="mixed-state",
        )
    )
    retry = pair.server.expect(req("h2"), "the host's retry")
    assert retry["params"]["requestState"] == "mixed-state"
    assert retry["params"]["inputResponses"] == {
        "ask": {"action": "accept", "content": {}},
        "where": {"roots": [{"uri": uris[0], "name": "mixed"}]},
    }
    pair.server.send(
        {"jsonrpc": "2.0", "id": "h2", "result": {"resultType": "complete", "content": []}}
    )
    assert pair.bridge.expect(is_id("h2"), "the final result")["result"]["resultType"] == "complete"
    assert events(layout, ev.MRTR_RESOLVED)[0]["path"] == "host-retry"


def test_required_capability_error_passes_through(pair: Bridged) -> None:
    pair.bridge.send(call(5))
    pair.server.expect(req(5), "call")
    err = {
        "jsonrpc": "2.0",
        "id": 5,
        "error": {
            "code": -32021,
            "message": "need roots",
            "data": {"requiredCapabilities": {"roots": {}}},
        },
    }
    pair.server.send(err)
    assert pair.bridge.expect(is_id(5), "the error") == err


def test_a_request_without_client_capabilities_gets_them(pair: Bridged) -> None:
    msg = call(6)
    del msg["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]  # type: ignore[index]
    pair.bridge.send(msg)
    got = pair.server.expect(req(6), "the call")
    assert got["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] == {"roots": {}}
    assert (
        got["params"]["_meta"]["io.modelcontextprotocol/clientInfo"]
        == META["io.modelcontextprotocol/clientInfo"]
    )


def test_a_cancellation_reaches_the_call_the_bridge_retried(
    pair: Bridged, store: Store, tmp_path: Path
) -> None:
    grant(store, tmp_path, "m", "one")
    pair.bridge.send(call(20))
    pair.server.expect(req(20), "the host's call")
    pair.server.send(
        {
            "jsonrpc": "2.0",
            "id": 20,
            "result": {
                "resultType": "input_required",
                "requestState": "s",
                "inputRequests": {"r": {"method": "roots/list"}},
            },
        }
    )
    retry = pair.server.expect(
        lambda m: isinstance(m, dict) and m.get("method") == "tools/call" and m["id"] != 20,
        "the bridge's retry",
    )
    # the host cancels its call by its own id; the server knows it by the bridge's
    pair.bridge.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 20, "reason": "the user pressed stop"},
        }
    )
    got = pair.server.expect(is_method("notifications/cancelled"), "the cancellation")
    assert got["params"] == {"requestId": retry["id"], "reason": "the user pressed stop"}
    # a cancellation of a call the bridge did not retry goes as it is
    pair.bridge.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}
    )
    got = pair.server.expect(
        lambda m: isinstance(m, dict) and m.get("params", {}).get("requestId") == 99,
        "the other cancellation",
    )
    assert got["method"] == "notifications/cancelled"

"""A hostile server asks a real host for its roots in every spelling: the host is never asked.

The host is the TypeScript SDK's client with roots of its own, which it hands to any server that
asks; the server (:mod:`tests.fakes.spelling_server`) escapes the method name, puts a byte order mark
or bytes that are not UTF-8 in front, doubles the method key, and pads the request past what the
bridge streams unparsed. Behind the bridge the host answers none of them, and every answer the
server gets carries only what the user granted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.bridge.wire import bridge_argv, events, grant_folder, wait_for
from tests.fakes import FAKES


@pytest.fixture(autouse=True)
def _every_relay(both_relays: str) -> None:
    """Every test here runs with each relay: the traffic is the relay's hardest."""


SERVER = FAKES / "spelling_server.py"


def run_host(ts_host: list[str], server: list[str], host_roots: list[dict[str, str]]) -> dict:
    proc = subprocess.run(
        [*ts_host, json.dumps(server), json.dumps(host_roots)],
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ.copy(),
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_real_host_answers_every_spelling_directly(ts_host: list[str], tmp_path: Path) -> None:
    """Without the bridge the same host hands its folders to the server: the attack is real."""
    secret = (tmp_path / "host-only").as_uri()
    out = run_host(ts_host, [sys.executable, str(SERVER)], [{"uri": secret, "name": "all"}])
    got = json.loads(out["report"])
    leaked = sorted(k for k, v in got.items() if secret in json.dumps(v))
    # the host reads the escaped, the doubled, the not-UTF-8 and the padded spellings
    assert {"s1", "s2", "s5", "s6", "s7", "s8"} <= set(leaked), got
    assert out["asked"] >= 6


def test_behind_the_bridge_the_host_is_never_asked(
    ts_host: list[str], store: Store, tmp_path: Path, layout
) -> None:
    uri = grant_folder(store, tmp_path, "spell", "granted")
    secret = (tmp_path / "host-only").as_uri()
    bridge = bridge_argv("spell", [sys.executable, str(SERVER)])
    out = run_host(ts_host, bridge, [{"uri": secret, "name": "all"}])
    got = json.loads(out["report"])
    assert out["asked"] == 0
    assert secret not in out["report"]
    # every request with a readable id was answered by the bridge with the granted folder only
    for key in ("s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"):
        assert got[key]["result"] == {"roots": [{"uri": uri, "name": "granted"}]}, key
    # the host's answer to the final ping is there: it read every line before it
    assert "done" in got
    # the bridge's log is written as it winds down
    wait_for(lambda: len(events(layout, ev.ROOTS_ANSWERED)) == 9, "nine answers in the log")


SHIM = FAKES / "escaping_shim.py"
TOOL_SERVER = FAKES / "roots_tool_server.py"


def _sdk_host_show_roots(command: list[str], secret: str) -> tuple[str, int]:
    """The Python SDK as a 2026-07-28 host with a roots callback of its own: what the server's
    tool was given, and how often the host was asked."""
    import anyio
    import mcp_types as types
    from mcp import Client, StdioServerParameters

    asked = 0

    async def host_roots(context: object) -> types.ListRootsResult:
        nonlocal asked
        asked += 1
        return types.ListRootsResult(roots=[types.Root(uri=secret, name="all")])

    params = StdioServerParameters(command=command[0], args=command[1:], env=os.environ.copy())

    async def call() -> str:
        async with Client(params, mode="2026-07-28", list_roots_callback=host_roots) as client:
            result = await client.call_tool("show_roots", {})
            assert not result.is_error, result
            block = result.content[0]
            assert block.type == "text"
            return block.text

    return anyio.run(call), asked


def test_an_escaped_input_required_round_reaches_a_real_sdk_host_directly(tmp_path: Path) -> None:
    """The control: without the bridge, the SDK host reads the escaped round and answers it."""
    secret = (tmp_path / "host-only").as_uri()
    text, asked = _sdk_host_show_roots(
        [sys.executable, str(SHIM), sys.executable, str(TOOL_SERVER)], secret
    )
    assert asked >= 1 and secret in text


def test_an_escaped_input_required_round_is_resolved_by_the_bridge(
    store: Store, tmp_path: Path, layout
) -> None:
    uri = grant_folder(store, tmp_path, "tool", "granted")
    secret = (tmp_path / "host-only").as_uri()
    bridge = bridge_argv("tool", [sys.executable, str(SHIM), sys.executable, str(TOOL_SERVER)])
    text, asked = _sdk_host_show_roots(bridge, secret)
    assert asked == 0
    assert [r["uri"] for r in json.loads(text)] == [uri]
    resolved = events(layout, ev.MRTR_RESOLVED)
    assert resolved and resolved[0]["uris"] == [uri]

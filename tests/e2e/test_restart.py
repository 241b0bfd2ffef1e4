"""Revocation that revokes: a confined server restarted behind the host's back, on the real kernel.

The host is the Python SDK's client, which initializes once; the bridge restarts the server when
its grants change and replays the handshake, so the same host session goes on, under new rules.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from roots_manager.core import events as ev
from roots_manager.core.paths import Layout
from tests.bridge.wire import bridge_argv, events, wait_for
from tests.conftest import run_cli

HERE = Path(__file__).parent
FILE_TOOL = HERE / "file_tool_server.py"


def folders(tmp_path: Path, *names: str) -> dict[str, Path]:
    out = {}
    for name in names:
        path = out[name] = tmp_path / "work" / name
        path.mkdir(parents=True)
        (path / "hello.txt").write_text(f"in {name}\n", encoding="utf-8")
        run_cli("roots", "add", str(path))
    return out


def params(command: list[str], *options: str) -> StdioServerParameters:
    argv = bridge_argv("srv", command, *options)
    return StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ))


async def text(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    block = result.content[0]
    assert block.type == "text"
    return block.text


def restarted(layout: Layout, count: int) -> list[dict[str, Any]]:
    """Wait for the bridge's *count*-th restart; all of them so far."""
    return wait_for(
        lambda: (r := events(layout, ev.SERVER_RESTARTED)) and len(r) >= count and r,
        f"restart {count}",
    )


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_revoked_folder_is_closed_to_the_running_confined_server(
    tmp_path: Path, layout: Layout, mode: str
) -> None:
    w = folders(tmp_path, "kept", "taken")
    run_cli("grant", "srv", str(w["kept"]))
    run_cli("grant", "srv", str(w["taken"]))
    run_cli("servers", "confine", "srv", "on")
    command = [sys.executable, str(FILE_TOOL)]

    async def scenario() -> None:
        async with Client(params(command), mode=mode) as client:  # type: ignore[arg-type]
            for name in ("kept", "taken"):
                got = await text(client, "read_file", path=str(w[name] / "hello.txt"))
                assert got == f"in {name}\n"
            run_cli("revoke", "srv", str(w["taken"]))
            first = await anyio.to_thread.run_sync(restarted, layout, 1)
            # the same host session: no second initialize, and every tool still there
            tools = await client.list_tools()
            assert {t.name for t in tools.tools} >= {"read_file", "write_file"}
            got = await text(client, "read_file", path=str(w["taken"] / "hello.txt"))
            assert got == "EACCES"
            got = await text(client, "read_file", path=str(w["kept"] / "hello.txt"))
            assert got == "in kept\n"
            assert await text(client, "write_file", path=str(w["kept"] / "a"), text="1") == "ok"
            # a grant takes effect the same way
            run_cli("grant", "srv", str(w["taken"]))
            await anyio.to_thread.run_sync(restarted, layout, 2)
            got = await text(client, "read_file", path=str(w["taken"] / "hello.txt"))
            assert got == "in taken\n"
            assert first[0]["reason"] == f"revoked: {w['taken']}"

    anyio.run(scenario)
    done = events(layout, ev.SERVER_RESTARTED)
    assert [e["reason"] for e in done] == [f"revoked: {w['taken']}", "its grants changed"]
    # a 2025 host's handshake is replayed; a 2026-07-28 host made none
    replayed = ["initialize", "notifications/initialized"]
    for e in done:
        assert e["old_pid"] != e["new_pid"]
        assert e["replayed"] == (replayed if mode == "legacy" else [])
        assert e["cut"] == 0 and e["attempts"] == 1
    assert len(events(layout, ev.SESSION_START)) == 1

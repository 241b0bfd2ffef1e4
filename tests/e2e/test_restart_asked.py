"""Restart on request: the bridge of a server started by a host the app does not know (here the
Python SDK's client) takes a request file, as it takes a list_changed request, and restarts its
server behind the host's back, the handshake replayed, as a revocation's restart does."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.runs import live
from tests.bridge.wire import bridge_argv, events, wait_for
from tests.conftest import run_cli
from tests.fakes import FAKES

HERE = Path(__file__).parent
FILE_TOOL = FAKES / "file_tool_server.py"


def params(*options: str) -> StdioServerParameters:
    argv = bridge_argv("srv", [sys.executable, str(FILE_TOOL)], *options)
    return StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ))


def granted(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "hello.txt").write_text("hello\n", encoding="utf-8")
    run_cli("roots", "add", str(folder))
    run_cli("grant", "--new", "srv", str(folder))
    return folder


async def read(client: Client, path: Path) -> str:
    result = await client.call_tool("read_file", {"path": str(path)})
    block = result.content[0]
    assert block.type == "text"
    return block.text


def marker(layout: Layout) -> live.BridgeMarker:
    return wait_for(
        lambda: next((m for m in live.bridge_markers(layout) if m.server == "srv"), None),
        "the bridge's live marker",
    )


def requests_left(layout: Layout) -> list[str]:
    return [p.name for p in layout.home.iterdir() if p.name.startswith("restart-")]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_bridge_started_by_an_unknown_host_restarts_its_server_when_asked(
    tmp_path: Path, layout: Layout, mode: str
) -> None:
    folder = granted(tmp_path)
    # advisory, but restarted on revoke: its bridge keeps the host's handshake
    run_cli("servers", "restart-on-revoke", "srv", "on")

    async def scenario() -> dict[str, Any]:
        async with Client(params(), mode=mode) as client:  # type: ignore[arg-type]
            assert await read(client, folder / "hello.txt") == "hello\n"
            running = await anyio.to_thread.run_sync(marker, layout)
            assert running.restartable and running.mode == "managed"
            old_pid = running.server_pid
            request = live.ask_restart(layout, running.run, "app")
            done = await anyio.to_thread.run_sync(
                wait_for, lambda: events(layout, ev.SERVER_RESTARTED), "the restart"
            )
            # the host goes on with the new server: no second initialize, its tools answer
            tools = await client.list_tools()
            assert {t.name for t in tools.tools} >= {"read_file", "write_file"}
            assert await read(client, folder / "hello.txt") == "hello\n"
            restarted = done[0]
            assert restarted["request"] == request and restarted["reason"] == "asked by app"
            assert restarted["old_pid"] == old_pid != restarted["new_pid"]
            # a 2025 host's handshake is replayed to the new server; a 2026-07-28 host made none
            replayed = ["initialize", "notifications/initialized"] if mode == "legacy" else []
            assert restarted["replayed"] == replayed
            # the bridge's marker names the new server and counts the restart
            now = await anyio.to_thread.run_sync(
                wait_for,
                lambda: (m := marker(layout)).restarts == 1 and m,
                "the marker to count the restart",
            )
            assert now.server_pid == restarted["new_pid"]
            # the command line asks the same way, and waits for the restart
            cli = await anyio.to_thread.run_sync(
                lambda: run_cli("restart", "srv", "--json", check=False)
            )
            assert cli.returncode == 0, cli.stdout + cli.stderr
            doc = json.loads(cli.stdout)
            assert doc["restarted"] == 1 and [b["outcome"] for b in doc["bridges"]] == ["restarted"]
            assert "restarted on request" in doc["bridges"][0]["message"]
            assert await read(client, folder / "hello.txt") == "hello\n"
            return restarted

    restarted = anyio.run(scenario)
    asked = events(layout, ev.RESTART_ASKED)
    assert [(e["outcome"], e["by"]) for e in asked] == [
        ("restarting", "app"),
        ("restarting", "cli"),
    ]
    assert asked[0]["request"] == restarted["request"]
    assert [e.get("request") for e in events(layout, ev.SERVER_RESTARTING)] == [
        e["request"] for e in asked
    ]
    assert len(events(layout, ev.SERVER_RESTARTED)) == 2
    assert ev.summarize(restarted).startswith("restarted on request: pid ")
    assert len(events(layout, ev.RUN_START)) == 1  # one bridge run, two servers
    assert requests_left(layout) == []


def test_a_bridge_that_kept_no_handshake_says_it_cannot_restart_and_leaves_nothing(
    tmp_path: Path, layout: Layout
) -> None:
    folder = granted(tmp_path)
    run_cli("servers", "confine", "srv", "off")  # advisory, restart on revoke off: nothing kept

    async def scenario() -> None:
        async with Client(params(), mode="legacy") as client:  # type: ignore[arg-type]
            assert await read(client, folder / "hello.txt") == "hello\n"
            running = await anyio.to_thread.run_sync(marker, layout)
            assert not running.restartable
            cli = await anyio.to_thread.run_sync(
                lambda: run_cli("restart", "srv", "--json", check=False)
            )
            assert cli.returncode == 1, cli.stdout + cli.stderr
            doc = json.loads(cli.stdout)
            assert [b["outcome"] for b in doc["bridges"]] == ["not-restartable"]
            assert doc["restarted"] == 0 and doc["error"]["code"] == "not-restarted"
            said = events(layout, ev.RESTART_ASKED)
            assert [(e["outcome"], e["by"]) for e in said] == [("not-restartable", "cli")]
            assert "cannot restart its server" in ev.summarize(said[0])
            # the server it runs is the one it started, and still answers
            assert await read(client, folder / "hello.txt") == "hello\n"
            assert marker(layout).server_pid == running.server_pid

    anyio.run(scenario)
    assert events(layout, ev.SERVER_RESTARTING) == []
    assert requests_left(layout) == []

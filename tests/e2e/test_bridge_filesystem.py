"""The reference filesystem server behind the bridge, with the mcp SDK as a host without roots.

The server starts with no folder arguments, so everything it may touch comes from the bridge.
It applies roots asynchronously (its ``roots/list`` goes out after ``initialized`` and its answer
lands a moment later), so each check polls the tool until the expected folders show, with a
generous bound. The server *keeps its previous folders when the list becomes empty*: that is its
own behaviour, so the revoke test revokes one folder of two rather than the last one.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from tests.bridge.wire import BridgeProc, bridge_argv, events, initialize, is_id, wait_for
from tests.conftest import run_cli
from tests.fakes.sdk_host import bridged

POLL_LIMIT = 30.0


def params(name: str, command: list[str]) -> StdioServerParameters:
    return bridged(command, name=name)


async def allowed(client: Client) -> list[str]:
    result = await client.call_tool("list_allowed_directories", {})
    block = result.content[0]
    assert block.type == "text"
    lines = block.text.splitlines()
    assert lines[0].startswith("Allowed directories")
    return sorted(line for line in lines[1:] if line.strip())


async def until(client: Client, expected: list[str], what: str) -> None:
    deadline = time.monotonic() + POLL_LIMIT
    seen: list[str] = []
    while time.monotonic() < deadline:
        seen = await allowed(client)
        if seen == sorted(expected):
            return
        await anyio.sleep(0.05)
    raise AssertionError(f"{what}: the server still allows {seen}, expected {sorted(expected)}")


def make(tmp_path: Path, *names: str) -> list[str]:
    paths = []
    for name in names:
        p = tmp_path / name
        p.mkdir(parents=True)
        (p / "hello.txt").write_text(f"in {name}\n", encoding="utf-8")
        paths.append(str(p))
    return paths


def test_server_sees_exactly_the_granted_folders_with_awkward_names(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    granted = make(tmp_path, "with space", "web#staging", "日本語 フォルダ", "中文目录")
    not_granted = make(tmp_path, "secret")
    for path in granted + not_granted:
        run_cli("roots", "add", path)
    run_cli("grant", "--new", "fs", *granted)

    async def scenario() -> None:
        async with Client(params("fs", filesystem_server)) as client:
            await until(client, granted, "initial roots")
            # a file inside a granted folder with '#' and non-ASCII names is readable end to end
            for path in granted:
                res = await client.call_tool("read_text_file", {"path": f"{path}/hello.txt"})
                assert not res.is_error, res
                assert res.content[0].type == "text"
                assert res.content[0].text.strip() == f"in {Path(path).name}"
            denied = await client.call_tool(
                "read_text_file", {"path": f"{not_granted[0]}/hello.txt"}
            )
            assert denied.is_error

    anyio.run(scenario)
    answered = events(layout, ev.ROOTS_ANSWERED)
    assert answered and sorted(answered[0]["uris"]) == sorted(Path(p).as_uri() for p in granted)
    assert any("%23" in u for u in answered[0]["uris"])  # '#' travels encoded


@pytest.mark.usefixtures("advisory_new_servers")
def test_grant_and_revoke_with_the_cli_reach_the_running_server(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    first, second = make(tmp_path, "first", "second one")
    run_cli("roots", "add", first)
    run_cli("roots", "add", second)
    run_cli("grant", "--new", "fs", first)

    def notices() -> int:
        return len(events(layout, ev.LIST_CHANGED_SENT))

    async def scenario() -> None:
        async with Client(params("fs", filesystem_server)) as client:
            await until(client, [first], "before the grant")
            assert notices() == 0
            await anyio.to_thread.run_sync(run_cli, "grant", "fs", second)
            await until(client, [first, second], "after the grant")
            assert notices() == 1
            # revoke one of the two (an empty list would leave the server's folders as they are)
            await anyio.to_thread.run_sync(run_cli, "revoke", "fs", first)
            await until(client, [second], "after the revoke")
            assert notices() == 2

    anyio.run(scenario)
    sent = events(layout, ev.LIST_CHANGED_SENT)
    assert [s["uris"] for s in sent] == [
        [Path(first).as_uri(), Path(second).as_uri()],
        [Path(second).as_uri()],
    ]
    # the server fetched the list after each notice: the first fetch plus one per notice
    assert len(events(layout, ev.ROOTS_ASKED)) == 3


def test_a_host_that_sends_initialized_at_once_still_gets_the_granted_folders(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    (granted,) = make(tmp_path, "piped at once")
    run_cli("roots", "add", granted)
    run_cli("grant", "--new", "fs", granted)
    bridge = BridgeProc(bridge_argv("fs", filesystem_server))
    try:
        # initialize and initialized in one write, as a host that does not wait would do;
        # the server settles on roots only if initialized comes after its own result
        bridge.send(
            json.dumps(initialize(1)).encode()
            + b'\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
        )
        bridge.expect(is_id(1), "the initialize result")
        calls = iter(range(100, 100_000))

        def allowed_now() -> bool:
            n = next(calls)
            bridge.send(
                {
                    "jsonrpc": "2.0",
                    "id": n,
                    "method": "tools/call",
                    "params": {"name": "list_allowed_directories", "arguments": {}},
                }
            )
            text = bridge.expect(is_id(n), f"the answer to call {n}")["result"]["content"][0]
            time.sleep(0.05)
            return granted in text["text"].splitlines()

        wait_for(allowed_now, "the granted folder to be allowed", timeout=POLL_LIMIT)
        assert sorted(events(layout, ev.ROOTS_ANSWERED)[0]["uris"]) == [Path(granted).as_uri()]
    finally:
        bridge.kill()


def _first_call_right_after_handshake(
    filesystem_server: list[str], cli_folder: str, layout: Layout
) -> list[str]:
    """What a host that sends its first call as soon as initialized has gone (as Codex does)
    is told the allowed folders are, by a bridge run that ends once roots were answered."""
    answered = len(events(layout, ev.ROOTS_ANSWERED))
    bridge = BridgeProc(bridge_argv("fs", [*filesystem_server, cli_folder]))
    try:
        bridge.send(initialize(1))
        bridge.expect(is_id(1), "the initialize result")
        bridge.send(
            b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
            b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":'
            b'{"name":"list_allowed_directories","arguments":{}}}\n'
        )
        text = bridge.expect(is_id(2), "the first call's answer")["result"]["content"][0]["text"]
        wait_for(
            lambda: len(events(layout, ev.ROOTS_ANSWERED)) > answered,
            "the roots answer",
            POLL_LIMIT,
        )
    finally:
        bridge.close_stdin()
        bridge.proc.wait(15)
    return [line for line in text.splitlines() if line.startswith("/")]


def test_the_first_call_after_the_handshake_sees_the_granted_folders(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    """A server that asked for its roots right after the handshake in its previous run gets
    them before the host's first call reaches it, and the log says the call was held."""
    granted, cli_folder = make(tmp_path, "granted", "on the command line")
    run_cli("roots", "add", granted)
    run_cli("grant", "--new", "fs", granted)
    _first_call_right_after_handshake(filesystem_server, cli_folder, layout)  # learns its habit
    seen = _first_call_right_after_handshake(filesystem_server, cli_folder, layout)
    assert seen == [granted]
    held = [e for e in events(layout, ev.HANDSHAKE) if e.get("first_call_held")]
    assert held and held[-1]["id"] == 2, held


def test_roots_on_the_command_line_are_the_grants_and_a_revoke_restarts_the_server(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    """``{roots}`` gives a server that takes its folders as arguments exactly its grants, for
    a host that declares no roots; a revoke restarts it behind the host, in the same session,
    and the folder is gone from what it allows."""
    kept, revoked, never = make(tmp_path, "kept", "revoked", "never granted")
    for folder in (kept, revoked, never):
        run_cli("roots", "add", folder)
    run_cli("grant", "--new", "fs", kept, revoked)
    bridge = BridgeProc(bridge_argv("fs", [*filesystem_server, "{roots}"]))
    calls = iter(range(100, 100_000))

    def allowed() -> list[str]:
        n = next(calls)
        bridge.send(
            {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {"name": "list_allowed_directories", "arguments": {}},
            }
        )
        text = bridge.expect(is_id(n), f"the answer to call {n}")["result"]["content"][0]["text"]
        return sorted(line for line in text.splitlines() if line.startswith("/"))

    try:
        bridge.send({**initialize(1), "params": {**initialize(1)["params"], "capabilities": {}}})
        bridge.expect(is_id(1), "the initialize result")
        bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert allowed() == sorted([kept, revoked])
        [start] = events(layout, ev.RUN_START)
        assert start["command"][-1] == "{roots}", "the server's identity is its command as written"
        run_cli("revoke", "fs", revoked)
        wait_for(lambda: bool(events(layout, ev.SERVER_RESTARTED)), "the restart", POLL_LIMIT)
        assert events(layout, ev.SERVER_RESTARTING)[0]["reason"] == f"revoked: {revoked}"
        assert allowed() == [kept]
    finally:
        bridge.kill()

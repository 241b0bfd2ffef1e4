"""The demo server under a real SDK host: it asks roots/list after the handshake and after
every list_changed, and reports each answer on stderr."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import anyio
import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.session import ClientRequestContext

from roots_manager.core.servers.command import demo_command

WAIT = 30.0


async def wait_for_line(log: Path, needle: str) -> str:
    """Poll the server's stderr file until a line contains *needle*; fail clearly if none does."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        for line in log.read_text(encoding="utf-8").splitlines():
            if needle in line:
                return line
        await anyio.sleep(0.05)
    raise AssertionError(
        f"the demo server never wrote a line with {needle!r} in {WAIT:.0f} s; its stderr:\n"
        + log.read_text(encoding="utf-8")
    )


def params() -> StdioServerParameters:
    argv = demo_command()
    return StdioServerParameters(command=argv[0], args=argv[1:])


def test_demo_server_asks_after_handshake_and_after_list_changed(tmp_path: Path) -> None:
    first = tmp_path / "first project"
    second = tmp_path / "数据 #2"
    first.mkdir()
    second.mkdir()
    roots = [types.Root(uri=first.as_uri(), name="first project")]
    asked: list[int] = []

    async def list_roots(ctx: ClientRequestContext) -> types.ListRootsResult:
        asked.append(len(roots))
        return types.ListRootsResult(roots=list(roots))

    log = tmp_path / "demo-stderr.txt"

    async def scenario() -> str:
        with log.open("w", encoding="utf-8") as errlog:
            async with (
                stdio_client(params(), errlog=errlog) as (read, write),
                ClientSession(read, write, list_roots_callback=list_roots) as session,
            ):
                await session.initialize()
                line1 = await wait_for_line(log, "after the handshake (#1)")
                assert first.as_uri() in line1
                assert '"first project"' in line1

                roots.append(types.Root(uri=second.as_uri(), name="second"))
                await session.send_roots_list_changed()
                line2 = await wait_for_line(log, "after list_changed (#2)")
                assert "2 roots" in line2
                assert first.as_uri() in line2 and second.as_uri() in line2

                result = await session.call_tool("show_roots", {})
                block = result.content[0]
                assert isinstance(block, types.TextContent)
                return block.text

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # roots are deprecated in the newest revision
        text = anyio.run(scenario)
    assert text.splitlines() == [first.as_uri(), second.as_uri()]
    # after the handshake, after list_changed, and once more for the tool
    assert asked == [1, 2, 2]
    # '#' and non-ASCII characters arrive percent-encoded, as the URI spec requires
    assert "%23" in second.as_uri() and "%E6" in second.as_uri()


def test_demo_server_does_not_ask_a_host_without_roots(tmp_path: Path) -> None:
    log = tmp_path / "demo-stderr.txt"

    async def scenario() -> None:
        with log.open("w", encoding="utf-8") as errlog:
            async with (
                stdio_client(params(), errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                line = await wait_for_line(log, "declared no roots capability")
                assert "after the handshake" in line

    anyio.run(scenario)
    assert "roots/list answered" not in log.read_text(encoding="utf-8")

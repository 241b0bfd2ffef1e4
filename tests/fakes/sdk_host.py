"""The test as an SDK host of a real bridge: the parameters that start it, a tool's text."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from tests.bridge.wire import bridge_argv


def bridged(
    command: list[str], *options: str, name: str = "srv", home: Path | None = None
) -> StdioServerParameters:
    """A bridge for server *name* in front of *command*, with this process's environment (the
    SDK passes only a few variables by default; the bridge needs ROOTS_MANAGER_HOME), and
    *home* as the server's ``HOME`` when given."""
    argv = bridge_argv(name, command, *options)
    env = {**os.environ, **({} if home is None else {"HOME": str(home)})}
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env)


async def text(client: Client, tool: str, **arguments: Any) -> str:
    """The text a call of *tool* answers."""
    result = await client.call_tool(tool, arguments)
    block = result.content[0]
    assert block.type == "text"
    return block.text

"""A Python SDK server that reads ``~/.npmrc`` as it starts, as many tools do."""

from __future__ import annotations

import os

from mcp.server.mcpserver import MCPServer

try:
    with open(os.path.expanduser("~/.npmrc"), encoding="utf-8") as f:
        CONFIG = f.read()
except OSError as exc:
    CONFIG = f"unreadable: {exc.strerror}"

server = MCPServer("npmrc")


@server.tool()
def config() -> str:
    """What the server read at start."""
    return CONFIG


if __name__ == "__main__":
    server.run()

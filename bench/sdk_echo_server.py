"""An SDK ``MCPServer`` with one echo tool: the realistic baseline of the bridge benchmark.

Real servers do work per request (validation, dispatch, serialisation); measured against this,
the bridge's share of a round trip is what a user of a real server pays.
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("bench-echo")


@mcp.tool(structured_output=False)
def echo(i: int = 0, blob: str = "") -> str:
    """Return the blob it was given, or the number when there is no blob."""
    return blob or str(i)


if __name__ == "__main__":
    mcp.run()

"""An SDK ``MCPServer`` whose tool takes a ``ListRoots`` resolver: a real 2026-07-28 roots user.

Run as ``python roots_tool_server.py``; its tool ``show_roots`` returns the roots it was given as
JSON. Under 2026-07-28 the SDK asks for them with an ``input_required`` result.
"""

from __future__ import annotations

import json
import warnings
from typing import Annotated

import mcp_types as types
from mcp.server.mcpserver import ListRoots, MCPServer, Resolve

warnings.simplefilter("ignore")  # the roots APIs are deprecated (SEP-2577) but still defined

server = MCPServer("roots-tool")


async def ask_roots() -> ListRoots:
    return ListRoots()


@server.tool()
async def show_roots(roots: Annotated[types.ListRootsResult, Resolve(ask_roots)]) -> str:
    """The roots the client gave, as JSON."""
    return json.dumps([{"uri": str(r.uri), "name": r.name} for r in roots.roots])


if __name__ == "__main__":
    server.run()

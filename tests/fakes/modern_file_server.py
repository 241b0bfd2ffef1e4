"""An SDK ``MCPServer`` whose file tools keep to the roots a ``ListRoots`` resolver gives them.

Run as ``python modern_file_server.py``. Each call asks for the roots afresh: under 2026-07-28
with an ``input_required`` result (the roots travel with the retried request; there is no
``list_changed``), under the handshake revisions with a ``roots/list`` request of its own. A
path outside every root is refused; an empty list leaves it no folder at all.
"""

from __future__ import annotations

import os
import warnings
from typing import Annotated
from urllib.parse import unquote, urlparse

import mcp_types as types
from mcp.server.mcpserver import ListRoots, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError

warnings.simplefilter("ignore")  # the roots APIs are deprecated (SEP-2577) but still defined

server = MCPServer("modern-files")


async def _ask() -> ListRoots:
    return ListRoots()


Roots = Annotated[types.ListRootsResult, Resolve(_ask)]


def _check(path: str, roots: types.ListRootsResult) -> str:
    real = os.path.realpath(path)
    for root in roots.roots:
        base = os.path.realpath(unquote(urlparse(str(root.uri)).path))
        if real == base or real.startswith(base + os.sep):
            return real
    raise ToolError(f"Access denied: {path} is outside the roots")


@server.tool()
async def read_file(path: str, roots: Roots) -> str:
    """Read a text file."""
    with open(_check(path, roots), encoding="utf-8") as f:
        return f.read()


@server.tool()
async def write_file(path: str, content: str, roots: Roots) -> str:
    """Write a text file."""
    with open(_check(path, roots), "w", encoding="utf-8") as f:
        f.write(content)
    return f"wrote {path}"


@server.tool()
async def list_directory(path: str, roots: Roots) -> str:
    """List a folder."""
    return "\n".join(sorted(os.listdir(_check(path, roots))))


if __name__ == "__main__":
    server.run()

"""The SDK as the host: ``tools/call`` round trips as a Python MCP host sees them, per route.

Used by ``bench_bridge.py``. Every route's session is opened first, then the routes take turns
in blocks, so that a noisy machine hits them alike. A route is the command line that serves
the host (the server itself, the bridge in front of it, or another proxy in front of it).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import venv
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

FASTMCP = "fastmcp>=4,<5"
"""FastMCP's proxy, as a user would install it (``fastmcp`` 4.x: ``create_proxy``)."""


def fastmcp_python(cache: Path) -> Path | None:
    """A Python with :data:`FASTMCP` installed from the registry, in a venv of its own under
    *cache* (made once; FastMCP's own pins must not change the project's environment).
    None, with the reason printed, when it cannot be made."""
    env_dir = cache / "fastmcp-venv"
    python = env_dir / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    marker = env_dir / "installed.txt"
    if marker.exists() and marker.read_text() == FASTMCP and python.exists():
        return python
    print(f"installing {FASTMCP} into {env_dir} for the proxy comparison ...", flush=True)
    venv.create(env_dir, with_pip=True, clear=True)
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", FASTMCP],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        print(f"FastMCP could not be installed, its route is left out:\n{done.stderr[-2000:]}")
        return None
    marker.write_text(FASTMCP)
    return python


Figures = dict[str, dict[str, list[float]]]


async def _calls(session: ClientSession, n: int, blob: str, out: list[float]) -> None:
    for i in range(n):
        args = {"blob": blob} if blob else {"i": i}
        t0 = time.perf_counter()
        result = await session.call_tool("echo", args)
        out.append(time.perf_counter() - t0)
        text = result.content[0].text  # type: ignore[union-attr]
        assert text == (blob or str(i)), "the echo came back changed"


async def _compare(
    routes: dict[str, list[str]],
    env: dict[str, str],
    blocks: int,
    n_small: int,
    n_big: int,
    big: int,
) -> Figures:
    out: Figures = {r: {"small": [], "big": []} for r in routes}
    blob = "x" * big
    with open(os.devnull, "w") as quiet:
        async with AsyncExitStack() as stack:
            sessions = {}
            for name, argv in routes.items():
                params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
                read, write = await stack.enter_async_context(stdio_client(params, errlog=quiet))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                await _calls(session, 20, "", [])  # warm up every path
                await _calls(session, 2, blob, [])
                sessions[name] = session
            for _ in range(blocks):
                for name, session in sessions.items():
                    await _calls(session, n_small, "", out[name]["small"])
                for name, session in sessions.items():
                    await _calls(session, n_big, blob, out[name]["big"])
    return out


def compare(
    routes: dict[str, list[str]],
    env: dict[str, str],
    blocks: int,
    n_small: int,
    n_big: int,
    big: int,
) -> Figures:
    """Round trips of ``tools/call`` through each route: small ones and *big*-byte echoes."""
    return anyio.run(_compare, routes, env, blocks, n_small, n_big, big)

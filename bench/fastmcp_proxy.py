"""FastMCP's stdio proxy in front of a server: what a user would put there instead of the bridge.

Run as ``python fastmcp_proxy.py COMMAND [ARGS...]`` with a Python that has ``fastmcp`` 4.x
(``bench_bridge.py`` makes one: see ``fastmcp_python`` there). This is FastMCP's documented
proxy (``create_proxy``) with its defaults, serving the host over stdio and starting *COMMAND* as
its backend.
"""

from __future__ import annotations

import sys

from fastmcp.server import create_proxy


def main() -> None:
    command = sys.argv[1:]
    backend = {"mcpServers": {"backend": {"command": command[0], "args": command[1:]}}}
    create_proxy(backend, name="bench-proxy").run(transport="stdio", show_banner=False)


if __name__ == "__main__":
    main()

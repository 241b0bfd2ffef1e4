"""A small MCP server that shows how a well-behaved server uses roots.

It asks ``roots/list`` right after the handshake and again after every
``notifications/roots/list_changed``, and reports each answer on stderr, one line per answer::

    roots-demo: roots/list answered after the handshake: 1 root: file:///home/me/project "project"

Its tool ``show_roots`` asks for the roots once more (in either protocol era) and returns them.
``roots-manager --demo`` connects the desktop app to it through the bridge, so the traffic in the
live log is real. Run it with ``python -m roots_manager.demo_server``.
"""

from __future__ import annotations

import json
import sys
import warnings
from typing import Annotated, Any

import anyio
import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import ListRoots, MCPServer, Resolve
from mcp.shared.exceptions import MCPError

SERVER_NAME = "roots-demo"
PREFIX = f"{SERVER_NAME}:"
LIST_CHANGED = "notifications/roots/list_changed"
INITIALIZED = "notifications/initialized"


def report(message: str) -> None:
    """Write one line on stderr (the stdio transport's free-form log channel)."""
    print(f"{PREFIX} {message}", file=sys.stderr, flush=True)


def describe(result: types.ListRootsResult) -> str:
    """One line for a roots/list answer: the count, then each URI and its name."""
    roots = result.roots
    if not roots:
        return "no roots"
    parts = []
    for r in roots:
        name = f" {json.dumps(r.name, ensure_ascii=False)}" if r.name else ""
        parts.append(f"{r.uri}{name}")
    noun = "root" if len(roots) == 1 else "roots"
    return f"{len(roots)} {noun}: " + ", ".join(parts)


class RootsWatcher:
    """Asks the client for its roots when the handshake completes and when they change.

    It is a server middleware: it observes the client's notifications without replacing the
    SDK's own handling of them. Answers are numbered so a reader can tell a re-ask from a
    duplicate line.
    """

    def __init__(self) -> None:
        self.answers = 0
        self.last: types.ListRootsResult | None = None
        # one roots/list at a time: a burst of notices must not interleave the report lines
        self._lock = anyio.Lock()

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.request_id is None and ctx.method in (INITIALIZED, LIST_CHANGED):
            why = "after the handshake" if ctx.method == INITIALIZED else "after list_changed"
            if ctx.method == LIST_CHANGED:
                report("got notifications/roots/list_changed")
            await self.fetch(ctx, why)
        return result

    async def fetch(self, ctx: ServerRequestContext[Any, Any], why: str) -> None:
        """Ask ``roots/list`` on the connection's own channel and report the answer."""
        caps = ctx.session.client_capabilities
        if caps is None or caps.roots is None:
            report(f"the client declared no roots capability; not asking roots/list ({why})")
            return
        async with self._lock:
            try:
                answer = await ctx.session.send_request(
                    types.ListRootsRequest(), types.ListRootsResult
                )
            except MCPError as exc:
                report(f"roots/list failed {why}: error {exc.error.code}: {exc.error.message}")
                return
            except Exception as exc:  # a malformed answer must not end the demo
                report(f"roots/list failed {why}: {type(exc).__name__}: {exc}")
                return
            self.answers += 1
            self.last = answer
            report(f"roots/list answered {why} (#{self.answers}): {describe(answer)}")


async def _ask_roots() -> ListRoots:
    return ListRoots()


def build_server() -> MCPServer:
    """The demo server: a roots watcher and one tool, ``show_roots``."""
    watcher = RootsWatcher()
    server = MCPServer(
        SERVER_NAME,
        instructions="A demo server that asks for the client's roots and reports them on stderr.",
        log_level="WARNING",
        middleware=[watcher],
    )

    @server.tool()
    async def show_roots(
        roots: Annotated[types.ListRootsResult, Resolve(_ask_roots)],
    ) -> str:
        """Ask the client for its roots now and return them, one URI per line."""
        report(f"roots/list answered for show_roots: {describe(roots)}")
        if not roots.roots:
            return "The client gave no roots."
        return "\n".join(str(r.uri) for r in roots.roots)

    return server


def main() -> int:
    """Run the demo server on stdio until the client closes stdin."""
    # the roots API is deprecated in the newest revision (SEP-2577); the demo shows it anyway
    warnings.simplefilter("ignore")
    report("started; waiting for a client on stdin")
    build_server().run("stdio")
    report("stdin closed; exiting")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

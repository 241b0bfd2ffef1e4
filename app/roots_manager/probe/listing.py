"""What a server offers the probe: its tools that take paths, and its listed resources."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import PaginatedRequestParams

from roots_manager.core.probe.plan import (
    RESOURCE_READ,
    PathTool,
    Target,
    choose_tools,
    listed_inside,
)

MAX_PAGES = 20
NOTHING_LISTED = "no file:// resource listed inside the root"


@dataclass
class Listing:
    """The tools to probe (``resources/read`` among them when there is something to read)."""

    tools: list[PathTool] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)
    """Tools not probed and why."""
    resources: list[str] = field(default_factory=list)
    """Every URI ``resources/list`` gave."""
    listed: list[Target] = field(default_factory=list)
    """The listed ``file://`` resources inside the root: the inside cells of resource rows."""


async def list_offer(
    session: ClientSession,
    timeout: float,
    top: str,
    on_resources: Callable[[], None] | None = None,
) -> Listing:
    """``tools/list`` (every page) and, where the server has resources, ``resources/list``.

    *on_resources* is called before the resources are listed (a progress report).
    """
    caps = session.server_capabilities
    found: list[dict[str, Any]] = []
    if caps is not None and caps.tools is not None:
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            with anyio.fail_after(timeout):
                page = await session.list_tools(
                    params=PaginatedRequestParams(cursor=cursor) if cursor else None
                )
            found += [
                t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in page.tools
            ]
            cursor = page.next_cursor
            if not cursor:
                break
    choice = choose_tools(found)
    out = Listing(list(choice.tools), dict(choice.left_out))
    if caps is None or caps.resources is None:
        return out
    if on_resources is not None:
        on_resources()
    with contextlib.suppress(MCPError, TimeoutError), anyio.fail_after(timeout):
        listed = await session.list_resources()
        out.resources = [str(r.uri) for r in listed.resources]
        out.listed = listed_inside(out.resources, top)
        if out.listed:
            out.tools.append(RESOURCE_READ)
        else:
            # nothing listed to pair with: a refusal of an unlisted URI says nothing
            out.left_out[RESOURCE_READ.name] = NOTHING_LISTED
    return out

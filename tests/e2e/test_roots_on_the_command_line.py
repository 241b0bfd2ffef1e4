"""``{roots}`` on a server's command line, with the reference filesystem server and the Python
SDK's client as a host that declares no roots capability (no ``list_roots`` callback).

What the server allows is read from its own tool (``list_allowed_directories``), and its command
line from ``/proc``: the folders it was started with are exactly its grants, a revoke or a grant
from the CLI restarts it with the new ones, and the host's session stays up throughout.
"""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest
from mcp import Client

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from tests.bridge.wire import events
from tests.conftest import only_on_linux, run_cli
from tests.e2e.test_bridge_filesystem import POLL_LIMIT, allowed, make, params, until

pytestmark = only_on_linux("the server's command line is read from /proc")


def server_argv(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


def restarts(layout: Layout) -> list[dict[str, object]]:
    return events(layout, ev.SERVER_RESTARTED)


async def restarted(layout: Layout, count: int, what: str) -> int:
    """The new server's pid once the run has restarted it *count* times."""
    deadline = time.monotonic() + POLL_LIMIT
    while time.monotonic() < deadline:
        done = restarts(layout)
        if len(done) >= count:
            return int(done[count - 1]["new_pid"])  # type: ignore[call-overload]
        await anyio.sleep(0.05)
    raise AssertionError(f"{what}: no restart")


def test_the_server_is_given_its_grants_and_restarted_for_a_revoke_and_a_grant(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    kept, revoked, added, never = make(tmp_path, "kept", "revoked", "added", "never granted")
    for folder in (kept, revoked, added, never):
        run_cli("roots", "add", folder)
    run_cli("grant", "--new", "fs", kept, revoked)

    async def scenario() -> None:
        async with Client(params("fs", [*filesystem_server, "{roots}"])) as client:
            assert await allowed(client) == sorted([kept, revoked])
            [start] = events(layout, ev.RUN_START)
            pid = int(start["server_pid"])
            assert sorted(server_argv(pid)[-2:]) == sorted([kept, revoked])
            assert "{roots}" not in server_argv(pid)

            await anyio.to_thread.run_sync(lambda: run_cli("revoke", "fs", revoked))
            pid = await restarted(layout, 1, "the revoke")
            assert server_argv(pid)[-1] == kept and revoked not in server_argv(pid)
            await until(client, [kept], "after the revoke")

            await anyio.to_thread.run_sync(lambda: run_cli("grant", "fs", added))
            pid = await restarted(layout, 2, "the grant")
            assert sorted(server_argv(pid)[-2:]) == sorted([kept, added])
            await until(client, [kept, added], "after the grant")

    anyio.run(scenario)
    [first, second] = restarts(layout)
    assert first["reason"] == f"revoked: {revoked}"
    assert second["reason"] == "its folders changed"
    # one host session throughout: one run, never ended while the host was there
    assert len(events(layout, ev.RUN_START)) == 1


@pytest.mark.usefixtures("advisory_new_servers")
def test_with_no_grant_the_server_gets_no_argument_and_the_log_says_why(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    """No grant: no argument at all (not an empty one, not a literal ``{roots}``); the
    filesystem server then starts with no folder and waits for roots, and the first grant
    restarts it with that folder."""
    [granted] = make(tmp_path, "granted later")
    run_cli("roots", "add", granted)

    async def scenario() -> None:
        async with Client(params("fs", [*filesystem_server, "{roots}"])) as client:
            assert await allowed(client) == []
            [start] = events(layout, ev.RUN_START)
            assert server_argv(int(start["server_pid"])) == filesystem_server
            await anyio.to_thread.run_sync(lambda: run_cli("grant", "--new", "fs", granted))
            pid = await restarted(layout, 1, "the first grant")
            assert server_argv(pid)[-1] == granted
            await until(client, [granted], "after the first grant")

    anyio.run(scenario)
    said = [e for e in events(layout, ev.MESSAGE) if "folders" in e]
    assert said[0]["folders"] == [] and "no folder" in str(said[0]["message"])
    assert said[-1]["folders"] == [granted]

"""The boundary probe: a bare host that drives a server through the bridge over a scratch tree.

The server runs behind the project's own ``roots-bridge`` with a private per-user directory made
for the run (a store holding only the probe's roots, its own event log), so the user's store is
never read or written and the roots traffic is recorded as for any server. The roots are
changed the way the app changes them, by editing that store: the bridge sees the change and
sends ``list_changed``. Every call has a timeout; at the end the SDK closes the bridge with the
usual ladder (stdin closed, SIGTERM, SIGKILL) and the bridge does the same to the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import Implementation, PaginatedRequestParams

from roots_manager import __version__
from roots_manager.core import events as ev
from roots_manager.core.model import now_iso
from roots_manager.core.paths import Layout
from roots_manager.core.probe_fixture import NEW_ROOT, ROOT, SECOND_ROOT, Fixture
from roots_manager.core.probe_plan import (
    PAIRS,
    RESOURCE_READ,
    PathTool,
    TargetKind,
    choose_tools,
    targets_for,
)
from roots_manager.core.probe_report import Report
from roots_manager.core.probe_verdict import Cell, Outcome, Row, Traffic, verdict
from roots_manager.core.store import Store
from roots_manager.probe.cells import CellRunner, ServerGone
from roots_manager.probe.connection import (
    ALLOW,
    CLOSED,
    leaf,
    said,
    server_params,
    stderr_tail,
)
from roots_manager.probe.logtail import LogTail

BRIDGE_NAME = "probe"
"""The server's name in the private store (the saved table's name is the report's)."""


@dataclass(frozen=True)
class Timeouts:
    """How long the probe waits, in seconds."""

    start: float = 60.0
    """For the server to answer ``initialize`` (``npx`` may download it first)."""
    call: float = 10.0
    """For each call."""
    first_ask: float = 3.0
    """For the server's own ``roots/list`` after ``initialized`` (some ask only later)."""
    reask: float = 5.0
    """For the server to ask again after ``list_changed``."""
    settle: float = 0.3
    """After the bridge answered, for the server to apply the roots it was given."""


Progress = Callable[[int, int, Row | None, str], None]
"""Called with (cells done, cells planned, the row just finished or None, what happens now)."""


def _quiet(done: int, total: int, row: Row | None, message: str) -> None:
    pass


class _Stop(Exception):
    """The probe cannot go on (the server went, or stopped answering)."""


class ProbeRun:
    """One probe run: the scratch tree, the private store, the server, the matrix."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str | None = None,
        timeouts: Timeouts | None = None,
        progress: Progress | None = None,
    ) -> None:
        if not command:
            raise ValueError("the probe needs the server's command line")
        self.command = list(command)
        self.name = name
        self.timeouts = timeouts or Timeouts()
        self.progress = progress or _quiet
        self.rows: list[Row] = []
        self.done = 0
        self.total = 0
        self.asked_after_notice = False
        self.notice_sent = False
        self.empty_notice_sent = False
        self.asked_for_empty = False
        self.gone: ServerGone | None = None

    # ---- the whole run --------------------------------------------------------------------

    async def run(self) -> Report:
        """Probe the server; the report says what was found, or why the probe stopped."""
        started = time.monotonic()
        base = Path(tempfile.mkdtemp(prefix="roots-probe-"))
        try:
            self.fixture = Fixture.create(base / "tree")
            self.layout = Layout(base / "home").ensure()
            self.store = Store(self.layout)
            self.tail = LogTail(self.layout)
            allowance = str(self.fixture.top) if any(ALLOW in a for a in self.command) else None
            self.report = Report(
                name=self.name or "",
                version="",
                command=self.command,
                allowance=allowance,
                started_at=now_iso(),
            )
            self._grant_start()
            stderr = base / "stderr.txt"
            try:
                with open(stderr, "w", encoding="utf-8", errors="replace") as errlog:
                    await self._connect(errlog)
            except _Stop as exc:
                self.report.problem = str(exc)
            except Exception as exc:  # the SDK's start-up failures come in many types
                first = leaf(exc)
                self.report.problem = (
                    str(first)
                    if isinstance(first, _Stop)
                    else self._gone_reason(f"the server could not be reached: {said(first)}")
                )
            self.report.stderr_tail = stderr_tail(stderr)
            self._finish_report(time.monotonic() - started)
            return self.report
        finally:
            shutil.rmtree(base, ignore_errors=True)

    def _grant_start(self) -> None:
        with self.store.transaction() as state:
            self.ids = {
                rel: state.add_root(str(self.fixture.path(rel))).id
                for rel in (ROOT, SECOND_ROOT, NEW_ROOT)
            }
            state.grant(BRIDGE_NAME, [self.ids[ROOT], self.ids[SECOND_ROOT]])
        self.report.roots.append({"phase": "start", "uris": self._uris(ROOT, SECOND_ROOT)})

    def _uris(self, *rels: str) -> list[str]:
        return [Path(self.fixture.path(r)).as_uri() for r in rels]

    async def _connect(self, errlog: Any) -> None:
        self.progress(0, 0, None, "starting the server")
        async with (
            stdio_client(
                server_params(self.command, self.fixture.top, self.layout.home, BRIDGE_NAME),
                errlog=errlog,
            ) as (read, write),
            ClientSession(
                read,
                write,
                # no default: initialize gets the start timeout, each call its own
                client_info=Implementation(name="roots-manager-probe", version=__version__),
            ) as client,
        ):
            try:
                with anyio.fail_after(self.timeouts.start):
                    init = await client.initialize()
            except (TimeoutError, MCPError, *CLOSED) as exc:
                raise _Stop(self._gone_reason(f"the server did not start: {said(exc)}")) from exc
            info = init.server_info
            self.report.server_name = info.name
            self.report.version = info.version or ""
            self.report.name = self.name or info.name
            await self._run_matrix(client, init)

    async def _run_matrix(self, client: ClientSession, init: Any) -> None:
        cells = CellRunner(client, self.fixture, self.timeouts.call)
        self.progress(0, 0, None, "waiting for the server to ask for its roots")
        await self.tail.wait_kind(ev.ROOTS_ANSWERED, 0, self.timeouts.first_ask)
        await asyncio.sleep(self.timeouts.settle)
        tools = await self._tools(client, init)
        self.total = sum(2 * len(t.kinds()) + 5 for t in tools)
        try:
            if not tools:
                # the roots traffic can still be watched: does it ask again after list_changed?
                self.report.problem = "the server offers no tool that takes paths: nothing to probe"
            for tool in tools:
                for kind in [*tool.kinds(), TargetKind.SECOND_ROOT]:
                    await self._row(cells, client, tool, kind)
            await self._list_changed(cells, client, tools)
            self.report.complete = True
        except ServerGone as exc:
            raise _Stop(self._gone_reason(f"the server went during the probe ({exc})")) from exc

    async def _tools(self, client: ClientSession, init: Any) -> list[PathTool]:
        self.progress(0, 0, None, "listing the tools")
        listed: list[dict[str, Any]] = []
        if init.capabilities.tools is not None:
            cursor: str | None = None
            for _ in range(20):
                with anyio.fail_after(self.timeouts.call):
                    page = await client.list_tools(
                        params=PaginatedRequestParams(cursor=cursor) if cursor else None
                    )
                listed += [
                    t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in page.tools
                ]
                cursor = page.next_cursor
                if not cursor:
                    break
        choice = choose_tools(listed)
        self.report.left_out = choice.left_out
        tools = list(choice.tools)
        if init.capabilities.resources is not None:
            with contextlib.suppress(MCPError, TimeoutError), anyio.fail_after(self.timeouts.call):
                await client.list_resources()
                tools.append(RESOURCE_READ)
        return tools

    # ---- rows -----------------------------------------------------------------------------

    async def _row(
        self, cells: CellRunner, client: ClientSession, tool: PathTool, kind: TargetKind
    ) -> Row:
        inside_targets, outside_targets = targets_for(tool, kind)
        inside = await self._cell(cells, client, tool, inside_targets)
        outside = await self._cell(cells, client, tool, outside_targets)
        return self._add(Row(tool.name, tool.operation, kind, inside, outside))

    async def _cell(
        self,
        cells: CellRunner,
        client: ClientSession,
        tool: PathTool,
        targets: list[Any],
    ) -> Cell:
        """One cell; after a server that went, the row is kept and the probe stops."""
        if self.gone is not None:
            return Cell(targets=[], detail="the server went")
        try:
            cell = await cells.run(tool, targets)
        except ServerGone as exc:
            self.gone = exc
            cell = Cell(targets=[], outcome=Outcome.SERVER_GONE, detail=str(exc))
        else:
            if cell.outcome is Outcome.TIMED_OUT:
                # a tool that hangs is a cell; a server that hangs ends the probe
                try:
                    await self._still_answering(client)
                except ServerGone as exc:
                    self.gone = exc
        self.done += 1
        return cell

    async def _still_answering(self, client: ClientSession) -> None:
        try:
            with anyio.fail_after(min(self.timeouts.call, 5.0)):
                await client.send_ping()
        except (TimeoutError, MCPError, *CLOSED) as exc:
            raise ServerGone("it stopped answering, even to ping") from exc

    def _add(self, row: Row) -> Row:
        self.rows.append(row)
        self.report.rows = self.rows
        self.progress(self.done, self.total, row, f"{row.tool}: {row.target_kind.value}")
        if self.gone is not None:
            raise self.gone
        return row

    # ---- list_changed ----------------------------------------------------------------------

    async def _list_changed(
        self, cells: CellRunner, client: ClientSession, tools: list[PathTool]
    ) -> None:
        t = self.timeouts
        asked = self.tail.count(ev.ROOTS_ASKED)
        notices = self.tail.count(ev.LIST_CHANGED_SENT)
        answered = self.tail.count(ev.ROOTS_ANSWERED)
        self.progress(self.done, self.total, None, "changing the roots (list_changed)")
        with self.store.transaction() as state:
            state.revoke(BRIDGE_NAME, [self.ids[ROOT], self.ids[SECOND_ROOT]])
            state.grant(BRIDGE_NAME, [self.ids[NEW_ROOT]])
        new = self._uris(NEW_ROOT)
        self.report.roots.append({"phase": "after list_changed", "uris": new})
        if asked:  # the bridge notices only a server that has fetched the list
            self.notice_sent = await self.tail.wait_kind(ev.LIST_CHANGED_SENT, notices, t.reask)
        if self.notice_sent:
            self.asked_after_notice = await self.tail.wait_kind(ev.ROOTS_ASKED, asked, t.reask)
            if self.asked_after_notice:
                await self.tail.wait_kind(ev.ROOTS_ANSWERED, answered, t.reask, uris=new)
                await asyncio.sleep(t.settle)
        controls: dict[str, Cell] = {}
        for tool in tools:
            row = await self._row(cells, client, tool, TargetKind.NEW_ROOT)
            controls[tool.name] = row.inside

        notices = self.tail.count(ev.LIST_CHANGED_SENT)
        answered = self.tail.count(ev.ROOTS_ANSWERED)
        self.progress(self.done, self.total, None, "emptying the roots (list_changed)")
        with self.store.transaction() as state:
            state.revoke(BRIDGE_NAME, [self.ids[NEW_ROOT]])
        self.report.roots.append({"phase": "after the empty list", "uris": []})
        if self.asked_after_notice:
            self.empty_notice_sent = await self.tail.wait_kind(
                ev.LIST_CHANGED_SENT, notices, t.reask
            )
        if self.empty_notice_sent:
            self.asked_for_empty = await self.tail.wait_kind(
                ev.ROOTS_ANSWERED, answered, t.reask, uris=[]
            )
            await asyncio.sleep(t.settle)
        _, target = PAIRS[TargetKind.AFTER_EMPTY_LIST]
        for tool in tools:
            outside = await self._cell(cells, client, tool, [target])
            self._add(
                Row(
                    tool.name,
                    tool.operation,
                    TargetKind.AFTER_EMPTY_LIST,
                    controls[tool.name],
                    outside,
                )
            )

    # ---- the end ---------------------------------------------------------------------------

    def _gone_reason(self, what: str) -> str:
        ended = self.tail.last_exit()
        return what + (f"; the bridge's log: the server ended with {ended}" if ended else "")

    def _finish_report(self, seconds: float) -> None:
        r = self.report
        r.rows = self.rows
        r.seconds = seconds
        r.secret_revealed = any(
            c.revealed_secret for row in self.rows for c in (row.inside, row.outside)
        )
        asked_at_start = self.tail.count(ev.ROOTS_ASKED) > 0
        r.traffic = Traffic(
            asked_at_start=asked_at_start,
            notice_sent=self.notice_sent,
            asked_after_notice=self.asked_after_notice,
            empty_notice_sent=self.empty_notice_sent,
            asked_for_empty_list=self.asked_for_empty,
        )
        r.verdict = verdict(self.rows, r.traffic, r.allowance is not None, r.complete)
        r.tree = str(self.fixture.top)
        r.events = [
            {k: e[k] for k in ("ts", "kind", "dir", "uris", "outcome", "exit_code") if k in e}
            for e in self.tail.poll()
            if e.get("kind") in _ROOTS_KINDS
        ]
        if not r.name:
            r.name = BRIDGE_NAME


_ROOTS_KINDS = {
    ev.RUN_START,
    ev.HANDSHAKE,
    ev.ROOTS_ASKED,
    ev.ROOTS_ANSWERED,
    ev.LIST_CHANGED_SENT,
    ev.RUN_END,
    ev.ERROR,
}
"""The bridge's events the report keeps: the roots traffic of the run, from its private log."""


async def probe(
    command: Sequence[str],
    *,
    name: str | None = None,
    timeouts: Timeouts | None = None,
    progress: Progress | None = None,
) -> Report:
    """Probe the server started by *command* (``{allow}`` is replaced by the scratch tree)."""
    return await ProbeRun(command, name=name, timeouts=timeouts, progress=progress).run()

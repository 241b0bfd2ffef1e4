"""The boundary probe: a bare host that drives a server through the bridge over a scratch tree.

The server runs behind the project's own ``roots-bridge`` with a private per-user directory made
for the run (a store holding only the probe's roots, its live marker), so the user's store is
never read or written and no server of the user's seems to run. Its events go to the user's
log folder when one is given (``$ROOTS_MANAGER_LOGS`` for the bridge), under the server name
``probe:NAME``, so that the app's Log tab and ``roots-manager log`` show the probe's traffic;
else to the private directory, removed with it. The roots are changed the way the app changes
them, by editing the private store: the bridge sees the change and sends ``list_changed``. Every call has a timeout; at the end the SDK closes the bridge with the
usual ladder (stdin closed, SIGTERM, SIGKILL) and the bridge does the same to the server.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import Implementation

from roots_manager import __version__
from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log.probe_runs import BRIDGE_NAME, bridge_name
from roots_manager.core.probe.fixture import ADDED_ROOT, NEW_ROOT, ROOT, SECOND_ROOT, Fixture
from roots_manager.core.probe.plan import (
    PAIRS,
    PathTool,
    Target,
    TargetKind,
    targets_for,
)
from roots_manager.core.probe.reasons import Problem, ProblemCode, Status, Step
from roots_manager.core.probe.report import Report
from roots_manager.core.probe.verdict import Cell, Outcome, Row, Traffic
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import now_iso
from roots_manager.probe.cells import CellRunner, ServerGone
from roots_manager.probe.changes import Change, RootsChanger
from roots_manager.probe.connection import (
    ALLOW,
    CLOSED,
    HANDSHAKE,
    MODERN,
    PROTOCOLS,
    Timeouts,
    leaf,
    said,
    server_params,
    stderr_tail,
)
from roots_manager.probe.listing import list_offer
from roots_manager.probe.logtail import LogTail

Progress = Callable[[int, int, Row | None, Status], None]
"""Called with (cells done, cells planned, the row just finished or None, what happens now).

With :attr:`Step.PLANNED` the status's ``plan`` parameter holds the tools to be probed (a list
of :class:`PathTool`): the views show the plan from it."""


def _quiet(done: int, total: int, row: Row | None, status: Status) -> None:
    pass


class _Stop(Exception):
    """The probe cannot go on (the server went, or stopped answering)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.text)
        self.problem = problem


class ProbeRun:
    """One probe run: the scratch tree, the private store, the server, the matrix."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str | None = None,
        timeouts: Timeouts | None = None,
        progress: Progress | None = None,
        logs: Path | None = None,
        protocol: str = HANDSHAKE,
    ) -> None:
        if not command:
            raise ValueError("the probe needs the server's command line")
        if protocol not in PROTOCOLS:
            raise ValueError(f"the probe speaks {' or '.join(PROTOCOLS)}, not {protocol}")
        self.modern = protocol == MODERN
        self.command = list(command)
        self.name = name
        self.timeouts = timeouts or Timeouts()
        self.progress = progress or _quiet
        self.logs = logs
        """The user's log folder the bridge writes to (None: a private one)."""
        self.bridge_name = bridge_name(name)
        self.rows: list[Row] = []
        self.done = 0
        self.total = 0
        self.changed = Change()
        self.added = Change()
        self.emptied = Change()
        self.listed: list[Target] = []
        """Resources the server listed inside the root."""
        self.gone: ServerGone | None = None
        self.tools: list[PathTool] = []

    # ---- the whole run --------------------------------------------------------------------

    async def run(self) -> Report:
        """Probe the server; the report says what was found, or why the probe stopped."""
        started = time.monotonic()
        base = Path(tempfile.mkdtemp(prefix="roots-probe-"))
        try:
            self.fixture = Fixture.create(base / "tree")
            self.layout = Layout(base / "home", self.logs).ensure()
            self.store = Store(self.layout)
            argv = [a.replace(ALLOW, str(self.fixture.top)) for a in self.command]
            self.tail = LogTail(self.layout, self.bridge_name, argv)
            allowance = str(self.fixture.top) if any(ALLOW in a for a in self.command) else None
            self.report = Report(
                name=self.name or "",
                version="",
                command=self.command,
                allowance=allowance,
                started_at=now_iso(),
            )
            self._grant_start()
            t = self.timeouts
            self.changer = RootsChanger(
                self.store, self.tail, self.bridge_name, self.ids, t.reask, t.settle, self.modern
            )
            stderr = base / "stderr.txt"
            try:
                with open(stderr, "w", encoding="utf-8", errors="replace") as errlog:
                    await self._connect(errlog)
            except _Stop as exc:
                self._problem(exc.problem)
            except Exception as exc:  # the SDK's start-up failures come in many types
                first = leaf(exc)
                self._problem(
                    first.problem
                    if isinstance(first, _Stop)
                    else self._gone(ProblemCode.UNREACHABLE, said(first))
                )
            self.report.stderr_tail = stderr_tail(stderr)
            arguments = await self._arguments_pass(allowance, base / "arguments-stderr.txt")
            self._finish_report(time.monotonic() - started, arguments)
            return self.report
        finally:
            shutil.rmtree(base, ignore_errors=True)

    def _grant_start(self) -> None:
        with self.store.transaction() as state:
            # the probe finds what the server itself does with its roots: the kernel must
            # not keep it inside them for it (new servers would start confined by default)
            state.confine_new = False
            # in this order: each phase's list is answered in the order the roots were added
            self.ids = {
                rel: state.add_root(str(self.fixture.path(rel))).id
                for rel in (ROOT, SECOND_ROOT, NEW_ROOT, ADDED_ROOT)
            }
            state.grant(self.bridge_name, [self.ids[ROOT], self.ids[SECOND_ROOT]])
        self.report.roots.append({"phase": "start", "uris": self._uris(ROOT, SECOND_ROOT)})

    def _uris(self, *rels: str) -> list[str]:
        return [Path(self.fixture.path(r)).as_uri() for r in rels]

    async def _connect(self, errlog: Any) -> None:
        self.progress(0, 0, None, Status(Step.STARTING))
        async with (
            stdio_client(
                server_params(self.command, self.fixture.top, self.layout, self.bridge_name),
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
                    if self.modern:
                        await client.discover()
                    else:
                        await client.initialize()
            except MCPError as exc:
                if self.modern:  # it answered, but not as a 2026-07-28 server does
                    detail = f"error {exc.code}: {exc.message}"
                    raise _Stop(self._gone(ProblemCode.NOT_MODERN, detail)) from exc
                raise _Stop(self._gone(ProblemCode.DID_NOT_START, said(exc))) from exc
            except (TimeoutError, RuntimeError, *CLOSED) as exc:
                raise _Stop(self._gone(ProblemCode.DID_NOT_START, said(exc))) from exc
            info = client.server_info
            self.report.protocol = client.protocol_version or ""
            self.report.server_name = info.name if info else ""
            self.report.version = (info.version if info else "") or ""
            self.report.name = self.name or self.report.server_name
            await self._run_matrix(client)

    async def _run_matrix(self, client: ClientSession) -> None:
        cells = CellRunner(client, self.fixture, self.timeouts.call)
        t = self.timeouts
        if not self.modern:  # under 2026-07-28 roots come with requests: nothing to wait for
            self.progress(0, 0, None, Status(Step.WAITING_FIRST_ASK))
            await self.tail.wait_kind(EventKind.ROOTS_ANSWERED, 0, t.first_ask)
            await asyncio.sleep(t.settle)
        tools = await self._tools(client)
        self.total = sum(2 * len(tool.kinds()) + 7 for tool in tools)
        self.progress(
            0,
            self.total,
            None,
            Status(Step.PLANNED, {"tools": len(tools), "cells": self.total, "plan": tools}),
        )
        try:
            if not tools:
                # the roots traffic can still be watched: does it ask again after list_changed?
                self._problem(Problem(ProblemCode.NO_PATH_TOOLS))
            for tool in tools:
                for kind in [*tool.kinds(), TargetKind.SECOND_ROOT]:
                    await self._row(cells, tool, kind)
            await self._changes(cells, tools)
            self.report.complete = True
        except ServerGone as exc:
            code = ProblemCode.STOPPED_ANSWERING if exc.silent else ProblemCode.WENT
            raise _Stop(self._gone(code, str(exc))) from exc

    async def _tools(self, client: ClientSession) -> list[PathTool]:
        self.progress(0, 0, None, Status(Step.LISTING_TOOLS))
        offer = await list_offer(
            client,
            self.timeouts.call,
            str(self.fixture.top),
            lambda: self.progress(0, 0, None, Status(Step.LISTING_RESOURCES)),
        )
        self.report.left_out = offer.left_out
        self.report.resources = offer.resources
        self.listed = offer.listed
        self.tools = offer.tools
        return offer.tools

    # ---- rows -----------------------------------------------------------------------------

    async def _row(self, cells: CellRunner, tool: PathTool, kind: TargetKind) -> Row:
        inside_targets, outside_targets = targets_for(tool, kind, self.listed)
        inside = await self._cell(cells, tool, inside_targets)
        outside = await self._cell(cells, tool, outside_targets)
        return self._add(Row(tool.name, tool.operation, kind, inside, outside))

    async def _cell(self, cells: CellRunner, tool: PathTool, targets: list[Any]) -> Cell:
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
                    await self._still_answering(cells.client)
                except ServerGone as exc:
                    self.gone = exc
        self.done += 1
        return cell

    async def _still_answering(self, client: ClientSession) -> None:
        try:
            with anyio.fail_after(min(self.timeouts.call, 5.0)):
                await client.send_ping()
        except (TimeoutError, MCPError, *CLOSED) as exc:
            raise ServerGone("it stopped answering, even to ping", silent=True) from exc

    def _add(self, row: Row) -> Row:
        self.rows.append(row)
        self.report.rows = self.rows
        status = Status(Step.ROW, {"tool": row.tool, "target": row.target_kind.value})
        self.progress(self.done, self.total, row, status)
        if self.gone is not None:
            raise self.gone
        return row

    # ---- changing the roots -----------------------------------------------------------------

    async def _changes(self, cells: CellRunner, tools: list[PathTool]) -> None:
        """Replace the roots, add a second one, empty the list: each time, rows that show
        whether the change took effect (a notice and a re-ask under the handshake revisions,
        the next request under 2026-07-28)."""
        self.progress(self.done, self.total, None, Status(Step.CHANGING_ROOTS))
        self.changed = await self.changer.change(
            [NEW_ROOT], [ROOT, SECOND_ROOT], self._uris(NEW_ROOT)
        )
        self.report.roots.append({"phase": "changed", "uris": self._uris(NEW_ROOT)})
        for tool in tools:
            await self._row(cells, tool, TargetKind.NEW_ROOT)

        self.progress(self.done, self.total, None, Status(Step.ADDING_ROOT))
        both = self._uris(NEW_ROOT, ADDED_ROOT)
        self.added = await self.changer.change([ADDED_ROOT], [], both)
        self.report.roots.append({"phase": "added", "uris": both})
        controls: dict[str, Cell] = {}
        for tool in tools:
            row = await self._row(cells, tool, TargetKind.ADDED_ROOT)
            controls[tool.name] = row.inside
        self.added = await self.changer.after_rows(self.added, both)

        self.progress(self.done, self.total, None, Status(Step.EMPTYING_ROOTS))
        self.emptied = await self.changer.change([], [NEW_ROOT, ADDED_ROOT], [])
        self.report.roots.append({"phase": "emptied", "uris": []})
        _, target = PAIRS[TargetKind.AFTER_EMPTY_LIST]
        for tool in tools:
            outside = await self._cell(cells, tool, [target])
            self._add(
                Row(
                    tool.name,
                    tool.operation,
                    TargetKind.AFTER_EMPTY_LIST,
                    controls[tool.name],
                    outside,
                )
            )
        self.emptied = await self.changer.after_rows(self.emptied, [])

    def _traffic(self) -> Traffic:
        if not self.modern:
            return Traffic(
                asked_at_start=self.tail.count(EventKind.ROOTS_ASKED) > 0,
                notice_sent=self.changed.notice_sent,
                asked_after_notice=self.changed.asked,
                empty_notice_sent=self.emptied.notice_sent,
                asked_for_empty_list=self.emptied.given,
                added_notice_sent=self.added.notice_sent,
                asked_after_added=self.added.given,
            )
        return self.changer.modern_traffic(
            self._uris(ROOT, SECOND_ROOT), self._uris(NEW_ROOT), self._uris(NEW_ROOT, ADDED_ROOT)
        )

    # ---- the server's arguments -----------------------------------------------------------

    async def _arguments_pass(self, allowance: str | None, stderr: Path) -> list[Row] | None:
        """The sibling rows of the server started again with the root as its only folder
        (``{allow}`` replaced by it) and no folder through ``roots/list``; None when not run.

        Run only when it can tell something: the main run finished under the handshake, the
        command line has ``{allow}``, and every sibling row worked with the roots (a server that
        keeps to its roots needs no arguments). The private store grants nothing then and
        records no consent request (policy ``deny``): the server learns its folder from its
        command line alone.
        """
        if self.modern or allowance is None or not self.report.complete:
            return None
        siblings = [r for r in self.rows if r.target_kind is TargetKind.SIBLING and r.conclusive]
        if not siblings or any(r.outside.outcome is not Outcome.WORKED for r in siblings):
            return None
        with self.store.transaction() as state:
            state.grants = [g for g in state.grants if g.server != self.bridge_name]
            state.set_policy("deny")
        self.progress(self.done, self.total, None, Status(Step.STARTING))
        root = self.fixture.path(ROOT)
        tail = LogTail(
            self.layout, self.bridge_name, [a.replace(ALLOW, str(root)) for a in self.command]
        )
        rows: list[Row] = []
        try:
            with open(stderr, "w", encoding="utf-8", errors="replace") as errlog:
                async with (
                    stdio_client(
                        server_params(self.command, Path(root), self.layout, self.bridge_name),
                        errlog=errlog,
                    ) as (read, write),
                    ClientSession(
                        read,
                        write,
                        client_info=Implementation(name="roots-manager-probe", version=__version__),
                    ) as client,
                ):
                    with anyio.fail_after(self.timeouts.start):
                        await client.initialize()
                    await tail.wait_kind(EventKind.ROOTS_ANSWERED, 0, self.timeouts.first_ask)
                    await asyncio.sleep(self.timeouts.settle)
                    cells = CellRunner(client, self.fixture, self.timeouts.call)
                    for tool in {r.tool: r for r in siblings}:
                        path_tool = next(t for t in self.tools if t.name == tool)
                        inside_targets, outside_targets = targets_for(
                            path_tool, TargetKind.SIBLING, self.listed
                        )
                        inside = await cells.run(path_tool, inside_targets)
                        outside = await cells.run(path_tool, outside_targets)
                        rows.append(
                            Row(tool, path_tool.operation, TargetKind.SIBLING, inside, outside)
                        )
        except Exception:  # the SDK's failures come in many types; the rows so far stand
            return rows or None
        return rows

    # ---- the end ---------------------------------------------------------------------------

    def _gone(self, code: ProblemCode, detail: str = "") -> Problem:
        """The problem, with how the server ended if the bridge's log says."""
        ended = self.tail.last_exit()
        if ended is None:
            return Problem(code, detail)
        return Problem(code, detail, ended[0], ended[1])

    def _problem(self, problem: Problem) -> None:
        self.report.problem = problem.text
        self.report.problem_detail = problem

    def _finish_report(self, seconds: float, arguments: list[Row] | None = None) -> None:
        traffic = self._traffic()
        self.report.close(
            self.rows,
            seconds,
            traffic,
            tree=str(self.fixture.top),
            events=self.tail.poll(),
            arguments=arguments,
        )
        if not self.report.name:
            self.report.name = BRIDGE_NAME
        session = next((e.get("session") for e in self.tail.events if e.get("session")), None)
        self.report.log = {
            "server": self.bridge_name,
            "session": session,
            "folder": None if self.logs is None else str(self.logs),
        }


async def probe(
    command: Sequence[str],
    *,
    name: str | None = None,
    timeouts: Timeouts | None = None,
    progress: Progress | None = None,
    logs: Path | None = None,
    protocol: str = HANDSHAKE,
) -> Report:
    """Probe the server started by *command* (``{allow}`` is replaced by the scratch tree).

    *logs*: the user's log folder, where the probe's bridge writes its events (None: a private
    folder removed after the run).
    """
    return await ProbeRun(
        command, name=name, timeouts=timeouts, progress=progress, logs=logs, protocol=protocol
    ).run()

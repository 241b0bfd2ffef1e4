"""One cell of the probe's matrix: restore the tree, make the call with a timeout, judge it."""

from __future__ import annotations

import base64
import binascii
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

from roots_manager.core.probe.fixture import Fixture, changed, within
from roots_manager.core.probe.plan import PathTool, Target, arguments, slot_rel
from roots_manager.core.probe.verdict import Cell, Evidence, Outcome, judge

DETAIL_CHARS = 160
ANSWER_CHARS = 4000
"""Text kept of each answer in the report: enough to read, not a whole file tree."""

_GONE = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, EOFError)


class ServerGone(Exception):
    """The connection to the server ended (*silent*: it is there but answers nothing)."""

    def __init__(self, message: str, *, silent: bool = False) -> None:
        super().__init__(message)
        self.silent = silent


def answer_text(answer: dict[str, Any]) -> str:
    """What an answer says, as text: text blocks, decoded blobs, structured content."""
    parts: list[str] = []
    for block in answer.get("content") or answer.get("contents") or []:
        if not isinstance(block, dict):
            continue
        resource = block.get("resource")
        inner: dict[str, Any] = resource if isinstance(resource, dict) else block
        if isinstance(inner.get("text"), str):
            parts.append(inner["text"])
        for key in ("blob", "data"):
            value = inner.get(key)
            if isinstance(value, str):
                parts.append(_decoded(value))
    if answer.get("structuredContent") is not None:
        parts.append(json.dumps(answer["structuredContent"], ensure_ascii=False))
    return "\n".join(parts)


def _decoded(data: str) -> str:
    try:
        return base64.b64decode(data, validate=False).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return ""


def _trimmed(answer: dict[str, Any]) -> dict[str, Any]:
    # the report keeps the answer's shape, each long text cut short
    text = json.dumps(answer, ensure_ascii=False)
    if len(text) <= ANSWER_CHARS:
        return answer
    return {"truncated": True, "start": text[:ANSWER_CHARS]}


@dataclass
class CellRunner:
    """Makes the calls of one probe run through one connected MCP client."""

    client: ClientSession
    fixture: Fixture
    timeout: float
    hung: set[str] = field(default_factory=set)
    """Tools that hung once: their later cells are not run, each would only hang again."""

    async def run(self, tool: PathTool, targets: list[Target]) -> Cell:
        """One call of *tool* on *targets* (one per path argument); never raises but ServerGone."""
        top = str(self.fixture.top)
        args = arguments(tool, top, targets)
        shown = [a for v in args.values() if isinstance(v, (str, list)) for a in _strings(v, top)]
        if tool.resource:
            request: dict[str, Any] = {"method": "resources/read", "params": {"uri": args["uri"]}}
        else:
            request = {"method": "tools/call", "params": {"name": tool.name, "arguments": args}}
        cell = Cell(targets=shown, request=request)
        if tool.name in self.hung:
            cell.detail = "this tool hung on an earlier call"
            return cell
        self.fixture.restore()
        before = self.fixture.snapshot()
        started = time.monotonic()
        try:
            with anyio.fail_after(self.timeout + 1):
                if tool.resource:
                    result: Any = await self.client.read_resource(args["uri"])
                else:
                    result = await self.client.call_tool(
                        tool.name, args, read_timeout_seconds=self.timeout
                    )
        except TimeoutError:
            return self._timed_out(cell, tool, started)
        except MCPError as exc:
            cell.ms = (time.monotonic() - started) * 1000
            if exc.code == REQUEST_TIMEOUT:
                return self._timed_out(cell, tool, started)
            if exc.code == CONNECTION_CLOSED:
                raise ServerGone(exc.message) from exc
            cell.answer = {"error": {"code": exc.code, "message": exc.message}}
            cell.outcome, cell.evidence = Outcome.REFUSED, Evidence.ANSWER
            cell.detail = _line(f"error {exc.code}: {exc.message}")
            cell.changed, _ = self._changed_since(before, targets, tool)
            if cell.changed:
                cell.outcome, cell.evidence = Outcome.WORKED, Evidence.DISK
            return cell
        except _GONE as exc:
            raise ServerGone(str(exc) or type(exc).__name__) from exc
        cell.ms = (time.monotonic() - started) * 1000
        answer = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        text = answer_text(answer)
        cell.answer = _trimmed(answer)
        cell.detail = _line(text) or "(an empty answer)"
        cell.changed, elsewhere = self._changed_since(before, targets, tool)
        cell.revealed_secret = self.fixture.secret in text
        token = self._token(tool, targets)
        cell.outcome, cell.evidence = judge(bool(answer.get("isError")), text, token, cell.changed)
        if elsewhere and not cell.changed:
            # the server took the target's spelling literally: it never reached the target
            cell.outcome, cell.evidence = Outcome.REFUSED, Evidence.DISK
            cell.changed = elsewhere
            cell.detail = _line(f"taken literally, not reaching the target: {cell.detail}")
        return cell

    def _timed_out(self, cell: Cell, tool: PathTool, started: float) -> Cell:
        cell.ms = (time.monotonic() - started) * 1000
        cell.outcome = Outcome.TIMED_OUT
        cell.detail = f"no answer within {self.timeout:g} s"
        self.hung.add(tool.name)
        return cell

    def _changed_since(
        self, before: dict[str, Any], targets: list[Target], tool: PathTool
    ) -> tuple[list[str], list[str]]:
        """What the call changed where its targets lead, and what it changed elsewhere.

        Only the folders the call named count for it (a server's own cache in the tree is not
        the call's doing); a change under a target's literal spelling but not where it leads
        (``%2e%2e`` made into a folder) is the other list.
        """
        after = self.fixture.snapshot()
        moved = changed(before, after)
        named = [(slot_rel(s, t), t.folder) for s, t in _pairs(tool, targets)]
        reached = {self.fixture.resolved(p) for pair in named for p in pair}
        literal = {os.path.normpath(p) for pair in named for p in pair} - reached
        return (
            [p for p in moved if any(within(p, f) for f in reached)],
            [p for p in moved if any(within(p, f) for f in literal)],
        )

    def _token(self, tool: PathTool, targets: list[Target]) -> str | None:
        for slot, target in _pairs(tool, targets):
            if not slot.fresh and not slot.folder:
                return self.fixture.token_of(target.file)
        return None


def _pairs(tool: PathTool, targets: list[Target]) -> list[tuple[Any, Target]]:
    return [(s, targets[min(i, len(targets) - 1)]) for i, s in enumerate(tool.slots)]


def _strings(value: str | list[Any], top: str) -> list[str]:
    values = value if isinstance(value, list) else [value]
    return [v for v in values if isinstance(v, str) and (top in v or v.startswith("file:"))]


def _line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= DETAIL_CHARS else line[: DETAIL_CHARS - 1] + "…"

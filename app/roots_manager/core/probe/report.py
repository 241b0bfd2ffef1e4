"""The boundary probe's result: the server, the roots it was given, the rows and the verdict.

This is the document ``roots-manager probe --json`` prints and ``--save`` keeps, one file per
run (:mod:`~roots_manager.core.probe.table`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.probe.reasons import ALLOWANCE_UNKNOWN, Finding, Problem
from roots_manager.core.probe.verdict import (
    ARGUMENTS_NAME,
    VERDICT_NAMES,
    Outcome,
    Row,
    Traffic,
    arguments_finding,
    verdict,
)

FORMAT = 2
"""2: each verdict line's reason code, parameters and deciding phase (``verdict_details``)."""

ROOTS_KINDS = {
    EventKind.RUN_START,
    EventKind.HANDSHAKE,
    EventKind.ROOTS_ASKED,
    EventKind.ROOTS_ANSWERED,
    EventKind.LIST_CHANGED_SENT,
    EventKind.MRTR_RESOLVED,
    EventKind.RUN_END,
    EventKind.ERROR,
}
"""The bridge's events a report keeps: the roots traffic of the run, from its log."""


@dataclass
class Report:
    """Everything one probe run found."""

    name: str
    """The name the table is kept under (``--server``, else the server's own name)."""
    version: str
    """The version the server reported."""
    command: list[str]
    """The command line as given (``{allow}`` not replaced)."""
    allowance: str | None
    """The scratch tree's top when ``{allow}`` stood in the command line; None: unknown."""
    started_at: str
    server_name: str = ""
    """The name the server reported (``serverInfo.name``)."""
    roots: list[dict[str, Any]] = field(default_factory=list)
    """The roots of each phase: ``{"phase", "uris"}``."""
    rows: list[Row] = field(default_factory=list)
    verdict: dict[str, Finding] = field(default_factory=dict)
    traffic: Traffic | None = None
    protocol: str = ""
    """The protocol revision spoken with the server (``2025-06-18``, ``2026-07-28``...)."""
    resources: list[str] = field(default_factory=list)
    """The URIs the server listed as resources (``resources/list``)."""
    left_out: dict[str, str] = field(default_factory=dict)
    """Tools not probed and why (``takes no path``)."""
    complete: bool = False
    problem: str | None = None
    """Why the probe stopped early, or found nothing to probe (in English)."""
    problem_detail: Problem | None = None
    """The same as a code with its parameters, for the views to word."""
    seconds: float = 0.0
    stderr_tail: str = ""
    secret_revealed: bool = False
    tree: str = ""
    """Where the scratch tree was (removed after the run): the targets' paths start with it."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """The roots traffic the bridge recorded in its log."""
    log: dict[str, Any] = field(default_factory=dict)
    """Where the bridge's events are: ``{"server", "session", "folder"}`` (folder None: the
    run's private folder, removed with it)."""
    arguments_rows: list[Row] | None = None
    """The sibling rows of the server started with the root as its only folder and no roots
    (None: not run)."""
    arguments: Finding | None = None
    """Whether it ignores ``roots/list`` but honours its arguments
    (:func:`~roots_manager.core.probe.verdict.arguments_finding`)."""

    def close(
        self,
        rows: list[Row],
        seconds: float,
        traffic: Traffic,
        *,
        tree: str,
        events: list[EventRecord],
        arguments: list[Row] | None = None,
    ) -> None:
        """Fill in what the run ended with: its rows and time, the roots traffic and the
        verdict on them, the scratch tree, and the bridge's roots events among *events*."""
        self.rows = rows
        self.seconds = seconds
        self.secret_revealed = any(
            c.revealed_secret for row in rows for c in (row.inside, row.outside)
        )
        self.traffic = traffic
        self.verdict = verdict(rows, traffic, self.allowance is not None, self.complete)
        self.arguments_rows = arguments
        self.arguments = arguments_finding(self.verdict, arguments)
        self.tree = tree
        self.events = [
            {k: e[k] for k in ("ts", "kind", "dir", "uris", "outcome", "exit_code") if k in e}
            for e in events
            if e.get("kind") in ROOTS_KINDS
        ]

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        t = self.traffic
        return {
            "format": FORMAT,
            "server": {
                "name": self.name,
                "reported_name": self.server_name,
                "version": self.version,
                "command": self.command,
            },
            "allowance": self.allowance,
            "started_at": self.started_at,
            "seconds": round(self.seconds, 2),
            "complete": self.complete,
            "problem": self.problem,
            "problem_detail": None
            if self.problem_detail is None
            else self.problem_detail.to_json(),
            "roots": self.roots,
            "rows": [r.to_json() for r in self.rows],
            "verdict": {k: f.value for k, f in self.verdict.items()},
            "verdict_reasons": {k: f.reason for k, f in self.verdict.items()},
            "verdict_details": {k: f.to_json() for k, f in self.verdict.items()},
            "protocol": self.protocol,
            "traffic": None if t is None else dict(t.__dict__),
            "resources": self.resources,
            "left_out": self.left_out,
            "secret_revealed": self.secret_revealed,
            "stderr_tail": self.stderr_tail,
            "tree": self.tree,
            "events": self.events,
            "log": self.log,
            "arguments_rows": None
            if self.arguments_rows is None
            else [r.to_json() for r in self.arguments_rows],
            ARGUMENTS_NAME: None if self.arguments is None else self.arguments.value,
            f"{ARGUMENTS_NAME}_details": None
            if self.arguments is None
            else self.arguments.to_json(),
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Report:
        """A report read back from a saved table."""
        server = doc.get("server") or {}
        values = doc.get("verdict") or {}
        details = doc.get("verdict_details") or {}
        worded = doc.get("verdict_reasons") or {}
        traffic = doc.get("traffic")
        return cls(
            name=str(server.get("name", "")),
            version=str(server.get("version", "")),
            command=[str(a) for a in server.get("command") or []],
            allowance=doc.get("allowance"),
            started_at=str(doc.get("started_at", "")),
            server_name=str(server.get("reported_name", "")),
            roots=list(doc.get("roots") or []),
            rows=[Row.from_json(r) for r in doc.get("rows") or []],
            verdict={
                k: Finding.from_json(values.get(k), details.get(k), str(worded.get(k, "")))
                for k in values
            },
            protocol=str(doc.get("protocol", "")),
            traffic=Traffic(**traffic) if isinstance(traffic, dict) else None,
            resources=[str(u) for u in doc.get("resources") or []],
            left_out=dict(doc.get("left_out") or {}),
            complete=bool(doc.get("complete", False)),
            problem=doc.get("problem"),
            problem_detail=Problem.from_json(doc.get("problem_detail")),
            seconds=float(doc.get("seconds", 0.0)),
            stderr_tail=str(doc.get("stderr_tail", "")),
            secret_revealed=bool(doc.get("secret_revealed", False)),
            tree=str(doc.get("tree", "")),
            events=list(doc.get("events") or []),
            log=dict(doc.get("log") or {}),
            arguments_rows=None
            if doc.get("arguments_rows") is None
            else [Row.from_json(r) for r in doc["arguments_rows"]],
            arguments=None
            if doc.get(f"{ARGUMENTS_NAME}_details") is None
            else Finding.from_json(
                doc.get(ARGUMENTS_NAME),
                doc[f"{ARGUMENTS_NAME}_details"],
                str(doc[f"{ARGUMENTS_NAME}_details"].get("reason", "")),
            ),
        )


VALUE_WORD: dict[bool | None, str] = {True: "yes", False: "no", None: "undecided"}
"""A verdict line's value as the report words it."""


def verdict_lines(report: Report) -> list[str]:
    """The verdict, one line each: ``enforces_roots: yes: every outside target...``."""
    out = []
    for name in VERDICT_NAMES:
        f = report.verdict.get(name)
        if f is None:
            continue
        value = VALUE_WORD[f.value]
        phase = f" [{f.phase.value}]" if f.phase is not None else ""
        out.append(f"{name}: {value}{phase}: {f.reason}")
    f = report.arguments
    if f is not None and (report.arguments_rows is not None or f.value is not None):
        out.append(f"{ARGUMENTS_NAME}: {VALUE_WORD[f.value]}: {f.reason}")
    if report.allowance is None:
        out.append("note: " + ALLOWANCE_UNKNOWN.format())
    if report.secret_revealed:
        out.append("note: an answer revealed the secret file outside every root")
    return out


CELL_MARK = {
    Outcome.WORKED: "worked",
    Outcome.REFUSED: "refused",
    Outcome.TIMED_OUT: "TIMED OUT",
    Outcome.SERVER_GONE: "server gone",
    Outcome.NOT_RUN: "-",
}


def short(report: Report, text: str) -> str:
    """*text* with the scratch tree's path shown as ``<tree>``."""
    return text.replace(report.tree, "<tree>") if report.tree else text

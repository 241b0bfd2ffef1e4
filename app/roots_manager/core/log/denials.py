"""Denials: what a confined server was refused, tied to the MCP request that was running.

The supervisor's observer (:mod:`roots_manager.sandbox.observer`) tells each refusal Landlock
makes as a JSON line; the bridge turns each line into a ``denial`` event of the server's log with
what the host had asked at that moment (:class:`Attribution`). This module is the event's shape,
made and read in one place: the bridge writes it, the CLI and the app read it.

An event holds ``path`` (what was refused; ``folder`` and ``folded`` alone for a count of
refusals folded at the server's end), ``operation`` (read, write, list, execute, create, remove,
connect), ``pid``, ``process``, ``at`` (when the call was made, ISO 8601 UTC), ``call``,
``folded`` (refusals of the same folder and operation in the second before, not told one by
one), ``protected`` (true: a protected place, kept from being made, which no grant opens),
``waits`` (seconds the call waited for the user to grant a folder holding it,
:mod:`roots_manager.sandbox.asking`) and ``during``: ``start-up``, ``request`` (``requests`` then names each one: ``method``,
``tool`` for ``tools/call``, ``id``, ``argument`` when one named the path) or ``between``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from roots_manager.core.directory.records import EventRecord
from roots_manager.core.servers.names import visible
from roots_manager.core.store.state import iso_time
from roots_manager.support.paths import inside
from roots_manager.support.translatable import QT_TRANSLATE_NOOP

OPERATIONS = ("read", "write", "list", "execute", "create", "remove", "connect")
START_UP = "start-up"
REQUEST = "request"
BETWEEN = "between"


@dataclass(frozen=True, slots=True)
class Request:
    """A request of the host's, and the span in which the server had it (seconds since the
    epoch; *ended* None: not answered yet)."""

    id: object
    method: str
    tool: str | None
    arguments: Any
    started: float
    ended: float | None = None

    def holds(self, when: float) -> bool:
        return self.started <= when and (self.ended is None or when <= self.ended)


@dataclass(frozen=True, slots=True)
class Attribution:
    """What the server was doing for the host when it was refused."""

    during: str
    requests: tuple[Request, ...] = ()


def attribute(
    when: float, requests: tuple[Request, ...], start_ups: tuple[tuple[float, float | None], ...]
) -> Attribution:
    """The attribution of a refusal at *when*, from the host's *requests* (open and recently
    answered) and the server's start-ups (from, until; until None: still starting)."""
    for begun, until in start_ups:
        if begun <= when and (until is None or when < until):
            return Attribution(START_UP)  # its handshake in flight, nothing else yet
    held = tuple(r for r in requests if r.holds(when))
    if held:
        return Attribution(REQUEST, held)
    return Attribution(BETWEEN)


LONGEST_NAMING = 16384
"""The most characters a string may have and name a path: no path (4,096 bytes at most) nor its
``file://`` URI (each byte percent-encoded in three characters) is longer. The bridge's record
of a request leaves the text of longer strings out (``_fastrelay.Ledger``), so a megabyte of a
tool's arguments is never read to tie a refusal to it."""


def named_by(arguments: Any, path: str, limit: int = 64) -> str | None:
    """The name of the argument (``path``, ``paths[1]``, ``source``) whose value names *path*,
    the folder it is in, or a path inside it; None when none does. At most *limit* values are
    looked at (a large argument is not searched whole), and no string longer than
    :data:`LONGEST_NAMING`."""
    found: list[str] = []
    seen = 0

    def visit(value: Any, name: str) -> None:
        nonlocal seen
        if found or seen >= limit:
            return
        seen += 1
        if isinstance(value, str):
            if len(value) <= LONGEST_NAMING and _names(value, path):
                found.append(name)
        elif isinstance(value, dict):
            for k, v in value.items():
                visit(v, f"{name}.{k}" if name else str(k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                visit(v, f"{name}[{i}]")

    visit(arguments, "")
    return found[0] if found else None


def _names(value: str, path: str) -> bool:
    if value.startswith("file://"):
        from roots_manager.core.roots.uri import UriError, uri_to_path

        try:
            value = uri_to_path(value)
        except UriError:
            return False
    if not value.startswith(("/", "~")):
        return False
    mine = os.path.normpath(os.path.expanduser(value))
    return inside(path, mine) or inside(mine, path)


def iso(when: float) -> str:
    """*when* (seconds since the epoch) as the log writes times (ISO 8601 UTC, milliseconds)."""
    return iso_time(when)


def fields(refusal: dict[str, Any], attribution: Attribution) -> dict[str, Any] | None:
    """The fields of the denial event for one line of the observer (None: not a refusal)."""
    word = refusal.get("operation")
    when = refusal.get("time")
    if word not in OPERATIONS or not isinstance(when, int | float):
        return None
    path = refusal.get("path")
    folded = refusal.get("repeated")
    out: dict[str, Any] = {
        "path": path if isinstance(path, str) else None,
        "folder": refusal.get("folder")
        if isinstance(refusal.get("folder"), str)
        else (os.path.dirname(path) if isinstance(path, str) else None),
        "operation": word,
        "pid": refusal.get("pid") if isinstance(refusal.get("pid"), int) else None,
        "process": refusal.get("comm") if isinstance(refusal.get("comm"), str) else None,
        "call": refusal.get("call") if isinstance(refusal.get("call"), str) else None,
        "named": refusal.get("named") if isinstance(refusal.get("named"), str) else None,
        "at": iso(float(when)),
        "folded": folded if isinstance(folded, int) and folded > 0 else None,
        "lost": refusal.get("lost") if isinstance(refusal.get("lost"), int) else None,
        "during": attribution.during,
    }
    if refusal.get("protected") is True:
        out["protected"] = True
    domain, port = refusal.get("domain"), refusal.get("port")
    if isinstance(domain, str) and isinstance(port, int) and not isinstance(port, bool):
        out["domain"], out["port"] = domain, port  # refused by the proxy: a domain to allow
    waits = refusal.get("waits")
    if isinstance(waits, int | float) and not isinstance(waits, bool) and 0 < waits <= 3600:
        out["waits"] = waits  # the call waits that long for the user's answer
    if attribution.requests:
        out["requests"] = [_request(r, path) for r in attribution.requests]
    return out


def _request(request: Request, path: object) -> dict[str, Any]:
    shown: dict[str, Any] = {"method": request.method, "id": request.id}
    if request.tool is not None:
        shown["tool"] = request.tool
    if isinstance(path, str):
        argument = named_by(request.arguments, path)
        if argument is not None:
            shown["argument"] = argument
    return shown


SAID_AT_START_UP = QT_TRANSLATE_NOOP("LogSummary", "at start-up")
SAID_WHILE = QT_TRANSLATE_NOOP("LogSummary", "while {requests}")
SAID_AND = QT_TRANSLATE_NOOP("LogSummary", "{first} and {second}")
SAID_BETWEEN = QT_TRANSLATE_NOOP("LogSummary", "between requests")
SAID_FOLDER_COUNT = QT_TRANSLATE_NOOP("LogSummary", "{folder}/ ({count} more refused)")
SAID_MORE_IN_FOLDER = QT_TRANSLATE_NOOP("LogSummary", "{path} (+{count} more in its folder)")
SAID_PROTECTED = QT_TRANSLATE_NOOP("LogSummary", "{what} (a protected place: no grant opens it)")
SAID_COULD_WAIT = QT_TRANSLATE_NOOP(
    "LogSummary", "{what} (the call could wait {seconds} s for a grant)"
)
SAID_SUMMARY = QT_TRANSLATE_NOOP("LogSummary", "{operation} {what} refused {during}")
"""A refusal's words, marked for Qt's translation tools where they are defined: the CLI and the
bridge say them in English, the app translates each (``translate``, ``operation``)."""


def _same(text: str) -> str:
    return text


def while_text(rec: EventRecord, translate: Callable[[str], str] = _same) -> str:
    """What the server was doing, in words: ``while tools/call read_file (id 3)``, ``at
    start-up``, ``between requests`` (each template given to *translate*)."""
    during = rec.get("during")
    requests = rec.get("requests")
    named = []
    if isinstance(requests, list):
        for r in requests:
            if not isinstance(r, dict):
                continue
            what = shown(r.get("method", "?"))
            if r.get("tool"):
                what += f" {shown(r['tool'])}"
            what += f" (id {shown(r.get('id'))}"
            what += f", {shown(r['argument'])})" if r.get("argument") else ")"
            named.append(what)
    if during == START_UP:
        return translate(SAID_AT_START_UP)
    if named:
        joined = named[0]
        for more in named[1:]:
            joined = translate(SAID_AND).format(first=joined, second=more)
        return translate(SAID_WHILE).format(requests=joined)
    return translate(SAID_BETWEEN)


def shown(value: object) -> str:
    """A field of a refusal as it may be shown: every control, bidirectional or invisible
    character escaped. A refusal's path and process name come from the server's side (a file
    it named, the name it gave itself): a terminal escape or a right-to-left override in them
    must not rewrite the line it is shown in."""
    return visible(str(value))


def refused_what(rec: EventRecord, translate: Callable[[str], str] = _same) -> str:
    """What was refused, as every front end says it: the path (with the count of the others
    refused in its folder that second), or the folder and the count alone, and whether it is a
    protected place no grant opens (each template given to *translate*)."""
    what = shown(rec.get("path") or "")
    if not what:
        what = translate(SAID_FOLDER_COUNT).format(
            folder=shown(rec.get("folder", "?")), count=shown(rec.get("folded", 0))
        )
    elif rec.get("folded"):
        what = translate(SAID_MORE_IN_FOLDER).format(path=what, count=shown(rec["folded"]))
    if rec.get("protected") is True:
        what = translate(SAID_PROTECTED).format(what=what)
    if isinstance(rec.get("waits"), int | float):
        what = translate(SAID_COULD_WAIT).format(what=what, seconds=shown(rec["waits"]))
    return what


def summary(
    rec: EventRecord,
    *,
    process: bool = False,
    translate: Callable[[str], str] = _same,
    operation: Callable[[str], str] = shown,
) -> str:
    """A denial in one line, worded here for every place that prints one (the log, ``roots-
    manager denials``, the host's log): the operation, what was refused and what the server
    was doing, ``read /srv/notes.md refused while tools/call read_file (id 3, path)``; with
    *process*, also which of the server's processes it was, `` [node 4182]``. In English, or
    through *translate* (each template) and *operation* (the operation's words), as the app
    shows it."""
    said = translate(SAID_SUMMARY).format(
        operation=operation(str(rec.get("operation", "?"))),
        what=refused_what(rec, translate),
        during=while_text(rec, translate),
    )
    if process and rec.get("process"):
        pid = "" if rec.get("pid") is None else f" {shown(rec['pid'])}"
        said += f" [{shown(rec['process'])}{pid}]"
    return said


def waits_left(rec: EventRecord, now: float) -> float:
    """Seconds the refused call of denial *rec* still waits for the user's answer at *now*
    (0: it does not wait, or no longer): a question (:mod:`roots_manager.sandbox.asking`)."""
    from roots_manager.core.log.event_time import parse_ts

    waits = rec.get("waits")
    if not isinstance(waits, int | float) or isinstance(waits, bool):
        return 0.0
    at = parse_ts(str(rec.get("at") or ""))
    if not at:
        return 0.0
    return max(0.0, at + float(waits) - now)

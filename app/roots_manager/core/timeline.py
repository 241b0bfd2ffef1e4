"""The roots traffic of each server over time, as marks: what the Log tab's timeline draws.

Built from a :class:`~roots_manager.core.logindex.LogIndex` (its time, server and kind columns,
without reading the events back), incrementally as rows are indexed. Per server, in time order:
each ``roots/list`` asked and answered, each ``list_changed`` sent, each consent wait and
decision, and the spans during which an answer was held (asked, not yet answered), so that a
developer sees at a glance whether a server re-asks after a change and how long answers took.

A held span pairs a request with *its* answer by JSON-RPC id within the bridge run that logged
both (ids restart with every run), never by order: a server may have several requests for roots
in flight, and they need not be answered in the order asked. A 2026-07-28 request for roots is
named by the host's request that carried it and answered under the retry's new id, so its
answer is paired by the host's id the retry records, or else by the ``inputRequests`` key. The
index keeps no ids, so the few roots events are read back from their files. A request never
answered stays open until its bridge run ends (then the span ends there, unanswered).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from roots_manager.core import events
from roots_manager.core.logindex import LogIndex


class MarkKind(Enum):
    """What happened at a mark."""

    ASKED = "asked"
    ANSWERED = "answered"
    LIST_CHANGED = "list-changed"
    CONSENT = "consent"


_KINDS: dict[str, MarkKind] = {
    events.ROOTS_ASKED: MarkKind.ASKED,
    events.ROOTS_ANSWERED: MarkKind.ANSWERED,
    events.MRTR_RESOLVED: MarkKind.ANSWERED,
    events.LIST_CHANGED_SENT: MarkKind.LIST_CHANGED,
    events.CONSENT_WAIT: MarkKind.CONSENT,
    events.CONSENT_DECIDED: MarkKind.CONSENT,
}


@dataclass(frozen=True)
class Mark:
    """One event on a server's lane."""

    row: int
    """The event's row in the log index (what selecting the mark selects)."""
    ts: float
    kind: MarkKind


@dataclass(frozen=True)
class Span:
    """A ``roots/list`` answer held: from the request to its answer (or still open)."""

    start: float
    end: float | None
    """When it was answered (or its bridge run ended); None while it is still waiting."""
    asked_row: int
    """The request's row in the log index."""
    answered: bool = True
    """False for a request its bridge run ended without answering."""


@dataclass
class _Open:
    """A request for roots waiting for its answer."""

    start: float
    row: int
    run: str
    ids: frozenset[str]
    keys: frozenset[str]


@dataclass
class Lane:
    """One server's marks and held spans, in time order."""

    server: str
    marks: list[Mark] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    """The requests answered (or abandoned), in the order their answers came."""
    waiting: list[_Open] = field(default_factory=list)

    @property
    def open_spans(self) -> list[Span]:
        """The requests still waiting for their answers, oldest first."""
        return [Span(o.start, None, o.row) for o in self.waiting]

    @property
    def open_since(self) -> float | None:
        """When the oldest request still waiting for its answer was made."""
        return min((o.start for o in self.waiting), default=None)

    def ask(self, row: int, t: float, rec: dict[str, Any] | None) -> None:
        """A request for roots was made."""
        rec = rec or {}
        ids = frozenset(_ids(rec, "id"))
        self.waiting.append(_Open(t, row, str(rec.get("session", "")), ids, _keys(rec)))

    def answer(self, t: float, rec: dict[str, Any] | None) -> None:
        """An answer came: it closes the request it answers, if that one is known."""
        rec = rec or {}
        run = str(rec.get("session", ""))
        ids = _ids(rec, "id") | _ids(rec, "host_id")
        keys = _keys(rec)
        mine = [o for o in self.waiting if o.run == run]
        found = next((o for o in mine if o.ids & ids), None)
        if found is None and keys:
            found = next((o for o in mine if o.keys & keys), None)
        if found is not None:
            self.waiting.remove(found)
            self.spans.append(Span(found.start, t, found.row))

    def run_ended(self, t: float, run: str) -> None:
        """A bridge run ended: what it left unanswered is no longer held."""
        for o in [o for o in self.waiting if o.run == run]:
            self.waiting.remove(o)
            self.spans.append(Span(o.start, t, o.row, answered=False))


def _ids(rec: dict[str, Any], field_name: str) -> set[str]:
    """The JSON-RPC id in *field_name* of *rec*, spelled so that 1 and "1" differ."""
    value = rec.get(field_name)
    if value is None or isinstance(value, bool | dict | list):
        return set()
    return {json.dumps(value)}


def _keys(rec: dict[str, Any]) -> frozenset[str]:
    """The 2026-07-28 ``inputRequests`` keys an event names."""
    keys = rec.get("keys")
    found = {k for k in keys if isinstance(k, str)} if isinstance(keys, list) else set()
    if isinstance(rec.get("key"), str):
        found.add(rec["key"])
    return frozenset(found)


class Timeline:
    """Every server's lane, kept current with :meth:`update` as the index grows."""

    def __init__(self, index: LogIndex) -> None:
        self.index = index
        self.lanes: dict[str, Lane] = {}
        self.upto = 0
        """Index rows taken in so far."""
        self.first: float | None = None
        self.last: float | None = None

    def update(self) -> int:
        """Take in the rows indexed since the last call; returns how many marks were added."""
        ix = self.index
        codes = {ix.code_of_kind(k): mark for k, mark in _KINDS.items()}
        codes.pop(None, None)
        run_end = ix.code_of_kind(events.RUN_END)
        added = 0
        kinds, servers, ts = ix.kind, ix.server, ix.ts
        stop = len(ix)
        for row in range(self.upto, stop):
            code = kinds[row]
            kind = codes.get(code)
            if kind is None:
                lane = self.lanes.get(ix.servers[servers[row]]) if code == run_end else None
                if lane is not None and lane.waiting:
                    rec = ix.record(row) or {}
                    lane.run_ended(ts[row], str(rec.get("session", "")))
                continue
            t = ts[row]
            name = ix.servers[servers[row]]
            lane = self.lanes.get(name)
            if lane is None:
                lane = self.lanes[name] = Lane(name)
            lane.marks.append(Mark(row, t, kind))
            if kind is MarkKind.ASKED:
                lane.ask(row, t, ix.record(row))
            elif kind is MarkKind.ANSWERED and lane.waiting:
                lane.answer(t, ix.record(row))
            self.first = t if self.first is None else min(self.first, t)
            self.last = t if self.last is None else max(self.last, t)
            added += 1
        self.upto = stop
        return added

    def servers(self) -> list[str]:
        """The servers with marks, by name."""
        return sorted(self.lanes, key=str.casefold)

    def nearest(self, server: str, t: float, within: float) -> Mark | None:
        """The mark of *server* nearest to time *t*, if one is no further than *within*."""
        lane = self.lanes.get(server)
        if lane is None:
            return None
        best = min(lane.marks, key=lambda m: abs(m.ts - t), default=None)
        return best if best is not None and abs(best.ts - t) <= within else None

"""The roots traffic of each server over time, as marks: what the Log tab's timeline draws.

Built from a :class:`~roots_manager.core.log.index.LogIndex` (its time, server and kind columns,
without reading the events back), incrementally as rows are indexed. Per server, in time order:
each ``roots/list`` asked and answered, each ``list_changed`` sent, each consent wait and
decision, each refusal of a confined server, and the spans during which an answer was held (asked, not yet answered), so that a
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
import math
import re
from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, NamedTuple, cast

from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.log.index import LogIndex, ReadAhead
from roots_manager.core.log.probe_runs import PREFIX, is_probe

PROBES = PREFIX
"""The one lane every probe run's traffic goes to (no server is named so: a probe's bridge is
``probe:NAME`` or ``probe``), below the servers' own."""


def lane_of(server: str) -> str:
    """The lane *server*'s events are drawn in: its own, or :data:`PROBES`."""
    return PROBES if is_probe(server) else server


class MarkKind(Enum):
    """What happened at a mark."""

    ASKED = "asked"
    ANSWERED = "answered"
    LIST_CHANGED = "list-changed"
    CONSENT = "consent"
    DENIED = "denied"
    """A confined server was refused a path (a denial, :mod:`roots_manager.core.log.denials`)."""


_KINDS: dict[str, MarkKind] = {
    EventKind.ROOTS_ASKED: MarkKind.ASKED,
    EventKind.ROOTS_ANSWERED: MarkKind.ANSWERED,
    EventKind.MRTR_RESOLVED: MarkKind.ANSWERED,
    EventKind.LIST_CHANGED_SENT: MarkKind.LIST_CHANGED,
    EventKind.CONSENT_WAIT: MarkKind.CONSENT,
    EventKind.CONSENT_DECIDED: MarkKind.CONSENT,
    EventKind.DENIAL: MarkKind.DENIED,
}


@dataclass(frozen=True, slots=True)  # a flood makes tens of thousands of them
class Mark:
    """One event on a server's lane."""

    row: int
    """The event's row in the log index (what selecting the mark selects)."""
    ts: float
    kind: MarkKind


@dataclass(frozen=True, slots=True)
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
    id: str | None
    keys: frozenset[str]


@dataclass
class Lane:
    """One server's marks and held spans (or every probe run's), in time order."""

    server: str
    marks: list[Mark] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    """The requests answered (or abandoned), in the order their answers came."""
    waiting: dict[int, _Open] = field(default_factory=dict)
    """The requests not answered yet, by their rows, oldest first."""
    _by_id: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    """The rows of the waiting requests, by bridge run and id (a reused id queues)."""
    times: dict[MarkKind, list[float]] = field(default_factory=dict)
    """The times of the marks, per kind, in time order (whatever the order of the marks), so
    that a time range is found by bisection: a view paints only what is in sight, however long
    the log."""
    ordered: bool = True
    """Whether the marks are in time order."""
    _oldest: float | None = None
    """The time of the oldest request waiting (what `open_since` tells, kept rather than
    looked for among all of them on each paint)."""

    def add(self, mark: Mark) -> None:
        """A mark, at the end of the lane."""
        if self.ordered and self.marks and mark.ts < self.marks[-1].ts:
            self.ordered = False  # bridge runs of one server written at the same time
        self.marks.append(mark)
        times = self.times.setdefault(mark.kind, [])
        if times and mark.ts < times[-1]:
            insort(times, mark.ts)  # rare: kept sorted here rather than sorted per paint
        else:
            times.append(mark.ts)

    def sample(self, kind: MarkKind, start: float, end: float, step: float) -> list[float]:
        """The times of the marks of *kind* from *start* to *end* (both included), at most one
        per *step* seconds counted from *start*: the first of each. A view passes the time one
        pixel spans, and paints as many marks as there are pixels however many events a flood
        put there."""
        times = self.times.get(kind, [])
        lo = bisect_left(times, start)
        hi = bisect_right(times, end, lo=lo)
        got: list[float] = []
        i = lo
        while i < hi:
            t = times[i]
            got.append(t)
            # on to the first mark past this one's step, skipping those in it by bisection
            i = bisect_left(times, start + (math.floor((t - start) / step) + 1) * step, i + 1, hi)
        return got

    @property
    def open_spans(self) -> list[Span]:
        """The requests still waiting for their answers, oldest first."""
        return [Span(o.start, None, o.row) for o in self.waiting.values()]

    @property
    def open_since(self) -> float | None:
        """When the oldest request still waiting for its answer was made."""
        return self._oldest

    def ask(self, row: int, t: float, what: Pairing) -> None:
        """A request for roots was made."""
        self.waiting[row] = _Open(t, row, what.run, what.id, what.keys)
        if self._oldest is None or t < self._oldest:
            self._oldest = t
        if what.id is not None:
            self._by_id.setdefault((what.run, what.id), []).append(row)

    def answer(self, t: float, what: Pairing) -> None:
        """An answer came: it closes the request it answers, if that one is known."""
        found: _Open | None = None
        for rid in (what.id, what.host_id):
            rows = self._by_id.get((what.run, rid)) if rid is not None else None
            if rows:
                found = self.waiting[rows[0]]
                break
        if found is None and what.keys:
            found = next(
                (o for o in self.waiting.values() if o.run == what.run and o.keys & what.keys),
                None,
            )
        if found is not None:
            self._close(found)
            self.spans.append(Span(found.start, t, found.row))

    def run_ended(self, t: float, run: str) -> None:
        """A bridge run ended: what it left unanswered is no longer held."""
        for o in [o for o in self.waiting.values() if o.run == run]:
            self._close(o)
            self.spans.append(Span(o.start, t, o.row, answered=False))

    def _close(self, o: _Open) -> None:
        del self.waiting[o.row]
        if o.start == self._oldest:
            self._oldest = min((w.start for w in self.waiting.values()), default=None)
        if o.id is not None:
            rows = self._by_id[(o.run, o.id)]
            rows.remove(o.row)
            if not rows:
                del self._by_id[(o.run, o.id)]


class Pairing(NamedTuple):
    """What pairs a request for roots with its answer: the bridge run, the JSON-RPC ids (as
    JSON spells them, so that 1 and "1" differ) and the 2026-07-28 input keys."""

    run: str
    id: str | None
    host_id: str | None = None
    keys: frozenset[str] = frozenset()


def _id(rec: EventRecord, name: Literal["id", "host_id"]) -> str | None:
    value = rec.get(name)
    if value is None or isinstance(value, bool | dict | list):
        return None
    return json.dumps(value, ensure_ascii=False)


# What the pairing needs from an event, read without a full JSON parse when the line is laid
# out as EventWriter writes it (kind, then dir, then an id with nothing to unescape); anything
# else is parsed whole. The 2026-07-28 fields (host_id, key, keys) come after the id, so such
# lines are parsed too.
_FAST_PAIRING = re.compile(
    rb'^\{"ts": "[^"\\]*", "server": "[^"\\]*", "session": "([^"\\]*)", '
    rb'"kind": "[^"\\]*", "dir": "[^"\\]*", "id": (-?[1-9]\d*|0|"[^"\\]*")[,}]'
)


def pairing_of(line: bytes) -> Pairing:
    """The pairing of an event's *line* (no run, no id if it is unreadable)."""
    m = _FAST_PAIRING.match(line)
    if m is not None and b'"key' not in line and b'"host_id"' not in line:
        return Pairing(m.group(1).decode(), m.group(2).decode())
    try:
        rec = json.loads(line)
    except ValueError:
        return Pairing("", None)
    if not isinstance(rec, dict):
        return Pairing("", None)
    read = cast(EventRecord, rec)
    return Pairing(str(read.get("session", "")), _id(read, "id"), _id(read, "host_id"), _keys(read))


def _keys(rec: EventRecord) -> frozenset[str]:
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

    def update(self, limit: int | None = None) -> int:
        """Take in the rows indexed since the last call, at most *limit* of them (None: all;
        `behind` then tells whether more are waiting); returns how many marks were added."""
        ix = self.index
        codes = {ix.code_of_kind(k): mark for k, mark in _KINDS.items()}
        codes.pop(None, None)
        run_end = ix.code_of_kind(EventKind.RUN_END)
        read = ReadAhead(ix).line
        added = 0
        kinds, servers, ts = ix.kind, ix.server, ix.ts
        stop = len(ix) if limit is None else min(len(ix), self.upto + limit)
        for row in range(self.upto, stop):
            code = kinds[row]
            kind = codes.get(code)
            if kind is None:
                lane = (
                    self.lanes.get(lane_of(ix.servers[servers[row]])) if code == run_end else None
                )
                if lane is not None and lane.waiting:
                    lane.run_ended(ts[row], pairing_of(read(row)).run)
                continue
            t = ts[row]
            name = lane_of(ix.servers[servers[row]])
            lane = self.lanes.get(name)
            if lane is None:
                lane = self.lanes[name] = Lane(name)
            lane.add(Mark(row, t, kind))
            if kind is MarkKind.ASKED:
                lane.ask(row, t, pairing_of(read(row)))
            elif kind is MarkKind.ANSWERED and lane.waiting:
                lane.answer(t, pairing_of(read(row)))
            self.first = t if self.first is None else min(self.first, t)
            self.last = t if self.last is None else max(self.last, t)
            added += 1
        self.upto = stop
        return added

    @property
    def behind(self) -> bool:
        """Rows were indexed that `update` has not taken in yet."""
        return self.upto < len(self.index)

    def servers(self) -> list[str]:
        """The lanes with marks: the servers by name, then :data:`PROBES` (every probe run)."""
        return sorted(self.lanes, key=lambda name: (name == PROBES, name.casefold()))

    def nearest(self, server: str, t: float, within: float) -> Mark | None:
        """The mark of *server* nearest to time *t*, if one is no further than *within*."""
        lane = self.lanes.get(server)
        if lane is None:
            return None
        best = min(lane.marks, key=lambda m: abs(m.ts - t), default=None)
        return best if best is not None and abs(best.ts - t) <= within else None

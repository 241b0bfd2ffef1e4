"""The roots traffic of each server over time, as marks: what the Log tab's timeline draws.

Built from a :class:`~roots_manager.core.logindex.LogIndex` (its time, server and kind columns,
without reading the events back), incrementally as rows are indexed. Per server, in time order:
each ``roots/list`` asked and answered, each ``list_changed`` sent, each consent wait and
decision, and the spans during which an answer was held (asked, not yet answered), so that a
developer sees at a glance whether a server re-asks after a change and how long answers took.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from enum import Enum

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


@dataclass
class Lane:
    """One server's marks and held spans, in time order."""

    server: str
    marks: list[Mark] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    open_since: float | None = None
    """When the request still waiting for its answer was made."""
    times: dict[MarkKind, list[float]] = field(default_factory=dict)
    """The times of the marks, per kind, in the lane's order."""
    ordered: bool = True
    """Whether the marks (and so the spans) are in time order, so that a time range is found
    by bisection: a view paints only what is in sight, however long the log."""

    def sample(self, kind: MarkKind, start: float, end: float, step: float) -> list[float]:
        """The times of the marks of *kind* from *start* to *end* (both included), at most one
        per *step* seconds counted from *start*: the first of each. A view passes the time one
        pixel spans, and paints as many marks as there are pixels however many events a flood
        put there."""
        times = self.times.get(kind, [])
        if self.ordered:
            lo = bisect_left(times, start)
            hi = bisect_right(times, end, lo=lo)
        else:
            times = sorted(t for t in times if start <= t <= end)
            lo, hi = 0, len(times)
        got: list[float] = []
        i = lo
        while i < hi:
            t = times[i]
            got.append(t)
            # on to the first mark past this one's step, skipping those in it by bisection
            i = bisect_left(times, start + (math.floor((t - start) / step) + 1) * step, i + 1, hi)
        return got

    def held(
        self, start: float, end: float, step: float, until: float
    ) -> list[tuple[float, float]]:
        """When answers were held between *start* and *end*: the spans (an open one ends at
        *until*), each at least *step* long, those less than *step* apart joined into one. A
        view passes the time one pixel spans, and paints as many bars as there are gaps."""
        spans = self.spans
        if self.ordered:
            # in time order, spans do not overlap: their ends are as ordered as their starts
            i = bisect_left(spans, start, key=_span_end)
            hi = bisect_right(spans, end, lo=i, key=_span_start)
        else:
            spans = sorted(
                (s for s in spans if _span_end(s) >= start and s.start <= end), key=_span_start
            )
            i, hi = 0, len(spans)
        got: list[tuple[float, float]] = []
        while i < hi:
            first, reach = spans[i].start, max(_span_end(spans[i]), spans[i].start + step)
            i += 1
            while i < hi:
                # every span starting within a step of the bar's end joins it: the last of
                # them ends latest
                j = bisect_right(spans, reach + step, i, hi, key=_span_start)
                if j == i:
                    break
                reach = max(reach, _span_end(spans[j - 1]), spans[j - 1].start + step)
                i = j
            got.append((first, reach))
        if self.open_since is not None and self.open_since <= end:
            since, stop = self.open_since, max(until, self.open_since + step)
            if got and since <= got[-1][1] + step:
                got[-1] = (got[-1][0], max(got[-1][1], stop))
            elif stop >= start:
                got.append((since, stop))
        return got


def _span_start(span: Span) -> float:
    return span.start


def _span_end(span: Span) -> float:
    return span.start if span.end is None else span.end


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
        added = 0
        kinds, servers, ts = ix.kind, ix.server, ix.ts
        stop = len(ix)
        for row in range(self.upto, stop):
            kind = codes.get(kinds[row])
            if kind is None:
                continue
            t = ts[row]
            name = ix.servers[servers[row]]
            lane = self.lanes.get(name)
            if lane is None:
                lane = self.lanes[name] = Lane(name)
            if lane.ordered and lane.marks and t < lane.marks[-1].ts:
                lane.ordered = False  # sessions of one server written at the same time
            lane.marks.append(Mark(row, t, kind))
            lane.times.setdefault(kind, []).append(t)
            if kind is MarkKind.ASKED and lane.open_since is None:
                lane.open_since = t
            elif kind is MarkKind.ANSWERED and lane.open_since is not None:
                lane.spans.append(Span(lane.open_since, t))
                lane.open_since = None
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

"""The roots traffic of each server over time, as marks: what the Log tab's timeline draws.

Built from a :class:`~roots_manager.core.logindex.LogIndex` (its time, server and kind columns,
without reading the events back), incrementally as rows are indexed. Per server, in time order:
each ``roots/list`` asked and answered, each ``list_changed`` sent, each consent wait and
decision, and the spans during which an answer was held (asked, not yet answered), so that a
developer sees at a glance whether a server re-asks after a change and how long answers took.
"""

from __future__ import annotations

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


@dataclass
class Lane:
    """One server's marks and held spans, in time order."""

    server: str
    marks: list[Mark] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    open_since: float | None = None
    """When the request still waiting for its answer was made."""


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
            lane.marks.append(Mark(row, t, kind))
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

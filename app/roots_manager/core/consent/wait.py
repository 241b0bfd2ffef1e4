"""How long a bridge still holds a server's ``roots/list`` for the user's decision.

A bridge that finds its server new while the desktop app runs logs ``consent-wait`` (with its
timeout), holds the server's ``roots/list`` (a ``roots-list-asked`` event marked ``held``) and,
when the user decides or the time runs out, logs ``consent-decided``. The timeout counts from
the first held request. This module reads that story back from the bridge's own event files, so
that the consent prompt can show the deadline the server really has.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.log import events
from roots_manager.core.log.event_time import parse_ts
from roots_manager.core.runs import live


class WaitStage(Enum):
    """Where a bridge is in its wait for the user's decision."""

    NOT_ASKED = "not-asked"
    """Waiting, but the server has not asked for its roots yet: the clock has not started."""
    HOLDING = "holding"
    """The server's request is held; it is answered when the user decides or time runs out."""
    TIMED_OUT = "timed-out"
    """No decision in time: the server was answered with what is granted (for a new server,
    no folder); a decision made now still reaches it as a change."""
    DECIDED = "decided"


@dataclass(frozen=True)
class ConsentWait:
    """One bridge's wait for the user's decision, as its event log tells it."""

    timeout: float
    held_since: float | None
    """When the first held request arrived (seconds since the epoch), if one did."""
    stage: WaitStage

    def remaining(self, now: float) -> float | None:
        """Seconds left before the server is answered without a decision (None: not counting)."""
        if self.stage is not WaitStage.HOLDING or self.held_since is None:
            return None
        return max(0.0, self.held_since + self.timeout - now)


def wait_of(records: Iterable[EventRecord]) -> ConsentWait | None:
    """The wait told by one bridge run's events, in order; None if it never waited."""
    timeout: float | None = None
    held_since: float | None = None
    stage = WaitStage.NOT_ASKED
    for rec in records:
        kind = rec.get("kind")
        if kind == EventKind.CONSENT_WAIT:
            value = rec.get("timeout")
            if isinstance(value, int | float) and not isinstance(value, bool):
                timeout, held_since, stage = float(value), None, WaitStage.NOT_ASKED
        elif timeout is None:
            continue
        elif kind == EventKind.ROOTS_ASKED and stage is WaitStage.NOT_ASKED:
            held_since = parse_ts(str(rec.get("ts", ""))) or None
            stage = WaitStage.HOLDING
        elif kind == EventKind.CONSENT_DECIDED:
            stage = WaitStage.TIMED_OUT if rec.get("outcome") == "timeout" else WaitStage.DECIDED
    if timeout is None:
        return None
    return ConsentWait(timeout, held_since, stage)


def waits_of_server(layout: Layout, server: str) -> list[ConsentWait]:
    """The waits of *server*'s running managed bridges (usually one), oldest bridge first."""
    found = []
    markers = sorted(live.bridge_markers(layout), key=lambda m: m.started_at)
    for m in markers:
        if m.server != server or m.mode != "managed":
            continue
        records: list[EventRecord] = []
        for path in events.run_log_files(layout, m.run):
            got, _ = events.read_events(path)
            records.extend(got)
        wait = wait_of(records)
        if wait is not None:
            found.append(wait)
    return found


def current_wait(layout: Layout, server: str) -> ConsentWait | None:
    """The wait that matters to the user now: one still holding (the soonest deadline) before
    one that timed out, before one not yet asked; None when no bridge of *server* waits."""
    waits = waits_of_server(layout, server)
    holding = [w for w in waits if w.stage is WaitStage.HOLDING]
    if holding:
        return min(holding, key=lambda w: (w.held_since or 0.0) + w.timeout)
    for stage in (WaitStage.TIMED_OUT, WaitStage.NOT_ASKED, WaitStage.DECIDED):
        for w in waits:
            if w.stage is stage:
                return w
    return None

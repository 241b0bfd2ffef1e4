"""The timeline's lanes, marks and held spans, from a real log index over real event files."""

from __future__ import annotations

from roots_manager.core import events
from roots_manager.core.logindex import LogIndex
from roots_manager.core.paths import Layout
from roots_manager.core.timeline import MarkKind, Timeline


def write(w: events.EventWriter, kind: str, server: str, second: int, **fields: object) -> None:
    rec = events.event(kind, server, w.session, **fields)
    rec["ts"] = f"2026-01-01T10:00:{second:02d}.000Z"
    w.write(rec)


def test_marks_per_server_with_held_spans_and_incremental_updates(layout: Layout) -> None:
    w = events.EventWriter(layout, "s1")
    write(w, events.SESSION_START, "fs", 0, command=["x"], pid=1)
    write(w, events.CONSENT_WAIT, "fs", 1, timeout=30.0)
    write(w, events.ROOTS_ASKED, "fs", 2, id=1, held=True)
    write(w, events.CONSENT_DECIDED, "fs", 9, outcome="decided")
    write(w, events.ROOTS_ANSWERED, "fs", 9, id=1, uris=["file:///a"])
    write(w, events.MESSAGE, "git", 10, method="tools/call")
    ix = LogIndex(layout)
    ix.scan()
    tl = Timeline(ix)
    assert tl.update() == 4
    assert tl.servers() == ["fs"]  # a server with no roots traffic has no lane
    lane = tl.lanes["fs"]
    assert [m.kind for m in lane.marks] == [
        MarkKind.CONSENT,
        MarkKind.ASKED,
        MarkKind.CONSENT,
        MarkKind.ANSWERED,
    ]
    assert [m.row for m in lane.marks] == [1, 2, 3, 4]
    assert [(s.end - s.start) for s in lane.spans if s.end is not None] == [7.0]
    assert lane.open_since is None

    # later rows only; a request not yet answered is an open span
    write(w, events.LIST_CHANGED_SENT, "fs", 20, uris=[])
    write(w, events.ROOTS_ASKED, "fs", 21, id=2)
    write(w, events.ROOTS_ASKED, "git", 22, id=7)
    ix.scan()
    assert tl.update() == 3
    assert tl.servers() == ["fs", "git"]
    assert lane.marks[-2].kind is MarkKind.LIST_CHANGED
    assert lane.open_since is not None and tl.lanes["git"].open_since is not None
    assert tl.update() == 0
    near = tl.nearest("fs", lane.marks[-1].ts + 0.4, within=0.5)
    assert near is not None and near.row == lane.marks[-1].row
    assert tl.nearest("fs", lane.marks[-1].ts + 3, within=0.5) is None


def test_a_flood_is_sampled_to_one_mark_per_step_and_held_spans_join_within_a_step(
    layout: Layout,
) -> None:
    # 10 seconds of a flood: a request every 0.1 s, answered 0.05 s later, in one file
    w = events.EventWriter(layout, "s1")
    for tenth in range(100):
        for kind, at in ((events.ROOTS_ASKED, 0), (events.ROOTS_ANSWERED, 50)):
            rec = events.event(kind, "fs", w.session, id=tenth)
            rec["ts"] = f"2026-01-01T10:00:{tenth // 10:02d}.{tenth % 10}{at:02d}Z"
            w.write(rec)
    ix = LogIndex(layout)
    ix.scan()
    tl = Timeline(ix)
    assert tl.update() == 200
    lane = tl.lanes["fs"]
    assert lane.ordered
    t0 = lane.marks[0].ts
    asked = [m.ts for m in lane.marks if m.kind is MarkKind.ASKED]

    # a step finer than the marks: every mark in range; a coarse step: the first of each step
    assert lane.sample(MarkKind.ASKED, t0, t0 + 10, 0.01) == asked
    assert lane.sample(MarkKind.ASKED, t0 + 2, t0 + 3, 0.01) == asked[20:31]
    coarse = lane.sample(MarkKind.ASKED, t0, t0 + 10, 1.0)
    assert coarse == asked[::10]
    assert lane.sample(MarkKind.LIST_CHANGED, t0, t0 + 10, 1.0) == []

    # spans of 0.05 s with gaps of 0.05 s: apart at a fine step, one bar at a coarse one
    fine = lane.held(t0, t0 + 10, 0.01, until=t0 + 10)
    assert len(fine) == 100 and all(abs((b - a) - 0.05) < 1e-6 for a, b in fine)
    assert lane.held(t0 + 2, t0 + 2.25, 0.01, until=t0 + 10) == fine[20:23]
    (bar,) = lane.held(t0, t0 + 10, 0.1, until=t0 + 10)
    assert bar == (fine[0][0], fine[-1][0] + 0.1)  # a bar is at least a step long

    # a request still waiting is held until the time given, and joins the bar before it
    rec = events.event(events.ROOTS_ASKED, "fs", w.session, id=1000)
    rec["ts"] = "2026-01-01T10:00:10.000Z"
    w.write(rec)
    ix.scan()
    assert tl.update() == 1
    assert lane.open_since == t0 + 10
    (bar,) = lane.held(t0, t0 + 20, 0.1, until=t0 + 15)
    assert bar == (fine[0][0], t0 + 15)
    assert lane.held(t0, t0 + 20, 0.01, until=t0 + 15)[-1] == (t0 + 10, t0 + 15)


def test_marks_out_of_time_order_are_still_sampled_in_order(layout: Layout) -> None:
    # two sessions of one server, the later written first: the lane is not in time order
    late, early = events.EventWriter(layout, "b"), events.EventWriter(layout, "a")
    write(late, events.ROOTS_ASKED, "fs", 30, id=1)
    write(late, events.ROOTS_ANSWERED, "fs", 31, id=1, uris=[])
    ix = LogIndex(layout)
    ix.scan()
    tl = Timeline(ix)
    tl.update()
    write(early, events.ROOTS_ASKED, "fs", 10, id=1)
    write(early, events.ROOTS_ANSWERED, "fs", 12, id=1, uris=[])
    ix.scan()
    tl.update()
    lane = tl.lanes["fs"]
    assert not lane.ordered
    t30 = lane.marks[0].ts
    assert lane.sample(MarkKind.ASKED, t30 - 30, t30 + 30, 0.5) == [t30 - 20, t30]
    assert lane.sample(MarkKind.ASKED, t30 - 30, t30 + 30, 60.0) == [t30 - 20]
    assert lane.held(t30 - 30, t30 + 30, 0.5, until=t30 + 1) == [
        (t30 - 20, t30 - 18),
        (t30, t30 + 1),
    ]

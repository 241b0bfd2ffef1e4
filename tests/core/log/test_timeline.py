"""The timeline's lanes, marks and held spans, from a real log index over real event files."""

from __future__ import annotations

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events
from roots_manager.core.log.index import LogIndex
from roots_manager.core.log.timeline import Lane, MarkKind, Timeline


def write(w: events.EventWriter, kind: str, server: str, second: int, **fields: object) -> None:
    rec = events.event(kind, server, w.run, **fields)
    rec["ts"] = f"2026-01-01T10:00:{second:02d}.000Z"
    w.write(rec)


def _lane(layout: Layout, server: str) -> Lane:
    """*server*'s lane in a timeline of everything written so far."""
    ix = LogIndex(layout)
    ix.scan()
    tl = Timeline(ix)
    tl.update()
    return tl.lanes[server]


def test_marks_per_server_with_held_spans_and_incremental_updates(layout: Layout) -> None:
    w = events.EventWriter(layout, "s1")
    write(w, events.RUN_START, "fs", 0, command=["x"], pid=1)
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
    assert len(lane.open_spans) == 1 and lane.open_spans[0].asked_row == 7
    assert tl.update() == 0
    near = tl.nearest("fs", lane.marks[-1].ts + 0.4, within=0.5)
    assert near is not None and near.row == lane.marks[-1].row
    assert tl.nearest("fs", lane.marks[-1].ts + 3, within=0.5) is None


def test_held_spans_pair_each_request_with_its_own_answer_by_id(layout: Layout) -> None:
    w = events.EventWriter(layout, "run-1")
    # two requests in flight from one server, answered in the other order
    write(w, events.ROOTS_ASKED, "fs", 1, id=10, held=True)
    write(w, events.ROOTS_ASKED, "fs", 2, id=11, held=True)
    write(w, events.ROOTS_ANSWERED, "fs", 5, id=11, uris=[])
    write(w, events.ROOTS_ANSWERED, "fs", 9, id=10, uris=[])
    # an answer naming a request nobody saw closes nothing
    write(w, events.ROOTS_ASKED, "fs", 20, id="20")
    write(w, events.ROOTS_ANSWERED, "fs", 21, id=20, uris=[])
    lane = _lane(layout, "fs")
    t0 = lane.marks[0].ts
    held = sorted((s.start - t0, s.end - t0) for s in lane.spans if s.end is not None)
    assert held == [(0.0, 8.0), (1.0, 4.0)]
    assert [s.asked_row for s in lane.spans] == [1, 0]
    # "20" (a string) is not 20 (a number): still open, from its request to now
    assert [(s.start - t0, s.end, s.asked_row) for s in lane.open_spans] == [(19.0, None, 4)]
    assert lane.open_since == lane.marks[4].ts


def test_ids_pair_within_a_bridge_run_and_an_ended_run_holds_nothing(layout: Layout) -> None:
    first = events.EventWriter(layout, "run-1")
    second = events.EventWriter(layout, "run-2")
    write(first, events.ROOTS_ASKED, "fs", 1, id=0, held=True)
    write(second, events.ROOTS_ASKED, "fs", 2, id=0)  # ids restart in every run
    write(second, events.ROOTS_ANSWERED, "fs", 3, id=0, uris=[])
    lane = _lane(layout, "fs")
    t0 = lane.marks[0].ts
    assert [(s.start - t0, (s.end or 0) - t0) for s in lane.spans] == [(1.0, 2.0)]
    assert [s.start - t0 for s in lane.open_spans] == [0.0]

    write(first, events.RUN_END, "fs", 7, reason="host closed stdin")
    lane = _lane(layout, "fs")
    assert lane.open_spans == []
    ended = lane.spans[-1]
    assert not ended.answered and (ended.start - t0, (ended.end or 0) - t0) == (0.0, 6.0)


def test_a_2026_request_pairs_with_its_retry_by_host_id_or_input_key(layout: Layout) -> None:
    w = events.EventWriter(layout, "run-1")
    # the bridge retried under its own id; the resolution names the host's id
    write(w, events.ROOTS_ASKED, "fs", 1, id=5, keys=["roots"], mrtr=True)
    write(w, events.ROOTS_ASKED, "fs", 2, id=6, keys=["r2"], mrtr=True)
    write(w, events.MRTR_RESOLVED, "fs", 4, id="roots-bridge-x-1", host_id=5, keys=["roots"])
    # the host retried itself under a new id: only the key ties it to its request
    write(w, events.MRTR_RESOLVED, "fs", 7, id=99, keys=["r2"], path="host-retry")
    lane = _lane(layout, "fs")
    t0 = lane.marks[0].ts
    assert [(s.start - t0, (s.end or 0) - t0) for s in lane.spans] == [(0.0, 3.0), (1.0, 6.0)]
    assert lane.open_spans == []


def test_a_flood_is_sampled_to_one_mark_per_step(layout: Layout) -> None:
    # 10 seconds of a flood: a request every 0.1 s, answered 0.05 s later, in one file
    w = events.EventWriter(layout, "s1")
    for tenth in range(100):
        for kind, at in ((events.ROOTS_ASKED, 0), (events.ROOTS_ANSWERED, 50)):
            rec = events.event(kind, "fs", w.run, id=tenth)
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


def test_marks_out_of_time_order_are_still_sampled_in_order(layout: Layout) -> None:
    # two bridge runs of one server, the later written first: the lane is not in time order
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


def test_a_long_log_is_taken_in_a_part_at_a_time_to_the_same_lanes(layout: Layout) -> None:
    w = events.EventWriter(layout, "s1")
    for i in range(30):
        write(w, events.ROOTS_ASKED, "fs", i, id=i)
        write(w, events.MESSAGE, "fs", i)
        write(w, events.ROOTS_ANSWERED, "fs", i, id=i, uris=[])
    ix = LogIndex(layout)
    ix.scan()
    whole, parts = Timeline(ix), Timeline(ix)
    assert whole.update() == 60 and not whole.behind
    added = []
    while parts.behind:
        added.append(parts.update(7))
    assert len(added) == 13 and sum(added) == 60
    assert parts.lanes["fs"].marks == whole.lanes["fs"].marks
    assert parts.lanes["fs"].spans == whole.lanes["fs"].spans
    assert parts.update(7) == 0 and not parts.behind

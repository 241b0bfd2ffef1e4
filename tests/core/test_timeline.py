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

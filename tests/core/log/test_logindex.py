"""The compact event index: what it reads from real event files, and what it leaves alone."""

from __future__ import annotations

import json
import os

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events
from roots_manager.core.log.event_time import parse_ts
from roots_manager.core.log.index import LogIndex, TextSearch


def _write(layout: Layout, run: str, server: str, n: int, **kw: object) -> events.EventWriter:
    w = events.EventWriter(layout, run, **kw)  # type: ignore[arg-type]
    for i in range(n):
        w.write(events.event(events.MESSAGE, server, run, dir=events.HOST_TO_SERVER, id=i))
    return w


def test_index_matches_the_records_the_writer_wrote(layout: Layout) -> None:
    w = _write(layout, "s1", "alpha", 50)
    w.write(events.event(events.ROOTS_ANSWERED, "alpha", "s1", uris=["file:///tmp/ä#x"]))
    w.close()
    ix = LogIndex(layout)
    assert ix.scan() == 51
    written, _ = events.read_events(w.path)
    assert [ix.record(r) for r in range(len(ix))] == written
    assert {ix.servers[ix.server[r]] for r in range(len(ix))} == {"alpha"}
    assert ix.kinds[ix.kind[50]] == events.ROOTS_ANSWERED
    assert abs(ix.ts[0] - parse_ts(written[0]["ts"])) < 1e-6
    assert ix.scan() == 0  # nothing new


def test_partial_last_line_waits_for_its_newline(layout: Layout) -> None:
    w = _write(layout, "s1", "alpha", 3)
    line = json.dumps(events.event(events.ERROR, "alpha", "s1", message="half")).encode()
    with open(w.path, "ab") as f:
        f.write(line[:20])
        f.flush()
        ix = LogIndex(layout)
        assert ix.scan() == 3
        f.write(line[20:])
        f.flush()
        assert ix.scan() == 0  # still no newline
        f.write(b"\n")
        f.flush()
    assert ix.scan() == 1
    rec = ix.record(3)
    assert rec is not None and rec["message"] == "half"


def test_rotated_parts_are_read_in_order_and_gone_parts_read_as_none(layout: Layout) -> None:
    w = _write(layout, "s1", "alpha", 400, max_bytes=4096, keep_parts=100)
    w.close()
    parts = events.log_files(layout)
    assert len(parts) > 5
    ix = LogIndex(layout)
    ix.scan()
    assert [ix.record(r)["id"] for r in range(len(ix))] == list(range(400))  # type: ignore[index]
    first_part_rows = [r for r in range(len(ix)) if ix.path_of(r) == parts[0]]
    ix.close()
    parts[0].unlink()
    assert ix.line(first_part_rows[0]) is None
    assert ix.record(len(ix) - 1) is not None


def test_concurrent_bridge_runs_interleave_by_time(layout: Layout) -> None:
    a = events.EventWriter(layout, "a")
    b = events.EventWriter(layout, "b")
    stamps = [f"2026-01-01T00:00:{s:02d}.000Z" for s in range(10)]
    for i, ts in enumerate(stamps):
        (a if i % 2 else b).write({"ts": ts, "server": "x", "session": "ab", "kind": "message"})
    ix = LogIndex(layout)
    ix.scan()
    assert [ix.record(r)["ts"] for r in range(len(ix))] == stamps  # type: ignore[index]


def test_lines_from_other_writers_fall_back_and_garbage_is_skipped(layout: Layout) -> None:
    path = layout.logs / "other-0000.jsonl"
    recs = [
        {"kind": "error", "server": 'quo"te', "ts": "2026-01-01T00:00:00+00:00", "session": "o"},
        {"ts": "2026-01-01T00:00:01.5Z", "server": "s", "session": "o", "kind": "message"},
    ]
    with open(path, "wb") as f:
        f.write(json.dumps(recs[0]).encode() + b"\n")
        f.write(b"this is not json\n[1, 2]\n")
        f.write(json.dumps(recs[1], indent=None).encode() + b"\n")
    ix = LogIndex(layout)
    assert ix.scan() == 2
    assert ix.servers[ix.server[0]] == 'quo"te'
    assert [ix.record(r) for r in range(2)] == recs
    assert ix.ts[1] - ix.ts[0] == 1.5


def test_every_layout_of_a_line_is_indexed_where_it_is(layout: Layout) -> None:
    # the writer's layout with its stamp, with another stamp, with bytes that are not UTF-8 and
    # with a CR before the newline; an empty line and a JSON array between them
    lines = [
        b'{"ts": "2026-01-01T00:00:00.250Z", "server": "caf\xc3\xa9", "session": "o", '
        b'"kind": "message", "id": 1}',
        b"",
        b'{"ts": "2026-01-01T00:00:01+00:00", "server": "caf\xc3\xa9", "session": "o", '
        b'"kind": "roots-list-asked"}',
        b"[1, 2]",
        b'{"ts": "2026-01-01T00:00:02Z", "server": "bad\xff", "session": "o", "kind": "new"}',
        b'{"ts": "2026-01-01T00:00:03.5Z", "server": "bad\xff", "session": "o", "kind": "new"}\r',
        b'{"ts": "never", "server": "caf\xc3\xa9", "session": "o", "kind": "message"}',
    ]
    path = layout.logs / "other-0000.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    ix = LogIndex(layout)
    assert ix.scan() == 5
    events_at = [0, 2, 4, 5, 6]
    assert [ix.line(r) for r in range(5)] == [lines[i] for i in events_at]
    assert [ix.servers[ix.server[r]] for r in range(5)] == ["café"] * 2 + ["bad\ufffd"] * 2 + [
        "café"
    ]
    assert [ix.kinds[ix.kind[r]] for r in range(5)] == [
        events.MESSAGE,
        events.ROOTS_ASKED,
        "new",
        "new",
        events.MESSAGE,
    ]
    t0 = parse_ts("2026-01-01T00:00:00Z")
    assert [ix.ts[r] - t0 for r in range(4)] == [0.25, 1.0, 2.0, 3.5]
    assert ix.ts[4] == 0.0  # not a time: kept, at the epoch


def test_matching_uses_codes_and_text(layout: Layout) -> None:
    w = events.EventWriter(layout, "s")
    for i in range(300):
        server = ["alpha", "beta", "日本"][i % 3]
        kind = events.ERROR if i % 10 == 0 else events.MESSAGE
        w.write(events.event(kind, server, "s", message=f"Note {i} Größe 根"))
    ix = LogIndex(layout)
    ix.scan()
    beta = ix.code_of_server("beta")
    err = ix.code_of_kind(events.ERROR)
    assert beta is not None and err is not None
    got = ix.matching(0, len(ix), servers={beta}, kinds={err})
    assert list(got) == [i for i in range(300) if i % 3 == 1 and i % 10 == 0]
    assert list(ix.matching(0, len(ix), text="NOTE 7")) == [
        i for i in range(300) if f"Note {i}".startswith("Note 7")
    ]
    assert len(ix.matching(0, len(ix), text="größe 根")) == 300
    jp = ix.code_of_server("日本")
    assert jp is not None
    assert len(ix.matching(0, len(ix), servers={jp}, text="note 1")) == len(
        [i for i in range(300) if i % 3 == 2 and str(i).startswith("1")]
    )
    assert len(ix.matching(100, 200)) == 100


def test_replaced_file_is_indexed_afresh(layout: Layout) -> None:
    w = _write(layout, "s1", "alpha", 5)
    w.close()
    ix = LogIndex(layout)
    ix.scan()
    path = w.path
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(path.read_bytes()[: path.read_bytes().index(b"\n") + 1])
    os.replace(tmp, path)
    assert ix.scan() == 1
    assert len(ix) == 6


def test_sliced_scans_index_everything_in_order(layout: Layout) -> None:
    for name in ("a", "b", "c"):
        _write(layout, name, name, 500)
    whole = LogIndex(layout)
    whole.scan()
    sliced = LogIndex(layout)
    slices = 0
    while True:
        sliced.scan(max_bytes=3000)
        slices += 1
        if not sliced.behind:
            break
    assert slices > 20
    key = lambda ix, r: (ix.servers[ix.server[r]], ix.record(r)["id"])  # type: ignore[index]  # noqa: E731
    assert sorted(key(sliced, r) for r in range(len(sliced))) == sorted(
        key(whole, r) for r in range(len(whole))
    )
    assert len(sliced) == 1500
    # a writer mid-line is not "behind": there is nothing complete to read
    w = events.EventWriter(layout, "a")
    with open(w.path, "ab") as f:
        f.write(b'{"ts": "2026')
    assert sliced.scan(max_bytes=3000) == 0 and not sliced.behind


def test_text_matches_what_the_summary_shows(layout: Layout) -> None:
    w = events.EventWriter(layout, "s")
    w.write(
        events.event(
            events.RUN_START, "fs", "s", command=["npx", "server-fs"], pid=12, mode="managed"
        )
    )
    w.write(events.event(events.ROOTS_ANSWERED, "fs", "s", id=1, uris=["file:///a", "file:///b"]))
    w.write(events.event(events.MESSAGE, "fs", "s", dir=events.HOST_TO_SERVER, id=2, method="x"))
    w.write(events.event(events.MESSAGE, "fs", "s", dir=events.SERVER_TO_HOST, id=2))
    w.write(events.event(events.RUN_END, "fs", "s", exit_code=0))
    ix = LogIndex(layout)
    ix.scan()
    recs = [ix.record(r) for r in range(len(ix))]
    summaries = [events.summarize(r) for r in recs if r is not None]
    # what the summary adds around the values is not in the JSON: found through the summary
    for row, summary in enumerate(summaries):
        assert row in ix.matching(0, len(ix), text=summary.upper()), summary
    assert list(ix.matching(0, len(ix), text="npx server-fs (pid")) == [0]
    assert list(ix.matching(0, len(ix), text="2 roots: /a, /b")) == [1]
    assert list(ix.matching(0, len(ix), text="respon")) == [3]  # the response, not the request
    assert list(ix.matching(0, len(ix), text="exit code 0")) == [4]
    assert list(ix.matching(0, len(ix), text="no such text")) == []


def test_one_search_over_slices_finds_what_one_pass_finds(layout: Layout) -> None:
    for name in ("a", "b", "c"):
        w = events.EventWriter(layout, name, max_bytes=8192, keep_parts=1000)
        for i in range(400):
            kind = events.ROOTS_ANSWERED if i % 7 == 0 else events.MESSAGE
            w.write(events.event(kind, name, name, id=i, uris=[f"file:///p/{i}"]))
    ix = LogIndex(layout)
    ix.scan()
    for text in ("file:///p/1", "1 ROOT:", "response", '"id": 3'):
        whole = list(ix.matching(0, len(ix), text=text))
        search = TextSearch(ix, text)
        sliced: list[int] = []
        for start in range(0, len(ix), 97):
            sliced.extend(ix.matching(start, start + 97, text=search))
            if start % 3 == 0:
                search.forget()  # the windows are a cache: dropping them changes nothing
        assert whole and sliced == whole, text


def test_a_servers_recent_activity_is_its_newest_events_oldest_first(layout: Layout) -> None:
    a = _write(layout, "s1", "alpha", 5)
    b = _write(layout, "s2", "beta", 3)
    a.close()
    b.close()
    ix = LogIndex(layout)
    ix.scan()
    rows = ix.last_of_server("alpha", 3)
    assert [ix.record(r)["id"] for r in rows] == [2, 3, 4]  # type: ignore[index]
    assert {ix.servers[ix.server[r]] for r in rows} == {"alpha"}
    assert len(ix.last_of_server("beta", 10)) == 3
    assert ix.last_of_server("nobody", 3) == [] and ix.last_of_server("alpha", 0) == []

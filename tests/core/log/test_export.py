"""Exports of events: JSON Lines keeps the bytes, CSV keeps the columns and the whole event."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from roots_manager.core.log import events, export

RECS: list[dict[str, object]] = [
    events.event(events.RUN_START, "fs", "s1", command=["npx", "a b"], pid=7),
    events.event(
        events.MESSAGE, "fs", "s1", dir=events.SERVER_TO_HOST, id="x,1", method="roots/list"
    ),
    events.event(
        events.ROOTS_ANSWERED,
        "日本",
        "s1",
        dir=events.BRIDGE_TO_SERVER,
        id=3,
        uris=["file:///tmp/a%20b", "file:///tmp/%E6%A0%B9"],
    ),
    events.event(events.ERROR, "fs", "s1", message='line\nbreak, "quoted"'),
]


def test_jsonl_round_trips_the_lines(tmp_path: Path) -> None:
    lines = [json.dumps(r, ensure_ascii=False).encode() for r in RECS]
    out = tmp_path / "e.jsonl"
    assert export.write_jsonl(lines, out) == 4
    assert out.read_bytes().splitlines() == lines
    assert [json.loads(x) for x in out.read_text("utf-8").splitlines()] == RECS


def test_csv_round_trips_records_and_columns(tmp_path: Path) -> None:
    out = tmp_path / "e.csv"
    assert export.write_csv(RECS, out) == 4
    assert export.read_csv(out) == RECS
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == export.CSV_COLUMNS
    assert rows[2][3:6] == [events.SERVER_TO_HOST, events.MESSAGE, '"x,1"']
    assert rows[3][6] == events.summarize(RECS[2])
    assert export.format_for(out) == export.CSV and export.format_for(tmp_path / "x") == "jsonl"


def test_failed_export_leaves_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "e.jsonl"
    out.write_text("keep\n")

    def broken():  # type: ignore[no-untyped-def]
        yield b"{}"
        raise OSError("disk full")

    try:
        export.write_jsonl(broken(), out)
    except OSError:
        pass
    else:
        raise AssertionError("the export should have failed")
    assert out.read_text() == "keep\n"
    assert [p.name for p in tmp_path.iterdir()] == ["e.jsonl"]


def test_an_export_gets_the_mode_of_any_new_file_or_of_the_file_it_replaces(
    tmp_path: Path,
) -> None:
    import os
    import stat

    old = os.umask(0o022)
    try:
        fresh = tmp_path / "new.jsonl"
        export.write_jsonl([b"{}"], fresh)
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
        kept = tmp_path / "shared.csv"
        kept.write_text("old\n")
        kept.chmod(0o664)
        export.write_csv(RECS, kept)
        assert stat.S_IMODE(kept.stat().st_mode) == 0o664
    finally:
        os.umask(old)

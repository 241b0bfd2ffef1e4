"""Exporting events from the log as JSON Lines or CSV.

JSON Lines keeps each event exactly as the bridge wrote it. CSV gives the log's columns for a
spreadsheet, plus the whole event as JSON in its last column so nothing is lost.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from roots_manager.core.directory.records import EventRecord
from roots_manager.core.log import events

JSONL = "jsonl"
CSV = "csv"
FORMATS = (JSONL, CSV)

CSV_COLUMNS = ("time", "server", "session", "direction", "kind", "id", "summary", "json")


def format_for(path: Path) -> str:
    """The export format a file name asks for (CSV for ``.csv``, else JSON Lines)."""
    return CSV if path.suffix.lower() == ".csv" else JSONL


def csv_row(rec: EventRecord) -> list[str]:
    """The CSV cells of one event, in the order of `CSV_COLUMNS`."""
    ident = rec.get("id")
    return [
        str(rec.get("ts", "")),
        str(rec.get("server", "")),
        str(rec.get("session", "")),
        str(rec.get("dir", "")),
        str(rec.get("kind", "")),
        "" if ident is None else json.dumps(ident, ensure_ascii=False),
        events.summarize(rec),
        json.dumps(rec, ensure_ascii=False, separators=(",", ":")),
    ]


def write_jsonl(lines: Iterable[bytes], path: Path) -> int:
    """Write raw event lines (without their newlines) to *path*; returns how many."""

    def body(f: TextIO) -> int:
        n = 0
        buf = f.buffer
        for line in lines:
            buf.write(line)
            buf.write(b"\n")
            n += 1
        return n

    return _write_atomic(path, body)


def write_csv(records: Iterable[EventRecord], path: Path) -> int:
    """Write events as CSV with a header row to *path*; returns how many events."""

    def body(f: TextIO) -> int:
        w = csv.writer(f)
        w.writerow(CSV_COLUMNS)
        n = 0
        for rec in records:
            w.writerow(csv_row(rec))
            n += 1
        return n

    return _write_atomic(path, body)


def read_csv(path: Path) -> list[EventRecord]:
    """The events in a CSV export, from its ``json`` column."""
    with open(path, newline="", encoding="utf-8") as f:
        return [json.loads(row["json"]) for row in csv.DictReader(f)]


def _mode_for(path: Path) -> int:
    """The mode a new file at *path* gets: the replaced file's, or 0666 less the umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _write_atomic(path: Path, body: Callable[[TextIO], int]) -> int:
    # A half-written export must never replace a good file of the same name.
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as f:
            n = body(f)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes the file private; an export is the user's own file, made as any other
        os.chmod(tmp, _mode_for(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return n

"""The store's timestamps: the form the store writes is checked without datetime, and agrees
with datetime.fromisoformat on every value, written that way or not."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from roots_manager.core.store import schema
from roots_manager.core.store.state import iso_time, now_iso


@pytest.mark.parametrize(
    "value",
    [
        "2026-12-02T12:00:00.123Z",
        "2026-12-02T12:00:00Z",
        "2024-02-29T23:59:59.999Z",
        "2023-02-29T00:00:00.000Z",
        "1900-02-29T00:00:00.000Z",
        "2000-02-29T00:00:00.000Z",
        "2026-13-01T00:00:00.000Z",
        "2026-04-31T00:00:00.000Z",
        "2026-01-01T24:00:00.000Z",
        "2026-01-01T00:60:00.000Z",
        "0000-01-01T00:00:00.000Z",
        # the ranges the pattern itself checks, at their ends
        "2026-00-10T00:00:00.000Z",
        "2026-01-00T00:00:00.000Z",
        "2026-01-28T23:59:59.999Z",
        "2026-02-28T00:00:00Z",
        "2026-06-30T00:00:00Z",
        "2026-06-31T00:00:00Z",
        "2026-01-31T00:00:00Z",
        "2026-01-32T00:00:00Z",
        "2026-06-28T24:00:00Z",
        "2026-06-28T19:00:00Z",
        "2026-06-28T12:59:60Z",
        "2026-06-28T12:00:00.1Z",
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999Z",
        "2026-01-01T00:00:00.000+02:00",
        "2026-01-01T00:00:00",
        "2026-01-01",
        "yesterday",
    ],
)
def test_the_fast_check_agrees_with_datetime(value: str) -> None:
    try:
        stamp = datetime.fromisoformat(value)
        expected = None if stamp.tzinfo is not None else "no zone"
    except ValueError:
        expected = "not a time"
    got = schema.timestamp(value)
    assert (got is None) == (expected is None), (value, got, expected)


def test_now_iso_is_written_as_before_and_read_back() -> None:
    value = now_iso()
    parsed = datetime.fromisoformat(value)
    assert value.endswith("Z") and len(value) == len("2026-12-02T12:00:00.123Z")
    assert abs(parsed.timestamp() - datetime.now().timestamp()) < 5
    assert schema.timestamp(value) is None


def test_times_written_in_turn_each_name_their_own_second() -> None:
    # the text of a second is kept for the next time in it: going back and forth between
    # seconds (and across a day, a year, the epoch) must never give one second's text to another
    times = [1_800_000_002.25, 1_800_000_002.999, 1_800_000_003.0, 1_800_000_002.5]
    times += [1_798_761_599.999, 1_798_761_600.001, 0.0, 86_399.5, 1_798_761_599.001]
    for when in times * 2:
        expected = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        assert iso_time(when) == f"{expected}.{int(when * 1000) % 1000:03d}Z", when


def test_reading_and_writing_a_store_loads_no_datetime(tmp_path: Path) -> None:
    """A bridge holds what it imports for its life: the store's times cost it no datetime."""
    code = (
        "import sys\n"
        "from roots_manager.core.directory.layout import Layout\n"
        "from roots_manager.core.store.file import Store\n"
        f"store = Store(Layout(__import__('pathlib').Path({str(tmp_path)!r})).ensure())\n"
        "with store.transaction() as s:\n"
        "    s.server_started('fs', ['srv'], 'run')\n"
        "store.read()\n"
        "print('datetime' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stdout + out.stderr

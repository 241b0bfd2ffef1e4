"""Traffic logs across bridge runs stay within a total size and age, oldest removed first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import retention
from roots_manager.core.store.file import Store, StoreUnreadable
from roots_manager.core.store.log_limits import (
    DEFAULT_LOG_MAX_DAYS,
    DEFAULT_LOG_MAX_MIB,
    LogRetention,
)
from roots_manager.core.store.state import State
from roots_manager.support.refusal import ModelError
from tests.logruns import MIB, names, past_run, remaining, removed, running


def test_the_oldest_runs_go_first_until_the_total_fits(layout: Layout) -> None:
    # four runs of 8 MiB, the first the oldest; a cap of 20 MiB keeps the newest two
    runs = [past_run(layout, f"2026010{i}T000000-aaaa000{i}", 8, days_ago=10 - i) for i in range(4)]
    swept = retention.sweep_logs(layout, LogRetention(max_mib=20, max_days=0))
    assert removed(swept) == names(runs[0] + runs[1])
    assert remaining(layout) == names(runs[2] + runs[3])
    assert swept.removed_bytes == 16 * MIB and swept.kept_bytes == 16 * MIB


def test_a_running_bridges_files_survive_even_when_oldest_and_over_the_cap(
    layout: Layout,
) -> None:
    busy = past_run(layout, "20250101T000000-busy0001", 30, days_ago=400, parts=3)
    running(layout, "20250101T000000-busy0001")
    ended = past_run(layout, "20260101T000000-done0001", 4, days_ago=2)
    swept = retention.sweep_logs(layout, LogRetention(max_mib=16, max_days=30))
    # the bridge running now alone is over both limits: every other file goes, its own stay
    assert removed(swept) == names(ended)
    assert remaining(layout) == names(busy)


def test_runs_older_than_the_age_limit_go_whatever_the_size(layout: Layout) -> None:
    old = past_run(layout, "20250101T000000-old00001", 0.01, days_ago=45)
    recent = past_run(layout, "20260101T000000-new00001", 0.01, days_ago=5)
    swept = retention.sweep_logs(layout, LogRetention(max_mib=256, max_days=30))
    assert removed(swept) == names(old)
    assert remaining(layout) == names(recent)


def test_zero_means_no_limit_and_a_fresh_file_is_never_removed(layout: Layout) -> None:
    ancient = past_run(layout, "20200101T000000-anc00001", 1, days_ago=3000)
    just_made = past_run(layout, "20260101T000000-new00001", 1, days_ago=0)
    assert retention.sweep_logs(layout, LogRetention(max_mib=0, max_days=0)).removed == ()
    # a bridge that has just started has its file before its live marker: a minute's grace
    swept = retention.sweep_logs(layout, LogRetention(max_mib=1, max_days=1))
    assert removed(swept) == names(ancient)
    assert remaining(layout) == names(just_made)


def test_files_that_are_not_event_files_are_left_alone(layout: Layout) -> None:
    past_run(layout, "20250101T000000-old00001", 1, days_ago=100)
    other = layout.logs / "notes.txt"
    other.write_text("mine")
    retention.sweep_logs(layout, LogRetention(max_mib=0, max_days=1))
    assert other.exists() and remaining(layout) == set()


def test_the_limits_saved_in_the_store_are_used(layout: Layout) -> None:
    store = Store(layout)
    runs = [past_run(layout, f"2026010{i}T000000-aaaa000{i}", 3, days_ago=9 - i) for i in range(3)]
    assert retention.sweep_by_settings(layout).removed == ()  # the defaults hold 9 MiB
    with store.transaction() as state:
        state.set_log_retention(max_mib=5)
    swept = retention.sweep_by_settings(layout)
    assert removed(swept) == names(runs[0] + runs[1])


def test_nothing_is_removed_when_the_store_cannot_be_read(layout: Layout) -> None:
    past_run(layout, "20200101T000000-anc00001", 1, days_ago=3000)
    Store(layout).path.write_text("{ damaged")
    with pytest.raises(StoreUnreadable):
        Store(layout).read()
    assert retention.sweep_by_settings(layout) is None
    assert len(remaining(layout)) == 1


def test_the_settings_have_defaults_and_are_checked() -> None:
    state = State()
    assert state.log_retention == LogRetention(DEFAULT_LOG_MAX_MIB, DEFAULT_LOG_MAX_DAYS)
    assert (DEFAULT_LOG_MAX_MIB, DEFAULT_LOG_MAX_DAYS) == (256, 30)
    assert state.set_log_retention(max_days=7) == LogRetention(256, 7)
    assert state.set_log_retention(max_mib=0) == LogRetention(0, 7)
    assert LogRetention(0, 0).max_bytes is None and LogRetention(0, 0).max_age is None
    for bad in (-1, 1024 * 1024 + 1, 2.5, True, "64"):
        with pytest.raises(ModelError, match="size limit"):
            state.set_log_retention(max_mib=bad)
    with pytest.raises(ModelError, match="age limit"):
        state.set_log_retention(max_days=36501)
    assert state.log_retention == LogRetention(0, 7)


def test_the_settings_round_trip_and_an_older_store_gets_the_defaults(store: Store) -> None:
    with store.transaction() as state:
        state.set_log_retention(64, 7)
    doc = json.loads(store.path.read_text())
    assert doc["settings"]["log_max_mib"] == 64 and doc["settings"]["log_max_days"] == 7
    assert store.read().log_retention == LogRetention(64, 7)
    del doc["settings"]["log_max_mib"], doc["settings"]["log_max_days"]
    store.path.write_text(json.dumps(doc))
    assert store.read().log_retention == LogRetention()
    doc["settings"]["log_max_days"] = -3  # a hand edit
    store.path.write_text(json.dumps(doc))
    with pytest.raises(StoreUnreadable, match=r"settings\.log_max_days is not a whole number"):
        store.read()


def test_a_sweep_reports_what_is_left(tmp_path: Path) -> None:
    layout = Layout(tmp_path / "home").ensure()
    assert retention.log_usage(layout) == []
    past_run(layout, "20260101T000000-aaaa0001", 2, days_ago=3, parts=2)
    usage = retention.log_usage(layout)
    assert [f.path.name for f in usage] == [
        "20260101T000000-aaaa0001-0000.jsonl",
        "20260101T000000-aaaa0001-0001.jsonl",
    ]
    assert sum(f.size for f in usage) == 2 * MIB

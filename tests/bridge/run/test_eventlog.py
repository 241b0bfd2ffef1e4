"""The bridge's traffic log when it cannot be written: the bridge goes on without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from roots_manager.bridge.run.eventlog import BridgeLog
from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.logruns import WAIT, names, past_run, remaining
from tests.polling import wait_for


def test_a_log_directory_that_cannot_be_written_is_reported_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    (home / "live").mkdir(parents=True)
    (home / "logs").write_text("a file where the log directory should be")
    log = BridgeLog(Layout(home), "srv", "sess")
    assert log.path is None
    log.event(ev.RUN_START, command=["x"])
    log.event(ev.ERROR, message="still no log")
    assert log.counts["lost"] == 2
    log.close()
    err = capsys.readouterr().err
    assert err.count("the traffic log cannot be written") == 1 and "runs without it" in err


def test_a_rotation_that_cannot_open_the_next_part_loses_events_not_the_bridge(
    layout: Layout, capsys: pytest.CaptureFixture[str]
) -> None:
    """A part refused at rotation (here a folder in its place; a read-only log folder or a full
    disk in life) must not leave a closed file behind: the next small event raised
    ``ValueError`` through the answer to ``roots/list``, which the server got as -32603."""
    log = BridgeLog(layout, "srv", "sess")
    assert log.writer is not None and log.path is not None
    log.writer.max_bytes = 400
    blocker = log.path.with_name(log.path.name.replace("-0000", "-0001"))
    blocker.mkdir()
    log.event(ev.ERROR, message="x")
    log.event(ev.ERROR, message="y" * 300)  # over the limit: the rotation is refused
    log.event(ev.ROOTS_ASKED, id=1)  # small enough to fit in what the old part had left
    log.event(ev.ROOTS_ASKED, id=2)
    assert log.counts["lost"] == 3
    blocker.rmdir()
    log.event(ev.ROOTS_ASKED, id=3)  # the next part opens once it can
    log.close()
    assert [r.get("id") for r in ev.read_events(blocker)[0]] == [3]
    assert capsys.readouterr().err.count("the traffic log cannot be written") == 1


def test_events_go_to_the_bridge_runs_file(layout: Layout) -> None:
    log = BridgeLog(layout, "srv", "sess")
    log.event(ev.ERROR, message="hello")
    log.close()
    assert log.path is not None
    records, _ = ev.read_events(log.path)
    assert [(r["kind"], r["server"], r["message"]) for r in records] == [(ev.ERROR, "srv", "hello")]


def test_each_rotation_keeps_all_runs_within_the_limits(layout: Layout) -> None:
    with Store(layout).transaction() as state:
        state.set_log_retention(max_mib=10, max_days=0)
    log = BridgeLog(layout, "srv", "20260110T000000-live0001")
    assert log.writer is not None
    first = past_run(layout, "20260101T000000-run00001", 6, days_ago=3)
    second = past_run(layout, "20260102T000000-run00002", 6, days_ago=2)
    # this run rotates after a few events; 12 MiB of past runs are over the 10 MiB cap
    log.writer.max_bytes = 2000
    while log.writer.part == 0:
        log.event(ev.ERROR, message="x" * 200)
    wait_for(
        lambda: names(first).isdisjoint(remaining(layout)),
        "no sweep after the rotation",
        timeout=WAIT,
    )
    assert names(second) <= remaining(layout)
    log.close()

"""The bridge's traffic log when it cannot be written: the bridge goes on without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from roots_manager.bridge.eventlog import BridgeLog
from roots_manager.core import events as ev
from roots_manager.core.paths import Layout


def test_a_log_directory_that_cannot_be_written_is_reported_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    (home / "live").mkdir(parents=True)
    (home / "logs").write_text("a file where the log directory should be")
    log = BridgeLog(Layout(home), "srv", "sess")
    assert log.path is None
    log.event(ev.SESSION_START, command=["x"])
    log.event(ev.ERROR, message="still no log")
    assert log.counts["lost"] == 2
    log.close()
    err = capsys.readouterr().err
    assert err.count("the traffic log cannot be written") == 1 and "runs without it" in err


def test_events_go_to_the_session_file(layout: Layout) -> None:
    log = BridgeLog(layout, "srv", "sess")
    log.event(ev.ERROR, message="hello")
    log.close()
    assert log.path is not None
    records, _ = ev.read_events(log.path)
    assert [(r["kind"], r["server"], r["message"]) for r in records] == [(ev.ERROR, "srv", "hello")]

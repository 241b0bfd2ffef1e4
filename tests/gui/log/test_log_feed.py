"""The log feed: new events reach the index whether they come one by one or in a flood."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events
from roots_manager.core.log.index import LogIndex
from roots_manager.gui.log.log_feed import LogFeed
from roots_manager.gui.log.log_view import LogPanel
from tests.conftest import only_on_linux
from tests.descriptors import descriptors_exhausted

WAIT_MS = 20_000  # generous: the machine is shared


def test_a_flood_is_polled_and_what_follows_it_is_still_noticed(
    layout: Layout, qtbot: QtBot
) -> None:
    ix = LogIndex(layout)
    feed = LogFeed(ix)
    # no periodic look at the files: every event must be noticed by the watch or the polling
    feed.SAFETY_MS = 3_600_000
    rewatched: list[bool] = []
    feed._rewatching.connect(lambda: rewatched.append(True))
    feed.start()
    try:
        qtbot.waitUntil(lambda: feed.is_loaded, timeout=WAIT_MS)
        w = events.EventWriter(layout, "s1")
        # a flood: far more than FLOOD_BYTES, written at once
        padding = "x" * 200
        flood = 4 * feed.FLOOD_BYTES // len(padding)
        for i in range(flood):
            w.write(events.event(events.ERROR, "fs", "s1", message=f"{i} {padding}"))
        qtbot.waitUntil(lambda: len(ix) == flood and bool(rewatched), timeout=WAIT_MS)
        # then single events, noticed by the watch again
        for i in range(3):
            w.write(events.event(events.ERROR, "fs", "s1", message=f"single {i}"))
            qtbot.waitUntil(lambda n=flood + i + 1: len(ix) == n, timeout=WAIT_MS)
        assert ix.record(len(ix) - 1)["message"] == "single 2"  # type: ignore[index]
        w.close()
    finally:
        feed.stop()
        ix.close()


@only_on_linux("inotify and its limits are Linux's")
def test_the_live_log_follows_again_by_itself_once_a_watch_can_be_had(
    layout: Layout, qtbot: QtBot
) -> None:
    """Issue 38: the live Log froze for good after "not following: OSError: [Errno 24]
    inotify_init1". Started while no inotify instance can be had, it says so and that it
    retries; once one can, it says nothing more and new events arrive, with no restart."""
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    panel.show()
    with descriptors_exhausted(spare=2) as held:
        panel.start()
        qtbot.waitUntil(lambda: "not following live" in panel.status.text(), timeout=WAIT_MS)
        assert "inotify_init1" in panel.status.text()
        assert "retrying" in panel.status.text()
        thread = panel.feed._thread
        held.free()
        qtbot.waitUntil(lambda: "not following" not in panel.status.text(), timeout=WAIT_MS)
    assert panel.feed._thread is thread  # the same follower, not a new one
    w = events.EventWriter(layout, "s1")
    try:
        for i in range(3):
            w.write(events.event(events.ERROR, "fs", "s1", message=f"after {i}"))
            qtbot.waitUntil(lambda n=i + 1: panel.model.rowCount() == n, timeout=WAIT_MS)
    finally:
        w.close()
        panel.stop()

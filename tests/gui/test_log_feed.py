"""The log feed: new events reach the index whether they come one by one or in a flood."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from roots_manager.core.log import events
from roots_manager.core.log.index import LogIndex
from roots_manager.core.paths import Layout
from roots_manager.gui.log.log_feed import LogFeed

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

"""The app's watch of the per-user directory when events name it another way.

macOS reports ``/private/var/...`` for a directory under ``/var`` (a link), and the disk's case and
Unicode form: a marker's change must still count as a marker change, not wait for the timer.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

from roots_manager.core.directory.layout import Layout
from roots_manager.core.runs import live
from roots_manager.core.runs.live import BridgeMarker
from roots_manager.core.store.file import Store
from roots_manager.gui.common.watcher import StoreWatcher, _WatchThread, where_changed
from tests.conftest import only_on_linux
from tests.descriptors import descriptors_exhausted

WAIT = 30_000


def _fake_realpath(path: str) -> str:
    return "/private" + path if path.startswith("/var/") else path


def test_macos_events_under_the_resolved_respelled_directory_count_as_markers() -> None:
    live_dir = "/var/folders/xy/T/Roots Manager/ライブ"
    nfd_live = unicodedata.normalize("NFD", "/private/var/folders/xy/t/roots manager/ライブ")
    changed = where_changed(
        [nfd_live + "/bridge-1.json"], live_dir, realpath=_fake_realpath, platform="darwin"
    )
    assert changed == (False, True)
    store_event = "/private/var/folders/xy/T/Roots Manager/store.json"
    assert where_changed([store_event], live_dir, realpath=_fake_realpath, platform="darwin") == (
        True,
        False,
    )
    both = where_changed(
        [store_event, "/var/folders/xy/T/Roots Manager/ライブ/b.json"],
        live_dir,
        realpath=_fake_realpath,
        platform="darwin",
    )
    assert both == (True, True)


def test_linux_keeps_case_but_knows_the_resolved_directory() -> None:
    live_dir = "/var/home/live"
    assert where_changed(
        ["/private/var/home/live/m.json"], live_dir, realpath=_fake_realpath, platform="linux"
    ) == (False, True)
    # another case is another directory on Linux
    assert where_changed(
        ["/private/var/home/LIVE/m.json"], live_dir, realpath=_fake_realpath, platform="linux"
    ) == (True, False)


def test_a_per_user_directory_reached_through_a_link_is_watched_where_it_is(
    tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    real = tmp_path.resolve() / "real home"
    real.mkdir()
    link = tmp_path / "linked home"
    link.symlink_to(real, target_is_directory=True)
    layout = Layout(link).ensure()
    thread = _WatchThread(Store(layout))
    seen: list[tuple[bool, bool]] = []
    thread.changed.connect(lambda home, markers: seen.append((home, markers)))
    thread.start()
    try:
        marker = BridgeMarker("s1", "fs", os.getpid(), "2026-01-01T00:00:00Z", ["node"])

        # the watch may still be starting: write until an event arrives
        def marker_seen() -> bool:
            if not any(markers for _, markers in seen):
                live.write_bridge_marker(layout, marker)
                return False
            return True

        qtbot.waitUntil(marker_seen, timeout=WAIT)
        # the events name the resolved directory, and are still told apart
        assert all(not home for home, markers in seen if markers)
        seen.clear()
        with Store(layout).transaction() as state:
            state.set_policy("deny")
        qtbot.waitUntil(lambda: any(home for home, _ in seen), timeout=WAIT)
    finally:
        thread.stop()


@only_on_linux("inotify and its limits are Linux's")
def test_the_stores_watch_refused_says_so_and_comes_back_by_itself(layout: Layout, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The app's watch of the store and the live markers, refused for want of an inotify
    instance, says so ("not following live: ...; retrying") and watches again by itself."""
    watcher = StoreWatcher(Store(layout))
    told: list[str] = []
    watcher.following.connect(told.append)
    with descriptors_exhausted(spare=2) as held:
        watcher.start()
        try:
            qtbot.waitUntil(lambda: "retrying" in watcher.trouble, timeout=WAIT)
            assert "[Errno 24]" in watcher.trouble
            held.free()
            qtbot.waitUntil(lambda: watcher.trouble == "", timeout=WAIT)
        except BaseException:
            watcher.stop()
            raise
    try:
        assert told == [told[0], ""]
        assert watcher._thread is not None
        seen: list[bool] = []
        watcher._thread.changed.connect(lambda _home, markers: seen.append(markers))
        marker = BridgeMarker("s1", "fs", os.getpid(), "2026-01-01T00:00:00Z", ["node"])
        live.write_bridge_marker(layout, marker)
        qtbot.waitUntil(lambda: any(seen), timeout=WAIT)  # told by the watch, not the timer
    finally:
        watcher.stop()

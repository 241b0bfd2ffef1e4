"""The folder watch: a granted folder vanishing, coming back or changing shows at once."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from roots_manager.bridge.watch import CHECK_SHARE, FolderWatch, pause_after

WAIT = 30.0


async def until(cond: Callable[[], object], what: str) -> None:
    """Poll *cond* on the loop until it holds; fail saying *what* did not happen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not cond():
        if loop.time() > deadline:
            raise AssertionError(f"gave up after {WAIT:.0f} s waiting for {what}")
        await asyncio.sleep(0.02)


def test_folder_events_are_seen_and_the_watch_follows_the_grants(tmp_path: Path) -> None:
    first = tmp_path / "parent one" / "granted"
    second = tmp_path / "parent two" / "later"
    first.mkdir(parents=True)
    second.parent.mkdir()
    unrelated = tmp_path / "parent one" / "unrelated"
    folders = [str(first)]
    # what the granted folder looked like each time the watch called back
    seen: list[bool] = []

    async def scenario() -> None:
        # only the watch's events can call back here: there is no periodic check
        watch = FolderWatch(lambda: folders, lambda: seen.append(first.is_dir()))
        task = asyncio.create_task(watch.run())
        await until(lambda: watch.watched == {str(first.parent)}, "the watch to be in place")
        unrelated.mkdir()  # a sibling is not a granted folder: filtered out
        first.rmdir()
        await until(lambda: False in seen, "the vanished folder to be noticed")
        first.mkdir()
        await until(lambda: seen[-1] is True, "the returning folder to be noticed")
        count = len(seen)
        os.chmod(first, 0o000)
        await until(lambda: len(seen) > count, "the permission change to be noticed")
        os.chmod(first, 0o755)
        # the grants move to a folder elsewhere: refresh moves the watch there
        folders[:] = [str(second)]
        watch.refresh()
        await until(lambda: watch.watched == {str(second.parent)}, "the watch to move")
        count = len(seen)
        second.mkdir()
        await until(lambda: len(seen) > count, "the newly granted folder to be noticed")
        watch.close()
        await asyncio.wait_for(task, WAIT)

    asyncio.run(scenario())


def test_a_folder_whose_parent_is_missing_waits_for_a_refresh(tmp_path: Path) -> None:
    folder = tmp_path / "later parent" / "granted"
    calls: list[int] = []

    async def scenario() -> None:
        watch = FolderWatch(lambda: [str(folder)], lambda: calls.append(1))
        task = asyncio.create_task(watch.run())
        await asyncio.sleep(0)
        assert watch.watched == frozenset() and not task.done()
        folder.parent.mkdir()
        watch.refresh()  # the periodic check does this in the bridge
        await until(lambda: watch.watched == {str(folder.parent)}, "the parent to be watched")
        folder.mkdir()
        await until(lambda: calls, "the new folder to be noticed")
        watch.close()
        await asyncio.wait_for(task, WAIT)

    asyncio.run(scenario())


def test_a_slow_periodic_check_comes_less_often() -> None:
    # checking 50,000 granted folders takes seconds: every second, it would never stop
    assert pause_after(1.0, 0.002) == 1.0
    took = 2.0
    pause = pause_after(1.0, took)
    assert took / (took + pause) == pytest.approx(CHECK_SHARE)

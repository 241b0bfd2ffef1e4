"""The folder watch: a granted folder vanishing, coming back or changing shows at once."""

from __future__ import annotations

import asyncio
import os
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from roots_manager.bridge.run.watch import CHECK_SHARE, FolderWatch, folder_targets, pause_after
from roots_manager.core.roots import identity

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


def test_a_folder_reached_through_a_link_is_watched_where_it_really_is(tmp_path: Path) -> None:
    tmp_path = tmp_path.resolve()
    # /tmp on macOS is a link to /private/tmp, and FSEvents names /private/tmp/x: here the
    # watch is put on the resolved directory, so the event carries the resolved path too
    real = tmp_path / "real"
    granted = real / "granted"
    granted.mkdir(parents=True)
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    target = tmp_path / "elsewhere" / "target"
    target.mkdir(parents=True)
    (tmp_path / "alias").symlink_to(target, target_is_directory=True)
    folders = [str(tmp_path / "link" / "granted"), str(tmp_path / "alias")]
    calls: list[str] = []

    async def scenario() -> None:
        watch = FolderWatch(lambda: folders, lambda: calls.append("changed"))
        task = asyncio.create_task(watch.run())
        # the link's own directory (for the alias itself), the resolved ones for the rest
        expected = {str(real), str(tmp_path), str(target.parent)}
        await until(lambda: watch.watched == expected, "the resolved directories to be watched")
        granted.rmdir()
        await until(lambda: calls, "the folder removed through its resolved path to be noticed")
        count = len(calls)
        target.rmdir()  # the alias now leads nowhere
        await until(lambda: len(calls) > count, "the alias's folder going away to be noticed")
        watch.close()
        await asyncio.wait_for(task, WAIT)

    asyncio.run(scenario())


def _fake_realpath(path: str) -> str:
    """macOS's /tmp and /var, which are links into /private."""
    for link in ("/tmp", "/var"):
        if path == link or path.startswith(link + "/"):
            return "/private" + path
    return path


def test_macos_events_match_resolved_respelled_and_nfd_paths() -> None:
    nfc = "/Users/me/プロジェクト"
    nfd = unicodedata.normalize("NFD", nfc)
    keys, parents = folder_targets(
        ["/tmp/Work", "/var/folders/ab/Cache", nfc],
        realpath=_fake_realpath,
        isdir=lambda _: True,
        platform="darwin",
    )
    assert parents == {"/private/tmp", "/private/var/folders/ab", "/Users/me"}
    # what FSEvents reports: the resolved path, in the disk's case, the name in NFD
    for reported in (
        "/private/tmp/work",
        "/private/var/folders/ab/cache",
        nfd,
        "/users/ME/プロジェクト",
    ):
        assert identity.watch_key(reported, "darwin") in keys
    assert identity.watch_key("/private/tmp/other", "darwin") not in keys


def test_linux_events_match_resolved_paths_but_keep_case_and_form() -> None:
    keys, parents = folder_targets(
        ["/tmp/Work"], realpath=_fake_realpath, isdir=lambda _: True, platform="linux"
    )
    assert parents == {"/private/tmp"}
    assert "/private/tmp/Work" in keys
    # on Linux another case is another folder
    assert identity.watch_key("/private/tmp/work", "linux") not in keys


def test_windows_events_match_in_any_case_and_without_the_long_path_prefix() -> None:
    assert identity.watch_key("\\\\?\\C:\\Work\\Proj", "win32") == identity.watch_key(
        "c:\\work\\PROJ", "win32"
    )

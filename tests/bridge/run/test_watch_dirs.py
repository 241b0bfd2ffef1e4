"""The bridge's directory watch: its own thread, changes handed to the loop, failures raised."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from roots_manager.bridge.run.watch import watch_dirs
from roots_manager.support.dirwatch import force_polling
from tests.bridge.run.test_watch import WAIT, until


def watch_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "roots-bridge watch"]


def test_kept_changes_reach_the_loop_and_stop_ends_the_thread(tmp_path: Path) -> None:
    asked: list[str] = []
    seen: list[str] = []

    def keep(path: str) -> bool:
        asked.append(Path(path).name)
        return path.endswith("wanted.json")

    async def scenario() -> None:
        stop = asyncio.Event()
        loop_thread = threading.get_ident()

        def changed() -> None:
            # called on the loop's thread, never on the watch's
            seen.append("loop" if threading.get_ident() == loop_thread else "elsewhere")

        task = asyncio.create_task(
            watch_dirs([str(tmp_path)], keep, changed, stop, debounce=0.03, settle=0.005)
        )
        await asyncio.sleep(0)  # the watch is in place once the task has first yielded
        assert len(watch_threads()) == 1
        (tmp_path / "other.txt").write_text("not watched for")
        await until(lambda: "other.txt" in asked, "the other file's change")
        assert seen == []  # a burst nobody keeps calls nothing
        (tmp_path / "wanted.json").write_text("{}")
        await until(lambda: seen, "the change to the kept file")
        stop.set()
        await asyncio.wait_for(task, WAIT)
        await until(lambda: not watch_threads(), "the watch thread to end")

    asyncio.run(scenario())
    assert set(seen) == {"loop"}


def test_a_missing_directory_is_refused_before_anything_is_watched(tmp_path: Path) -> None:
    async def scenario() -> None:
        with pytest.raises(OSError):
            await watch_dirs(
                [str(tmp_path / "missing")],
                lambda _: True,
                lambda: None,
                asyncio.Event(),
                debounce=0.03,
                settle=0.005,
            )

    asyncio.run(scenario())
    assert not watch_threads()


def test_a_failing_callback_ends_the_watch_with_its_error(tmp_path: Path) -> None:
    def fail() -> None:
        raise ValueError("the owner's bug")

    async def scenario() -> None:
        task = asyncio.create_task(
            watch_dirs(
                [str(tmp_path)], lambda _: True, fail, asyncio.Event(), debounce=0.03, settle=0.005
            )
        )
        await asyncio.sleep(0)
        (tmp_path / "file").write_text("x")
        with pytest.raises(ValueError, match="the owner's bug"):
            await asyncio.wait_for(task, WAIT)
        await until(lambda: not watch_threads(), "the watch thread to end")

    asyncio.run(scenario())


def test_a_cancelled_watch_ends_its_thread(tmp_path: Path) -> None:
    async def scenario() -> None:
        task = asyncio.create_task(
            watch_dirs(
                [str(tmp_path)],
                lambda _: True,
                lambda: None,
                asyncio.Event(),
                debounce=0.03,
                settle=0.005,
            )
        )
        await asyncio.sleep(0)
        assert watch_threads()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await until(lambda: not watch_threads(), "the watch thread to end")

    asyncio.run(scenario())


def test_polling_follows_watchfiles_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHFILES_FORCE_POLLING", "1")
    assert force_polling()
    monkeypatch.setenv("WATCHFILES_FORCE_POLLING", "disabled")
    assert not force_polling()


def test_a_polling_watch_still_sees_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHFILES_FORCE_POLLING", "1")
    monkeypatch.setenv("WATCHFILES_POLL_DELAY_MS", "20")
    seen: list[int] = []

    async def scenario() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(
            watch_dirs(
                [str(tmp_path)],
                lambda _: True,
                lambda: seen.append(1),
                stop,
                debounce=0.03,
                settle=0.005,
            )
        )
        await asyncio.sleep(0)
        (tmp_path / "file").write_text("x")
        await until(lambda: seen, "the polled change")
        stop.set()
        await asyncio.wait_for(task, WAIT)

    asyncio.run(scenario())

"""The one directory watcher: what it names, how it waits, stops and fails, on inotify and on
watchfiles (what macOS and Windows use), with real files and real threads."""

from __future__ import annotations

import errno
import os
import select
import threading
import time
from pathlib import Path

import pytest

from roots_manager.support.dirwatch import DirWatch, SteadyWatch
from tests.conftest import only_on_linux
from tests.descriptors import descriptors_exhausted

BACKENDS = [
    pytest.param({}, id="native"),
    pytest.param({"portable": True}, id="watchfiles"),
    pytest.param({"portable": True, "polling": True}, id="watchfiles-polling"),
]


@pytest.fixture(autouse=True)
def fast_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHFILES_POLL_DELAY_MS", "20")


def gather(watch: DirWatch, want: set[str], seconds: float = 10.0) -> set[str]:
    """What *watch* names until everything in *want* was named (or the time is up)."""
    seen: set[str] = set()
    end = time.monotonic() + seconds
    while not want <= seen and time.monotonic() < end:
        changes = watch.wait(0.2, debounce=0.05)
        assert changes is not None
        seen |= changes
    return seen


def settled(watch: DirWatch) -> None:
    """Let a watchfiles thread start its watch (inotify's is in place already)."""
    time.sleep(0.3)
    watch.take()


@pytest.mark.parametrize("kind", BACKENDS)
def test_each_change_names_its_entry(tmp_path: Path, kind: dict[str, bool]) -> None:
    (tmp_path / "old.txt").write_text("x")
    (tmp_path / "gone.txt").write_text("x")
    (tmp_path / "sub").mkdir()
    with DirWatch([str(tmp_path)], **kind) as watch:
        settled(watch)
        (tmp_path / "new.txt").write_text("created")
        (tmp_path / "old.txt").rename(tmp_path / "renamed.txt")
        (tmp_path / "gone.txt").unlink()
        (tmp_path / "sub" / "deep.txt").write_text("below: not watched")
        want = {str(tmp_path / n) for n in ("new.txt", "renamed.txt", "gone.txt")}
        seen = gather(watch, want)
        assert want <= seen, seen
        assert str(tmp_path / "sub" / "deep.txt") not in seen


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_quiet_wait_times_out_with_nothing(tmp_path: Path, kind: dict[str, bool]) -> None:
    with DirWatch([str(tmp_path)], **kind) as watch:
        settled(watch)
        assert watch.wait(0.1) == set()


@pytest.mark.parametrize("kind", BACKENDS)
def test_stop_wakes_a_thread_waiting_for_good(tmp_path: Path, kind: dict[str, bool]) -> None:
    watch = DirWatch([str(tmp_path)], **kind)
    outcome: list[object] = []
    waiter = threading.Thread(target=lambda: outcome.append(watch.wait(None)))
    waiter.start()
    time.sleep(0.2)
    assert waiter.is_alive()  # no change, no timeout: it waits
    watch.stop()
    waiter.join(5)
    assert not waiter.is_alive() and outcome == [None]
    assert watch.wait(None) is None  # and from now on
    watch.close()


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_missing_directory_is_refused_at_once(tmp_path: Path, kind: dict[str, bool]) -> None:
    with pytest.raises(OSError):
        DirWatch([str(tmp_path / "missing")], **kind)


@only_on_linux("inotify is Linux's")
def test_the_directory_itself_going_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    with DirWatch([str(folder)]) as watch:
        folder.rename(tmp_path / "moved")
        assert str(folder) in gather(watch, {str(folder)})


@only_on_linux("inotify is Linux's")
def test_lost_notices_name_every_entry(tmp_path: Path) -> None:
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    files = [tmp_path / "a", tmp_path / "b"]
    for f in [*files, tmp_path / "untouched"]:
        f.write_text("x")
    with DirWatch([str(tmp_path)]) as watch:
        for i in range(limit + 100):  # two files in turn: the kernel merges no two in a row
            os.utime(files[i % 2])
        (tmp_path / "late").write_text("its notice is lost too")
        changes = watch.take()
    # nothing happened to "untouched": only "anything may have changed" names it
    assert {str(tmp_path / n) for n in ("untouched", "late", "a", "b")} | {str(tmp_path)} <= changes


def process_wakeups() -> int:
    """The voluntary context switches of every thread of this process so far."""
    total = 0
    for task in Path("/proc/self/task").iterdir():
        try:
            status = (task / "status").read_text()
        except OSError:
            continue  # ended meanwhile
        for line in status.splitlines():
            if line.startswith("voluntary_ctxt_switches:"):
                total += int(line.split()[1])
    return total


def idle_wakeups(watch: DirWatch, seconds: float = 1.0) -> int:
    """How often this process woke while a thread waited on *watch* with nothing changing."""
    waiter = threading.Thread(target=watch.wait)
    waiter.start()
    time.sleep(0.3)
    before = process_wakeups()
    time.sleep(seconds)  # this thread's own sleep: one wake-up
    woke = process_wakeups() - before
    watch.stop()
    waiter.join(5)
    return woke


@only_on_linux("inotify is Linux's; /proc counts the wake-ups")
def test_an_idle_watch_sleeps_in_the_kernel(tmp_path: Path) -> None:
    with DirWatch([str(tmp_path)], portable=True) as timed:
        baseline = idle_wakeups(timed)  # watchfiles looks at its stop flag every 50 ms
    with DirWatch([str(tmp_path)]) as watch:
        woke = idle_wakeups(watch)
    assert baseline >= 10, f"the baseline woke {baseline} times in a second"
    assert woke <= 3, f"an idle watch woke the process {woke} times in a second"


@only_on_linux("written=False narrows inotify's notices")
def test_a_watch_of_folders_is_not_woken_by_what_is_written_beside_them(tmp_path: Path) -> None:
    """A granted folder's parent is the home folder, where dotfiles are written all day: a watch
    that cares about folders (written=False) is told entries coming and going, never writes."""
    history = tmp_path / ".bash_history"
    history.write_text("ls\n")
    with DirWatch([str(tmp_path)], written=False) as watch:
        with history.open("a") as f:
            f.write("cd proj\n")
        assert not select.select([watch.fileno()], [], [], 0.1)[0], "woken by a write"
        (tmp_path / "proj").mkdir()
        assert gather(watch, {str(tmp_path / "proj")}) == {str(tmp_path / "proj")}


@only_on_linux("inotify and its limits are Linux's")
def test_a_steady_watch_polls_while_refused_and_watches_again_once_it_can(
    tmp_path: Path,
) -> None:
    """The live Log froze for good after "OSError: [Errno 24] inotify_init1": a watch refused
    for want of an inotify instance polls meanwhile and is made again, unasked, once one is
    free; it says so both times."""
    told: list[BaseException | None] = []
    with descriptors_exhausted(spare=2) as held:
        watch = SteadyWatch([str(tmp_path)], poll=0.05, on_trouble=told.append)
        try:
            assert watch.trouble is not None
            assert isinstance(watch.trouble, OSError)
            assert watch.trouble.errno == errno.EMFILE
            assert "inotify_init1" in str(watch.trouble)
            # while refused, the folder is polled: a file created is still named
            (tmp_path / "while-refused.txt").write_text("x")
            seen: set[str] = set()
            while str(tmp_path / "while-refused.txt") not in seen:
                changes = watch.wait(0.2)
                assert changes is not None
                seen |= changes
            assert watch.trouble is not None
            held.free()
            # no restart: the same watch is made again within the retry's backoff
            while watch.trouble is not None:
                assert watch.wait(0.2) is not None
            assert told == [told[0], None]
            (tmp_path / "once-watched.txt").write_text("x")
            seen = set()
            while str(tmp_path / "once-watched.txt") not in seen:
                changes = watch.wait(0.2)
                assert changes is not None
                seen |= changes
            assert watch.trouble is None
        finally:
            watch.close()


@only_on_linux("inotify's watch follows the inode")
def test_a_steady_watch_follows_a_folder_removed_and_made_again(tmp_path: Path) -> None:
    """A watched folder removed and made again (the logs folder swept away by hand) is watched
    anew: its new entries are named, through a watch on the new folder."""
    logs = tmp_path / "logs"
    logs.mkdir()
    told: list[BaseException | None] = []
    with SteadyWatch([str(logs)], poll=0.05, on_trouble=told.append) as watch:
        logs.rmdir()
        while watch.trouble is None:
            assert watch.wait(0.2) is not None
        assert isinstance(watch.trouble, FileNotFoundError)
        logs.mkdir()
        while watch.trouble is not None:
            assert watch.wait(0.2) is not None
        (logs / "new.jsonl").write_text("{}\n")
        seen: set[str] = set()
        while str(logs / "new.jsonl") not in seen:
            changes = watch.wait(0.2)
            assert changes is not None
            seen |= changes
        assert told[-1] is None

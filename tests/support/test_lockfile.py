"""The cross-process lock on the store and on the record of host changes, between real processes
and threads: it excludes filelock's lock on the same file both ways (a running older version
takes it so), threads of one process, and it dies with the process that held it."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from roots_manager.support.lockfile import LockFile
from tests.polling import WAIT

flock_only = pytest.mark.skipif(
    sys.platform == "win32", reason="Windows' lock is filelock's own: nothing of it to compare"
)
"""For what is the POSIX lock's own: its exclusion of filelock's, and its file's mode and links."""

HOLDER = textwrap.dedent(
    """
    import sys, time
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "filelock":
        from filelock import FileLock
        lock = FileLock(path, timeout=5)
        lock.acquire()
    else:
        from roots_manager.support.lockfile import LockFile
        LockFile(path, timeout=5).acquire()
    print("held", flush=True)
    sys.stdin.read()
    """
)


def hold(kind: str, path: Path) -> subprocess.Popen[str]:
    """A process holding the lock on *path* (through filelock or ours) until its stdin closes."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, kind, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def let_go(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=WAIT)


@flock_only
def test_filelock_s_lock_held_elsewhere_keeps_ours_waiting_until_it_is_let_go(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.json.lock"
    holder = hold("filelock", path)
    try:
        with pytest.raises(TimeoutError, match="stayed held"):
            LockFile(path, timeout=0.3).acquire()
    finally:
        let_go(holder)
    lock = LockFile(path, timeout=WAIT)
    with lock.held():
        assert path.exists()


@flock_only
def test_ours_held_keeps_filelock_s_waiting(tmp_path: Path) -> None:
    from filelock import FileLock, Timeout

    path = tmp_path / "store.json.lock"
    holder = hold("ours", path)
    try:
        with pytest.raises(Timeout):
            FileLock(str(path), timeout=0.3).acquire()
    finally:
        let_go(holder)
    with FileLock(str(path), timeout=WAIT):
        pass


def test_a_killed_holder_lets_go_at_once(tmp_path: Path) -> None:
    path = tmp_path / "store.json.lock"
    holder = hold("ours", path)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=WAIT)
    with LockFile(path, timeout=0.5).held():
        pass
    assert holder.stdin is not None
    holder.stdin.close()


def test_threads_take_it_in_turn_and_a_thread_may_take_it_again(tmp_path: Path) -> None:
    lock = LockFile(tmp_path / "store.json.lock", timeout=WAIT)
    order: list[str] = []
    first_holds = threading.Event()

    def other() -> None:
        first_holds.wait(WAIT)
        with lock.held():
            order.append("other")

    t = threading.Thread(target=other)
    t.start()
    with lock.held():
        with lock.held():  # a transaction inside another does not wait for itself
            first_holds.set()
            time.sleep(0.2)  # the other thread is waiting meanwhile
            order.append("first, inner")
        order.append("first, outer")  # still held: the outer block has not ended
    t.join(WAIT)
    assert order == ["first, inner", "first, outer", "other"]


@flock_only
def test_the_file_is_private_stays_after_release_and_is_not_followed(tmp_path: Path) -> None:
    path = tmp_path / "store.json.lock"
    with LockFile(path, timeout=1).held():
        pass
    assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0
    path.unlink()
    elsewhere = tmp_path / "elsewhere"
    path.symlink_to(elsewhere)
    with pytest.raises(OSError):
        LockFile(path, timeout=1).acquire()
    assert not elsewhere.exists()  # a link put at the lock's place makes no file where it points

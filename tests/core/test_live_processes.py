"""Whether a process named in a live marker still runs: the start time read from ``/proc``, and
none for a process that has ended, reaped or not."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from roots_manager.core.live import process_start_time
from tests.conftest import only_on_linux

pytestmark = only_on_linux("read from /proc")


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat", "rb") as f:
        stat = f.read()
    return stat[stat.rfind(b")") + 2 :].split()[0].decode()


def test_a_running_process_has_its_start_time_and_a_zombie_has_none() -> None:
    assert process_start_time(os.getpid()) is not None
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        deadline = time.monotonic() + 30
        while _state(proc.pid) != "Z":  # ended, and not reaped: a zombie
            assert time.monotonic() < deadline, "the child never ended"
            time.sleep(0.01)
        # a learning killed from a shell that has not reaped it yet is over all the same
        assert process_start_time(proc.pid) is None
    finally:
        proc.wait()
    assert process_start_time(proc.pid) is None  # and gone

"""Whether a process named in a live marker still runs: the start time read from ``/proc``, and
none for a process that has ended, reaped or not."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from roots_manager.core.runs.live import process_start_time
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


def test_a_newer_bridges_marker_is_read_with_what_this_version_knows(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A field this version does not know (a newer bridge's) leaves the bridge listed; the
    folders a confined run reaches come back as written."""
    import json

    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.runs import live

    layout = Layout(tmp_path / "home").ensure()
    marker = live.BridgeMarker(
        "run-1", "fs", os.getpid(), "2026-12-01T00:00:00Z", ["npx"], confined=True,
        reachable=["/home/me/notes"],
    )  # fmt: skip
    live.write_bridge_marker(layout, marker)
    path = live.bridge_marker_path(layout, "run-1")
    doc = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**doc, "a_later_field": 1}), encoding="utf-8")
    [read] = live.bridge_markers(layout)
    assert read.run == "run-1" and read.reachable == ["/home/me/notes"]

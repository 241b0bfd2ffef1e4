"""An idle bridge sleeps in the kernel, and still sees every change that moves its answer.

The answer cache's watches cover each directory on the way to each granted folder, and the
mount table is watched: a folder that vanishes with an ancestor, or is hidden by a mount, is
noticed from the kernel's report, with no periodic check to wait for.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from roots_manager.core.store.file import Store
from tests.bridge.wire import Bridged, is_method
from tests.conftest import only_on_linux


def switches(pid: int) -> int:
    """Context switches so far of every thread of *pid*."""
    return sum(
        int(line.split()[1])
        for task in Path(f"/proc/{pid}/task").iterdir()
        for line in (task / "status").read_text().splitlines()
        if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"))
    )


@only_on_linux("inotify and the mount table are what let an idle bridge sleep")
def test_an_idle_bridge_sleeps_and_sees_an_ancestor_renamed_and_a_mount(
    store: Store, tmp_path: Path
) -> None:
    granted = tmp_path / "a" / "b" / "granted"
    granted.mkdir(parents=True)
    with store.transaction() as s:
        s.grant("deep", [s.add_root(str(granted)).id])
    p = Bridged("deep")
    try:
        p.handshake()
        assert p.ask(1) == [granted.as_uri()]
        # the start's own work (the marker, the log sweep) settles within seconds; a periodic
        # check never does: every window of 1.5 s would hold one of its one-second ticks
        deadline = time.monotonic() + 20
        while True:
            before = switches(p.bridge.proc.pid)
            time.sleep(1.5)
            woke = switches(p.bridge.proc.pid) - before
            if woke == 0:
                break
            assert time.monotonic() < deadline, f"an idle bridge never slept 1.5 s (woke {woke})"

        (tmp_path / "a").rename(tmp_path / "moved")  # two levels above the folder
        p.server.expect(is_method("notifications/roots/list_changed"), "the notice for the move")
        assert p.ask(2) == []
        (tmp_path / "moved").rename(tmp_path / "a")
        p.server.expect(is_method("notifications/roots/list_changed"), "the notice for its return")
        assert p.ask(3) == [granted.as_uri()]

        if os.geteuid() != 0:
            return  # mounting takes root; the rest holds for every user
        subprocess.run(["mount", "-t", "tmpfs", "over", str(granted.parent)], check=True)
        try:
            p.server.expect(is_method("notifications/roots/list_changed"), "the notice for a mount")
            assert p.ask(4) == []
        finally:
            subprocess.run(["umount", str(granted.parent)], check=True)
        p.server.expect(is_method("notifications/roots/list_changed"), "the notice for the unmount")
        assert p.ask(5) == [granted.as_uri()]
    finally:
        p.close()

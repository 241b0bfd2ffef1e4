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

import pytest

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


def _quiet(p: Bridged) -> int:
    """Wait until the bridge has said nothing on stderr for 1.5 s (its start's work done);
    how much it had said by then."""
    deadline = time.monotonic() + 20
    said = len(p.bridge.stderr)
    while True:
        time.sleep(1.5)
        now = len(p.bridge.stderr)
        if now == said:
            return said
        assert time.monotonic() < deadline, "the bridge never went quiet"
        said = now


def _one_save_seen_once(store: Store, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    with store.transaction() as s:
        s.grant("once", [s.add_root(str(first)).id])
    p = Bridged("once")
    try:
        p.handshake()
        assert p.ask(1) == [first.as_uri()]
        said = _quiet(p)
        with store.transaction() as s:
            s.grant("once", [s.add_root(str(second)).id])
        p.server.expect(is_method("notifications/roots/list_changed"), "the notice for the grant")
        # the store's watch reports the save 35 ms after it, and a periodic check would run
        # within a second: both are given the time to say something
        time.sleep(2.5)
        lines = p.bridge.stderr[said:].splitlines()
        woken = [line for line in lines if "the store or a folder changed" in line]
        reads = [line for line in lines if f"debug: read {store.path} (" in line]
        assert len(woken) == 1, "\n".join(lines)
        assert len(reads) == 1, "\n".join(lines)
        assert p.ask(2) == [first.as_uri(), second.as_uri()]
    finally:
        p.close()


@only_on_linux("the answer's watch is inotify's")
def test_one_save_wakes_a_bridge_once_and_is_read_once(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store's watch and the answer's both see a save: one of them acts on it."""
    monkeypatch.setenv("ROOTS_MANAGER_DEBUG", "1")
    _one_save_seen_once(store, tmp_path)


def test_the_periodic_check_does_nothing_when_a_watch_saw_the_save(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no answer kept (as on macOS and Windows) a check runs every second: it finds the
    save the store's watch acted on, and does nothing more."""
    monkeypatch.setenv("ROOTS_MANAGER_DEBUG", "1")
    monkeypatch.setenv("ROOTS_MANAGER_NO_ANSWER_CACHE", "1")
    _one_save_seen_once(store, tmp_path)

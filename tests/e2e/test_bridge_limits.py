"""The bridge's memory has bounds: a server that never reads its answers, a line too long to hold."""

from __future__ import annotations

import sys
from pathlib import Path

import psutil

from roots_manager.bridge.run.handlers import MAX_BACKLOG
from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.bridge.wire import BridgeProc, bridge_argv, events, wait_for
from tests.fakes import FAKES

FLOOD = FAKES / "flood_server.py"


def test_a_server_that_never_reads_its_answers_is_paused_not_buffered(
    store: Store, layout: Layout, tmp_path: Path
) -> None:
    folder = tmp_path / ("a folder with a long name " * 8).strip()
    folder.mkdir()
    with store.transaction() as s:
        s.grant("flood", [s.add_root(str(folder)).id])
    n = 20000
    # in its folder: a server first seen starts confined, and may touch only what it was granted
    go, done = folder / "go", folder / "done"
    bridge = BridgeProc(
        bridge_argv("flood", [sys.executable, str(FLOOD), str(n), str(go), str(done)])
    )
    try:

        def paused() -> bool:
            return any("unread" in e.get("message", "") for e in events(layout, ev.ERROR))

        def answered() -> int:
            return len(events(layout, ev.ROOTS_ANSWERED))

        # before the fix every request was answered into memory; now the bridge stops reading
        wait_for(lambda: paused() or answered() >= n, "back-pressure or every answer", 120)
        assert paused(), "all answers were kept in memory for a server that reads none"
        held = answered()
        answer_size = len(b'{"jsonrpc":"2.0","id":12345,"result":{"roots":[{"uri":""}]}}') + 200
        assert held < n and held * answer_size < 4 * MAX_BACKLOG
        rss = psutil.Process(bridge.proc.pid).memory_info().rss / 2**20
        print(f"bridge RSS while paused: {rss:.1f} MiB, {held} answers written or waiting")
        # once the server reads, it gets every answer: nothing was dropped
        go.touch()
        # the file is made before it is written: its count, not its name, says it is done
        wait_for(
            lambda: done.exists() and done.read_text() != "", "the server to read every answer", 180
        )
        assert done.read_text() == str(n)
    finally:
        bridge.kill()

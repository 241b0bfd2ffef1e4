"""The refusals a bridge records are bounded per run, whatever floods its pipe."""

from __future__ import annotations

import asyncio
import json
import os
import time

from roots_manager.bridge.protocol.inflight import Snapshot
from roots_manager.bridge.run.denials import BURST, Denials
from roots_manager.bridge.run.eventlog import BridgeLog
from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev


def test_a_flood_of_refusals_is_recorded_up_to_the_rate_and_the_rest_counted(
    layout: Layout,
) -> None:
    log = BridgeLog(layout, "srv", "sess")
    denials = Denials(log, lambda: Snapshot((), ()))
    read, write = os.pipe()
    os.set_blocking(read, False)
    flood = int(BURST) * 3
    line = {"time": time.time(), "pid": 1, "comm": "x", "operation": "read", "path": "/p"}
    lines = b"".join(json.dumps({**line, "path": f"/p/{i}"}).encode() + b"\n" for i in range(flood))
    loop = asyncio.new_event_loop()
    try:
        denials.follow(read, loop)
        done = 0
        while done < len(lines):
            done += os.write(write, lines[done : done + 60000])
            loop.run_until_complete(asyncio.sleep(0.001))
        os.close(write)
        denials.close()  # reads the rest, to the pipe's end
    finally:
        loop.close()
    # the whole flood arrives within a fraction of a second: the burst, and a little more
    assert BURST <= denials.told < BURST * 1.5
    log.close()
    recorded = [e for e in ev.iter_events(layout) if e["kind"] == ev.DENIAL]
    assert len(recorded) == denials.told
    said = [e for e in ev.iter_events(layout) if e["kind"] == ev.ERROR]
    assert len(said) == 1 and "refusals past 200 a second" in said[0]["message"]
    # every refusal is recorded, or counted: with a later one, or at the end
    counted = sum(e.get("dropped", 0) for e in recorded) + int(said[0]["message"].split()[0])
    assert len(recorded) + counted == flood

"""Log files of past bridge runs, made for the retention tests: real files with chosen sizes
and ages, and a live marker for a run whose bridge "runs" (a process that is alive)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log.retention import Swept
from roots_manager.core.runs import live
from roots_manager.core.store.state import now_iso

MIB = 1024 * 1024
DAY = 86400.0
WAIT = 60.0


def past_run(layout: Layout, run: str, mib: float, days_ago: float, parts: int = 1) -> list[Path]:
    """The event files of a bridge run that ended *days_ago*, *mib* MiB in all over *parts*."""
    made = []
    when = time.time() - days_ago * DAY
    for part in range(parts):
        path = layout.logs / f"{run}-{part:04d}.jsonl"
        line = b'{"kind":"message","session":"%s"}\n' % run.encode()
        size = int(mib * MIB / parts)
        path.write_bytes(line * (size // len(line)) + b" " * (size % len(line)))
        os.utime(path, (when + part, when + part))  # later parts are a little newer
        made.append(path)
    return made


def running(layout: Layout, run: str, pid: int | None = None) -> None:
    """Mark *run* as a bridge running now: its marker names a live process (this one)."""
    live.write_bridge_marker(
        layout,
        live.BridgeMarker(
            run=run,
            server="busy",
            pid=pid or os.getpid(),
            started_at=now_iso(),
            command=["busy-server"],
        ),
    )


def names(paths: list[Path]) -> set[str]:
    return {p.name for p in paths}


def removed(swept: Swept | None) -> set[str]:
    """The names of the files a sweep removed."""
    assert swept is not None, "the sweep did not run"
    return {f.path.name for f in swept.removed}


def remaining(layout: Layout) -> set[str]:
    return {p.name for p in layout.logs.glob("*.jsonl")}

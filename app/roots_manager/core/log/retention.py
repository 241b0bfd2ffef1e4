"""Keeping the traffic logs within their limits across bridge runs.

Each bridge run rotates its own files (:class:`roots_manager.core.log.events.EventWriter`), which
bounds one run; nothing bounded the sum of many runs. :func:`sweep_logs` removes event files,
oldest first (by modification time), until the log directory is within the size limit and holds
nothing older than the age limit (:class:`roots_manager.core.store.log_limits.LogRetention`). It never removes
a file of a bridge that is running now, nor one written in the last minute: a bridge that has just
started has a log file before its live marker.

Bridges sweep when they start (in the background) and whenever they rotate a file; ``roots-manager
log-retention`` sweeps when the limits are changed.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.runs import live
from roots_manager.core.store.file import Store, StoreError
from roots_manager.core.store.log_limits import LogRetention

GRACE = 60.0
"""Seconds during which a new file is kept whatever the limits (its bridge may be starting)."""


@dataclass(frozen=True)
class LogFile:
    """One event file as it was when looked at."""

    path: Path
    run: str
    size: int
    mtime: float


@dataclass(frozen=True)
class Swept:
    """What a sweep removed, and what the log directory holds after it."""

    removed: tuple[LogFile, ...]
    kept: tuple[LogFile, ...]

    @property
    def removed_bytes(self) -> int:
        return sum(f.size for f in self.removed)

    @property
    def kept_bytes(self) -> int:
        return sum(f.size for f in self.kept)


def log_usage(layout: Layout) -> list[LogFile]:
    """The event files of the log directory, oldest first (by modification time)."""
    found = []
    for path in ev.log_files(layout):
        try:
            st = path.lstat()
        except OSError:
            continue  # removed meanwhile
        run = ev.run_of(path)
        if run is not None and stat.S_ISREG(st.st_mode):
            found.append(LogFile(path, run, st.st_size, st.st_mtime))
    found.sort(key=lambda f: (f.mtime, f.path.name))
    return found


def sweep_logs(
    layout: Layout,
    limits: LogRetention,
    *,
    keep: Collection[str] = (),
    now: float | None = None,
) -> Swept:
    """Remove the oldest event files until the logs are within *limits*.

    The files of the bridge runs in *keep* and of every bridge running now count towards
    the size but are never removed, nor is any file written in the last :data:`GRACE` seconds.
    """
    now = time.time() if now is None else now
    running = set(keep) | live.live_runs(layout)
    files = log_usage(layout)
    total = sum(f.size for f in files)
    removed: list[LogFile] = []
    kept: list[LogFile] = []
    for f in files:
        age = now - f.mtime
        over = (limits.max_bytes is not None and total > limits.max_bytes) or (
            limits.max_age is not None and age > limits.max_age
        )
        if not over or f.run in running or age < GRACE:
            kept.append(f)
            continue
        try:
            os.unlink(f.path)
        except FileNotFoundError:
            pass  # another bridge's sweep took it: it is gone all the same
        except OSError:
            kept.append(f)
            continue
        total -= f.size
        removed.append(f)
    return Swept(tuple(removed), tuple(kept))


def sweep_by_settings(layout: Layout, keep: Collection[str] = ()) -> Swept | None:
    """Sweep with the limits saved in the store; None when the store cannot be read.

    A store that cannot be read says nothing about the limits the user chose, so nothing is
    removed then.
    """
    try:
        limits = Store(layout).read().log_retention
    except (StoreError, OSError):
        return None
    return sweep_logs(layout, limits, keep=keep)

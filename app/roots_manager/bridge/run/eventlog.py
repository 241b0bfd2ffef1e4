"""The bridge's traffic log and its live marker.

Events go to the run's JSON Lines file at once (the log views follow it live). A log that
cannot be written (a directory that is not writable, a full disk) is reported once on stderr and
otherwise ignored: the traffic matters more than its record. The live marker (what the desktop app and ``roots-manager servers list`` show about a running bridge) is
rewritten atomically in a worker thread, coalescing updates, so that an fsync never stalls the
relay. Across runs, all bridge runs' logs are kept within the limits saved in the store
(:mod:`roots_manager.core.log.retention`), swept in a thread when the bridge starts and at each
rotation.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sys
import threading
from pathlib import Path
from typing import Any

from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev
from roots_manager.core.log import retention
from roots_manager.core.runs import live
from roots_manager.core.store.log_limits import LogRetention
from roots_manager.support import oserror, writeerror

MARKER_DELAY = 0.1
"""Seconds an update of the live marker may wait for more updates to join it."""


class BridgeLog:
    """Event records and the live marker of one bridge run."""

    def __init__(self, layout: Layout, server: str, run: str) -> None:
        self.layout = layout
        self.server = server
        self.run = run
        self.counts: dict[str, int] = {}
        self.writer: ev.EventWriter | None = None
        self._sweeping = threading.Lock()
        try:
            self.writer = ev.EventWriter(layout, run, on_rotate=self.sweep)
        except OSError as exc:
            self._cannot_log(exc)
        self._marker: live.BridgeMarker | None = None
        self._early: dict[str, Any] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writing: asyncio.Future[None] | None = None
        self._dirty = False
        self._closed = False
        self._marker_gone = False
        self._marker_lock = threading.Lock()
        """Held by a marker write and by :meth:`ending`, so that no write lands after the
        removal."""

    def event(self, kind: EventKind, **fields: Any) -> None:
        """Record one event now."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if self._closed:
            return
        if self.writer is None:
            self.counts["lost"] = self.counts.get("lost", 0) + 1
            return
        try:
            self.writer.write(ev.event(kind, self.server, self.run, **fields))
        except Exception as exc:  # a log that fails is a warning, never a different answer
            if not self.counts.get("lost"):
                self._cannot_log(exc)
            self.counts["lost"] = self.counts.get("lost", 0) + 1

    @property
    def path(self) -> Path | None:
        """The file events go to now (None when there is no log)."""
        return self.writer.path if self.writer is not None else None

    def sweep(self, limits: LogRetention | None = None) -> None:
        """Bring every run's logs within the saved limits (*limits*, when the caller has just
        read them; else read from the store), in a thread of its own.

        Called when the bridge starts and at each rotation; reading the store and listing the
        log directory must not hold up the relay. One sweep at a time: what a second would
        find is this run's newest file, which is never removed anyway. A bridge that has just
        recorded its start passes the limits of what it wrote: reading tens of thousands of
        roots again in this thread held the first answer back by as long.
        """
        if self.layout.logs_elsewhere:
            # the limits and the live markers that guard running sessions belong to the
            # directory that owns the logs (the app's), not to this bridge's store
            return
        if self._closed or not self._sweeping.acquire(blocking=False):
            return
        threading.Thread(target=self._sweep, args=(limits,), name="log-sweep", daemon=True).start()

    def _sweep(self, limits: LogRetention | None) -> None:
        try:
            if limits is None:
                retention.sweep_by_settings(self.layout, keep=(self.run,))
            else:
                retention.sweep_logs(self.layout, limits, keep=(self.run,))
        finally:
            self._sweeping.release()

    def _cannot_log(self, exc: Exception) -> None:
        why = str(exc)
        if isinstance(exc, OSError):
            # a full disk met by a flush names no file: the log's own is named, so that it is
            # said in words, as the CLI says it of the store
            named = exc if exc.filename else writeerror.named(exc, self.path or self.layout.logs)
            why = oserror.message(named)
        with contextlib.suppress(OSError, ValueError):
            print(
                f"roots-bridge: the traffic log cannot be written ({why}); the server runs "
                "without it",
                file=sys.stderr,
                flush=True,
            )

    def start_marker(self, marker: live.BridgeMarker, loop: asyncio.AbstractEventLoop) -> None:
        """Begin keeping *marker* up to date; call on the event loop (written off it)."""
        self._loop = loop
        for k, v in self._early.items():
            setattr(marker, k, v)
        self._marker = marker
        if self._writing is None:
            self._flush()
        else:
            self._dirty = True

    def marker(self, **fields: Any) -> None:
        """Update fields of the live marker (written soon, off the event loop)."""
        if self._marker is None:
            # the marker is written once the run is recorded; keep what happened before
            self._early.update(fields)
            return
        for k, v in fields.items():
            setattr(self._marker, k, v)
        self._dirty = True
        if self._writing is None and self._loop is not None and not self._closed:
            # a burst of updates (every roots/list answered) makes one write, off the hot path
            self._writing = self._loop.create_future()
            self._loop.call_later(MARKER_DELAY, self._flush)

    def _flush(self) -> None:
        assert self._loop is not None and self._marker is not None
        if self._writing is not None and not self._writing.done():
            self._writing.set_result(None)
        if self._closed:
            self._writing = None
            return
        self._dirty = False
        snapshot = dataclasses.replace(self._marker)
        fut = self._loop.run_in_executor(None, self._write_marker, snapshot)
        self._writing = fut
        fut.add_done_callback(self._written)

    def _write_marker(self, marker: live.BridgeMarker) -> None:
        with self._marker_lock:  # never after ending() took the marker away
            if self._marker_gone:
                return
            with contextlib.suppress(OSError):
                live.write_bridge_marker(self.layout, marker)

    def _written(self, _: object) -> None:
        self._writing = None
        if self._dirty and not self._closed:
            self._flush()

    async def settle(self) -> None:
        """Wait for a marker write in flight."""
        while self._writing is not None:
            with contextlib.suppress(Exception):
                await self._writing
            await asyncio.sleep(0)

    def ending(self) -> None:
        """The run is ending (the host asked): take the live marker away now and write it no
        more, since a host's ladder may kill the bridge before :meth:`close` (Codex sends
        SIGKILL about 12 ms after SIGTERM); events are still written."""
        # a write in flight ends first: renamed into place after this, it would stay behind
        with self._marker_lock:
            self._marker_gone = True
            with contextlib.suppress(OSError):
                live.remove_bridge_marker(self.layout, self.run)

    def close(self) -> None:
        """Remove the live marker and close the log file."""
        self._closed = True
        with contextlib.suppress(OSError):
            live.remove_bridge_marker(self.layout, self.run)
        if self.writer is not None:
            with contextlib.suppress(OSError):
                self.writer.close()

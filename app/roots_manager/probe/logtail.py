"""The probe's view of its bridge's event log: what the server asked, what it was told.

The bridge may write into the user's log folder (so that the app's Log tab and ``roots-manager
log`` show the probe's traffic) while its store and live marker stay in the run's private
directory. Then the folder holds other bridges' runs too: the tail keeps to its bridge's run,
which the private live marker names (the only marker there), or, before the marker is written
or after the bridge has gone, the new run that started under the probe's server name with
the server's command line.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.log import events as ev
from roots_manager.core.runs import live

POLL = 0.02


class LogTail:
    """Every event the probe's bridge has written so far, read incrementally."""

    def __init__(self, layout: Layout, server: str = "", command: list[str] | None = None) -> None:
        self.layout = layout
        self.server = server
        self.command = command
        self.events: list[EventRecord] = []
        self.run: str | None = None
        """The bridge's run, once known (always None for a private log folder)."""
        self._offsets: dict[str, int] = {}
        self._before = {str(p) for p in ev.log_files(layout)} if layout.logs_elsewhere else set()

    def poll(self) -> list[EventRecord]:
        """Read what was written since the last poll; returns all events so far."""
        for path in self._files():
            records, self._offsets[str(path)] = ev.read_events(
                path, self._offsets.get(str(path), 0)
            )
            self.events.extend(records)
        return self.events

    def _files(self) -> list[Path]:
        files = ev.log_files(self.layout)
        if not self.layout.logs_elsewhere:
            return files
        if self.run is None:
            self.run = self._find_run(files)
        return [p for p in files if self.run is not None and ev.run_of(p) == self.run]

    def _find_run(self, files: list[Path]) -> str | None:
        for m in live.bridge_markers(self.layout, include_dead=True):
            if m.server == self.server:
                return m.run
        for path in files:
            if str(path) in self._before:
                continue
            first, _ = ev.read_events(path, 0)
            if (
                first
                and (start := first[0]).get("kind") == EventKind.RUN_START
                and start.get("server") == self.server
                and start.get("command") == self.command
            ):
                return ev.run_of(path)
        return None

    def count(self, kind: str) -> int:
        """How many events of *kind* so far."""
        return sum(1 for e in self.poll() if e.get("kind") == kind)

    async def wait(self, found: Callable[[list[EventRecord]], bool], timeout: float) -> bool:
        """Poll until *found* holds for the events so far; False if *timeout* passes first."""
        deadline = time.monotonic() + timeout
        while True:
            if found(self.poll()):
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(POLL)

    async def wait_kind(
        self, kind: str, after: int, timeout: float, uris: list[str] | None = None
    ) -> bool:
        """Wait for an event of *kind* beyond the first *after* of them (with these *uris*)."""

        def found(events: list[EventRecord]) -> bool:
            mine = [e for e in events if e.get("kind") == kind][after:]
            return any(uris is None or e.get("uris") == uris for e in mine)

        return await self.wait(found, timeout)

    def last_exit(self) -> tuple[int | str, str] | None:
        """How the bridge run ended (exit code, reason), from its ``session-end`` event."""
        for e in reversed(self.poll()):
            if e.get("kind") == EventKind.RUN_END:
                code = e.get("returncode", e.get("exit_code"))
                return (code if isinstance(code, (int, str)) else "?", str(e.get("reason") or ""))
        return None

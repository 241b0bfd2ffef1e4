"""The probe's view of its private bridge's event log: what the server asked, what it was told."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from roots_manager.core import events as ev
from roots_manager.core.paths import Layout

POLL = 0.02


class LogTail:
    """Every event the probe's bridge has written so far, read incrementally."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.events: list[dict[str, Any]] = []
        self._offsets: dict[str, int] = {}

    def poll(self) -> list[dict[str, Any]]:
        """Read what was written since the last poll; returns all events so far."""
        for path in ev.log_files(self.layout):
            records, self._offsets[str(path)] = ev.read_events(
                path, self._offsets.get(str(path), 0)
            )
            self.events.extend(records)
        return self.events

    def count(self, kind: str) -> int:
        """How many events of *kind* so far."""
        return sum(1 for e in self.poll() if e.get("kind") == kind)

    async def wait(self, found: Callable[[list[dict[str, Any]]], bool], timeout: float) -> bool:
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

        def found(events: list[dict[str, Any]]) -> bool:
            mine = [e for e in events if e.get("kind") == kind][after:]
            return any(uris is None or e.get("uris") == uris for e in mine)

        return await self.wait(found, timeout)

    def last_exit(self) -> str | None:
        """How the bridge run ended, from its ``session-end`` event, if it has."""
        for e in reversed(self.poll()):
            if e.get("kind") == ev.RUN_END:
                code = e.get("returncode", e.get("exit_code"))
                return f"exit code {code}" + (f" ({e['reason']})" if e.get("reason") else "")
        return None

"""Noticing that a server's effective roots may have moved: the store directory and the folders.

The store is watched through its *directory*: a save renames a new file over the old one, so a
watch on the file itself would miss every save after the first. Folder availability (a granted
folder deleted, unmounted or made unreadable, or coming back) is checked on a short period, because
a folder can vanish together with any of its ancestors, which no single watch covers.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable

from watchfiles import Change, awatch

from roots_manager.core.paths import Layout

STORE_DEBOUNCE_MS = 30
STORE_STEP_MS = 5
AVAILABILITY_PERIOD = 1.0


async def watch_store(layout: Layout, on_change: Callable[[], None], stop: asyncio.Event) -> None:
    """Call *on_change* after each burst of saves of the store file, until *stop* is set."""
    name = layout.store.name

    def only_store(_: Change, path: str) -> bool:
        return os.path.basename(path) == name

    while not stop.is_set():
        try:
            async for _ in awatch(
                layout.home,
                watch_filter=only_store,
                debounce=STORE_DEBOUNCE_MS,
                step=STORE_STEP_MS,
                stop_event=stop,
                recursive=False,
            ):
                on_change()
        except (OSError, RuntimeError):
            # the directory went away or the watcher failed: the availability period still
            # re-reads the store, so keep trying without busy-looping
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), AVAILABILITY_PERIOD)


async def every(period: float, tick: Callable[[], None], stop: asyncio.Event) -> None:
    """Call *tick* every *period* seconds until *stop* is set."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), period)
        if not stop.is_set():
            tick()

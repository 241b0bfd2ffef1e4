"""Waiting for something another process does: the one polling helper of the tests.

Qt tests wait with ``qtbot.waitUntil``/``waitSignal``; tests without an event loop (the bridge's,
the CLI's, log retention's) poll with :func:`wait_for`, also offered as the ``wait_for`` fixture.
The deadline only ends a failure; nothing is measured with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

WAIT = 30.0


def wait_for(cond: Callable[[], T], what: str, timeout: float = WAIT, step: float = 0.02) -> T:
    """Poll *cond* until it returns something truthy, and return that; fail saying *what* did
    not happen within *timeout* seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {timeout:.0f} s waiting for {what}")
        time.sleep(step)

"""The consent wait of a bridge run: the answers held while the user decides in the app.

A server's first start with the desktop app running asks the user which folders it may see.
Until the decision (or the timeout, counted from the first answer held), the server's
``roots/list`` waits; then the held answers go out with what is granted.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from roots_manager.bridge.run.eventlog import BridgeLog
from roots_manager.bridge.run.roots import HeldAnswers
from roots_manager.core.directory.records import EventKind


class ConsentWait:
    """The wait for the user's decision on a server, and its timer."""

    def __init__(
        self,
        answers: HeldAnswers,
        log: BridgeLog,
        timeout: float,
        *,
        on_open: Callable[[], object],
    ) -> None:
        self.answers = answers
        self.log = log
        self.timeout = timeout
        self._on_open = on_open
        self.waiting = False
        self._timer: asyncio.TimerHandle | None = None

    def begin(self, name: str, *, decided: bool, denied: bool = False) -> None:
        """Wait for the decision on server *name*; *decided*: it came already (*denied*: it
        was a denial)."""
        self.waiting = True
        self.log.event(
            EventKind.CONSENT_WAIT,
            timeout=self.timeout,
            message=f"waiting for your decision on {name!r} in the desktop app, up "
            f"to {self.timeout:g} s from the server's first roots/list",
        )
        if decided:
            self.over(False, denied=denied)
        elif self.answers.first_held is not None:
            self._arm()
        else:
            self.answers.on_first_hold = self._arm

    def _arm(self) -> None:
        # the wait is for a server that is waiting: it starts with the first answer held
        if not self.waiting or self._timer is not None:
            return
        first = self.answers.first_held
        waited = 0.0 if first is None else time.monotonic() - first
        self._timer = asyncio.get_running_loop().call_later(
            max(0.0, self.timeout - waited), self.over, True
        )

    def over(self, timed_out: bool, *, denied: bool = False) -> None:
        """The decision arrived (*denied*: the user denied the server), or the time for it ran
        out: the held answers go out."""
        if not self.waiting:
            return
        self.waiting = False
        if self._timer is not None:
            self._timer.cancel()
        if timed_out:
            message = (
                f"no decision within {self.timeout:g} s: answering with what is "
                "granted; a later grant reaches the server as list_changed"
            )
        elif denied:
            message = "you denied it: answering with no folder"
        else:
            message = "the decision arrived"
        self.log.event(
            EventKind.CONSENT_DECIDED,
            outcome="timeout" if timed_out else "denied" if denied else "decided",
            message=message,
            held=self.answers.waiting,
        )
        self.answers.open()
        self._on_open()

    def cancel(self) -> None:
        """The run ends: no timer goes off after it."""
        if self._timer is not None:
            self._timer.cancel()

"""The refusals of a confined server, read from its supervisor and written as denial events.

The supervisor (:mod:`roots_manager.sandbox.observer`) writes one JSON line per refusal on a
pipe the bridge made for it (:func:`roots_manager.bridge.run.confine.start`). The pipe's reading
end is watched by the event loop itself (``add_reader``): an idle bridge sleeps in the kernel,
and a line is read as soon as it is written. Each line becomes a ``denial`` event tied to the
host's requests the server had at the refusal's time
(:class:`~roots_manager.bridge.protocol.inflight.InFlight`, read as a snapshot).

The observer folds floods (one line per folder and operation per second), so the events are
bounded however many calls are refused; what is buffered here is one unfinished line at most
(:data:`LINE_MAX`). Whatever goes wrong here is a warning in the log, once: the server runs on,
confined as ever, its refusals untold.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable

from roots_manager.bridge.protocol.inflight import Snapshot
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import denials
from roots_manager.core.log import events as ev

TYPE_CHECKING = False  # not typing's: see roots_manager.bridge.main
if TYPE_CHECKING:
    from roots_manager.bridge.run.eventlog import BridgeLog

RATE = 200.0
"""Denial events a second a run records, at most, over time (:data:`BURST` at once): the
observer folds floods already, and its lines are read as untrusted anyway; past the limit they
are counted, and the count is told with the next one recorded (``dropped``)."""
BURST = 2000.0
LINE_MAX = 64 * 1024
"""The longest line kept while waiting for its end (a path is at most 4 KiB)."""
READ_SIZE = 256 * 1024
RECENT = 10.0
"""Seconds before a confined server's own end whose refusals are told on the bridge's stderr
(the host's log): what it was refused just before it failed is most likely why."""
TOLD_AT_END = 5
"""Distinct refusals (by operation and folder) told there at most; the rest are counted."""


class Denials:
    """Reads one server's refusals (a restart gives each new server its own pipe)."""

    def __init__(self, log: BridgeLog, snapshot: Callable[[], Snapshot] | None) -> None:
        self.log = log
        self.snapshot = snapshot
        """The host's requests now (None: not kept, every refusal is "between requests")."""
        self.told = 0
        self._fds: dict[int, bytearray] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._warned = False
        self._tokens = BURST
        self._filled = time.monotonic()
        self.dropped = 0
        """Refusals past :data:`RATE` not recorded since the last one that was."""
        self.recent: collections.deque[tuple[float, dict[str, object]]] = collections.deque(
            maxlen=256
        )
        """The last refusals recorded, with when (monotonic), for :meth:`tell_host`."""
        self.on_held: Callable[[dict[str, object], Snapshot], bool] | None = None
        """For a server that asks: told each read its supervisor holds (its line, and the
        host's requests now), it says whether it is a question (:meth:`.asking.Asking.held`);
        one that is not is recorded as a refusal."""
        self.on_answered: Callable[[str], None] | None = None
        """Told the path of each read whose question is over."""

    def _allowed(self) -> bool:
        now = time.monotonic()
        self._tokens = min(BURST, self._tokens + (now - self._filled) * RATE)
        self._filled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def follow(self, fd: int | None, loop: asyncio.AbstractEventLoop) -> None:
        """Read the refusals told on *fd* (None: this server's are not observed) until its end."""
        if fd is None:
            return
        self._loop = loop
        try:
            loop.add_reader(fd, self._readable, fd)
        except (OSError, ValueError, NotImplementedError) as exc:
            self._warn(f"its refusals cannot be read: {exc}")
            os.close(fd)
            return
        self._fds[fd] = bytearray()

    def _readable(self, fd: int) -> None:
        try:
            data = os.read(fd, READ_SIZE)
        except BlockingIOError:
            return
        except OSError as exc:
            self._warn(f"its refusals cannot be read: {exc}")
            self._end(fd)
            return
        if not data:
            self._end(fd)
            return
        try:
            self._lines(fd, data)
        except Exception as exc:  # a warning, never a failed server
            self._warn(f"a refusal could not be recorded: {exc!r}")

    def _lines(self, fd: int, data: bytes) -> None:
        pending = self._fds[fd]
        pending += data
        end = pending.rfind(b"\n")
        if end < 0:
            if len(pending) > LINE_MAX:
                pending.clear()
            return
        lines = bytes(pending[:end])
        del pending[: end + 1]
        snap = self.snapshot() if self.snapshot is not None else Snapshot((), ())
        for line in lines.split(b"\n"):
            self.record(line, snap)

    def record(self, line: bytes, snap: Snapshot) -> None:
        """Write the denial event for one line of the observer."""
        try:
            refusal = json.loads(line)
        except ValueError:
            return
        if not isinstance(refusal, dict) or not isinstance(refusal.get("time"), int | float):
            return
        answered = refusal.get("answered")
        if isinstance(answered, str):  # a read that waited for the user's answer is over
            self._answered(answered, refusal.get("served") is True)
            if self.on_answered is not None:
                self.on_answered(answered)
            return
        # a read held is answered whatever becomes of its line: a question, or refused now
        held = "waits" in refusal
        if held and (self.on_held is None or not self.on_held(refusal, snap)):
            del refusal["waits"]
        attribution = denials.attribute(float(refusal["time"]), snap.requests, snap.start_ups)
        found = denials.fields(refusal, attribution)
        if found is None:
            return
        if not self._allowed():
            self.dropped += 1
            return
        if self.dropped:
            found["dropped"] = self.dropped
            self.dropped = 0
        self.told += 1
        self.recent.append((time.monotonic(), found))
        self.log.event(EventKind.DENIAL, **found)

    def _answered(self, path: str, served: bool) -> None:
        if not self._allowed():
            self.dropped += 1
            return
        outcome = "read, granted while it waited" if served else "refused"
        self.log.event(
            EventKind.MESSAGE,
            message=f"the read of {path} that waited for an answer was {outcome}",
            answered=path,
            served=served,
        )

    def tell_host(self, server: str, *, home: str) -> int:
        """Write on stderr (the host's log) what the server was refused in its last
        :data:`RECENT` seconds, one line per operation and folder, each with the command that
        allows it; returns how many lines. For a server that ended by itself: the host shows
        "connection closed", and the refusal is the likeliest why."""
        from roots_manager.core.confinement.offers import allow_command, allow_words

        since = time.monotonic() - RECENT
        distinct: dict[tuple[object, object], dict[str, object]] = {}
        for when, found in self.recent:
            if when >= since:
                where = found.get("domain") or found.get("folder")  # the proxy's: per domain
                distinct.setdefault((found.get("operation"), where), found)
        if not distinct:
            return 0
        lines = []
        for found in list(distinct.values())[:TOLD_AT_END]:
            command, why = allow_command(server, found, home=home)
            said = denials.summary(ev.event(EventKind.DENIAL, server, "", **found), process=True)
            lines.append(
                f"roots-bridge: {denials.shown(server)}: confined: {said}; "
                + allow_words(command, why)
            )
        more = len(distinct) - TOLD_AT_END
        if more > 0:
            lines.append(f"roots-bridge: {denials.shown(server)}: {more} more refused")
        lines.append(
            f"roots-bridge: {denials.shown(server)}: every refusal: roots-manager denials "
            "--since 1m, or the app's Log tab"
        )
        with contextlib.suppress(OSError, ValueError):
            print("\n".join(lines), file=sys.stderr, flush=True)
        return len(lines)

    def _end(self, fd: int) -> None:
        if self._loop is not None:
            with contextlib.suppress(OSError, ValueError, RuntimeError):
                self._loop.remove_reader(fd)
        self._fds.pop(fd, None)
        with contextlib.suppress(OSError):
            os.close(fd)

    def close(self) -> None:
        """Record what is left in the pipes (the folded counts a supervisor tells at its
        server's end), and stop reading."""
        for fd in list(self._fds):
            while fd in self._fds:
                self._readable(fd)
                if fd in self._fds and not _more(fd):
                    self._end(fd)
        if self.dropped:
            self.log.event(
                EventKind.ERROR,
                message=f"{self.dropped} refusals past {RATE:g} a second were not recorded",
            )
            self.dropped = 0

    def _warn(self, message: str) -> None:
        if self._warned:
            return
        self._warned = True
        self.log.event(EventKind.ERROR, message=f"{message}; the server runs confined, untold")


def _more(fd: int) -> bool:
    import select

    try:
        return bool(select.select([fd], [], [], 0)[0])
    except (OSError, ValueError):
        return False

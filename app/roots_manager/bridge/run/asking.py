"""What the supervisor of a confined server that asks is told: whether a request waits, and the
folders granted since the server started.

A server set to ask (``roots-manager servers ask NAME SECONDS``) has its reads outside its grants
held while a host's request is in flight (:mod:`roots_manager.sandbox.asking`, where the
protocol is). The user may also answer for the reads waiting now only, or until the server
ends, with nothing saved (:meth:`Asking.allow`). The bridge knows both halves: the host's
requests (the protocol's :class:`~roots_manager.bridge.protocol.inflight.InFlight`, which calls
:meth:`Asking.requests` as the first opens and the last closes) and the grants (the store,
looked at again at each of its changes, :meth:`Asking.granted`). A folder granted since the
start is sent with the places in it the server may not read (the secrets of the protected
table, the user's ``--hide``), worked out as a start would
(:func:`~roots_manager.core.confinement.confined.rules_for`).

Writes never wait: the pipe is non-blocking, and a message that does not fit is dropped (the
next one says the whole state again). Whatever goes wrong here leaves the server as it was:
its refusals refused at once.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable

from roots_manager.core.directory.layout import inside

TYPE_CHECKING = False  # not typing's: see roots_manager.bridge.main
if TYPE_CHECKING:
    from roots_manager.core.confinement.rules import Rules


class Asking:
    """One confined server's answers pipe (a restart gives each new server its own)."""

    def __init__(self, fd: int, readable: tuple[str, ...], rules: Callable[[], Rules | None]):
        """*fd*: the pipe's writing end (closed by :meth:`close`); *readable*: the folders the
        server could read at its start; *rules*: the rules a start would have now (None: the
        store cannot be read, and nothing changes)."""
        self.fd = fd
        self.readable = readable
        self.rules = rules
        self.asking = False
        self.sent: list[dict[str, object]] | None = None
        self.for_run: list[str] = []
        """Folders and files the user allowed for the rest of this server's run, unsaved
        (``roots-manager answer N ... --for run``)."""

    def requests(self, in_flight: bool) -> None:
        """A host's request is in flight now, or none is."""
        if in_flight != self.asking:
            self.asking = in_flight
            self._send({"asking": in_flight})

    def granted(self) -> None:
        """Look at the grants again: tell the folders granted since the start, if they
        changed since last told."""
        rules = self.rules()
        if rules is None:
            return
        now = {*rules.read_write, *rules.read_only, *self.for_run}
        new = sorted(p for p in now if not any(inside(p, r) for r in self.readable))
        allow = [self._served(p, rules) for p in new]
        if allow != self.sent:
            self.sent = allow
            self._send({"allow": allow})

    def allow(self, path: str, duration: str) -> bool:
        """Serve the reads of *path* (a folder or a file) with nothing saved: those waiting
        now (*duration* ``once``), or every one until the server ends (``run``). False: the
        store cannot be read, so the secrets to keep hidden there are not known, and nothing
        is served."""
        rules = self.rules()
        if rules is None:
            return False
        if duration == "run":
            if path not in self.for_run:
                self.for_run.append(path)
            self.granted()
        else:
            self._send({"once": [self._served(path, rules)]})
        return True

    @staticmethod
    def _served(path: str, rules: Rules) -> dict[str, object]:
        """*path* as the supervisor is told it: with the places in it the server may not read."""
        return {"path": path, "hidden": [h for h in rules.hide if inside(h, path)]}

    def deny(self) -> None:
        """Refuse the reads waiting now (the user said no)."""
        self._send({"deny": True})

    def _send(self, message: dict[str, object]) -> None:
        if self.fd < 0:
            return
        with contextlib.suppress(OSError):  # full (told again next time) or the server gone
            os.write(self.fd, json.dumps(message).encode() + b"\n")

    def close(self) -> None:
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1

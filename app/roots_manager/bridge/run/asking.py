"""What the supervisor of a confined server that asks is told: which of its refusals are
questions, and the folders (and, for a server limited to domains, the domains) granted since
the server started.

Every confined server asks by default (``roots-manager servers ask NAME SECONDS|off``): its
supervisor holds a read outside its grants and tells it as a refusal that waits
(:mod:`roots_manager.sandbox.asking`, where the protocol is), and the bridge says at once
whether it is a question (:meth:`Asking.held`): a host's request is in flight and someone can
answer (the app runs, or ``roots-manager questions --follow``). The user may also answer for the
reads waiting now only, or until the server ends, with nothing saved (:meth:`Asking.allow`). The
bridge knows what it takes: the host's requests (the protocol's
:class:`~roots_manager.bridge.protocol.inflight.InFlight`: its snapshot, every line noted
counted first, and :meth:`Asking.requests` as the last closes) and the grants (the store,
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

from roots_manager.support.paths import inside

TYPE_CHECKING = False  # not typing's: see roots_manager.bridge.main
if TYPE_CHECKING:
    from roots_manager.bridge.protocol.inflight import Snapshot
    from roots_manager.core.confinement.rules import Rules


class Asking:
    """One confined server's answers pipe (a restart gives each new server its own)."""

    def __init__(
        self,
        fd: int,
        readable: tuple[str, ...],
        rules: Callable[[], Rules | None],
        answerer: Callable[[], bool],
    ):
        """*fd*: the pipe's writing end (closed by :meth:`close`); *readable*: the folders the
        server could read at its start; *rules*: the rules a start would have now (None: the
        store cannot be read, and nothing changes); *answerer*: whether someone can answer a
        question now."""
        self.fd = fd
        self.readable = readable
        self.rules = rules
        self.answerer = answerer
        self.questions: set[str] = set()
        """The paths of the reads that wait for the user's answer now."""
        self._own: tuple[str, ...] | None = None
        """Roots Manager's own code and state, never offered (worked out at the first
        question)."""
        self.sent: list[dict[str, object]] | None = None
        self.sent_domains: list[str] | None = None
        """The domains last told, for a server limited to them (None: none told)."""
        self.domains_for_run: list[str] = []
        """Domains the user allowed for the rest of this server's run, unsaved."""
        self.for_run: list[str] = []
        """Folders and files the user allowed for the rest of this server's run, unsaved
        (``roots-manager answer N ... --for run``)."""

    def held(self, refusal: dict[str, object], now: Snapshot) -> bool:
        """The supervisor holds a read it refused (*refusal*, its line): say whether it is a
        question, and return it. It is one when a host's request other than the handshake is
        open in *now*, someone can answer, and the path may be offered (never a secret, a
        protected place or Roots Manager's own code: :func:`~roots_manager.core.confinement.
        offers.offers`). Not one, the read is refused now."""
        from roots_manager.bridge.protocol.inflight import HANDSHAKES
        from roots_manager.core.confinement.offers import offers, own_folders

        path = refusal.get("path")
        if not isinstance(path, str):
            return False
        question = any(r.ended is None and r.method not in HANDSHAKES for r in now.requests)
        if question and self._own is None:
            self._own = own_folders()
        question = (
            question
            and not any(inside(path, top) for top in self._own or ())
            and bool(offers(refusal, home=os.path.expanduser("~"), own=self._own).offers)
            and self.answerer()
        )
        self._send({"ask" if question else "refuse": path})
        if question:
            self.questions.add(path)
        return question

    def answered(self, path: str) -> None:
        """The question of the read of *path* is over (served or refused)."""
        self.questions.discard(path)

    def requests(self, in_flight: bool) -> None:
        """A host's request is in flight now, or none is: at none, the questions held are
        over."""
        if not in_flight:
            self._send({"idle": True})

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
        domains = list(rules.domains) if rules.network and rules.domains is not None else None
        if domains is not None:
            domains += [d for d in self.domains_for_run if d not in domains]
        if domains is not None and domains != self.sent_domains:
            self.sent_domains = domains  # its proxy reaches them from now on, no restart
            self._send({"domains": domains})

    def allow(self, path: str, duration: str, *, domain: bool = False) -> bool:
        """Serve the reads of *path* (a folder or a file) with nothing saved: those waiting
        now (*duration* ``once``), or every one until the server ends (``run``); with
        *domain*, the connections to the domain *path* instead. False: the store cannot be
        read, so the secrets to keep hidden there are not known, and nothing is served."""
        rules = self.rules()
        if rules is None:
            return False
        if domain:
            if duration == "run":
                if path not in self.domains_for_run:
                    self.domains_for_run.append(path)
                self.granted()
            else:
                self._send({"domains_once": [path]})
            return True
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

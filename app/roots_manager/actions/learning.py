"""Learning a server's grants: run it confined for a while, note what it is refused, and propose
the smallest grants that would have allowed it (:mod:`roots_manager.core.confinement.learning`),
to accept (all, or those the user keeps) or leave.

:func:`start` turns the server's confinement on if it is off (a running bridge restarts its
server confined; a bridge started later starts it so) and notes the time; the front end waits
as long as it likes, calling :meth:`Learning.collect` to show the refusals so far;
:func:`proposal` is what they ask for; :func:`finish` grants what the user accepted through the
grant and confinement use cases and, when nothing was accepted, turns confinement back off if
learning had turned it on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from roots_manager.actions import confinement as confine_actions
from roots_manager.actions import consent as consent_actions
from roots_manager.actions.servers import resolve
from roots_manager.core.confinement import confined
from roots_manager.core.confinement import learning as rule
from roots_manager.core.directory.records import EventRecord
from roots_manager.core.servers.server import Network
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Scope
from roots_manager.support.refusal import Refusal

if TYPE_CHECKING:
    from roots_manager.core.log.denial_reader import Reader


class CannotConfine(Refusal):
    """Learning was asked for where this machine cannot confine a server."""

    def __init__(self, reason: str) -> None:
        super().__init__(rule.CANNOT_CONFINE, reason=reason)


class AlreadyLearning(Refusal):
    """The server is being learned already, by another process that is still running."""

    def __init__(self, server: str, pid: int) -> None:
        super().__init__(rule.ALREADY_LEARNING, server=server, pid=str(pid))


@dataclass
class Learning:
    """A server being learned: since when, and the refusals seen so far."""

    server: str
    """The server's stored name."""
    started: float
    """When learning started (seconds since the epoch): older refusals are not looked at."""
    turned_on: bool
    """Whether learning turned the server's confinement on (it was off, or not decided yet)."""
    unconfined_runs: int = 0
    """The server's bridge runs live at the start that run it unconfined and cannot restart it
    (neither confined nor restarted on revoke when it started): until its host starts it again,
    such a server is not learned from."""
    before: bool | None = False
    """The setting learning changed, to put back when nothing is accepted (None: not decided,
    so the default decides again)."""
    denials: list[EventRecord] = field(default_factory=list)
    """The server's denial events since :attr:`started`, as read by :meth:`collect`."""
    _reader: Reader | None = field(default=None, repr=False)

    def collect(self, store: Store) -> int:
        """Read the denial events written since the last call; how many refusals so far (folded
        ones counted)."""
        if self._reader is None:
            from roots_manager.core.log.denial_reader import Reader

            self._reader = Reader(store.layout, self.server, self.started)
        self.denials += self._reader.read()
        return self.refusals

    @property
    def refusals(self) -> int:
        """How many refusals were seen so far, folded ones counted."""
        return sum(
            (1 if d.get("path") else 0) + (d["folded"] if isinstance(d.get("folded"), int) else 0)
            for d in self.denials
        )


def start(store: Store, server: str) -> Learning:
    """Start learning known *server*: its confinement on from now (it takes effect as
    ``servers confine`` does: a running server is restarted confined). Raises
    :class:`CannotConfine` where this machine cannot confine, and
    :class:`~roots_manager.actions.servers.UnknownServer` for a name nobody has seen."""
    from roots_manager.core.runs import live
    from roots_manager.sandbox.availability import availability

    with store.transaction() as state:
        name = resolve(state, server)
        found = availability()
        if not found.available:
            raise CannotConfine(found.reason)
        earlier = live.learning_marker(store.layout, name)
        if earlier is not None and earlier.alive:
            raise AlreadyLearning(name, earlier.pid)
        now = state.servers[name].confine
        # a learning that ended without finishing left confinement on: what it turned on is
        # this one's to put back, from the setting the user had before either
        before = now if earlier is None else earlier.before
        turned_on = before is not True
        if now is not True:
            confined.set_confinement(state, name, True)
        started = time.time()
        live.write_learning_marker(store.layout, name, started, before)
    stuck = [
        m
        for m in live.bridge_markers(store.layout)
        if m.server == name and not m.confined and not m.restartable
    ]
    return Learning(name, started, turned_on, len(stuck), before=before)


def proposal(store: Store, learning: Learning, *, home: str | None = None) -> rule.Proposal:
    """The grants that would have allowed what *learning* saw refused, for the user whose home
    is *home* (None: this user's), less what the server may do now."""
    state = store.read()
    write, read = confined.granted_folders(state, learning.server)
    granted = {**dict.fromkeys(read, True), **dict.fromkeys(write, False)}
    srv = state.servers.get(learning.server)
    if srv is not None:
        granted.update(dict.fromkeys(srv.allow_read, True))
        granted.update(dict.fromkeys(srv.allow_write, False))
    domains: list[str] | None = []  # what it may reach now; None: the whole network
    if srv is not None:
        domains = None if srv.network is Network.ALLOWED else confined.limited_to(srv)
    home = os.path.expanduser("~") if home is None else home
    return rule.propose(learning.denials, home=home, granted=granted, domains=domains)


@dataclass(frozen=True)
class Learned:
    """What :func:`finish` did."""

    server: str
    granted: tuple[rule.Proposed, ...]
    """The grants accepted and made."""
    confined: bool
    """Whether the server is confined now."""
    restored: bool
    """Whether learning's turning confinement on was undone (nothing was accepted)."""


def finish(store: Store, learning: Learning, accepted: Sequence[rule.Proposed]) -> Learned:
    """End *learning*: grant *accepted* (grants of its :func:`proposal`; folders as roots
    granted always, files as extra paths of the server's confinement). When nothing is
    accepted, a confinement learning turned on is turned back off. A server's own folder
    (:attr:`~roots_manager.core.confinement.learning.Kind.CREATE`) is made, then allowed; a
    domain (:attr:`~roots_manager.core.confinement.learning.Kind.DOMAIN`) is added to those its
    network is limited to."""
    name = learning.server
    for read_only in (True, False):
        folders = [
            g.path for g in accepted if g.kind is rule.Kind.FOLDER and g.read_only is read_only
        ]
        if folders:
            consent_actions.grant(store, name, folders, Scope.ALWAYS, read_only=read_only)
    files = [g for g in accepted if g.kind is rule.Kind.FILE]
    if files:
        confine_actions.confine(
            store,
            name,
            allow_read=[g.path for g in files if g.read_only],
            allow_write=[g.path for g in files if not g.read_only],
        )
    made = [g.path for g in accepted if g.kind is rule.Kind.CREATE]
    if made:
        confine_actions.confine(store, name, allow_write=made, create=True)
    domains = [g.path for g in accepted if g.kind is rule.Kind.DOMAIN]
    if domains:
        confine_actions.allow_domains(store, name, domains)
    restored = not accepted and learning.turned_on
    if restored:
        srv = confine_actions.restore(store, name, learning.before)
    else:
        srv = confine_actions.confine(store, name)
    from roots_manager.core.runs import live

    live.remove_learning_marker(store.layout, name)
    return Learned(name, tuple(accepted), srv.confine is True, restored)


def put_back(store: Store, server: str) -> bool:
    """Put back what a learning of *server* that ended without finishing changed (it was killed
    before it could): its confinement setting from before, as a finished learning that nothing
    was accepted from does. Whether there was such a learning to undo (one still running, or
    none, leaves everything as it is)."""
    from roots_manager.core.runs import live

    mark = live.learning_marker(store.layout, server)
    if mark is None or mark.alive:
        return False
    confine_actions.restore(store, server, mark.before)
    live.remove_learning_marker(store.layout, server)
    return True

"""Why a running server must be restarted behind the host's back: a pure decision.

A confined server's Landlock domain can only shrink, and only from inside, so a server whose
grants change must start again under new rules; a server that keeps the roots it was once told
must start again to forget a revoked one; a server given its folders on its command line learns
them only when it starts. :func:`restart_reason` decides from what the run has seen
(:class:`Seen`), given as values: it reads no file and no clock, and is tested by table
(``tests/bridge/protocol/test_restart_policy.py``). The run
(:mod:`roots_manager.bridge.run.restarts`) gathers what it sees and carries the restart out.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from dataclasses import dataclass

Key = tuple[tuple[str, ...], ...]
"""What a confined start depends on (:func:`roots_manager.core.confinement.confined.
confinement_key`): the folders it writes and reads first."""


class Why(enum.Enum):
    """The kind of reason a server is restarted; its value is how the log words it."""

    ASKED = "asked by"
    """The user asked (``roots-manager restart``, the app's Restart now); the detail says who."""
    REVOKED = "revoked:"
    """Folders it may touch or was told were taken away; the detail names them."""
    FOLDERS_CHANGED = "its folders changed"
    """The folders its command line gives it (``{roots}``) changed, none taken away."""
    CONFINEMENT_ON = "confinement was turned on"
    CONFINEMENT_OFF = "confinement was turned off"
    GRANTS_CHANGED = "its grants changed"
    """What confines it changed, nothing taken away."""


@dataclass(frozen=True)
class Restart:
    """Why the server is restarted: the kind, and the detail (who asked, what was revoked)."""

    why: Why
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.why.value} {self.detail}" if self.detail else self.why.value


def _revoked(gone: Collection[str]) -> Restart:
    return Restart(Why.REVOKED, ", ".join(sorted(gone)))


@dataclass(frozen=True)
class Seen:
    """What a run has seen of its server and of the store, for :func:`restart_reason`."""

    running: Key | None
    """The confinement the server runs under (None: not confined)."""
    told: Collection[str]
    """The root URIs the server was told."""
    current: Sequence[str]
    """The root URIs it would be told now."""
    forced: bool = False
    """``--confine``: every start is confined, whatever the store says."""
    decided: bool = False
    """Whether the store (or, while undecided, the start's default) confines it."""
    setting: bool | None = None
    """The server's restart-on-revoke setting (None: the default, which follows confinement)."""
    ceiling: bool = False
    """The host started it confined: no restart behind its back undoes that."""
    given: Sequence[str] | None = None
    """The folders its command line gave it at start (None: it has no ``{roots}``)."""
    given_now: Sequence[str] = ()
    """The folders its command line would give it now."""
    asks: bool = False
    """Its supervisor serves the folders granted since its start to read
    (:mod:`roots_manager.sandbox.asking`): a folder granted to read is read without a
    restart."""
    questions: bool = False
    """A read of its waits for the user's answer now: a grant that answers it is served
    first, and restarts it (for writing) only once the question is over."""

    @property
    def restarts_on_revoke(self) -> bool:
        """Whether a revocation restarts it: the setting, else whenever it is confined."""
        if self.setting is not None:
            return self.setting
        return self.forced or self.decided or self.ceiling

    @property
    def needs_key(self) -> bool:
        """Whether :func:`restart_reason` looks at the confinement now (its key is worth
        working out: it reads the folders)."""
        return self.running is not None or self.forced or self.decided or self.restarts_on_revoke


def restart_reason(seen: Seen, key: Key | None) -> Restart | None:
    """Why the server must be restarted, or None. *key* is the confinement a start would have
    now, no looser than the host's start (looked at only when :attr:`Seen.needs_key`): a
    change that would loosen it waits for the host's next start and is no reason."""
    if seen.given is not None and list(seen.given_now) != list(seen.given):
        # such a server learns its folders only when it starts: any change restarts it
        taken = set(seen.given) - set(seen.given_now)
        return _revoked(taken) if taken else Restart(Why.FOLDERS_CHANGED)
    if not seen.needs_key:
        return None
    wanted = seen.restarts_on_revoke
    if key != seen.running:
        if seen.running is None:
            return Restart(Why.CONFINEMENT_ON)
        if key is None:
            return Restart(Why.CONFINEMENT_OFF)
        if wanted:
            gone = set(seen.running[0] + seen.running[1]) - set(key[0] + key[1])
            if gone:
                return _revoked(gone)
            return None if _served(seen, seen.running, key) else Restart(Why.GRANTS_CHANGED)
    if wanted and seen.told:
        gone = set(seen.told) - set(seen.current)
        if gone:
            return _revoked(gone)
    return None


def _served(seen: Seen, running: Key, key: Key) -> bool:
    """Whether the change from *running* to *key* (no folder taken away) is served by the
    supervisor of a server that asks, with no restart: only folders granted (to read, or to
    write while a question waits: its answer is served first, and the restart for writing
    comes once the question is over), and domains added to a server limited to them (its
    proxy is told). Anything else (a folder made writable, a place kept inside a grant, the
    network otherwise, a socket, an extra path) needs the kernel's new rules."""
    if not seen.asks or key[2:5] != running[2:5] or key[6:] != running[6:]:
        return False
    if key[5] != running[5] and not _domains_added(running[5], key[5]):
        return False
    return seen.questions or not set(key[0]) - set(running[0])


def _domains_added(running: tuple[str, ...], key: tuple[str, ...]) -> bool:
    """Whether the network part of a key only adds domains to a server limited to them: its
    proxy is told, and reaches them without a restart (:mod:`roots_manager.sandbox.asking`)."""
    return "domains" in running and "domains" in key and set(running) <= set(key)

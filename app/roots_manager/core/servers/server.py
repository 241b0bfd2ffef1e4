"""A server Roots Manager knows: the command line approved for it and the one it last ran with,
how it is confined, and the user's last answer about it.

Its name is checked where it is first recorded (:func:`roots_manager.core.store.state.server_name_error`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from roots_manager.core.servers.defaults import ASK_SECONDS_DEFAULT
from roots_manager.core.store.grants import Decision


class Network(StrEnum):
    """What a confined server's network is (stored as its value, like
    :class:`~roots_manager.core.store.grants.Decision`)."""

    ALLOWED = "allowed"
    """The whole network."""
    BLOCKED = "blocked"
    """No network socket: TCP, UDP, raw or any other family but Unix sockets (as
    :attr:`Server.allow_socket` says) and the kernel's own netlink."""
    DOMAINS = "domains"
    """Only through Roots Manager's proxy, and through it only :attr:`Server.network_domains`."""


@dataclass
class Server:
    name: str
    fingerprint: str | None = None
    """The approved command fingerprint; None until a command has used the name."""
    command: list[str] | None = None
    """The command line last seen running under this name."""
    seen_fingerprint: str | None = None
    first_seen: str | None = None
    last_seen: str | None = None
    confine: bool | None = None
    """Start the server confined to its grants (:mod:`roots_manager.core.confinement.derive`).

    None: not decided yet. Its first start decides, where the machine is known: confined when
    the store's ``confine_new`` setting is on and the machine can confine (the bridge records
    the outcome, :meth:`~roots_manager.core.store.state.State.server_started`)."""
    allow_read: list[str] = field(default_factory=list)
    """Extra paths a confined server may read (besides its grants and what it needs to run)."""
    allow_write: list[str] = field(default_factory=list)
    """Extra paths a confined server may read and write."""
    allow_socket: list[str] = field(default_factory=list)
    """Unix sockets, by path, a confined server may connect to (it may connect to no other)."""
    network: Network = Network.ALLOWED
    """What a confined server's network is: all of it, none, or its :attr:`network_domains`."""
    network_domains: list[str] = field(default_factory=list)
    """The domains a confined server reaches through Roots Manager's proxy when its
    :attr:`network` is limited to them (:mod:`roots_manager.support.domains`; empty: none).
    Kept while its network is allowed or blocked, so that limiting it again brings them back."""
    restart_on_revoke: bool | None = None
    """Restart the server behind the host's back when a folder it was told is revoked (and,
    confined, whenever its rules change); None: the default, on for confined servers only."""
    max_processes: int | None = None
    """The most processes a confined server's tree may hold at once (None: the default,
    :data:`~roots_manager.core.confinement.rules.MAX_PROCESSES`); a fork past it fails with
    ``EAGAIN``."""
    ask_seconds: int | None = None
    """How long a confined server's read outside its grants, made while the host waits for a
    request and someone can answer, waits for the user to grant a folder holding it (None: the
    default, :data:`~roots_manager.core.servers.defaults.ASK_SECONDS_DEFAULT`; 0: refused at
    once); see :mod:`roots_manager.sandbox.asking`."""
    decision: Decision | None = None
    """The user's answer to the last consent request about this server (None: never asked,
    or decided before this was kept)."""
    decided_at: str | None = None

    @property
    def restarts_on_revoke(self) -> bool:
        """Whether a revocation restarts this server (its setting, or the default)."""
        return bool(self.confine) if self.restart_on_revoke is None else self.restart_on_revoke

    @property
    def asks(self) -> int:
        """Seconds a read outside its grants waits for the user's answer (0: it never does)."""
        return ASK_SECONDS_DEFAULT if self.ask_seconds is None else self.ask_seconds

    @property
    def suspended(self) -> bool:
        """True when the last command seen differs from the approved one."""
        return (
            self.fingerprint is not None
            and self.seen_fingerprint is not None
            and self.fingerprint != self.seen_fingerprint
        )

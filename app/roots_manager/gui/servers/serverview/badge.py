"""A server's status badge: running or not, confined or advisory, stale, what waits for the
user, and the refusals since the user last looked."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from roots_manager.gui.servers.serverview.facts import ServerFacts


class Protection(enum.Enum):
    """How the kernel holds the server to its folders."""

    CONFINED = "confined"
    """It runs confined, or (not running) starts confined."""
    CONFINED_NEXT_START = "confined-next-start"
    """Set to confined, but a bridge runs it unconfined: it is confined from its next start."""
    ADVISORY = "advisory"
    """Roots are advice to it: it may read anything its user can."""


class Attention(enum.Enum):
    """What about the server waits for the user, if anything."""

    CONSENT_PENDING = "consent-pending"
    COMMAND_CHANGED = "command-changed"
    """Its command line changed: its grants are suspended until approved."""


@dataclass(frozen=True)
class Badge:
    """What the list shows beside a server's name."""

    running: int
    """How many bridges of it run (0: not running)."""
    protection: Protection
    stale: bool
    attention: Attention | None
    refusals: int | None
    """Refusals since the user last looked; None: not counted."""

    @property
    def warns(self) -> bool:
        """Whether the badge asks for the user's eye (a warning mark, not only words)."""
        return (
            self.stale
            or self.attention is not None
            or bool(self.refusals)
            or self.protection is Protection.CONFINED_NEXT_START
        )


def badge(facts: ServerFacts) -> Badge:
    """The badge of the server of *facts*."""
    if facts.running_confined or (facts.confined and facts.bridges == 0):
        protection = Protection.CONFINED
    elif facts.confined:
        protection = Protection.CONFINED_NEXT_START
    else:
        protection = Protection.ADVISORY
    if facts.pending == "new-server":
        attention: Attention | None = Attention.CONSENT_PENDING
    elif facts.pending is not None or facts.suspended:
        attention = Attention.COMMAND_CHANGED
    else:
        attention = None
    return Badge(facts.bridges, protection, facts.stale, attention, facts.refusals)

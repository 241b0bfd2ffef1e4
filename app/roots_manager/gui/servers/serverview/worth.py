"""What roots are worth for the servers in view: a boundary the kernel holds them to, or advice
they may ignore. The Servers tab's notice says it, and must never say roots "are not an access
control" of a server that runs confined (confinement is on by default), nor call one held that
is not.

A server is held now when it runs confined: a live bridge of it confines it, or, with none
running, it starts confined (its setting, else the machine's default). One whose setting asks
for confinement while a live run of it is not confined is held only from its next start.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from roots_manager.gui.servers.serverview.facts import ServerFacts


class Worth(enum.Enum):
    """What roots are worth, for one server or for all of those listed."""

    HELD = "held"
    """Confined: the kernel refuses it every file outside its grants."""
    HELD_FROM_RESTART = "held-from-restart"
    """It runs unconfined now, and starts confined the next time."""
    ADVICE = "advice"
    """Not confined: roots tell it where to look; it may open any file its user may."""
    MIXED = "mixed"
    """Of several servers, some are held and some are not."""


def held_now(facts: ServerFacts) -> bool:
    """Whether the kernel holds the server of *facts* to its grants now."""
    return facts.running_confined if facts.bridges else facts.confined


def worth_of(facts: ServerFacts) -> Worth:
    """What roots are worth for one server."""
    if held_now(facts):
        return Worth.HELD
    if facts.confined:
        return Worth.HELD_FROM_RESTART
    return Worth.ADVICE


def worth_of_all(all_facts: Iterable[ServerFacts], new_confined: bool) -> Worth:
    """What roots are worth for every server listed; with none listed, for the next one to
    start (*new_confined*: new servers start confined)."""
    held = [held_now(f) for f in all_facts]
    if not held:
        return Worth.HELD if new_confined else Worth.ADVICE
    if all(held):
        return Worth.HELD
    return Worth.MIXED if any(held) else Worth.ADVICE

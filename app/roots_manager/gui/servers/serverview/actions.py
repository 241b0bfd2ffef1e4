"""Which actions apply to a server: the view offers these and no others."""

from __future__ import annotations

import enum

from roots_manager.gui.servers.serverview.facts import ServerFacts


class Action(enum.Enum):
    """What can be done with one server, in the order the view offers them."""

    PROBE = "probe"
    RESTART = "restart"
    LIST_CHANGED = "list-changed"
    APPROVE = "approve"
    DISCONNECT = "disconnect"
    FORGET = "forget"


def applies(action: Action, facts: ServerFacts) -> bool:
    """Whether *action* can be done with the server of *facts* now."""
    if action is Action.PROBE:
        # a probe starts the server again over a scratch tree: it needs its command line
        return facts.known and facts.has_command
    if action is Action.RESTART:
        # a bridge that kept the host's handshake restarts its server on request (a request
        # file, as a list_changed is asked), whatever host started it; another's server is
        # its host's to restart
        return facts.restartable_bridges > 0
    if action is Action.LIST_CHANGED:
        return facts.managed_bridges > 0
    if action is Action.APPROVE:
        return facts.approvable
    if action is Action.DISCONNECT:
        return facts.app_connected
    return facts.known  # FORGET


def actions_for(facts: ServerFacts | None) -> tuple[Action, ...]:
    """The actions that apply to a server (none when no server is selected), in order."""
    if facts is None:
        return ()
    return tuple(a for a in Action if applies(a, facts))

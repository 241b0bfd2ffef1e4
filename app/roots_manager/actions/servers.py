"""Which server a name means, and the use cases about a server as a whole: forget, approve.

A name typed by a user (or passed on by a widget) is looked up among the known servers as it is
shown (:func:`~roots_manager.core.servers.names.find_by_visible`: ``fs\\u200b`` finds the stored odd
name). A name nobody has seen is refused with the known names and the near ones, unless the
use case makes sense ahead of a server's first start (a grant, a confinement setting) and the
caller says that is meant: a mistyped name would otherwise become a server of its own.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from roots_manager.core.servers.names import find_by_visible, visible
from roots_manager.core.servers.server import Server
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import UNKNOWN_SERVER, State, server_name_error
from roots_manager.support.refusal import ModelError


class UnknownServer(ModelError):
    """A server nobody has seen, named where a known one is needed: most often a typo."""

    def __init__(self, name: str, known: Sequence[str], *, ahead: bool) -> None:
        super().__init__(UNKNOWN_SERVER, name=name)
        self.name = name
        """The name as given."""
        self.known = sorted(known)
        """Every known server's name, as stored."""
        self.near = near_names(name, self.known)
        """The known names close to *name* (as stored), closest first: "did you mean"."""
        self.ahead = ahead
        """Whether the use case could be done ahead of the server's first start, had the
        caller said so (``--new``)."""


def near_names(name: str, known: Sequence[str], n: int = 3) -> list[str]:
    """The names of *known* that *name* is close to as they are shown, closest first."""
    shown = {visible(k): k for k in known}
    return [shown[v] for v in difflib.get_close_matches(visible(name), list(shown), n=n)]


def resolve(state: State, ref: str, *, new: bool = False, ahead: bool = False) -> str:
    """The stored name of the server *ref* names.

    A known server is found as it is shown. Otherwise *ref* is refused
    (:class:`UnknownServer`) unless *new* (only given where *ahead* says the use case makes
    sense before a first start); a name that could never be a server's, or that looks like a
    known one, is refused whatever *new* says.
    """
    found = find_by_visible(ref, state.servers)
    if found is not None:
        return found
    if ahead:
        error = server_name_error(ref)
        if error is not None:
            raise error
    if not (ahead and new):
        raise UnknownServer(ref, list(state.servers), ahead=ahead)
    state.check_new_server(ref)
    return ref


@dataclass(frozen=True)
class Forgotten:
    """What :func:`forget` did."""

    server: str
    """The server's stored name."""
    grants: int
    """How many grants went with it."""


def forget(store: Store, server: str) -> Forgotten:
    """Forget *server*, its grants and its pending consent requests; the next time it starts
    it counts as a new server."""
    with store.transaction() as state:
        name = resolve(state, server)
        grants = len(state.grants_of(name))
        state.remove_server(name)
    return Forgotten(name, grants)


def approve(store: Store, server: str, fingerprint: str | None = None) -> Server:
    """Approve the command line *server* last ran with, lifting the suspension of its grants.

    *fingerprint*, that command's as the user saw it, makes sure it is the one approved (see
    :meth:`State.approve`). Returns the server as approved.
    """
    with store.transaction() as state:
        return state.approve(resolve(state, server), fingerprint)

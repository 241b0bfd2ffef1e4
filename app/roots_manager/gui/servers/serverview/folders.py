"""A server's folders as the server view lists them: every root, with what the server is granted
of it, and the choices of scope a row offers.

A choice is made with :func:`roots_manager.core.consent.grant.set_scope`, the rule the matrix
and the command line use: :func:`decision` only says what to ask it for.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import NamedTuple

from roots_manager.core.consent.effective import grant_active
from roots_manager.core.store.grants import Scope
from roots_manager.core.store.state import State
from roots_manager.support.paths import inside


class Choice(NamedTuple):
    """What a server may do with one folder: its scope (None: not granted), read-only or not."""

    scope: Scope | None
    read_only: bool = False


NOT_GRANTED = Choice(None)
CHOICES: tuple[Choice, ...] = (
    NOT_GRANTED,
    Choice(Scope.WHILE_RUNNING),
    Choice(Scope.ALWAYS),
    Choice(Scope.WHILE_RUNNING, True),
    Choice(Scope.ALWAYS, True),
)
"""The choices of a row, in the order offered: nothing granted is never read-only."""


@dataclass(frozen=True)
class FolderRow:
    """One root, and what the server is granted of it."""

    root_id: str
    name: str
    path: str
    choice: Choice
    read_only_inside: tuple[str, ...] = ()
    """Places inside the folder the grant keeps read-only (``grant --except``)."""
    hidden_inside: tuple[str, ...] = ()
    """Places inside the folder the grant hides (``grant --hide``)."""
    until_restart: bool = False
    """Not granted now, but a confined run of the server started with it and still reaches it
    (restart on revoke off, or the restart not done): readable until that run restarts."""


def folder_rows(
    state: State, server: str, live_runs: Collection[str], reachable: Collection[str] = ()
) -> list[FolderRow]:
    """Every root of *state*, in the store's order, with what *server* is granted of it now (a
    while-running grant of runs that ended counts as not granted, as the matrix shows it).

    *reachable* is what the server's confined runs reach now
    (:attr:`~roots_manager.core.runs.live.BridgeMarker.reachable`): a folder no longer granted but
    inside one of them is marked :attr:`FolderRow.until_restart`."""
    active = {g.root: g for g in state.grants_of(server) if grant_active(g, live_runs=live_runs)}
    rows = []
    for r in state.roots:
        g = active.get(r.id)
        if g is None:
            kept = any(inside(r.path, folder) for folder in reachable)
            rows.append(FolderRow(r.id, r.name, r.path, NOT_GRANTED, until_restart=kept))
            continue
        choice = Choice(g.scope, g.read_only)
        places = (tuple(g.read_only_inside), tuple(g.hidden_inside))
        rows.append(FolderRow(r.id, r.name, r.path, choice, *places))
    return rows


class Decision(NamedTuple):
    """What to ask :func:`~roots_manager.core.consent.grant.set_scope` for."""

    scope: Scope | None
    read_only: bool | None
    """None: leave the flag alone (a revocation has none)."""


def decision(current: Choice, wanted: Choice) -> Decision | None:
    """The decision that makes *current* into *wanted*; None when they are the same."""
    if wanted.scope is None:
        wanted = NOT_GRANTED  # nothing granted is never read-only
    if wanted == current:
        return None
    if wanted.scope is None:
        return Decision(None, None)
    return Decision(wanted.scope, wanted.read_only)

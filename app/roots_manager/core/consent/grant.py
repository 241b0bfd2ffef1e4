"""The user's grant decision, written once for every front end: a server gets exactly the scope it
was given over each root.

The app's matrix cell and the command line's ``grant`` and ``revoke`` both land here, so a grant
means the same from each: asking for "while running" of a root granted "always" makes it
while-running (it does not leave the wider grant in place), a while-running grant lasts for the
server's live runs, and a read-only flag is kept unless the decision names one.

A grant by typed names (:func:`grant_named`) also settles what a name means: a server nobody has
seen is refused unless the grant is meant ahead of its first start, and a folder that is not a
root yet becomes one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from roots_manager.core.refusal import ModelError
from roots_manager.core.roots import Root, path_of
from roots_manager.core.store.grants import Grant, Scope
from roots_manager.core.store.state import State


def set_scope(
    state: State,
    server: str,
    root_ids: Iterable[str],
    scope: Scope | None,
    runs: Sequence[str] = (),
    read_only: bool | None = None,
) -> int:
    """Give *server* exactly *scope* over each root of *root_ids*: not granted when *scope* is
    None; returns how many roots changed.

    A while-running grant lasts for *runs*, the server's live bridge runs (none: the next one to
    start), added to those a while-running grant already had. *read_only*, when given, is set on
    each grant; None keeps each grant's own flag (a new grant is read-write).
    """
    ids = list(dict.fromkeys(root_ids))
    mine = {g.root: g for g in state.grants_of(server)}
    changed = [rid for rid in ids if _changes(mine.get(rid), scope, runs, read_only)]
    if scope is None:
        state.revoke(server, changed)
        return len(changed)
    keep_read_only = {rid for rid in changed if rid in mine and mine[rid].read_only}
    # a narrower scope replaces a wider one: the old grant goes before the new one is made;
    # granting nothing new still settles a new server's pending request
    state.revoke(server, [rid for rid in changed if rid in mine and mine[rid].scope != scope])
    state.grant(server, changed, scope, runs if scope == Scope.WHILE_RUNNING else ())
    for g in state.grants_of(server):
        if g.root in changed:
            g.read_only = (g.root in keep_read_only) if read_only is None else read_only
    return len(changed)


def _changes(
    grant: Grant | None, scope: Scope | None, runs: Sequence[str], read_only: bool | None
) -> bool:
    """Whether *grant* (None: no grant) differs from what the decision asks."""
    if grant is None:
        return scope is not None
    if scope is None or grant.scope != scope:
        return True
    if read_only is not None and grant.read_only != read_only:
        return True
    return scope == Scope.WHILE_RUNNING and not set(runs) <= set(grant.runs)


class UnknownServer(ModelError):
    """A grant to a server nobody has seen, and that was not asked for ahead of its first start:
    most often a mistyped name, which would otherwise become a server of its own."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        super().__init__(
            "no server named {name!r} is known (roots-manager servers list shows them)", name=name
        )
        self.name = name
        self.known = list(known)


@dataclass(frozen=True)
class Granted:
    """What :func:`grant_named` did."""

    roots: list[Root]
    """The roots granted, in the order they were named."""
    added: list[Root]
    """Those that were folders, not roots yet, and were added as roots for the grant."""
    changed: int
    """How many of them changed (see :func:`set_scope`)."""
    new_server: bool
    """Whether the server was not known before: granted ahead of its first start."""


def grant_named(
    state: State,
    server: str,
    refs: Sequence[str],
    scope: Scope,
    runs: Sequence[str] = (),
    read_only: bool | None = None,
    *,
    new: bool = False,
    allow_broad: bool = False,
) -> Granted:
    """Grant *server* the roots *refs* name (paths, ``file://`` URIs or roots' names), as
    :func:`set_scope` does, for a user who types the names.

    A server the store does not know is refused (:class:`UnknownServer`) unless *new* says the
    grant is meant for a server that has not started yet. A folder that is not a root yet is
    added as one (*allow_broad* as for adding it by hand); a name that matches no root and no
    folder is refused as before.
    """
    fresh = server not in state.servers
    if fresh and not new:
        raise UnknownServer(server, sorted(state.servers))
    roots: list[Root] = []
    added: list[Root] = []
    for ref in refs:
        try:
            roots.append(state.find_root(ref))
            continue
        except ModelError:
            # a root's name that is ambiguous stays refused, and so does what is no folder
            if any(r.name == ref for r in state.roots) or not os.path.isdir(path_of(ref)):
                raise
        root = state.add_root(ref, allow_broad=allow_broad)
        roots.append(root)
        added.append(root)
    changed = set_scope(state, server, [r.id for r in roots], scope, runs, read_only)
    return Granted(roots, added, changed, fresh)

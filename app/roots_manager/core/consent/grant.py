"""The user's grant decision, written once for every front end: a server gets exactly the scope it
was given over each root.

The app's matrix cell and the command line's ``grant`` and ``revoke`` both land here, so a grant
means the same from each: asking for "while running" of a root granted "always" makes it
while-running (it does not leave the wider grant in place), a while-running grant lasts for the
server's live runs, and a read-only flag is kept unless the decision names one.

What a typed name means, and which runs are live, is the use case's
(:mod:`roots_manager.actions.consent`), not this rule's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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

"""Grant and revoke: the user's decision about a server and its roots, from either front end.

The decision itself is :func:`roots_manager.core.consent.grant.set_scope` (a narrower scope
replaces a wider one, a read-only flag is kept unless the decision names one). What is decided
here is what a front end would otherwise decide on its own: which server a name means, which
runs a while-running grant lasts for (the server's live bridge runs, read from their markers at
the moment of the grant), and what a name that is not a root yet becomes.

A running bridge sees the store change and tells its server (``list_changed``); nothing here
talks to a bridge.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from roots_manager.actions.servers import resolve
from roots_manager.core.consent import grant as rule
from roots_manager.core.directory.layout import Layout
from roots_manager.core.roots.root import Root, path_of
from roots_manager.core.runs import live
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Scope
from roots_manager.core.store.state import State
from roots_manager.support.paths import inside
from roots_manager.support.refusal import ModelError


def live_runs(layout: Layout, server: str) -> list[str]:
    """The bridge runs of *server* running now: what a while-running grant made now lasts for."""
    return [m.run for m in live.bridge_markers(layout) if m.server == server]


@dataclass(frozen=True)
class Granted:
    """What :func:`grant` did."""

    server: str
    """The server's stored name."""
    roots: list[Root]
    """The roots granted, in the order they were named."""
    added: list[Root]
    """Those that were folders, not roots yet, and were added as roots for the grant."""
    changed: int
    """How many of them changed (see :func:`~roots_manager.core.consent.grant.set_scope`)."""
    new_server: bool
    """Whether the server was not known before: granted ahead of its first start."""
    runs: list[str]
    """The live runs a while-running grant lasts for (none: the next run to start)."""
    suspended: bool
    """Whether the server's grants are suspended (its command line changed since approved)."""


def grant(
    store: Store,
    server: str,
    roots: Sequence[str],
    scope: Scope = Scope.ALWAYS,
    *,
    read_only: bool | None = None,
    new: bool = False,
    allow_broad: bool = False,
    read_only_inside: Sequence[str] = (),
    hidden_inside: Sequence[str] = (),
    clear_inside: bool = False,
) -> Granted:
    """Grant *server* the roots *roots* name (paths, ``file://`` URIs or roots' names) for
    *scope*.

    A server nobody has seen is refused (:class:`~roots_manager.actions.servers.UnknownServer`)
    unless *new* says the grant is meant ahead of its first start. A folder that is not a root
    yet is added as one (*allow_broad* as for adding it by hand); a name that matches no root
    and no folder is refused. *read_only* None keeps each grant's own flag (a new grant is
    read-write).

    *read_only_inside* and *hidden_inside* are places inside the roots (relative to each, or
    absolute inside one) that a confined server may not write, or not read either, whatever
    the grant says (:meth:`~roots_manager.core.store.state.State.set_inside`); *clear_inside*
    first takes away those the grants had.
    """
    with store.transaction() as state:
        name = resolve(state, server, new=new, ahead=True)
        fresh = name not in state.servers
        found, added = _roots_named(state, roots, allow_broad=allow_broad)
        runs = live_runs(store.layout, name) if scope == Scope.WHILE_RUNNING else []
        changed = rule.set_scope(state, name, [r.id for r in found], scope, runs, read_only)
        if read_only_inside or hidden_inside or clear_inside:
            for root in found:
                state.set_inside(
                    name,
                    [root.id],
                    read_only=[_relative_to(root, p) for p in read_only_inside],
                    hidden=[_relative_to(root, p) for p in hidden_inside],
                    clear=clear_inside,
                )
        suspended = state.servers[name].suspended
    return Granted(name, found, added, changed, fresh, runs, suspended)


def _relative_to(root: Root, place: str) -> str:
    """*place* relative to *root*'s folder (given relative to it, or absolute inside it)."""
    if not os.path.isabs(place):
        return os.path.normpath(place)
    place = os.path.normpath(place)
    for top in dict.fromkeys((root.path, root.real or root.path)):
        if place != top and inside(place, top):
            return os.path.relpath(place, top)
    raise ModelError(f"{place} is not inside the root {root.path}")


def _roots_named(
    state: State, refs: Sequence[str], *, allow_broad: bool
) -> tuple[list[Root], list[Root]]:
    """The roots *refs* name, and those of them added now because they were only folders."""
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
    return roots, added


def set_scope(
    store: Store,
    server: str,
    root_ids: Iterable[str],
    scope: Scope | None,
    *,
    read_only: bool | None = None,
) -> int:
    """Give known *server* exactly *scope* over the roots *root_ids* (None: revoke them), as a
    cell of the consent matrix does; returns how many roots changed.

    A while-running grant lasts for the server's live runs. *read_only* None keeps each grant's
    own flag; True or False sets it (a grant's scope and flag can change in one step).
    """
    ids = list(root_ids)
    with store.transaction() as state:
        name = resolve(state, server)
        runs = live_runs(store.layout, name) if scope == Scope.WHILE_RUNNING else []
        return rule.set_scope(state, name, ids, scope, runs, read_only)


def grant_each(store: Store, servers: Iterable[str], root_ids: Iterable[str], scope: Scope) -> int:
    """Give each known server of *servers* exactly *scope* over the roots *root_ids*, in one
    transaction (the first run protects the servers it found so); returns how many grants
    changed."""
    ids = list(root_ids)
    with store.transaction() as state:
        changed = 0
        for server in servers:
            name = resolve(state, server)
            runs = live_runs(store.layout, name) if scope == Scope.WHILE_RUNNING else []
            changed += rule.set_scope(state, name, ids, scope, runs, None)
        return changed


@dataclass(frozen=True)
class Revoked:
    """What :func:`revoke` did."""

    server: str
    """The server's stored name."""
    roots: list[Root]
    """The roots named, in the order they were named."""
    revoked: int
    """How many of them were granted and are not any more."""


def revoke(store: Store, server: str, roots: Sequence[str]) -> Revoked:
    """Stop known *server* from seeing the roots *roots* name (paths, URIs or names).

    The roots are looked up first, then the server: a mistyped server is refused rather than
    "revoked" silently.
    """
    with store.transaction() as state:
        found = [state.find_root(ref) for ref in roots]
        name = resolve(state, server)
        n = rule.set_scope(state, name, [r.id for r in found], None)
    return Revoked(name, found, n)

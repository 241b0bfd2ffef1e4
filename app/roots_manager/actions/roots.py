"""The user's folders: add, rename and remove roots, from either front end.

What can be a root (not one already, there, a folder, not too broad without the user's say,
named apart from the others) is the core's decision (:meth:`roots_manager.core.store.state.
State.add_root`); here each change is one transaction of the store, and what it did is
returned for the front end to say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from roots_manager.core.roots.root import Root
from roots_manager.core.store.file import Store


def add(store: Store, path: str, name: str | None = None, *, allow_broad: bool = False) -> Root:
    """Make folder *path* a root (named *name*, or by its folder); raises what the core
    refuses (:class:`~roots_manager.support.refusal.ModelError`)."""
    with store.transaction() as state:
        return state.add_root(path, name, allow_broad=allow_broad)


@dataclass(frozen=True)
class Added:
    """What :func:`add_each` did."""

    roots: list[Root]
    """The roots made, in the order asked."""
    refused: list[ValueError]
    """Why each of the others could not be one (the core's refusal)."""


def add_each(store: Store, paths: Sequence[str]) -> Added:
    """Make each folder of *paths* a root, in one transaction: one that cannot be is refused
    with its reason, and the others are added all the same. Broad folders are the user's
    choice here (asked before)."""
    roots: list[Root] = []
    refused: list[ValueError] = []
    with store.transaction() as state:
        for path in paths:
            try:
                roots.append(state.add_root(path, allow_broad=True))
            except ValueError as exc:  # ModelError, UriError
                refused.append(exc)
    return Added(roots, refused)


@dataclass(frozen=True)
class Renamed:
    root: Root
    before: str
    """Its name before."""


def rename(store: Store, ref: str, name: str) -> Renamed:
    """Give root *ref* (its path, URI or name) the name *name*."""
    with store.transaction() as state:
        before = state.find_root(ref).name
        return Renamed(state.rename_root(ref, name), before)


@dataclass(frozen=True)
class Removed:
    root: Root
    losing: list[str]
    """The servers that were granted it."""


def remove(store: Store, ref: str) -> Removed:
    """Stop root *ref* (its path, URI or name) being a root: no server sees it any more."""
    with store.transaction() as state:
        return Removed(*state.remove_root(ref))


def remove_each(store: Store, paths: Sequence[str]) -> list[str]:
    """Remove the roots of *paths*, in one transaction; one removed elsewhere meanwhile is
    gone already, and the others are removed all the same. Returns the paths removed."""
    with store.transaction() as state:
        present = {r.path for r in state.roots}
        return [state.remove_root(p)[0].path for p in paths if p in present]

"""A host's servers put behind the bridge and given their own command back, from either front
end: wrap, unwrap, and Undo of the last of them.

The edit itself (read, plan, back up, record, write, the wrapped servers made known to the
store) is the core's (:mod:`roots_manager.core.hosts.operations`). What the front ends would
each decide around it is decided here, once: the per-user directory a wrapped entry names, the
files of one choice taken back as one step, and that only an Undo that wraps again needs the
bridge.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from roots_manager.core.directory.layout import platform_home
from roots_manager.core.hosts import operations as hostchanges
from roots_manager.core.hosts.known import ConfigFile
from roots_manager.core.hosts.operations import UNWRAP, WRAP, FileResult, UndoResult
from roots_manager.core.hosts.record import ChangeStep
from roots_manager.core.hosts.wrap import home_for_hosts
from roots_manager.core.store.file import Store


class NoBridge(LookupError):
    """No ``roots-bridge`` was found to wrap with; nothing was changed."""


def home(store: Store) -> str | None:
    """The per-user directory a wrapped entry names (None: the default one, which the bridge
    finds without being told)."""
    return home_for_hosts(store.layout.home, platform_home())


def wrap(
    store: Store,
    files: list[ConfigFile],
    servers: Collection[str] | None,
    *,
    bridge: str,
    dry_run: bool = False,
    roots_args: bool = False,
    step: ChangeStep | None = None,
) -> list[FileResult]:
    """Put the *servers* (None: all) of *files* behind *bridge*, one step for Undo (or a part
    of *step*); dry, only say what would change. With *roots_args*, a server whose arguments
    are folders gets ``{roots}`` in their place and those folders granted."""
    return hostchanges.change(
        store.layout,
        files,
        servers,
        WRAP,
        bridge=bridge,
        home=home(store),
        dry_run=dry_run,
        roots_args=roots_args,
        step=step,
    )


def unwrap(
    store: Store, files: list[ConfigFile], servers: Collection[str] | None, *, dry_run: bool = False
) -> list[FileResult]:
    """Give the *servers* (None: all) of *files* their own command back, one step for Undo;
    dry, only say what would change."""
    return hostchanges.change(
        store.layout, files, servers, UNWRAP, home=home(store), dry_run=dry_run
    )


def wrap_each(
    store: Store,
    chosen: Mapping[ConfigFile, Collection[str]],
    *,
    bridge: str,
    dry_run: bool = False,
    roots_args: bool = False,
) -> list[FileResult]:
    """Put the servers *chosen* in each file behind *bridge*, every file in one step for Undo
    (the first run's choice: some servers of several hosts, taken back together); with
    *roots_args*, as :func:`wrap` says."""
    step = hostchanges.new_step(WRAP)
    return [
        result
        for file, servers in chosen.items()
        for result in wrap(
            store,
            [file],
            servers,
            bridge=bridge,
            dry_run=dry_run,
            roots_args=roots_args,
            step=step,
        )
    ]


def undo(store: Store, find_bridge: Callable[[], str | None]) -> UndoResult | None:
    """Take back the last wrap or unwrap, every file of it; None when there is none.

    *find_bridge* is asked only when the step was an unwrap, the one Undo that wraps again:
    taking back a wrap works with no bridge installed. Raises :class:`NoBridge` if it finds
    none then (and what *find_bridge* raises)."""
    last = hostchanges.last_change(store.layout)
    if last is None:
        return None
    bridge = ""
    if last.action == UNWRAP:
        found = find_bridge()
        if found is None:
            raise NoBridge
        bridge = found
    return hostchanges.undo_last(store.layout, bridge=bridge, home=home(store))

"""A server's confinement settings, from either front end: confinement on or off and its extra
paths, the network, and whether a revoked folder restarts it.

Each may be set ahead of a server's first start (so that its first start is already confined),
but only when the caller says that is meant (*new*): a name nobody has seen is otherwise
refused with the known and the near names (:func:`roots_manager.actions.servers.resolve`),
rather than remembered as a server of its own. What each setting does is
:mod:`roots_manager.core.confinement.confined`'s.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable

from roots_manager.actions.servers import resolve
from roots_manager.core.confinement import confined
from roots_manager.core.servers.server import Server
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import State


def confine(
    store: Store,
    server: str,
    on: bool | None = None,
    *,
    allow_read: Iterable[str] = (),
    allow_write: Iterable[str] = (),
    allow_socket: Iterable[str] = (),
    forget: Iterable[str] = (),
    new: bool = False,
    max_processes: int | None = None,
    create: bool = False,
) -> Server:
    """Turn confinement on or off for *server* (None: leave it) and add or *forget* its extra
    paths; returns the server as it is now. It takes effect when the server next starts.
    *create*: make the folders of *allow_write* that are not there yet (a server's own state
    folder: a rule cannot name a folder that is not there), private to the user."""
    with store.transaction() as state:
        name = resolve(state, server, new=new, ahead=True)
        if create:  # made once the server is known, and nothing saved if one cannot be
            for path in allow_write:
                make_folder(path)
        return confined.set_confinement(
            state,
            name,
            on,
            allow_read=allow_read,
            allow_write=allow_write,
            allow_socket=allow_socket,
            forget=forget,
            max_processes=max_processes,
        )


def make_folder(path: str) -> None:
    """Make the folder *path* (and those above it that are missing), private to the user;
    one that is there is left as it is. Raises :class:`OSError` (a file in its place: EEXIST)."""
    path = os.path.expanduser(path)
    os.makedirs(path, 0o700, exist_ok=True)
    if not os.path.isdir(path):
        raise FileExistsError(errno.EEXIST, "there is a file of that name", path)


def restore(store: Store, server: str, setting: bool | None) -> Server:
    """Put known *server*'s confinement back to *setting*, as it was before a use case
    changed it (None: not decided, so that the default decides at its next start)."""
    with store.transaction() as state:
        srv = state.servers[resolve(state, server)]
        srv.confine = setting
        return srv


def set_network(store: Store, server: str, blocked: bool, *, new: bool = False) -> Server:
    """Block *server*'s network when it runs confined, or allow it (the default), its domains
    kept for when it is limited to them again; returns the server as it is now."""
    with store.transaction() as state:
        return confined.set_network(state, resolve(state, server, new=new, ahead=True), blocked)


def set_domains(
    store: Store,
    server: str,
    allow: Iterable[str] = (),
    remove: Iterable[str] = (),
    *,
    new: bool = False,
) -> Server:
    """Limit *server*'s network, when it runs confined, to the domains it had (kept while it
    was allowed or blocked) with *allow* and without *remove*; returns the server as it is now.
    Raises :class:`~roots_manager.support.domains.DomainError` for a domain that is none, with
    nothing changed."""
    from roots_manager.support.domains import pattern

    allow, remove = [pattern(d) for d in allow], [pattern(d) for d in remove]
    with store.transaction() as state:
        name = resolve(state, server, new=new, ahead=True)
        return confined.set_domains(state, name, allow, remove)


def allow_domains(store: Store, server: str, allow: Iterable[str], *, new: bool = False) -> Server:
    """Let *server* reach the domains *allow*, when it runs confined (a refusal's "Allow
    domain", a learning accepted): :func:`~roots_manager.core.confinement.confined.
    allow_domains`; returns the server as it is now. Raises :class:`~roots_manager.support.
    domains.DomainError` for a domain that is none, with nothing changed."""
    from roots_manager.support.domains import pattern

    allowed = [pattern(d) for d in allow]
    with store.transaction() as state:
        name = resolve(state, server, new=new, ahead=True)
        return confined.allow_domains(state, name, allowed)


def set_restart_on_revoke(
    store: Store, server: str, on: bool | None, *, new: bool = False
) -> Server:
    """Set whether *server* is restarted behind the host's back when a folder it was told is
    revoked (None: the default, on for confined servers); returns the server as it is now."""
    with store.transaction() as state:
        name = resolve(state, server, new=new, ahead=True)
        return confined.set_restart_on_revoke(state, name, on)


def set_ask(store: Store, server: str, seconds: int | None, *, new: bool = False) -> Server:
    """Set how long *server*'s reads outside its grants wait for the user's answer while the
    host waits for a request (0: refused at once; None: the default); returns the server as it
    is now."""
    with store.transaction() as state:
        return confined.set_ask(state, resolve(state, server, new=new, ahead=True), seconds)


def switch_restart_on_revoke(store: Store, server: str, on: bool) -> Server:
    """Set known *server*'s restart on revoke as a two-state switch shows it: the switch put
    back on the default (on for a confined server, off for another) keeps the default, so that
    the server follows it when its confinement changes."""
    with store.transaction() as state:
        name = resolve(state, server)
        default = starts_confined(state, state.servers[name])
        return confined.set_restart_on_revoke(state, name, None if on == default else on)


def starts_confined(state: State, srv: Server) -> bool:
    """Whether *srv* runs confined at its next start on this machine: its setting, or, while
    that is not decided, the default (the store's ``confine_new``, where the machine can)."""
    if srv.confine is not None:
        return srv.confine
    from roots_manager.sandbox.availability import confines_by_default

    return confined.confines_new(state, confines_by_default())

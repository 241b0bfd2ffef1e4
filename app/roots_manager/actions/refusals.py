"""A confined server's refusal, allowed in one click, from wherever the app shows it: the
notice, the list of refusals, a Log row or a server's Recent activity.

What may be offered is :func:`roots_manager.core.confinement.offers.offers`'s decision, taken
again here from the refusal itself: a front end that shows an offer stale, or one that was
never made (a secret, Roots Manager's own code, a protected place), is refused, and nothing is
written. What each offer grants:

- **Allow folder**: the folder, read and write, always (a root made of it if it is not one);
- **Allow read-only**: the folder, read only, always;
- **Allow this file**: the file alone, as the confinement's extra path, read only or read and
  write as the server asked;
- **Allow and create**: the folder the server was refused making for itself (``~/.serena``),
  made here, as the confinement's extra writable path;
- **Allow domain**: the domain Roots Manager's proxy refused, added to the server's domains
  (:func:`~roots_manager.actions.confinement.allow_domains`), from its next start; a server
  whose whole network was allowed since reaches it already, and keeps its whole network.

A read that waits for the answer (a server set to ask) may also be allowed with nothing saved,
for the reads waiting now or until the server ends (:func:`allow_waiting`), or denied at once
(:func:`deny_waiting`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from roots_manager.actions import confinement, consent
from roots_manager.core.confinement.offers import NOT_OFFERED, Offer, offers
from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventRecord
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Scope
from roots_manager.support.refusal import Refusal


@dataclass(frozen=True)
class Allowed:
    """What :func:`allow` granted."""

    server: str
    offer: Offer
    target: str
    """The folder, the file or the domain granted."""


def allow(
    store: Store,
    denial: EventRecord,
    offer: Offer,
    *,
    home: str | None = None,
    own: Sequence[str] | None = None,
) -> Allowed:
    """Grant the server of *denial* (a denial event) what *offer* says, if it is offered for
    that refusal to the user whose home is *home* (by default this user's); *own* as for
    :func:`~roots_manager.core.confinement.offers.offers`."""
    server = denial.get("server")
    home = os.path.expanduser("~") if home is None else home
    found = offers(denial, home=home, own=own)
    if not isinstance(server, str) or offer not in found.offers:
        path = denial.get("path")
        why = found.refused or "not offered"
        raise Refusal(NOT_OFFERED, offer=offer.value, path=str(path), why=str(why))
    if offer is Offer.DOMAIN:
        assert found.domain is not None
        target = found.domain
        confinement.allow_domains(store, server, (target,))
    elif offer is Offer.CREATE:
        assert found.create is not None
        target = found.create
        confinement.confine(store, server, allow_write=(target,), create=True)
    elif offer is Offer.FILE:
        assert found.file is not None
        target = found.file
        writes = denial.get("operation") == "write"
        confinement.confine(
            store,
            server,
            allow_read=() if writes else (target,),
            allow_write=(target,) if writes else (),
        )
    else:
        assert found.folder is not None
        target = found.folder
        consent.grant(store, server, [target], Scope.ALWAYS, read_only=offer is Offer.READ_ONLY)
    return Allowed(server, offer, target)


def allow_waiting(
    layout: Layout,
    denial: EventRecord,
    offer: Offer,
    duration: str,
    by: str,
    *,
    home: str | None = None,
    own: Sequence[str] | None = None,
) -> tuple[Allowed, list[str]]:
    """Have the reads of what *offer* names for *denial* (its folder, or its file; or the
    connections to its domain) served to its server by the supervisor with nothing saved: the reads waiting now (*duration*
    :data:`~roots_manager.core.runs.live.ONCE`) or every one until the server ends
    (:data:`~roots_manager.core.runs.live.RUN`). Offered as :func:`allow` decides; each live bridge
    run of the server is asked (a request file); *by* says who asked (``cli``, ``app``).
    Returns what was allowed and the runs asked."""
    from roots_manager.core.runs import live

    server = denial.get("server")
    home = os.path.expanduser("~") if home is None else home
    found = offers(denial, home=home, own=own)
    if not isinstance(server, str) or offer not in found.offers:
        why = found.refused or "not offered"
        raise Refusal(NOT_OFFERED, offer=offer.value, path=str(denial.get("path")), why=str(why))
    domain = offer is Offer.DOMAIN  # its proxy connects there: the connections waiting
    target = found.domain if domain else found.file if offer is Offer.FILE else found.folder
    assert target is not None
    runs = [m.run for m in live.bridge_markers(layout) if m.server == server]
    for run in runs:
        live.ask_allow(layout, run, target, duration, by, domain=domain)
    return Allowed(server, offer, target), runs


def deny_waiting(layout: Layout, server: str, by: str) -> list[str]:
    """Refuse at once the reads of *server* that wait for the user's answer (a server set to
    ask, :mod:`roots_manager.sandbox.asking`): each of its live bridge runs is asked (a request
    file, as a restart is), and its folder is not asked about again in that run. Returns the
    runs asked; *by* says who asked (``cli``, ``app``)."""
    from roots_manager.core.runs import live

    runs = [m.run for m in live.bridge_markers(layout) if m.server == server]
    for run in runs:
        live.ask_deny(layout, run, by)
    return runs

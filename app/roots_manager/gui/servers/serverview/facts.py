"""The facts of one server that the server view decides from: what the store says of it and
what its running bridges say, gathered once."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from roots_manager.core.confinement.confined import starts_confined
from roots_manager.core.runs.live import BridgeMarker
from roots_manager.core.store.state import State


@dataclass(frozen=True)
class ServerFacts:
    """One server as the view sees it."""

    name: str
    known: bool
    """The store keeps a record of it (a running bridge's server may not be recorded yet)."""
    has_command: bool
    """Its command line is known (a probe and a restart start it again)."""
    bridges: int = 0
    """Its live bridges, of any mode."""
    managed_bridges: int = 0
    """Those that answer roots themselves, and can be asked for a list_changed."""
    restartable_bridges: int = 0
    """Those that kept the host's handshake, and can be asked to restart the server behind
    it (confined, restart on revoke on, or its folders on its command line)."""
    app_connected: bool = False
    """This app started it as its host: the app can end it, and start it again."""
    suspended: bool = False
    """Its command line changed: its grants are suspended until approved."""
    approvable: bool = False
    """A changed command line waits to be approved."""
    pending: str | None = None
    """The reason of a consent request that waits (``new-server``, ``command-changed``)."""
    confined: bool = False
    """The store asks for it to start confined to its grants."""
    running_confined: bool = False
    """A live bridge of it runs the server confined."""
    stale: bool = False
    """It was told its roots changed and has not asked for them since."""
    refusals: int | None = None
    """The refusals of its confinement since the user last looked (None: not counted)."""


def server_facts(
    state: State,
    markers: Sequence[BridgeMarker],
    app_connected: Collection[str] = (),
    refusals: Mapping[str, int] | None = None,
    by_default: bool = False,
) -> dict[str, ServerFacts]:
    """The facts of every server the store knows or a bridge runs, by name (*by_default*:
    whether this machine confines a server whose confinement is not decided)."""
    names = set(state.servers) | {m.server for m in markers}
    out: dict[str, ServerFacts] = {}
    for name in names:
        srv = state.servers.get(name)
        mine = [m for m in markers if m.server == name]
        command = bool(srv.command) if srv is not None else any(m.command for m in mine)
        out[name] = ServerFacts(
            name=name,
            known=srv is not None,
            has_command=command,
            bridges=len(mine),
            managed_bridges=sum(1 for m in mine if m.mode == "managed"),
            restartable_bridges=sum(1 for m in mine if m.restartable),
            app_connected=name in app_connected,
            suspended=bool(srv and srv.suspended),
            approvable=bool(srv and srv.suspended and srv.seen_fingerprint),
            pending=next((p.reason for p in state.pending if p.server == name), None),
            confined=srv is not None and starts_confined(state, srv, by_default),
            running_confined=any(m.confined for m in mine),
            stale=any(m.stale for m in mine),
            refusals=None if refusals is None else refusals.get(name, 0),
        )
    return out

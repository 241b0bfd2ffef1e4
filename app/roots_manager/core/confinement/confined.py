"""A confined server as the store describes it: its setting, its grants as rules, its report.

The rules are made when the server starts: a Landlock domain can only shrink, and only from
inside. So when the grants a confined server runs under change, its bridge restarts it with the
new rules behind the host's back (:class:`roots_manager.bridge.run.restarts.Restarts`); :func:`confinement_key`
is what such a restart depends on. The bridge's ``roots/list`` answers follow the store at once,
as for any server.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from roots_manager.core.confinement.derive import (
    database_files,
    derived_folders,
    engine_sockets,
    package_caches,
    registry_domains,
    runtime_rules,
)
from roots_manager.core.confinement.protected import (
    GUARDED,
    HIDDEN,
    LAYERED,
    PINNED,
    READ_ONLY,
    HostPlaces,
    mounts_inside,
    protections,
    written_file_refusal,
)
from roots_manager.core.confinement.rules import COMPANIONS, MAX_PROCESSES, Rules
from roots_manager.core.consent.effective import Availability, visible_roots
from roots_manager.core.roots.root import normalize_path
from roots_manager.core.servers.server import Network, Server
from roots_manager.core.store.state import State, server_name_error
from roots_manager.support.nofollow import Identity, identify
from roots_manager.support.paths import inside
from roots_manager.support.translatable import QT_TRANSLATE_NOOP

NEXT_START = QT_TRANSLATE_NOOP(
    "CoreText",
    "grants made or revoked while a confined server runs restart it with the new rules, "
    "unseen by the host",
)
NEXT_START_NO_RESTART = QT_TRANSLATE_NOOP(
    "CoreText",
    "restart on revoke is off: grants made or revoked while a confined server runs take "
    "effect at its next start",
)
CONFINED_MEANS = QT_TRANSLATE_NOOP(
    "CoreText",
    "confined: the kernel refuses every file outside what was granted; the network is not "
    "restricted",
)
CONFINED_OFFLINE_MEANS = QT_TRANSLATE_NOOP(
    "CoreText",
    "confined: the kernel refuses every file outside what was granted, and every network "
    "connection",
)
CONFINED_DOMAINS_MEANS = QT_TRANSLATE_NOOP(
    "CoreText",
    "confined: the kernel refuses every file outside what was granted, and the network reaches "
    "only its domains, through Roots Manager's proxy",
)
ADVISORY_MEANS = QT_TRANSLATE_NOOP(
    "CoreText",
    "not confined: roots are advice, the server may read anything your user can, and "
    "read-only grants are not enforced",
)

_NOT_YET_BOUND = ""
"""A bridge run no grant is bound to yet: a server starting now gets the "always" grants
and the while-running grants waiting for the next run to start, not those of other runs."""


def _setting_of(state: State, name: str) -> Server:
    """Server *name*, whose setting is about to change; a server not seen yet is remembered
    (so that its first start already has the setting)."""
    error = server_name_error(name)
    if error is not None:
        raise error
    return state.servers.setdefault(name, Server(name=name))


def set_confinement(
    state: State,
    name: str,
    on: bool | None = None,
    *,
    allow_read: Iterable[str] = (),
    allow_write: Iterable[str] = (),
    allow_socket: Iterable[str] = (),
    forget: Iterable[str] = (),
    max_processes: int | None = None,
) -> Server:
    """Turn confinement on or off for server *name* (None: leave it), and edit its extra paths
    and its limit of processes (*max_processes*, None: leave it; 0: back to the default).

    A server not seen yet is remembered, as a grant does, so that it starts confined.
    """
    srv = _setting_of(state, name)
    if on is not None:
        srv.confine = on
    if max_processes is not None:
        srv.max_processes = max_processes or None
    gone = {normalize_path(p) for p in forget}
    srv.allow_read = [p for p in srv.allow_read if p not in gone]
    srv.allow_write = [p for p in srv.allow_write if p not in gone]
    srv.allow_socket = [p for p in srv.allow_socket if p not in gone]
    for path in map(normalize_path, allow_read):
        if path not in srv.allow_read:
            srv.allow_read.append(path)
    for path in map(normalize_path, allow_write):
        if path not in srv.allow_write:
            srv.allow_write.append(path)
    for path in map(normalize_path, allow_socket):
        if path not in srv.allow_socket:
            srv.allow_socket.append(path)
    return srv


def set_network(state: State, name: str, blocked: bool) -> Server:
    """Block server *name*'s network when it runs confined, or allow it all (the default); its
    domains are kept, for :func:`set_domains` to limit it to them again. A server not seen yet
    is remembered, so that its first confined start is already offline."""
    srv = _setting_of(state, name)
    srv.network = Network.BLOCKED if blocked else Network.ALLOWED
    return srv


def set_domains(
    state: State, name: str, allow: Iterable[str] = (), remove: Iterable[str] = ()
) -> Server:
    """Limit server *name*'s network, when it runs confined, to its domains: those it had
    (kept while its network was allowed or blocked; none at first), less *remove*, with
    *allow*. Each is checked and kept in normal form (:func:`~roots_manager.support.domains.
    pattern`, which raises :class:`~roots_manager.support.domains.DomainError`). A server not
    seen yet is remembered."""
    srv = _domains_edited(state, name, allow, remove)
    srv.network = Network.DOMAINS
    return srv


def allow_domains(state: State, name: str, allow: Iterable[str]) -> Server:
    """Let server *name* reach the domains *allow* (a refusal's "Allow domain", a learning
    accepted): added to its domains as :func:`set_domains` does, except for a server whose
    network is allowed whole since: it reaches them already, and a click that allows must not
    limit it to them; they are kept with its domains for when it is limited again."""
    whole = name in state.servers and state.servers[name].network is Network.ALLOWED
    srv = _domains_edited(state, name, allow, ())
    if not whole:
        srv.network = Network.DOMAINS
    return srv


def _domains_edited(state: State, name: str, allow: Iterable[str], remove: Iterable[str]) -> Server:
    """Server *name* (remembered if not seen yet) with *remove* taken from its domains and
    *allow* added, each in normal form; its network's mode as it was."""
    from roots_manager.support.domains import pattern

    added = [pattern(d) for d in allow]
    gone = {pattern(d) for d in remove}
    srv = _setting_of(state, name)
    kept = [d for d in srv.network_domains if d not in gone]
    srv.network_domains = kept + [d for d in dict.fromkeys(added) if d not in kept]
    return srv


def network_key(srv: Server | None) -> list[str]:
    """The network part of :func:`confinement_key`: ``["blocked"]``, ``["domains",
    "domain:NAME", ...]`` (limited to its domains) or nothing (the whole network)."""
    if srv is None:
        return []
    if srv.network is Network.BLOCKED:
        return ["blocked"]
    if srv.network is Network.DOMAINS:
        return ["domains", *(f"domain:{d}" for d in srv.network_domains)]
    return []


def set_restart_on_revoke(state: State, name: str, on: bool | None) -> Server:
    """Set whether server *name* is restarted when a folder it was told is revoked (None: the
    default, on for confined servers). A server not seen yet is remembered."""
    srv = _setting_of(state, name)
    srv.restart_on_revoke = on
    return srv


def set_ask(state: State, name: str, seconds: int | None) -> Server:
    """Set how long server *name*'s reads outside its grants wait for the user's answer while
    the host waits for a request (0: refused at once; None: the default). A server not seen yet
    is remembered."""
    srv = _setting_of(state, name)
    srv.ask_seconds = seconds
    return srv


def wants_confinement(state: State, name: str, *, undecided: bool = False) -> bool:
    """Whether the store asks for server *name* to be confined; *undecided* is the answer for
    a server whose confinement is not decided yet (what its start made of the default)."""
    srv = state.servers.get(name)
    if srv is None or srv.confine is None:
        return undecided
    return srv.confine


def confines_new(state: State, can_confine: bool) -> bool:
    """What a server whose confinement is not decided gets at its first start on a machine
    that can (*can_confine*) or cannot confine: the store's ``confine_new`` where it can."""
    return state.confine_new and can_confine


def starts_confined(state: State, srv: Server, can_confine: bool) -> bool:
    """Whether *srv* runs confined at its next start: its setting, or the default's verdict."""
    return confines_new(state, can_confine) if srv.confine is None else srv.confine


def granted_folders(
    state: State, name: str, fingerprint: str | None = None, run: str = _NOT_YET_BOUND
) -> tuple[list[str], list[str]]:
    """The folders server *name* starting now may write, and those it may only read.

    *run* is the bridge run it starts in, when the server restarts within one.
    Folders that are not available now (missing, moved, too broad) are in neither: a rule
    cannot name them, and the server is not told them either.
    """
    read_only = {g.root for g in state.grants if g.server == name and g.read_only}
    write: list[str] = []
    read: list[str] = []
    availability = Availability()
    for root in visible_roots(state, name, fingerprint=fingerprint, run=run):
        if availability.reason(root) is None:
            # the real path checked when it was added: the rule is opened without following
            # links, so a link swapped in since leads nowhere rather than elsewhere
            (read if root.id in read_only else write).append(root.real or root.path)
    return write, read


def places_inside(state: State, name: str) -> tuple[list[str], list[str]]:
    """The places inside server *name*'s granted roots that its grants keep read-only, and
    those they hide (``grant --except``, ``--hide``), as absolute paths."""
    roots = {r.id: r for r in state.roots}
    read_only: list[str] = []
    hidden: list[str] = []
    for g in state.grants:
        if g.server != name or not (g.read_only_inside or g.hidden_inside) or g.root not in roots:
            continue
        top = roots[g.root].real or roots[g.root].path
        read_only += [os.path.join(top, p) for p in g.read_only_inside]
        hidden += [os.path.join(top, p) for p in g.hidden_inside]
    return read_only, hidden


class Derived:
    """The rules a confined start gets, and the paths it was refused with why."""

    __slots__ = ("refused", "rules")

    def __init__(self, rules: Rules, refused: list[tuple[str, str]]) -> None:
        self.rules = rules
        self.refused = refused


def rules_for(
    state: State,
    name: str,
    command: Sequence[str],
    *,
    fingerprint: str | None,
    env: Mapping[str, str],
    cwd: str,
    tmpdir: str,
    hosts: HostPlaces,
    run: str = _NOT_YET_BOUND,
    ceiling: Key | None = None,
    layers: str | None = None,
) -> Derived:
    """Everything server *name* may touch when *command* starts now, confined.

    Each folder it may write or read is identified now, without following links
    (:func:`~roots_manager.support.nofollow.identify`); one that cannot be (a link swapped in, gone)
    is refused, and the wrapper gives the kernel the very object identified here or nothing.
    The places of :data:`~roots_manager.core.confinement.protected.TABLE` inside its grants
    (*hosts*: the hosts' files) are held read-only or hidden there. With *ceiling* (a restart
    behind the host's back), nothing is allowed that the host's start did not (:func:`clamp`).
    The shared package caches it fills are layered, in *layers* (:data:`~roots_manager.core.
    confinement.protected.LAYERED`): without *layers*, they are held read-only where a grant
    holds them, and not otherwise writable.
    """
    write, read = granted_folders(state, name, fingerprint, run)
    srv = state.servers.get(name)
    extra_read = list(srv.allow_read) if srv is not None else []
    extra_write = list(srv.allow_write) if srv is not None else []
    sockets = list(srv.allow_socket) if srv is not None else []
    blocked = srv is not None and srv.network is Network.BLOCKED
    domains = None
    if srv is not None and srv.network is Network.DOMAINS:
        domains = tuple(srv.network_domains)
    if ceiling is not None:
        extra_read = [p for p in extra_read if p in ceiling[2]]
        extra_write = [p for p in extra_write if p in ceiling[3]]
        sockets = [p for p in sockets if p in ceiling[4]]
        blocked = blocked or "blocked" in ceiling[5]
        if domains is None and "domains" in ceiling[5]:
            # the whole network, since a host started it limited: the limit holds until the
            # host starts it again; domains added since are the user's, as a grant is
            domains = tuple(d[7:] for d in ceiling[5] if d.startswith("domain:"))
    if domains is not None:  # npx and uvx fetch the server itself: their registries
        domains = tuple(dict.fromkeys([*domains, *registry_domains(command, env)]))
    writable = [*write, *extra_write, tmpdir]
    sockets += [p for p in engine_sockets(command, env) if p not in sockets]
    runtime, refused = runtime_rules(command, env, cwd, writable)
    runtime = runtime.replace(
        own_files=tuple(_own_files(runtime.own_files, [*read, *extra_read], env, hosts, refused))
    )
    caches = package_caches(command, env)
    for cache in caches.values() if layers is not None else ():
        # a first npx has no ~/.npm yet: a rule (and a layer) cannot name a folder not there
        with contextlib.suppress(OSError):
            os.makedirs(cache, mode=0o700, exist_ok=True)
    if layers is None:  # nowhere to keep a layer: the shared caches are not the server's
        dropped = set(caches.values())
        runtime = runtime.replace(
            read_write=tuple(p for p in runtime.read_write if p not in dropped)
        )
        caches = {}
    expect: list[str] = []

    def identified(paths: Iterable[str]) -> tuple[str, ...]:
        kept: list[str] = []
        for path in dict.fromkeys(paths):
            try:
                expect.append(identify(path).to_arg())
            except OSError as exc:
                refused.append((path, f"it cannot be opened without following links: {exc}"))
                continue
            kept.append(path)
        return tuple(kept)

    kept, hidden = places_inside(state, name)
    searched: dict[str, bool] = {}
    if ceiling is not None:  # an exception taken away since the host's start still holds
        kept += [p.split(":", 1)[1] for p in ceiling[6] if p.startswith("read-only:")]
        hidden += [p.split(":", 1)[1] for p in ceiling[6] if p.startswith("hidden:")]
    held = protections(
        [*write, *extra_write],
        [*read, *extra_read],
        env=env,
        hosts=hosts,
        own=[tmpdir],
        create=True,
        read_only=kept,
        hidden=hidden,
        layered=caches.values(),
        searched=searched,
    )
    layered = {p.path for p in held if p.access == LAYERED}
    rules = runtime.replace(
        read_write=identified((*runtime.read_write, *writable)),
        read_only=(*runtime.read_only, *identified((*read, *extra_read))),
        tmpdir=tmpdir,
        protect=tuple(p.path for p in held if p.access == READ_ONLY),
        hide=tuple(p.path for p in held if p.access == HIDDEN),
        pin=tuple(p.path for p in held if p.access == PINNED),
        guard=tuple(p.path for p in held if p.access in GUARDED),
        sockets=tuple(sockets),
        network=not blocked,
        domains=None if blocked else domains,
        max_processes=(srv.max_processes if srv is not None else None) or MAX_PROCESSES,
        layer=tuple(f"{v}:{p}" for v, p in caches.items() if os.path.realpath(p) in layered),
        layers=layers,
        repositories_beneath=tuple(w for w, whole in searched.items() if not whole),
    )
    # a layered cache is another object once its layer is mounted: the mount checks the
    # cache's identity itself (roots_manager.sandbox.mounts)
    kept_expect = [e for e in expect if Identity.from_arg(e).path not in caches.values()]
    return Derived(rules.replace(expect=tuple(kept_expect)), refused)


def _own_files(
    files: Iterable[str],
    read_only: Sequence[str],
    env: Mapping[str, str],
    hosts: HostPlaces,
    refused: list[tuple[str, str]],
) -> list[str]:
    """The database files derived from the command line (:attr:`Rules.own_files`) that the
    server may write with their companions: none that is, or whose companion is, a place of
    :data:`~roots_manager.core.confinement.protected.TABLE`, nor one in a read-only grant
    (each refused is added to *refused*, with why)."""
    kept = []
    for path in files:
        why = next(
            (w for c in ("", *COMPANIONS) if (w := written_file_refusal(path + c, env, hosts))),
            None,
        )
        if why is None and any(inside(path, os.path.realpath(r)) for r in read_only):
            why = "a read-only grant holds it"
        if why is None:
            kept.append(path)
        else:
            refused.append((path, why))
    return kept


Key = tuple[tuple[str, ...], ...]
"""What a confined start depends on (:func:`confinement_key`): the folders written, read, the
extra ones read and written, the sockets allowed, the network (:func:`network_key`), and
the places inside the grants kept read-only (``read-only:PATH``) or hidden (``hidden:PATH``)."""


def clamp(key: Key | None, ceiling: Key | None) -> Key | None:
    """*key*, no looser than *ceiling*: the confinement the host started the server under.

    A restart behind the host's back never widens what confines the server (DESIGN.md, house
    rule 19): the extra folders, the sockets and the network are those of *key* that *ceiling*
    allowed too, and the places held inside the grants are both's. The grants themselves
    (consent given in the app) are *key*'s. None for
    *ceiling*: the host started it unconfined, and nothing is looser than that.
    """
    if ceiling is None or key is None:
        return key
    write, read, extra_read, extra_write, sockets, network, places = key
    return (
        write,
        read,
        tuple(p for p in extra_read if p in ceiling[2]),
        tuple(p for p in extra_write if p in ceiling[3]),
        tuple(p for p in sockets if p in ceiling[4]),
        tuple(sorted({*network, *ceiling[5]})),
        tuple(sorted({*places, *ceiling[6]})),
    )


def confinement_key(
    state: State,
    name: str,
    *,
    fingerprint: str | None,
    run: str = _NOT_YET_BOUND,
    forced: bool = False,
    undecided: bool = False,
) -> Key | None:
    """What of the store a confined start of server *name* now depends on; None when it would
    not be confined (*undecided*: see :func:`wants_confinement`). Two starts with equal keys
    run under the same rules."""
    if not (forced or wants_confinement(state, name, undecided=undecided)):
        return None
    write, read = granted_folders(state, name, fingerprint, run)
    srv = state.servers.get(name)
    extra_read = srv.allow_read if srv is not None else []
    extra_write = srv.allow_write if srv is not None else []
    sockets = srv.allow_socket if srv is not None else []
    network = network_key(srv)
    kept, hidden = places_inside(state, name)
    places = [f"read-only:{p}" for p in kept] + [f"hidden:{p}" for p in hidden]
    return tuple(
        tuple(sorted(x)) for x in (write, read, extra_read, extra_write, sockets, network, places)
    )


def report(
    state: State,
    name: str,
    *,
    can_confine: bool,
    why: str,
    by_default: bool,
    hosts: HostPlaces | None = None,
) -> dict[str, Any]:
    """What ``servers show`` says of server *name*: its setting and what it may read or write
    (*by_default*: whether this machine confines a server by default), and with *hosts*, the
    places inside its grants held read-only, hidden or pinned at its next confined start, and
    the database files its command line names, which it writes with their companions."""
    srv = state.server(name)
    write, read = granted_folders(state, name)
    on = starts_confined(state, srv, by_default)
    held = []
    searched: dict[str, bool] = {}
    if hosts is not None:
        kept, hidden = places_inside(state, name)
        held = protections(
            [*write, *srv.allow_write],
            [*read, *srv.allow_read],
            env=os.environ,
            hosts=hosts,
            read_only=kept,
            hidden=hidden,
            searched=searched,
            layered=package_caches(srv.command, os.environ).values() if srv.command else (),
        )
    own: list[str] = []
    if hosts is not None and srv.command:
        found = database_files(srv.command, os.environ, os.getcwd(), [*write, *srv.allow_write])
        own = _own_files(found, [*read, *srv.allow_read], os.environ, hosts, [])
    limited = limited_to(srv)
    return {
        "name": name,
        "confine": on,
        "confine_decided": srv.confine is not None,
        "means": means(srv, on),
        "network": network_state(srv),
        "network_domains": limited,
        "network_domains_kept": list(srv.network_domains),
        "network_derived": [
            {"domain": d, "why": why}
            for d, why in (
                registry_domains(srv.command, os.environ).items()
                if srv.command and srv.network is Network.DOMAINS
                else ()
            )
            if d not in limited
        ],
        "read_write": write,
        "read_only": read,
        "allow_read": list(srv.allow_read),
        "allow_write": list(srv.allow_write),
        "allow_socket": list(srv.allow_socket),
        "can_confine": can_confine,
        "confinement": why,
        "max_processes": srv.max_processes or MAX_PROCESSES,
        "max_processes_set": srv.max_processes is not None,
        "restart_on_revoke": srv.restarts_on_revoke,
        "restart_on_revoke_set": srv.restart_on_revoke is not None,
        "ask_seconds": srv.ask_seconds,
        "changes": (NEXT_START if srv.restarts_on_revoke else NEXT_START_NO_RESTART)
        if on
        else None,
        "own_files": own,
        "derived": [
            {"path": path, "access": access, "why": why}
            for path, access, why in (
                derived_folders(srv.command, os.environ) if srv.command else ()
            )
        ],
        "missing_extra": [p for p in (*srv.allow_read, *srv.allow_write) if not os.path.exists(p)],
        "protected": [{"path": p.path, "access": p.access, "why": p.why} for p in held],
        "repositories_searched_in_part": [w for w, whole in searched.items() if not whole],
        "mounted": [
            {"path": point, "type": fstype, "source": source}
            for point, fstype, source in mounts_inside(
                [*write, *read, *srv.allow_read, *srv.allow_write]
            )
        ],
    }


def network_state(srv: Server) -> str:
    """``blocked``, ``domains`` (limited to :attr:`~roots_manager.core.servers.server.Server.
    network_domains`) or ``allowed``, as ``servers network`` sets it."""
    return srv.network.value


def limited_to(srv: Server) -> list[str]:
    """The domains *srv*'s network is limited to now: its domains when it is limited to them,
    else none (those kept while it is allowed or blocked do not limit it)."""
    return list(srv.network_domains) if srv.network is Network.DOMAINS else []


def means(srv: Server, confined: bool) -> str:
    """What confinement means for *srv*, *confined* or not, in one sentence (English;
    translated by the app)."""
    if not confined:
        return ADVISORY_MEANS
    return confined_means(network_state(srv))


def confined_means(network: str) -> str:
    """What confinement means for a confined server whose network is *network* (as
    :func:`network_state` says it), in one sentence (English; translated by the app)."""
    return {"blocked": CONFINED_OFFLINE_MEANS, "domains": CONFINED_DOMAINS_MEANS}.get(
        network, CONFINED_MEANS
    )

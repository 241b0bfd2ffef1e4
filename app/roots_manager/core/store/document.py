"""The store document: what each stored field may hold, and a state read from or made into it.

A :class:`~roots_manager.core.store.state.State` is written as one JSON document (the version of its
shape in ``schema``). Reading it checks every field's type, range and form with
:mod:`roots_manager.core.store.schema` and names the first bad one: a hand-edited or damaged file is
refused when read, not when something first touches the odd value.
"""

from __future__ import annotations

import dataclasses
from itertools import starmap
from operator import attrgetter, itemgetter
from typing import Any, Protocol

from roots_manager.core.roots.root import Root
from roots_manager.core.servers.server import Network, Server
from roots_manager.core.store import schema
from roots_manager.core.store.grants import POLICIES, Decision, Grant, Pending, Policy, Scope
from roots_manager.core.store.log_limits import (
    DEFAULT_LOG_MAX_DAYS,
    DEFAULT_LOG_MAX_MIB,
    LOG_LIMIT_TOPS,
    LogRetention,
)
from roots_manager.core.store.schema import SCHEMA_VERSION, SchemaError
from roots_manager.core.store.versions import UNDECIDED_SCHEMA

NETWORK_MODE_SCHEMA = 14
"""The first schema in which a server's network mode is a field of its own (``network``), its
domains kept apart from it."""


class Stored(Protocol):
    """What of a state its document holds (:class:`~roots_manager.core.store.state.State` has it)."""

    roots: list[Root]
    servers: dict[str, Server]
    grants: list[Grant]
    pending: list[Pending]
    policy: Policy
    language: str | None
    confine_new: bool
    log_retention: LogRetention
    revision: int


def to_document(state: Stored) -> dict[str, Any]:
    """The store document of *state*, as it is written."""
    return {
        "schema": SCHEMA_VERSION,
        "revision": state.revision,
        "settings": {
            "policy": state.policy,
            "language": state.language,
            "confine_new": state.confine_new,
            "log_max_mib": state.log_retention.max_mib,
            "log_max_days": state.log_retention.max_days,
        },
        "roots": [vars(r).copy() for r in state.roots],
        "servers": {n: _server_json(s) for n, s in state.servers.items()},
        "grants": _GRANTS_STORED(state.grants),
        "pending": _PENDING_STORED(state.pending),
    }


def snapshot(state: Stored) -> tuple[object, ...]:
    """What :func:`to_document` would write of *state*, in a form that shares nothing that can
    change with it: two snapshots are equal exactly when the two documents are.

    A transaction compares the snapshot taken before its block with one taken after, to save
    only what changed. The document itself would not do: its objects hold the very lists of
    the state (a grant's runs), so a list changed in place was changed in both and the save
    skipped; and making it twice was a tenth of recording a bridge's start at 30,000 roots.
    Each record is a tuple of its fields' values made in C, its lists copied as tuples.
    """
    return (
        state.revision,
        state.policy,
        state.language,
        state.confine_new,
        state.log_retention.max_mib,
        state.log_retention.max_days,
        _ROOTS_KEPT(state.roots),
        {n: _SERVER_KEPT([s]) for n, s in state.servers.items()},  # in any order, as a dict
        _GRANTS_KEPT(state.grants),
        _PENDING_KEPT(state.pending),
    )


def _keeping(cls: type[Any], *keyed: str) -> Any:
    """What makes the :func:`snapshot` of a list of dataclass *cls* instances: the values of
    their fields, and a copy of each field declared a list (``list[...]``, or that or None), so
    that a list changed in place later does not change the snapshot. *keyed* fields are left
    out: the document holds them as the object's key (a server's name)."""
    fields = [f for f in dataclasses.fields(cls) if f.name not in keyed]
    if any(kind in str(f.type) for f in fields for kind in ("dict", "set")):
        raise TypeError(f"the snapshot of {cls.__name__} copies lists only")  # a new kind of field
    values = attrgetter(*(f.name for f in fields))
    lists = [(f.name, "None" in str(f.type)) for f in fields if str(f.type).startswith("list")]

    def kept(objects: list[Any]) -> tuple[object, ...]:
        # a column at a time, each object's list copied in C where none is None
        copies = [
            list(map(_copied if nullable else tuple, map(attrgetter(name), objects)))
            for name, nullable in lists
        ]
        return (list(map(values, objects)), *copies)

    return kept


def _copied(value: list[str] | None) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def stored_fields(doc: object) -> dict[str, Any]:
    """The fields of a state read from a parsed store document (its constructor's keyword
    arguments); raises :class:`SchemaError` naming the first bad field."""
    top = schema.version(doc)
    settings = _SETTINGS.read(schema.member(top, "settings", dict), "settings")
    if "servers" not in top:
        raise SchemaError("servers is missing")
    roots = _ROOTS_BUILT(_ROOT.read_all(schema.member(top, "roots", list), "roots"))
    schema.unique([r.id for r in roots], "the root id")
    schema.unique([r.path for r in roots], "the root path")
    # before schema 8 a server's confinement was always decided (a store of schema 1 or 2,
    # older than confinement, has none): a server known then keeps it off
    undecided = None if top["schema"] >= UNDECIDED_SCHEMA else False
    # before schema 14 a server's network was two fields, its domains dropped when it was
    # allowed or blocked: read as the mode they meant
    server, read = (
        (_server, _SERVER.read)
        if top["schema"] >= NETWORK_MODE_SCHEMA
        else (_server_before_14, _SERVER_BEFORE_14.read)
    )
    return dict(
        roots=roots,
        servers={
            n: server(n, _fields(read(s, f"servers[{n!r}]")), undecided)
            for n, s in schema.member(top, "servers", dict).items()
        },
        grants=_grants(_GRANT.read_all(schema.member(top, "grants", list), "grants")),
        pending=_PENDING_BUILT(_PENDING.read_all(schema.member(top, "pending", list), "pending")),
        policy=settings.get("policy", "ask"),
        language=settings.get("language"),
        confine_new=settings.get("confine_new", True),
        log_retention=LogRetention(
            settings.get("log_max_mib", DEFAULT_LOG_MAX_MIB),
            settings.get("log_max_days", DEFAULT_LOG_MAX_DAYS),
        ),
        revision=top.get("revision", 0),
    )


# Fields stored under another name than the one the code gives them: the bridge run a grant
# lasts for, and the one a consent request came from, were once called "sessions" and
# "session", and bridges and apps of older versions read and write the same file.
_GRANT_KEYS = {"runs": "sessions"}
_PENDING_KEYS = {"run": "session"}


def _storing(cls: type[Any], keys: dict[str, str]) -> Any:
    """What makes the stored objects of a list of dataclass *cls* instances: their fields, in
    order, under their stored names (*keys*: the stored name of each field stored under
    another). Fetched by one :func:`operator.attrgetter` per object and paired with the
    names in C: a comprehension renaming each field cost a tenth of saving 30,000 grants."""
    names = [f.name for f in dataclasses.fields(cls)]
    stored = tuple(keys.get(n, n) for n in names)
    values = attrgetter(*names)

    def documents(objects: list[Any]) -> list[dict[str, Any]]:
        return [dict(zip(stored, values(o), strict=True)) for o in objects]

    return documents


def _building(cls: type[Any], keys: dict[str, str]) -> Any:
    """What makes the instances of dataclass *cls* of a list of checked stored objects
    (*keys*: the stored name of each field stored under another). Objects holding every
    field in the order they are written, as every object a store was saved with does, are
    made from their values by position, fetched and passed in C (a keyword argument each
    made a fifth of reading 30,000 roots); any other by name."""
    names = [f.name for f in dataclasses.fields(cls)]
    stored = tuple(keys.get(n, n) for n in names)
    fetch = itemgetter(*stored)
    renamed = {v: k for k, v in keys.items()}

    def built(docs: list[dict[str, Any]]) -> list[Any]:
        if set(map(tuple, docs)) <= {stored}:
            return list(starmap(cls, map(fetch, docs)))
        return [cls(**_named(d, renamed)) for d in docs]

    return built


def _named(stored: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """Stored fields under the names the code gives them (*names*: the code's name of each
    field stored under another)."""
    fields = dict(stored)
    for old, new in names.items():
        if old in fields:
            fields[new] = fields.pop(old)  # keyword arguments: their order does not matter
    return fields


# made once, not once per grant read (a store of 30,000 roots holds as many grants)
_GRANTS_STORED = _storing(Grant, _GRANT_KEYS)
_PENDING_STORED = _storing(Pending, _PENDING_KEYS)
_SCOPES = {s.value: s for s in Scope}
_NETWORKS = {n.value: n for n in Network}
_ROOTS_BUILT = _building(Root, {})
_GRANTS_BUILT = _building(Grant, _GRANT_KEYS)
_PENDING_BUILT = _building(Pending, _PENDING_KEYS)
_ROOTS_KEPT = _keeping(Root)
_SERVER_KEPT = _keeping(Server, "name")
_GRANTS_KEPT = _keeping(Grant)
_PENDING_KEPT = _keeping(Pending)


def _server(name: str, fields: dict[str, Any], undecided: bool | None) -> Server:
    decision = fields.get("decision")
    confine = fields.get("confine")
    return Server(
        name=name,
        **{
            **fields,
            "decision": Decision(decision) if decision else None,
            "confine": undecided if confine is None else confine,
            "network": _NETWORKS[fields.get("network", Network.ALLOWED)],
        },
    )


def _server_before_14(name: str, fields: dict[str, Any], undecided: bool | None) -> Server:
    """A server of a store older than schema 14: blocked where ``block_network`` says so (as
    it was enforced, whatever its domains), else limited to its ``network_domains`` where they
    are not null, else allowed; its domains kept in each case."""
    blocked = fields.pop("block_network", False)
    domains = fields.pop("network_domains", None)
    fields["network"] = (
        Network.BLOCKED if blocked else Network.ALLOWED if domains is None else Network.DOMAINS
    )
    fields["network_domains"] = [] if domains is None else domains
    return _server(name, fields, undecided)


def _grants(docs: list[dict[str, Any]]) -> list[Grant]:
    grants: list[Grant] = _GRANTS_BUILT(docs)
    for g in grants:
        g.scope = _SCOPES[g.scope]  # checked: one of them (a Scope already, when absent)
    return grants


def _record(
    cls: type[Any], *keyed: str, stored: dict[str, str] | None = None, **checks: schema.Check
) -> schema.Record:
    """The checks of dataclass *cls*'s fields, by stored name; those without a default are
    required.

    *keyed* fields need not be in the object: they come from its key (a server's name).
    *stored* names the fields stored under another name than their own.
    """
    keys = stored or {}
    fields = dataclasses.fields(cls)
    if {keys.get(f.name, f.name) for f in fields} != checks.keys():  # a new field needs its check
        raise TypeError(f"the checks of {cls.__name__} do not match its fields")
    required = {
        keys.get(f.name, f.name)
        for f in fields
        if f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
        and f.name not in keyed
    }
    return schema.Record(checks, frozenset(required))


# What each stored field may hold.
_ROOT = _record(
    Root,
    id=schema.identifier,
    path=schema.root_path,
    # names are not held to today's rules (no control characters): older versions stored
    # folder names as they were, and such a store is not damaged
    name=schema.text,
    added_at=schema.timestamp,
    real=schema.optional(schema.root_path),
    mount_point=schema.flag,
)
_SERVER = _record(
    Server,
    "name",
    name=schema.text,
    fingerprint=schema.optional(schema.fingerprint),
    command=schema.optional(schema.command),
    seen_fingerprint=schema.optional(schema.fingerprint),
    first_seen=schema.optional(schema.timestamp),
    last_seen=schema.optional(schema.timestamp),
    confine=schema.optional(schema.flag),
    allow_read=schema.list_of(schema.root_path),
    allow_write=schema.list_of(schema.root_path),
    allow_socket=schema.list_of(schema.root_path),
    network=schema.one_of(*Network),
    network_domains=schema.list_of(schema.domain),
    restart_on_revoke=schema.optional(schema.flag),
    max_processes=schema.optional(schema.process_count),
    ask_seconds=schema.optional(schema.ask_seconds),
    decision=schema.optional(schema.one_of(*Decision)),
    decided_at=schema.optional(schema.timestamp),
)
_SERVER_BEFORE_14 = schema.Record(
    {
        **{k: v for k, v in _SERVER.checks.items() if k not in ("network", "network_domains")},
        "block_network": schema.flag,
        "network_domains": schema.optional(schema.list_of(schema.domain)),
    },
    _SERVER.required,
)
"""What each field of a server in a store older than schema 14 may hold: its network as two
fields (``block_network``, and ``network_domains`` null where it was not limited to domains)."""
_GRANT = _record(
    Grant,
    stored=_GRANT_KEYS,
    server=schema.text,
    root=schema.identifier,
    scope=schema.one_of(*Scope),
    sessions=schema.list_of(schema.identifier),
    granted_at=schema.empty_or(schema.timestamp),
    read_only=schema.flag,
    read_only_inside=schema.list_of(schema.inside_path),
    hidden_inside=schema.list_of(schema.inside_path),
)
_PENDING = _record(
    Pending,
    stored=_PENDING_KEYS,
    id=schema.identifier,
    server=schema.text,
    reason=schema.one_of("new-server", "command-changed"),
    command=schema.command,
    fingerprint=schema.fingerprint,
    previous_command=schema.optional(schema.command),
    requested_at=schema.timestamp,
    session=schema.optional(schema.identifier),
)


def _log_limit_check(kind: str) -> schema.Check:
    top = LOG_LIMIT_TOPS[kind]

    def check(value: object) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            return f"is not a whole number from 0 to {top}: {schema.shown(value)}"
        return None

    return check


_SETTINGS = schema.Record(
    {
        "policy": schema.one_of(*POLICIES),
        "language": schema.optional(schema.language),
        "confine_new": schema.flag,
        "log_max_mib": _log_limit_check("size"),
        "log_max_days": _log_limit_check("age"),
    },
    frozenset(),
)


def _server_json(s: Server) -> dict[str, Any]:
    d = vars(s).copy()
    del d["name"]
    return d


def _fields(s: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in s.items() if k != "name"}

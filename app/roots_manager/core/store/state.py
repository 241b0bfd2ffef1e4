"""The state Roots Manager keeps: roots, known servers, grants, pending consent, settings.

Every operation here is a pure edit of a :class:`State` in memory; :mod:`roots_manager.core.store.file`
makes it durable. Operations raise :class:`~roots_manager.support.refusal.ModelError` with a
message meant for the user, made from one of :data:`ERROR_TEMPLATES` so that a front end can show
it in the user's language. The records it keeps are defined beside it: roots in
:mod:`roots_manager.core.roots.root`, servers in :mod:`roots_manager.core.servers.server`, grants and consent
requests in :mod:`roots_manager.core.store.grants`, the traffic log limits in
:mod:`roots_manager.core.store.log_limits`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from roots_manager.core.roots.root import (
    BROAD_REFUSALS,
    TOO_LONG,
    Root,
    clean_name,
    find_root,
    new_root,
)
from roots_manager.core.servers.confusables import look_alike
from roots_manager.core.servers.names import NameFlaw, check_server_name
from roots_manager.core.servers.server import Server
from roots_manager.core.store import schema
from roots_manager.core.store.document import stored_fields, to_document
from roots_manager.core.store.grants import (
    POLICIES,
    Decision,
    Grant,
    Pending,
    PendingReason,
    Policy,
    Scope,
    after_run,
    pruned,
    with_granted,
)
from roots_manager.core.store.log_limits import RETENTION_REFUSALS, LogRetention, log_limit
from roots_manager.support.refusal import ModelError
from roots_manager.support.translatable import QT_TRANSLATE_NOOP

_FINGERPRINT = re.compile(r"[0-9a-fA-F]{64}")


NAME_REFUSALS = {
    NameFlaw.EMPTY: QT_TRANSLATE_NOOP(
        "CoreError", "{name!r} is not a usable server name: it is empty"
    ),
    NameFlaw.CONTROL: QT_TRANSLATE_NOOP(
        "CoreError",
        "{name!r} is not a usable server name: it holds control or text-direction "
        "characters ({chars})",
    ),
    NameFlaw.INVISIBLE: QT_TRANSLATE_NOOP(
        "CoreError",
        "{name!r} is not a usable server name: it holds characters that cannot "
        "be seen ({chars}), so it would look like another name",
    ),
    NameFlaw.EDGE_SPACE: QT_TRANSLATE_NOOP(
        "CoreError",
        "{name!r} is not a usable server name: it begins or ends with a space, "
        "so it would look like another name",
    ),
}
"""The template of a server name refused, for each flaw."""

UNKNOWN_SERVER = QT_TRANSLATE_NOOP(
    "CoreError", "no server named {name!r} is known (roots-manager servers list shows them)"
)
LOOK_ALIKE = QT_TRANSLATE_NOOP(
    "CoreError",
    "{name!r} is not a usable server name: it looks like the known server {known!r} (Unicode's "
    "confusables), so the two would be taken for each other. Name it differently",
)

ROOT_NAME_TAKEN = QT_TRANSLATE_NOOP(
    "CoreError",
    "{name!r} cannot name this root: the root {path} is named {other!r}, which looks the same "
    "(Unicode's confusables). Name it differently",
)

ERROR_TEMPLATES: tuple[str, ...] = (
    ROOT_NAME_TAKEN,
    QT_TRANSLATE_NOOP(
        "CoreError", "several roots are named {ref!r} ({paths}); name one by its path"
    ),
    QT_TRANSLATE_NOOP("CoreError", "no root matches {ref!r} (roots-manager roots list shows them)"),
    QT_TRANSLATE_NOOP("CoreError", "cannot add {path}: it does not exist"),
    TOO_LONG,
    QT_TRANSLATE_NOOP("CoreError", "cannot add {path}: it is not a folder"),
    *BROAD_REFUSALS,
    QT_TRANSLATE_NOOP("CoreError", "{path} is already a root, named {name!r}"),
    UNKNOWN_SERVER,
    QT_TRANSLATE_NOOP("CoreError", "unknown policy {policy!r}; choose one of {choices}"),
    QT_TRANSLATE_NOOP("CoreError", "no pending consent request for {ref!r}"),
    QT_TRANSLATE_NOOP("CoreError", "server {name!r} has not run yet; there is nothing to approve"),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "{given!r} is not a command fingerprint (64 hexadecimal digits; "
        "roots-manager servers list --json shows each server's)",
    ),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "server {name!r} last ran with another command line than the one expected: "
        "{command} (fingerprint {seen}); look at it again before approving",
    ),
    QT_TRANSLATE_NOOP("CoreError", "a root's name cannot be empty"),
    QT_TRANSLATE_NOOP(
        "CoreError", "a root's name cannot hold control or text-direction characters ({chars})"
    ),
    *NAME_REFUSALS.values(),
    LOOK_ALIKE,
    *RETENTION_REFUSALS,
)
"""Every message a :class:`ModelError` can carry, as a ``str.format`` template."""


def now_iso() -> str:
    """The current time as an ISO 8601 UTC timestamp with milliseconds (``…T12:00:00.123Z``).

    Made with :mod:`time` rather than :mod:`datetime`, which every bridge would load for this
    alone (half a MiB of each bridge's memory)."""
    return iso_time(time.time())


_SECOND: tuple[int, str] = (-1, "")
"""The last whole second :func:`iso_time` wrote, and its text: a bridge stamps each roots/list
answer three times (two events and its live marker), and a burst of answers falls in one
second, whose text is then made once rather than by ``gmtime`` and ``strftime`` each time."""


def iso_time(when: float) -> str:
    """*when* (seconds since the epoch) as :func:`now_iso` writes times."""
    global _SECOND
    seconds, ms = divmod(int(when * 1000), 1000)
    known = _SECOND  # one read: another thread may replace it, never change it
    if known[0] != seconds:
        known = (seconds, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)))
        _SECOND = known
    return f"{known[1]}.{ms:03d}Z"


def fingerprint(command: Sequence[str]) -> str:
    """A stable fingerprint of a server's command line (the argv it is started with)."""
    data = json.dumps(list(command), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class State:
    roots: list[Root] = field(default_factory=list)
    servers: dict[str, Server] = field(default_factory=dict)
    grants: list[Grant] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    policy: Policy = "ask"
    language: str | None = None
    confine_new: bool = True
    """Whether a server first seen from now on starts confined, where the machine can confine
    (its first start decides, :attr:`Server.confine`); a server already known keeps its own."""
    log_retention: LogRetention = field(default_factory=LogRetention)
    revision: int = 0

    # ---- roots -------------------------------------------------------------------------

    def find_root(self, ref: str) -> Root:
        """The root named by *ref*: a ``file://`` URI, a root's name, or a path."""
        return find_root(self.roots, ref)

    def add_root(self, path: str, name: str | None = None, *, allow_broad: bool = False) -> Root:
        """Add the folder at *path* (a path or a ``file://`` URI) as a root."""
        root = new_root(self.roots, path, name, allow_broad=allow_broad, added_at=now_iso())
        root.name = _root_name(self.roots, root, chosen=name is not None)
        self.roots.append(root)
        return root

    def rename_root(self, ref: str, name: str) -> Root:
        root = self.find_root(ref)
        cleaned = clean_name(name)
        if cleaned != root.name:
            root.name = _root_name(self.roots, root, chosen=True, name=cleaned)
        return root

    def remove_root(self, ref: str) -> tuple[Root, list[str]]:
        """Remove a root and every grant of it; returns it and the servers that lose it."""
        root = self.find_root(ref)
        self.roots.remove(root)
        losing = sorted({g.server for g in self.grants if g.root == root.id})
        self.grants = [g for g in self.grants if g.root != root.id]
        return root, losing

    # ---- servers and grants -----------------------------------------------------------

    def server(self, name: str) -> Server:
        try:
            return self.servers[name]
        except KeyError:
            raise ModelError(UNKNOWN_SERVER, name=name) from None

    def grant(
        self,
        server: str,
        root_ids: Iterable[str],
        scope: Scope = Scope.ALWAYS,
        runs: Sequence[str] = (),
        read_only: bool | None = None,
    ) -> list[Grant]:
        """Grant *server* the roots *root_ids*; an "always" grant replaces a while-running grant.

        *read_only*, when given, is set on every grant of *root_ids*, new or kept.

        Granting settles a pending request for a server never seen before; a command that
        changed still needs :meth:`approve` before its grants apply.
        """
        _check_server_name(server)
        self.check_new_server(server)
        scope = Scope(scope)  # a plain "always" from a caller becomes the enum
        srv = self.servers.setdefault(server, Server(name=server))
        self.pending = [
            p for p in self.pending if not (p.server == server and p.reason == "new-server")
        ]
        if srv.fingerprint is None and srv.seen_fingerprint is not None:
            srv.fingerprint = srv.seen_fingerprint
        self.grants, made = with_granted(
            self.grants, server, list(root_ids), scope, runs, read_only, now_iso
        )
        return made

    def set_inside(
        self,
        server: str,
        root_ids: Iterable[str],
        *,
        read_only: Sequence[str] = (),
        hidden: Sequence[str] = (),
        clear: bool = False,
    ) -> None:
        """Add to *server*'s grants of *root_ids* the places inside each root (relative paths,
        checked by the schema's rule) that a confined server may read and not write
        (*read_only*), or neither (*hidden*); *clear* first takes away those it had. A place
        both read-only and hidden is hidden."""
        for place in (*read_only, *hidden):
            why = schema.inside_path(place)
            if why is not None:
                raise ModelError(f"the place {why}")
        ids = set(root_ids)
        for g in self.grants:
            if g.server != server or g.root not in ids:
                continue
            if clear:
                g.read_only_inside, g.hidden_inside = [], []
            g.hidden_inside = sorted({*g.hidden_inside, *hidden})
            g.read_only_inside = sorted({*g.read_only_inside, *read_only} - {*g.hidden_inside})

    def revoke(self, server: str, root_ids: Iterable[str]) -> int:
        """Revoke *server*'s grants of *root_ids*; returns how many grants went."""
        ids = set(root_ids)
        before = len(self.grants)
        self.grants = [g for g in self.grants if not (g.server == server and g.root in ids)]
        return before - len(self.grants)

    def grants_of(self, server: str) -> list[Grant]:
        return [g for g in self.grants if g.server == server]

    def set_policy(self, policy: str) -> None:
        if policy not in POLICIES:
            raise ModelError(
                "unknown policy {policy!r}; choose one of {choices}",
                policy=policy,
                choices=", ".join(POLICIES),
            )
        self.policy = policy

    def set_log_retention(self, max_mib: object = None, max_days: object = None) -> LogRetention:
        """Change the traffic log limits given (None keeps one as it is); returns the new ones."""
        now = self.log_retention
        self.log_retention = LogRetention(
            now.max_mib if max_mib is None else log_limit("size", max_mib),
            now.max_days if max_days is None else log_limit("age", max_days),
        )
        return self.log_retention

    def remove_server(self, name: str) -> None:
        """Forget a server, its grants and its pending requests."""
        self.server(name)
        del self.servers[name]
        self.grants = [g for g in self.grants if g.server != name]
        self.pending = [p for p in self.pending if p.server != name]

    def expect_server(self, name: str, command: Sequence[str] | None) -> Server:
        """Know server *name* before it first runs, approving *command* for it.

        The user put the server behind the bridge (``hosts wrap``): grants can be made now, and
        its first start with *command* asks nothing. With *command* None (a host fills in
        variables such as ``${workspaceFolder}``, so the command that runs is not known yet) the
        name is known and the first command to use it is trusted if it was granted something.
        A server already known with another approved command keeps it (the name was chosen not
        to clash).
        """
        _check_server_name(name)
        self.check_new_server(name)
        srv = self.servers.setdefault(name, Server(name=name))
        if command is None:
            return srv
        fp = fingerprint(command)
        if srv.fingerprint is None and srv.seen_fingerprint in (None, fp):
            srv.fingerprint = fp
            srv.command = srv.command or list(command)
            self.pending = [
                p for p in self.pending if not (p.server == name and p.fingerprint == fp)
            ]
        return srv

    # ---- a bridge seeing its server run ------------------------------------------------

    def check_new_server(self, name: str) -> None:
        """Refuse *name* for a new server when it looks like a known one (``fѕ``, with a
        Cyrillic ``ѕ``, beside ``fs``): the user could not tell which one they grant to.

        A known name is left alone: a store may hold two such names from before this rule.
        """
        if name in self.servers:
            return
        known = look_alike(name, self.servers)
        if known is not None:
            raise ModelError(LOOK_ALIKE, name=name, known=known)

    def server_started(
        self, name: str, command: Sequence[str], run: str, *, confined: bool | None = None
    ) -> Pending | None:
        """Record that *command* runs as server *name* in bridge *run*.

        *confined* is what the bridge's default made of a server whose confinement was not
        decided (None: it was decided, or is not known): the first start decides it for good.

        Returns the pending consent request this creates or keeps, if any: for a server never
        seen with no grant (under policy "ask"), or one whose command line changed.
        Grants made for the name before any command used it are bound to this command
        (trust on first use). While-running grants not yet bound to a run are bound to this one.
        """
        _check_server_name(name)
        self.check_new_server(name)
        fp = fingerprint(command)
        stamp = now_iso()
        srv = self.servers.get(name)
        request: Pending | None = None
        if srv is None:
            srv = self.servers[name] = Server(name=name, first_seen=stamp)
            if self.policy == "ask":
                request = self._request(name, "new-server", command, fp, None, run)
            else:
                srv.fingerprint = fp
        elif srv.fingerprint is None:
            if self.grants_of(name) or self.policy != "ask":
                srv.fingerprint = fp
            else:
                request = self._request(name, "new-server", command, fp, None, run)
        elif srv.fingerprint != fp and self.policy != "allow-all":
            request = self._request(name, "command-changed", command, fp, srv.command, run)
        srv.first_seen = srv.first_seen or stamp
        srv.last_seen = stamp
        if srv.confine is None and confined is not None:
            srv.confine = confined
        srv.command = list(command)
        srv.seen_fingerprint = fp
        for g in self.grants_of(name):
            if g.scope == Scope.WHILE_RUNNING and not g.runs:
                g.runs = [run]
        return request

    def _request(
        self,
        server: str,
        reason: PendingReason,
        command: Sequence[str],
        fp: str,
        previous: Sequence[str] | None,
        run: str,
    ) -> Pending:
        for p in self.pending:
            if p.server == server and p.fingerprint == fp:
                p.run = run
                return p
        self.pending = [p for p in self.pending if p.server != server]
        p = Pending(
            id=os.urandom(6).hex(),
            server=server,
            reason=reason,
            command=list(command),
            fingerprint=fp,
            previous_command=list(previous) if previous is not None else None,
            requested_at=now_iso(),
            run=run,
        )
        self.pending.append(p)
        return p

    def run_ended(self, name: str, run: str) -> None:
        """A bridge run ended: the while-running grants that lasted only for it go."""
        self.grants = after_run(self.grants, name, run)

    def prune_runs(self, live: set[str]) -> None:
        """Drop while-running grants whose bridge runs all ended without saying so (a crash)."""
        self.grants = pruned(self.grants, live)

    def pending_request(self, ref: str) -> Pending:
        """A pending request by its id or by its server's name."""
        for p in self.pending:
            if ref in (p.id, p.server):
                return p
        raise ModelError("no pending consent request for {ref!r}", ref=ref)

    def decide(
        self,
        ref: str,
        decision: Decision,
        root_ids: Iterable[str] = (),
        runs: Sequence[str] = (),
    ) -> Pending:
        """Settle a pending request: approve its command and grant *root_ids*, or deny it.

        Denying also approves the command line, so that the user is not asked again on every
        start; the server keeps seeing only what it is granted (nothing, for a new server).
        """
        decision = Decision(decision)  # a plain "always" from a caller becomes the enum
        p = self.pending_request(ref)
        srv = self.servers.setdefault(p.server, Server(name=p.server))
        self.pending.remove(p)
        srv.decision, srv.decided_at = decision, now_iso()
        if decision == Decision.DENY:
            srv.fingerprint = p.fingerprint
            if p.reason == "command-changed":
                # the user said no to the new command: its grants do not carry over
                self.grants = [g for g in self.grants if g.server != p.server]
            return p
        srv.fingerprint = p.fingerprint
        self.grant(p.server, root_ids, decision.scope, runs or ([p.run] if p.run else []))
        return p

    def approve(self, name: str, expected: str | None = None) -> Server:
        """Approve the command line a server last ran with, lifting the suspension.

        *expected*, the fingerprint of the command the user looked at, makes sure that is the
        command approved: a server restarted with yet another command in between is refused
        rather than approved unseen. The whole fingerprint is asked for: whoever controls the
        command line could make two commands whose fingerprints start alike.
        """
        srv = self.server(name)
        if srv.seen_fingerprint is None:
            raise ModelError(
                "server {name!r} has not run yet; there is nothing to approve", name=name
            )
        if expected is not None:
            if not _FINGERPRINT.fullmatch(expected):
                raise ModelError(
                    "{given!r} is not a command fingerprint (64 hexadecimal digits; "
                    "roots-manager servers list --json shows each server's)",
                    given=expected,
                )
            if expected.lower() != srv.seen_fingerprint:
                raise ModelError(
                    "server {name!r} last ran with another command line than the one expected: "
                    "{command} (fingerprint {seen}); look at it again before approving",
                    name=name,
                    command=shlex.join(srv.command or []),
                    seen=srv.seen_fingerprint,
                )
        srv.fingerprint = srv.seen_fingerprint
        self.pending = [p for p in self.pending if p.server != name]
        return srv

    # ---- serialisation ----------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The store document of this state (:mod:`roots_manager.core.store.document`)."""
        return to_document(self)

    @classmethod
    def from_json(cls, doc: object) -> State:
        """Build a state from a parsed store document; raises :class:`SchemaError`.

        Every field is checked (type, range, form), and the first bad one is named.
        """
        return cls(**stored_fields(doc))


def server_name_error(name: str) -> ModelError | None:
    """Why *name* cannot name a server (see :func:`roots_manager.core.servers.names.check_server_name`)."""
    check = check_server_name(name)
    if check is None:
        return None
    return ModelError(NAME_REFUSALS[check.flaw], name=name, chars=", ".join(check.chars))


def _check_server_name(name: str) -> None:
    # the bridge refuses the same names before it records anything
    error = server_name_error(name)
    if error is not None:
        raise error


def _root_name(roots: Sequence[Root], root: Root, *, chosen: bool, name: str = "") -> str:
    """*root*'s name (*name*, or the one it has) unless another of *roots* has it or one that
    looks the same (Unicode's confusables: ``prоj`` with a Cyrillic o, a zero-width space,
    ``café`` composed or not), which would make two rows no one can tell apart. A name the user
    *chosen* is then refused; one made from the folder's name gets its parent folder's name
    beside it (``app (work)``), or a number."""
    name = name or root.name
    others = [r for r in roots if r.id != root.id]
    taken = _taken(name, others)
    if taken is None:
        return name
    if chosen:
        raise ModelError(ROOT_NAME_TAKEN, name=name, path=taken.path, other=taken.name)
    parent = os.path.basename(os.path.dirname(root.path))
    candidates = [f"{name} ({parent})"] if parent else []
    candidates += [f"{name} ({n})" for n in range(2, 100)]
    for candidate in candidates:
        if _taken(candidate, others) is None:
            return candidate
    return f"{name} ({root.id})"


def _taken(name: str, roots: Sequence[Root]) -> Root | None:
    """The root of *roots* whose name is *name*, or looks the same."""
    for r in roots:
        if r.name == name:
            return r
    alike = look_alike(name, [r.name for r in roots])
    return next((r for r in roots if r.name == alike), None) if alike is not None else None

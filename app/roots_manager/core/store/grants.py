"""The grant vocabulary: how long a grant lasts, the user's answer to a consent request, a grant
of a root to a server, and a consent request still waiting for an answer.

These are the records :class:`roots_manager.core.store.state.State` keeps, and the edits of a list of
grants that its operations make.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

Policy = Literal["ask", "deny", "allow-all"]
POLICIES: tuple[Policy, ...] = ("ask", "deny", "allow-all")
"""What becomes of a server no grant names yet: ask the user, deny it, or allow it every root."""


class Scope(StrEnum):
    """How long a grant lasts."""

    ALWAYS = "always"
    WHILE_RUNNING = "session"
    """While the server runs: until the bridge run it was granted for (or the next one to
    start) ends. Stored as "session", its first name, and still written so: a bridge or an app
    of an older version reads the same store, and would refuse a value it does not know."""


PendingReason = Literal["new-server", "command-changed"]


class Decision(StrEnum):
    """The user's answer to a consent request (stored as its value, like :class:`Scope`)."""

    ALWAYS = "always"
    WHILE_RUNNING = "session"
    DENY = "deny"

    @property
    def scope(self) -> Scope:
        """The scope of the grants an allowing decision makes."""
        return Scope.ALWAYS if self == Decision.ALWAYS else Scope.WHILE_RUNNING


@dataclass
class Grant:
    server: str
    root: str
    scope: Scope = Scope.ALWAYS
    runs: list[str] = field(default_factory=list)
    """For while-running grants: the bridge runs it lasts for (empty: the next one to start)."""
    granted_at: str = ""
    read_only: bool = False
    """A confined server may read the root and write nothing in it; advice only otherwise."""
    read_only_inside: list[str] = field(default_factory=list)
    """Places inside the root (relative paths) a confined server may read and not write."""
    hidden_inside: list[str] = field(default_factory=list)
    """Places inside the root (relative paths) a confined server may not read either."""


@dataclass
class Pending:
    id: str
    server: str
    reason: PendingReason
    command: list[str]
    fingerprint: str
    previous_command: list[str] | None
    requested_at: str
    run: str | None = None


def with_granted(
    grants: list[Grant],
    server: str,
    root_ids: Sequence[str],
    scope: Scope,
    runs: Sequence[str],
    read_only: bool | None,
    now: Callable[[], str],
) -> tuple[list[Grant], list[Grant]]:
    """*grants* with *server* granted *root_ids*, and the grants that made.

    An "always" grant replaces a while-running one; a while-running grant of a root already
    granted so lasts for *runs* too. *read_only*, when given, is set on every grant of
    *root_ids*, new or kept. *now* stamps each new grant.
    """
    # looked up in a map and replaced in one pass: granting every root of a large store
    # (the consent dialog's "all") must not take roots x grants steps
    mine = {g.root: g for g in grants if g.server == server}
    replaced: set[int] = set()
    made = []
    for rid in root_ids:
        existing = mine.get(rid)
        if existing and existing.scope == Scope.ALWAYS:
            continue
        if existing and scope == Scope.WHILE_RUNNING:
            existing.runs = sorted(set(existing.runs) | set(runs))
            continue
        if existing:
            replaced.add(id(existing))
        g = mine[rid] = Grant(server, rid, scope, sorted(set(runs)), now())
        made.append(g)
    if replaced:
        grants = [g for g in grants if id(g) not in replaced]
    grants.extend(made)
    if read_only is not None:
        for rid in root_ids:
            mine[rid].read_only = read_only
    return grants, made


def after_run(grants: list[Grant], server: str, run: str) -> list[Grant]:
    """*grants* once bridge *run* of *server* ended: the while-running grants that lasted only
    for it go."""
    keep = []
    for g in grants:
        if g.server == server and g.scope == Scope.WHILE_RUNNING and run in g.runs:
            g.runs.remove(run)
            if not g.runs:
                continue
        keep.append(g)
    return keep


def pruned(grants: list[Grant], live: set[str]) -> list[Grant]:
    """*grants* without the while-running grants whose bridge runs all ended (*live* holds the
    runs that did not)."""
    keep = []
    for g in grants:
        if g.scope == Scope.WHILE_RUNNING and g.runs:
            g.runs = [s for s in g.runs if s in live]
            if not g.runs:
                continue
        keep.append(g)
    return keep

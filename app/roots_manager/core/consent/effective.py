"""The rules for what a server sees: one pure function from the state and the file system.

:func:`effective` gives exactly the ``ListRootsResult`` a bridge answers for a server at this
moment. A server never seen sees nothing until a grant exists (policy "ask" or "deny"); policy
"allow-all" gives every root. A server whose command line changed since it was approved has its
grants suspended. Folders that are missing, not folders, or unreadable are left out, and two
roots that resolve to the same real folder appear once, in the order the roots were added.

What a root leads to is checked at every answer, not only when it was added: a root whose
folder was swapped for a link elsewhere (to ``/`` or the home folder, say) is withheld.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from stat import S_ISDIR
from typing import TypedDict

from roots_manager.core.roots import identity
from roots_manager.core.roots.broadness import Broadness
from roots_manager.core.roots.root import Root
from roots_manager.core.store.grants import Grant, Scope
from roots_manager.core.store.state import State
from roots_manager.support import cyclic_gc


class RootEntry(TypedDict):
    """One root of a ``ListRootsResult``, as the bridge answers it."""

    uri: str
    name: str


class ListRootsResult(TypedDict):
    """The result of ``roots/list`` (and of a 2026-07-28 ``inputResponses`` entry): the one
    shape of an answer, from the store to the server's stdin."""

    roots: list[RootEntry]


def unavailable_reason(path: str) -> str | None:
    """Why the folder at *path* cannot be given to a server now, or None if it can."""
    return folder_look(path)[0]


def folder_look(path: str) -> tuple[str | None, os.stat_result | None]:
    """Why the folder at *path* cannot be given now (or None), and its ``stat`` if it exists:
    one ``stat`` for the existence, the kind and the identity of the folder."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return "missing", None
    if not S_ISDIR(st.st_mode):
        return "not a folder", st
    if not os.access(path, os.R_OK | os.X_OK):
        return "unreadable", st
    return None, st


def root_unavailable(root: Root) -> str | None:
    """Why *root* cannot be given to a server now, or None if it can.

    Besides :func:`unavailable_reason`: ``"moved"`` when its folder now resolves elsewhere than
    when it was added (a link swapped in), ``"not mounted"`` when it was a mount point when
    added and its file system is no longer mounted there, and ``"too broad"`` when a root from
    an older store, whose real path was not recorded, now leads to the file system's root, the
    home folder or a folder holding it. For many roots at once, one :class:`Availability` is far cheaper.
    """
    return Availability().reason(root)


_READ_AND_ENTER = os.R_OK | os.X_OK


class Availability:
    """Why roots cannot be given to a server now (see :func:`root_unavailable`), for one pass
    over any number of roots.

    What roots share is looked up once in a pass rather than once per root: the real path of
    each folder above them (:class:`~roots_manager.core.roots.identity.RealPaths`), and the folders
    too broad to be roots. Each root is then two ``stat``, one ``access`` and one ``lstat``, and
    is looked at once however often the pass is asked about it. Nothing outlives the pass: a new
    one looks again, so a link swapped in since is seen.
    """

    def __init__(self) -> None:
        self._reals = identity.RealPaths()
        self._looked: dict[
            tuple[str, str | None, bool], tuple[str | None, os.stat_result | None]
        ] = {}
        self._broadness: Broadness | None = None

    def reason(self, root: Root) -> str | None:
        """Why *root* cannot be given now, or None if it can."""
        return self.look(root)[0]

    def look(self, root: Root) -> tuple[str | None, os.stat_result | None]:
        """Why *root* cannot be given now (or None), and its folder's ``stat`` if it exists."""
        return self.looks((root,))[0]

    def looks(self, roots: Iterable[Root]) -> list[tuple[str | None, os.stat_result | None]]:
        """:meth:`look` of each of *roots*, in one call: a pass over 30,000 roots spent a
        third of its time beyond the file system's on calls."""
        looked, look = self._looked, self._look
        out = []
        for root in roots:
            key = (root.path, root.real, root.mount_point)
            known = looked.get(key)
            if known is None:
                known = looked[key] = look(*key)
            out.append(known)
        return out

    def _look(
        self, path: str, was: str | None, mount_point: bool
    ) -> tuple[str | None, os.stat_result | None]:
        # the stat of the look is also the folder's identity, for telling one folder spelled
        # two ways: one stat per root, not two (30,000 roots are 30,000 calls); and the lstat
        # of its real path, when it is no link, is that stat
        real, st = self._reals.resolve(path)
        if st is not None and S_ISDIR(st.st_mode):
            if not os.access(path, _READ_AND_ENTER):
                return "unreadable", None
        else:
            reason, st = folder_look(path)
            if reason is not None or st is None:
                return reason, None
        if was is not None:  # most roots: their real path recorded when added
            if real != was:
                return "moved", st
            if mount_point and not os.path.ismount(real):
                # the file system it was the top of is gone: what is there is the folder
                # underneath, on the parent's, not what was granted (writes would land there)
                return "not mounted", st
            return None, st
        return self._led_elsewhere(real, st), st

    def _led_elsewhere(self, real: str, st: os.stat_result) -> str | None:
        """``"too broad"`` when the folder of a root whose real path was not recorded, now at
        *real*, is (see :func:`root_unavailable`), or None."""
        if self._broadness is None:
            self._broadness = Broadness()
        # the stat just made is of the folder *real* names: links followed, one inode
        broad = self._broadness.kind(real, (st.st_dev, st.st_ino))
        return "too broad" if broad is not None else None


def grant_active(
    grant: Grant, run: str | None = None, live_runs: Collection[str] | None = None
) -> bool:
    """Whether *grant* applies to bridge *run* (or, with no run, to any live one).

    A while-running grant not yet bound to a bridge run applies to the next one to start.
    """
    if grant.scope == Scope.ALWAYS or not grant.runs:
        return True
    if run is not None:
        return run in grant.runs
    if live_runs is None:
        return True
    return any(s in live_runs for s in grant.runs)


def active_grants_by_root(
    state: State, live_runs: Collection[str] | None = None
) -> dict[str, list[Grant]]:
    """The grants that apply now (see :func:`grant_active`) by root id, each in store order.

    One pass over the grants, for tables that show each root's grantees: looking each root's
    grants up in the whole list takes roots x grants steps (over a minute for 30,000 roots).
    """
    by_root: dict[str, list[Grant]] = {}
    for g in state.grants:
        if grant_active(g, live_runs=live_runs):
            by_root.setdefault(g.root, []).append(g)
    return by_root


def visible_roots(
    state: State,
    server: str,
    *,
    fingerprint: str | None = None,
    run: str | None = None,
    live_runs: Collection[str] | None = None,
) -> list[Root]:
    """The roots *server* may be told about, before the file system is consulted.

    *fingerprint* is the command line running now (default: the one last seen);
    *run* the asking bridge run, if any.
    """
    if state.policy == "allow-all":
        return list(state.roots)
    srv = state.servers.get(server)
    if srv is None:
        return []
    fp = fingerprint or srv.seen_fingerprint
    if srv.fingerprint is not None and fp is not None and fp != srv.fingerprint:
        return []
    granted = {
        g.root for g in state.grants if g.server == server and grant_active(g, run, live_runs)
    }
    return [r for r in state.roots if r.id in granted]


def effective(
    state: State,
    server: str,
    *,
    fingerprint: str | None = None,
    run: str | None = None,
    live_runs: Collection[str] | None = None,
    availability: Availability | None = None,
) -> ListRootsResult:
    """The ``ListRootsResult`` that *server* gets now: ``{"roots": [{"uri", "name"}...]}``.

    *availability* is the pass that looks at the folders (a new one by default); a caller that
    then asks why a root was left out passes its own and asks it, without a second look.
    """
    with cyclic_gc.paused():  # a look at every root makes objects, none in a cycle
        return _effective(state, server, fingerprint, run, live_runs, availability)


def _effective(
    state: State,
    server: str,
    fingerprint: str | None,
    run: str | None,
    live_runs: Collection[str] | None,
    availability: Availability | None,
) -> ListRootsResult:
    checked = Availability() if availability is None else availability
    seen: set[object] = set()
    roots: list[RootEntry] = []
    visible = visible_roots(state, server, fingerprint=fingerprint, run=run, live_runs=live_runs)
    for root, (reason, st) in zip(visible, checked.looks(visible), strict=True):
        if reason is not None or st is None:
            continue
        # one folder answered once, however many roots spell it (links, case, normalisation):
        # its identity is the device and inode of the stat just made
        same = (st.st_dev, st.st_ino)
        if same in seen:
            continue
        seen.add(same)
        roots.append({"uri": root.uri, "name": root.name})
    return {"roots": roots}

"""The refusals waiting for the user's look, grouped so that one decision covers a group.

A confined server refused twenty files of one folder at start-up, then the one file a call of
the host needed: the notice shows the newest that can be acted on (an offer to make, see
:mod:`roots_manager.core.confinement.offers`), counts the others, and the list of refusals
shows every group, per server, one row per folder and operation, newest first. Ignoring a
group, every start-up group of a server, or granting what covers a group takes it away.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field

from roots_manager.core.confinement.offers import Offers, offers
from roots_manager.core.directory.records import EventRecord
from roots_manager.core.log.denials import START_UP
from roots_manager.support.paths import inside

KEPT_AT_MOST = 500
"""Groups kept waiting; older ones are in the Log tab."""

Key = tuple[str, str, str]
"""A group's server, folder and operation."""


@dataclass
class Group:
    """The refusals of one server, in one folder, for one operation."""

    server: str
    folder: str
    operation: str
    newest: EventRecord
    """The newest refusal of the group: the one shown, and what the offers are for."""
    offers: Offers
    count: int = 1
    order: int = 0
    """When the group last grew (higher: newer)."""
    paths: set[str] = field(default_factory=set)

    @property
    def key(self) -> Key:
        return (self.server, self.folder, self.operation)

    @property
    def start_up(self) -> bool:
        """Whether the newest refusal came while the server started (no request of the host's)."""
        return self.newest.get("during") == START_UP

    @property
    def actionable(self) -> bool:
        """Whether something can be granted in one click for it."""
        return bool(self.offers.offers)


def key_of(denial: EventRecord) -> Key | None:
    """The group *denial* (a denial event) belongs to; None when it is not a refusal to show
    (no server or no operation)."""
    server, operation, path = denial.get("server"), denial.get("operation"), denial.get("path")
    if not isinstance(server, str) or not isinstance(operation, str):
        return None
    folder = denial.get("folder")
    if isinstance(denial.get("domain"), str):  # the proxy's: one group per domain
        folder = denial["domain"]
    elif isinstance(path, str) and path.startswith("/"):
        folder = path if operation == "list" else os.path.dirname(os.path.normpath(path))
    return (server, folder if isinstance(folder, str) else "", operation)


class Refusals:
    """The groups of refusals waiting, for the user whose home is *home*."""

    def __init__(self, home: str, own: tuple[str, ...] | None = None) -> None:
        self.home = home
        self._own = own
        self._groups: dict[Key, Group] = {}
        self._clock = itertools.count(1)

    def add(self, denials: list[EventRecord]) -> int:
        """Take refusals that just happened (denial events, oldest first); returns how many
        were taken (events without a server and an operation are not refusals to show)."""
        taken = 0
        for rec in denials:
            key = key_of(rec)
            if key is None:
                continue
            server, folder, operation = key
            path = rec.get("path")
            got = offers(rec, home=self.home, own=self._own)
            group = self._groups.pop(key, None)
            if group is None:
                group = Group(server, folder, operation, rec, got)
            else:
                group.newest, group.offers = rec, got
                group.count += 1
            if isinstance(path, str):
                group.paths.add(path)
            group.order = next(self._clock)
            self._groups[key] = group  # last in the dict: the newest
            taken += 1
        while len(self._groups) > KEPT_AT_MOST:
            del self._groups[next(iter(self._groups))]
        return taken

    def groups(self, server: str | None = None) -> list[Group]:
        """The groups waiting (of *server* only, if given), newest first."""
        return [g for g in reversed(self._groups.values()) if server in (None, g.server)]

    def servers(self) -> list[str]:
        """The servers with refusals waiting, by name."""
        return sorted({g.server for g in self._groups.values()})

    def shown(self) -> Group | None:
        """The group the notice shows: the newest that can be acted on, else the newest."""
        newest = None
        for group in reversed(self._groups.values()):
            if group.actionable:
                return group
            newest = newest or group
        return newest

    def __len__(self) -> int:
        return len(self._groups)

    def ignore(self, key: Key) -> bool:
        """Stop showing the group *key* (its refusals stay in the Log)."""
        return self._groups.pop(key, None) is not None

    def ignore_start_up(self, server: str) -> int:
        """Stop showing every group of *server* whose newest refusal came at start-up; returns
        how many."""
        keys = [k for k, g in self._groups.items() if g.server == server and g.start_up]
        for key in keys:
            del self._groups[key]
        return len(keys)

    def allowed(self, denial: EventRecord, target: str) -> int:
        """*denial* was allowed, wherever it was shown, by granting *target* to its server: its
        group goes, and those *target* covers; returns how many."""
        key = key_of(denial)
        if key is None:
            return 0
        return int(self.ignore(key)) + self.granted(key[0], target)

    def granted(self, server: str, target: str) -> int:
        """*target* (a folder or a file) was granted to *server*: the groups it covers go;
        returns how many."""
        keys = [
            k
            for k, g in self._groups.items()
            if g.server == server
            and (inside(g.folder, target) or (g.paths and all(inside(p, target) for p in g.paths)))
        ]
        for key in keys:
            del self._groups[key]
        return len(keys)

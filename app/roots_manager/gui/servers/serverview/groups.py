"""The servers grouped by what starts them: each host whose file wraps them (Claude Desktop,
VS Code, ...), this app, or the user by hand."""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from roots_manager.core.hosts.known import HostSpec
from roots_manager.core.hosts.operations import FileReport


class Starter(enum.Enum):
    """What kind of thing starts the servers of a group."""

    HOST = "host"
    APP = "app"
    """This app, as their host (Connect a server…)."""
    BY_HAND = "by-hand"
    """Nothing the app knows: a host file it does not read, a script, a terminal."""


@dataclass(frozen=True)
class Group:
    """The servers one starter starts, in the order shown."""

    starter: Starter
    host: HostSpec | None
    """The host, for a group of :attr:`Starter.HOST`."""
    servers: tuple[str, ...]


def hosts_of_servers(reports: Iterable[FileReport]) -> dict[str, HostSpec]:
    """The host whose file wraps each server, by the name the bridge keeps it under.

    A server wrapped in the files of several hosts is the first one's (in the order the files
    are found), so that it is listed once.
    """
    found: dict[str, HostSpec] = {}
    for report in reports:
        for server in report.servers:
            if server.wrapped is not None:
                found.setdefault(server.wrapped.server, report.file.host)
    return found


def group_servers(
    names: Iterable[str],
    hosts: Mapping[str, HostSpec],
    app_connected: Collection[str] = (),
) -> list[Group]:
    """*names* grouped by their starter: the hosts first (in the order of *hosts*), then this
    app, then the servers started by hand; names sorted within a group, empty groups left out.

    A server this app connected is the app's, whatever host file also names it: the app is
    what runs it now.
    """
    by_host: dict[str, list[str]] = {}
    specs: dict[str, HostSpec] = {}
    mine: list[str] = []
    by_hand: list[str] = []
    order = {h.id: i for i, h in enumerate(dict.fromkeys(hosts.values()))}
    for name in names:
        if name in app_connected:
            mine.append(name)
        elif name in hosts:
            spec = hosts[name]
            specs[spec.id] = spec
            by_host.setdefault(spec.id, []).append(name)
        else:
            by_hand.append(name)
    groups = [
        Group(Starter.HOST, specs[hid], tuple(sorted(by_host[hid], key=str.casefold)))
        for hid in sorted(by_host, key=order.__getitem__)
    ]
    if mine:
        groups.append(Group(Starter.APP, None, tuple(sorted(mine, key=str.casefold))))
    if by_hand:
        groups.append(Group(Starter.BY_HAND, None, tuple(sorted(by_hand, key=str.casefold))))
    return groups

"""What a first run offers to protect: the hosts found, and the servers of each not yet behind
the bridge.

The app's first run starts from what the user has ("Found Claude Desktop (2 servers), Cursor
(1). Protect them?"); this is the part of it that needs no window: which servers, grouped by
host, in the order the hosts were found.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from roots_manager.core.hosts.declared import Transport
from roots_manager.core.hosts.known import ConfigFile, HostSpec
from roots_manager.core.hosts.operations import FileReport


@dataclass
class FoundHost:
    """A host with servers that could be protected, in one or more of its files."""

    host: HostSpec
    servers: list[tuple[ConfigFile, str]] = field(default_factory=list)
    """Each server as (its file, the host's name for it)."""
    commands: dict[tuple[ConfigFile, str], tuple[str, ...]] = field(default_factory=dict)
    """Each server's command line as its host starts it, by (its file, its name)."""


def unprotected(reports: list[FileReport]) -> list[FoundHost]:
    """The hosts of *reports* with stdio servers not behind the bridge yet (remote servers and
    files that cannot be read are the Hosts tab's to show)."""
    found: dict[str, FoundHost] = {}
    for report in reports:
        for server in report.servers:
            if server.wrapped is not None or server.transport is not Transport.STDIO:
                continue
            if server.argv is None:
                continue
            entry = found.setdefault(report.file.host.id, FoundHost(report.file.host))
            entry.servers.append((report.file, server.name))
            entry.commands[(report.file, server.name)] = tuple(server.argv)
    return list(found.values())

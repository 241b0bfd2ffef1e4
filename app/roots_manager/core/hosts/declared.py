"""The servers a host file declares: how each is started, and whether it is behind the bridge.

Hosts spell a stdio server alike (``command``, ``args``, ``env``) with a few exceptions: Goose
says ``cmd`` and ``envs``, Zed's older settings nest ``{"path", "args", "env"}`` under
``command``, and opencode keeps the command and its arguments in one list, ``command``, beside
``environment`` (its schema allows no other key, so its arguments cannot go in an ``args``), and
Mistral Vibe splits its ``command`` string as a POSIX shell would (a command of one word is
wrapped; the bridge's path goes in quoted if it must be).
Most hosts key their servers by name; Continue lists them, each entry naming itself. A remote
server (a ``url``, or a ``type`` or fast-agent's ``transport`` of http, sse, streamable HTTP or
opencode's remote) gets its roots from the host over HTTP, not from a bridge on stdio, so it is
listed and never edited.
"""

from __future__ import annotations

import dataclasses
import enum
import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from roots_manager.core.hosts.formats import Location
from roots_manager.core.hosts.known import ConfigFile

BRIDGE_NAMES = ("roots-bridge", "roots-bridge.exe")
REMOTE_TYPES = frozenset(
    {"http", "sse", "streamable-http", "streamable_http", "streamablehttp", "remote"}
)
REMOTE_KEYS = ("url", "httpUrl", "serverUrl", "uri")


class Transport(enum.Enum):
    STDIO = "stdio"
    REMOTE = "remote"
    OTHER = "other"
    """Neither: an extension-provided or built-in server, or an entry with no command."""


@dataclass(frozen=True)
class LaunchKeys:
    """The keys an entry starts its server with."""

    command: str = "command"
    args: str | None = "args"
    """None: the arguments follow the command in the list *command* (opencode)."""
    env: str = "env"
    split: bool = False
    """The host splits the *command* string as a POSIX shell would (Mistral Vibe's
    ``shlex.split``): a command of one word is what it starts, and a path is written quoted."""

    def spelled(self, command: str) -> str:
        """*command*, one word, as the host's *command* key must hold it."""
        return shlex.quote(command) if self.split else command


JSON_KEYS = LaunchKeys()
GOOSE_KEYS = LaunchKeys("cmd", "args", "envs")
ZED_LEGACY_KEYS = LaunchKeys("path", "args", "env")
OPENCODE_KEYS = LaunchKeys("command", None, "environment")
VIBE_KEYS = LaunchKeys(split=True)
_HOST_KEYS = {"goose": GOOSE_KEYS, "opencode": OPENCODE_KEYS, "mistral-vibe": VIBE_KEYS}


@dataclass(frozen=True)
class Wrapped:
    """A command line that runs a server through ``roots-bridge``."""

    server: str
    """The name the bridge keeps the server's grants under."""
    original: list[str]
    """The server's own command line, after ``--``."""
    prefix: int
    """How many of the entry's args come before the original command's own args."""


def parse_wrapped(argv: Sequence[str]) -> Wrapped | None:
    """What *argv* runs through the bridge, if it is ``roots-bridge [OPTIONS] -- COMMAND ...``.

    ``roots-manager bridge ...`` and ``python -m roots_manager.bridge ...`` count as well. A command line written by hand counts as much as
    one written by ``hosts wrap``.
    """
    if not argv:
        return None
    base = os.path.basename(argv[0].replace("\\", "/")).lower()
    rest = list(argv[1:])
    if base in ("roots-manager", "roots-manager.exe") and rest[:1] == ["bridge"]:
        rest = rest[1:]
    elif base.startswith("python") and rest[:2] in (
        ["-m", "roots_manager.bridge"],
        ["-m", "roots_manager.bridge.main"],
    ):
        rest = rest[2:]
    elif base not in BRIDGE_NAMES:
        return None
    if "--" not in rest:
        return None
    cut = rest.index("--")
    options, original = rest[:cut], rest[cut + 1 :]
    if not original or "--server" not in options[:-1]:
        return None
    server = options[options.index("--server") + 1]
    return Wrapped(server, original, len(argv) - len(original))


@dataclass(frozen=True)
class HostServer:
    """One server entry of a host file."""

    file: ConfigFile
    name: str
    """The host's key for the server."""
    container: Location
    """Where the host's table of servers is in the file."""
    loc: Location
    """Where the keys that start the server are (the entry, or Zed's nested ``command``)."""
    keys: LaunchKeys
    transport: Transport
    argv: list[str] | None
    """The command line the host runs (None if the entry has no usable one)."""
    env: dict[str, str]
    wrapped: Wrapped | None
    problem: str | None = None
    """Why the entry cannot be wrapped, for entries that are not stdio."""

    @property
    def server_argv(self) -> list[str] | None:
        """The server's own command line: the original one if wrapped."""
        return self.wrapped.original if self.wrapped else self.argv


def containers(file: ConfigFile, data: Any) -> list[Location]:
    """The tables of servers in *data*: the host's key, and Claude Code's per-project tables."""
    out: list[Location] = [(*file.host.servers_in, file.host.servers_key)]
    if file.host.id == "claude-code" and file.project is None:
        projects = data.get("projects") if isinstance(data, dict) else None
        if isinstance(projects, dict):
            out.extend(
                ("projects", key, "mcpServers")
                for key, value in projects.items()
                if isinstance(value, dict) and isinstance(value.get("mcpServers"), dict)
            )
    return out


def _strings(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _entry(
    file: ConfigFile, container: Location, key: str | int, entry: Any, name: str
) -> HostServer:
    """The server *entry*, at *key* of the table (or list) at *container*, named *name*."""
    loc = (*container, key)
    keys = _HOST_KEYS.get(file.host.id, JSON_KEYS)

    def other(problem: str, transport: Transport = Transport.OTHER) -> HostServer:
        return HostServer(file, name, container, loc, keys, transport, None, {}, None, problem)

    if not isinstance(entry, dict):
        return other("the entry is not a table")
    kind = str(entry.get("type", entry.get("transport", ""))).lower().replace(" ", "")
    if kind in REMOTE_TYPES or any(k in entry for k in REMOTE_KEYS):
        return other("a remote server: its roots do not go over stdio", Transport.REMOTE)
    if file.host.id == "goose" and kind not in ("", "stdio"):
        return other(f"a Goose extension of type {kind!r}, not a command")
    launch = entry
    if file.host.id == "zed" and isinstance(entry.get("command"), dict):
        launch, loc, keys = entry["command"], (*loc, "command"), ZED_LEGACY_KEYS
    if keys.args is None:
        if keys.command not in launch:
            return other("no command to start")
        argv = _strings(launch[keys.command])
        if not argv or not argv[0]:
            return other(f"its {keys.command!r} is not a command line (a list of strings)")
    else:
        command = launch.get(keys.command)
        if keys.split and isinstance(command, str) and command:
            try:
                words = shlex.split(command)
            except ValueError:
                words = []
            if len(words) != 1:
                return other(
                    f"its {keys.command!r} is split into words by the host: give the program "
                    f"alone in {keys.command!r} and its arguments in {keys.args!r}"
                )
            command = words[0]
        if not isinstance(command, str) or not command:
            return other("no command to start")
        args = _strings(launch.get(keys.args, []))
        if args is None:
            return other(f"its {keys.args!r} is not a list of strings")
        argv = [command, *args]
    env = launch.get(keys.env, {})
    env = {str(k): str(v) for k, v in env.items()} if isinstance(env, dict) else {}
    return HostServer(
        file, name, container, loc, keys, Transport.STDIO, argv, env, parse_wrapped(argv)
    )


def _listed_entry(file: ConfigFile, container: Location, index: int, entry: Any) -> HostServer:
    """The server *entry*, item *index* of a list: named by its ``name``, or ``#N`` (from 1),
    and then never wrapped, as the host has no name to show it under."""
    name = entry.get("name") if isinstance(entry, dict) else None
    if isinstance(name, str) and name:
        return _entry(file, container, index, entry, name)
    server = _entry(file, container, index, entry, f"#{index + 1}")
    if server.transport is not Transport.STDIO:
        return server
    return dataclasses.replace(
        server, transport=Transport.OTHER, argv=None, env={}, wrapped=None, problem="no name"
    )


def servers(file: ConfigFile, data: Any) -> list[HostServer]:
    """Every server entry of *data*, the parsed contents of *file*."""
    out: list[HostServer] = []
    for container in containers(file, data):
        table: Any = data
        for key in container:
            table = table.get(key) if isinstance(table, dict) else None
        if isinstance(table, dict):
            out.extend(_entry(file, container, str(n), e, str(n)) for n, e in table.items())
        elif file.host.listed and isinstance(table, list):
            out.extend(_listed_entry(file, container, i, e) for i, e in enumerate(table))
    return out

"""The MCP hosts Roots Manager knows: where each keeps its servers, on Linux, macOS and Windows.

Paths follow each host's own documentation: Electron apps (Claude Desktop, VS Code and the
extensions that live in it) keep their settings in the platform's application data folder
(``$XDG_CONFIG_HOME`` on Linux, ``~/Library/Application Support`` on macOS, ``%APPDATA%`` on
Windows); command-line hosts keep a dot folder in the home folder. Everything is computed from a
:class:`Platform` (the OS name, the home folder and the environment) rather than read from this
process, so every layout can be tested on any machine.

Project files (``.mcp.json``, ``.vscode/mcp.json``, ...) are looked for in the folders the user
has as roots: those are the projects the user works in.
"""

from __future__ import annotations

import enum
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path


class Format(enum.Enum):
    """How a host's file is written, and so which editor changes it."""

    JSON = "json"
    """JSON, with ``//`` and ``/* */`` comments and trailing commas allowed."""
    TOML = "toml"
    YAML = "yaml"


@dataclass(frozen=True)
class Platform:
    """The OS layout host paths are computed for: ``linux``, ``darwin`` or ``windows``."""

    system: str
    home: Path
    env: Mapping[str, str]

    @classmethod
    def current(cls) -> Platform:
        """This machine: its OS, the home folder and the environment of this process."""
        system = "windows" if os.name == "nt" else "darwin" if sys.platform == "darwin" else "linux"
        return cls(system, Path(os.path.expanduser("~")), dict(os.environ))

    def xdg_config(self) -> Path:
        """``$XDG_CONFIG_HOME`` if set to an absolute path, else ``~/.config``."""
        value = self.env.get("XDG_CONFIG_HOME", "")
        return Path(value) if os.path.isabs(value) else self.home / ".config"

    def app_data(self) -> Path:
        """Where Electron apps keep their settings (``app.getPath('appData')``)."""
        if self.system == "windows":
            return Path(self.env.get("APPDATA") or self.home / "AppData" / "Roaming")
        if self.system == "darwin":
            return self.home / "Library" / "Application Support"
        return self.xdg_config()


@dataclass(frozen=True)
class HostSpec:
    """One host: its stable id, its file format, where its servers are, and its files."""

    id: str
    label: str
    format: Format
    servers_key: str
    """The key of the table of servers (``mcpServers``, ``servers``, ...)."""
    reloads: bool
    """The host picks up a change to its file by itself; otherwise it must be restarted."""
    user_files: Callable[[Platform], list[Path]]
    project_files: tuple[str, ...] = ()
    """Files relative to a project folder, with the same format and key."""


_CODE_FLAVOURS = ("Code", "Code - Insiders", "VSCodium")
_CLINE = ("globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json")


def _claude_code(p: Platform) -> list[Path]:
    folder = p.env.get("CLAUDE_CONFIG_DIR")
    return [Path(folder) / ".claude.json" if folder else p.home / ".claude.json"]


def _zed(p: Platform) -> list[Path]:
    if p.system == "windows":
        return [p.app_data() / "Zed" / "settings.json"]
    # Zed uses ~/.config/zed on macOS as well
    return [p.xdg_config() / "zed" / "settings.json"]


def _goose(p: Platform) -> list[Path]:
    if p.system == "windows":
        return [p.app_data() / "Block" / "goose" / "config" / "config.yaml"]
    return [p.xdg_config() / "goose" / "config.yaml"]


def _codex(p: Platform) -> list[Path]:
    folder = p.env.get("CODEX_HOME")
    return [(Path(folder) if folder else p.home / ".codex") / "config.toml"]


HOSTS: tuple[HostSpec, ...] = (
    HostSpec(
        "claude-desktop",
        "Claude Desktop",
        Format.JSON,
        "mcpServers",
        False,
        lambda p: [p.app_data() / "Claude" / "claude_desktop_config.json"],
    ),
    HostSpec(
        "claude-code", "Claude Code", Format.JSON, "mcpServers", False, _claude_code, (".mcp.json",)
    ),
    HostSpec(
        "vscode",
        "VS Code",
        Format.JSON,
        "servers",
        True,
        lambda p: [p.app_data() / flavour / "User" / "mcp.json" for flavour in _CODE_FLAVOURS],
        (".vscode/mcp.json",),
    ),
    HostSpec(
        "cursor",
        "Cursor",
        Format.JSON,
        "mcpServers",
        False,
        lambda p: [p.home / ".cursor" / "mcp.json"],
        (".cursor/mcp.json",),
    ),
    HostSpec(
        "windsurf",
        "Windsurf",
        Format.JSON,
        "mcpServers",
        False,
        lambda p: [p.home / ".codeium" / "windsurf" / "mcp_config.json"],
    ),
    HostSpec(
        "cline",
        "Cline",
        Format.JSON,
        "mcpServers",
        True,
        lambda p: [p.app_data() / flavour / "User" / Path(*_CLINE) for flavour in _CODE_FLAVOURS],
    ),
    HostSpec(
        "gemini-cli",
        "Gemini CLI",
        Format.JSON,
        "mcpServers",
        False,
        lambda p: [p.home / ".gemini" / "settings.json"],
        (".gemini/settings.json",),
    ),
    HostSpec("codex", "Codex", Format.TOML, "mcp_servers", False, _codex),
    HostSpec("zed", "Zed", Format.JSON, "context_servers", True, _zed, (".zed/settings.json",)),
    HostSpec("goose", "Goose", Format.YAML, "extensions", False, _goose),
)
"""Every host, by its stable id."""

HOST_IDS = tuple(h.id for h in HOSTS)


def host(host_id: str) -> HostSpec | None:
    """The host with id *host_id*, if there is one."""
    return next((h for h in HOSTS if h.id == host_id), None)


@dataclass(frozen=True)
class ConfigFile:
    """A file of a host found on this machine: the user's own, or a project's."""

    host: HostSpec
    path: Path
    project: Path | None = None
    """The project folder (a root) holding the file; None for the user's file."""

    @property
    def scope(self) -> str:
        return "user" if self.project is None else "project"


def candidate_files(
    spec: HostSpec, platform: Platform, projects: Iterable[str]
) -> list[ConfigFile]:
    """Every file *spec* may keep servers in on *platform*, found or not."""
    out = [ConfigFile(spec, path) for path in spec.user_files(platform)]
    for folder in projects:
        out.extend(ConfigFile(spec, Path(folder) / rel, Path(folder)) for rel in spec.project_files)
    return out


def discover(
    platform: Platform, projects: Iterable[str] = (), hosts: Iterable[HostSpec] = HOSTS
) -> list[ConfigFile]:
    """The host files that exist, the user's first, then those of each project folder."""
    projects = list(dict.fromkeys(projects))
    return [
        f for spec in hosts for f in candidate_files(spec, platform, projects) if f.path.is_file()
    ]

"""The MCP hosts Roots Manager knows: where each keeps its servers, on Linux, macOS and Windows.

Paths follow each host's own documentation: Electron apps (Claude Desktop, VS Code and the
extensions that live in it) keep their settings in the platform's application data folder
(``$XDG_CONFIG_HOME`` on Linux, ``~/Library/Application Support`` on macOS, ``%APPDATA%`` on
Windows); command-line hosts keep a dot folder in the home folder. Everything is computed from a
:class:`Platform` (the OS name, the home folder and the environment) rather than read from this
process, so every layout can be tested on any machine.

Project files (``.mcp.json``, ``.vscode/mcp.json``, ...) are looked for in the folders the user
has as roots: those are the projects the user works in. A few hosts keep one file per server or
per profile (Continue's ``mcpServers/*.yaml`` blocks, VS Code's profiles): their folders are
listed when the files are looked for, so a file added since is found the next time.
"""

from __future__ import annotations

import enum
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from roots_manager.core.confinement.protected import HostPlaces
from roots_manager.support import statefile


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
    """Files relative to a project folder, with the same format and key; a name holding ``*``
    stands for every file it matches (``.continue/mcpServers/*.yaml``)."""
    servers_in: tuple[str, ...] = ()
    """The keys of the tables the table of servers is nested in (fast-agent's ``mcp``)."""
    listed: bool = False
    """The servers are a list of entries, each naming itself with ``name`` (Continue), rather
    than a table keyed by name."""
    discontinued: str | None = None
    """The day (ISO date) the host was discontinued: its files are still read, wrapped and
    unwrapped, for the users who have it yet, and every list of hosts says so."""

    @property
    def shown_id(self) -> str:
        """The id, with the day the host was discontinued, for a list of hosts."""
        if self.discontinued is None:
            return self.id
        return f"{self.id} (discontinued {self.discontinued})"


_CODE_FLAVOURS = ("Code", "Code - Insiders", "VSCodium")
_CLINE = ("globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json")
_ROO = ("globalStorage", "rooveterinaryinc.roo-cline", "settings", "mcp_settings.json")


def _listed(folder: Path, pattern: str = "*") -> list[Path]:
    """What *folder* holds that matches *pattern*, in name order; nothing if it cannot be read
    (no such folder, or not a folder)."""
    try:
        return sorted(folder.glob(pattern))
    except OSError:
        return []


def _code_profiles(p: Platform) -> list[Path]:
    """The folders VS Code keeps a profile's settings in: ``User`` for the default profile, then
    ``User/profiles/<id>`` for each other (each with its own ``mcp.json`` and ``globalStorage``),
    for each flavour of VS Code."""
    out = []
    for flavour in _CODE_FLAVOURS:
        user = p.app_data() / flavour / "User"
        out.append(user)
        out.extend(f for f in _listed(user / "profiles") if f.is_dir())
    return out


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


def _opencode(p: Platform) -> list[Path]:
    # the xdg-basedir package: $XDG_CONFIG_HOME, else ~/.config, on Windows as well; opencode
    # merges config.json (the older name), opencode.json and opencode.jsonc, and the file
    # OPENCODE_CONFIG names
    folder = p.xdg_config() / "opencode"
    out = [folder / name for name in ("opencode.json", "opencode.jsonc", "config.json")]
    custom = p.env.get("OPENCODE_CONFIG", "")
    return [*out, Path(custom)] if os.path.isabs(custom) else out


_FAST_AGENT_NAMES = ("fastagent.config.yaml", "fast-agent.yaml", "fast-agent.config.yaml")
"""The names fast-agent reads its settings under: the one its documentation uses, then the newer
ones its code prefers (it refuses a folder that holds more than one)."""


def _fast_agent(p: Platform) -> list[Path]:
    folder = p.env.get("FAST_AGENT_HOME", "")
    return [Path(folder) / name for name in _FAST_AGENT_NAMES] if os.path.isabs(folder) else []


def _continue(p: Platform) -> list[Path]:
    folder = p.env.get("CONTINUE_GLOBAL_DIR", "")
    home = Path(folder) if os.path.isabs(folder) else p.home / ".continue"
    return [home / "config.yaml", *_listed(home / "mcpServers", "*.yaml")]


def _trae(p: Platform) -> list[Path]:
    """Trae's own ``mcp.json`` (the one its **Raw config (JSON)** button opens), in its user
    folder as a VS Code fork keeps it: ``Trae/User`` in the application data folder, and
    ``Trae CN/User`` for the edition sold in China. Its guide names the file but not the folder;
    this is where users' reports find it. Only a file that is there is ever read or changed."""
    return [p.app_data() / flavour / "User" / "mcp.json" for flavour in ("Trae", "Trae CN")]


def _lm_studio(p: Platform) -> list[Path]:
    # LM Studio's home, as its SDK finds it: the folder named in ~/.lmstudio-home-pointer, else
    # ~/.cache/lm-studio (older installs), else ~/.lmstudio; mcp.json is in that folder
    homes = [p.home / ".lmstudio", p.home / ".cache" / "lm-studio"]
    try:  # a regular file only: a named pipe in its place would be waited on for ever
        pointed = statefile.read_regular(p.home / ".lmstudio-home-pointer", 4096).decode().strip()
    except (OSError, UnicodeDecodeError):
        pointed = ""
    if os.path.isabs(pointed):
        homes.insert(0, Path(pointed))
    return [home / "mcp.json" for home in dict.fromkeys(homes)]


def _copilot_cli(p: Platform) -> list[Path]:
    # $COPILOT_HOME, else ~/.copilot on every system (docs.github.com, Copilot CLI command
    # reference: "COPILOT_HOME ... Default: $HOME/.copilot"); XDG_CONFIG_HOME was honoured by
    # early versions only (github/copilot-cli#1750: taken out again)
    folder = p.env.get("COPILOT_HOME", "")
    return [(Path(folder) if os.path.isabs(folder) else p.home / ".copilot") / "mcp-config.json"]


def _antigravity(p: Platform) -> list[Path]:
    # Antigravity 2 moved its servers to ~/.gemini/config (and leaves a .migrated mark there);
    # earlier versions read ~/.gemini/antigravity, the path ToolHive's client registry names.
    # Both on every system (%USERPROFILE%\.gemini on Windows)
    gemini = p.home / ".gemini"
    return [gemini / "config" / "mcp_config.json", gemini / "antigravity" / "mcp_config.json"]


def _kimi(p: Platform) -> list[Path]:
    """Kimi Code's ``mcp.json`` (npm ``@moonshot-ai/kimi-code``: ``$KIMI_CODE_HOME``, else
    ``~/.kimi-code``, on every system), then that of the kimi-cli it replaces
    (``kimi_cli/share.py``: ``$KIMI_SHARE_DIR``, else ``~/.kimi``). ``kimi migrate`` copies the
    servers of the older file into the newer one and leaves the older in place, with a
    ``.migrated-to-kimi-code`` mark beside it; a kimi-cli still installed reads it yet."""
    code = p.env.get("KIMI_CODE_HOME", "")
    share = p.env.get("KIMI_SHARE_DIR", "")
    return [
        (Path(code) if os.path.isabs(code) else p.home / ".kimi-code") / "mcp.json",
        (Path(share) if os.path.isabs(share) else p.home / ".kimi") / "mcp.json",
    ]


def _qoder(p: Platform) -> list[Path]:
    # ToolHive's client registry (pkg/client/config.go): ~/.qoder/mcp.json, and on Windows
    # %APPDATA%\Qoder\SharedClientCache\mcp.json; Qoder's own guide names neither
    if p.system == "windows":
        return [p.app_data() / "Qoder" / "SharedClientCache" / "mcp.json"]
    return [p.home / ".qoder" / "mcp.json"]


def _amazon_q(p: Platform) -> list[Path]:
    # AWS's guide (qdeveloper-ug/mcp-ide): the IDE plugins keep servers in
    # ~/.aws/amazonq/default.json, and read the older mcp.json too (the file Q's CLI reads,
    # crates/chat-cli/src/util/paths.rs) while default.json says useLegacyMcpJson, as it does
    # unless changed. Both, on every system
    folder = p.home / ".aws" / "amazonq"
    return [folder / "default.json", folder / "mcp.json"]


def _mistral_vibe(p: Platform) -> list[Path]:
    # vibe/core/paths/_vibe_home.py: $VIBE_HOME, else Path.home() / ".vibe"
    folder = p.env.get("VIBE_HOME", "")
    return [(Path(folder) if os.path.isabs(folder) else p.home / ".vibe") / "config.toml"]


def _jan(p: Platform) -> list[Path]:
    """``mcp_config.json`` in Jan's data folder, where Jan's guide puts that folder
    (``<config>/Jan/data``), and on Linux also where its Tauri build's data directory is
    (``$XDG_DATA_HOME``, else ``~/.local/share``). A data folder moved elsewhere in Jan's
    settings is not followed."""
    out = [p.app_data() / "Jan" / "data" / "mcp_config.json"]
    if p.system == "linux":
        value = p.env.get("XDG_DATA_HOME", "")
        data = Path(value) if os.path.isabs(value) else p.home / ".local" / "share"
        out.append(data / "Jan" / "data" / "mcp_config.json")
    return out


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
        lambda p: [folder / "mcp.json" for folder in _code_profiles(p)],
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
        lambda p: [folder / Path(*_CLINE) for folder in _code_profiles(p)],
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
    HostSpec(
        "qwen-code",
        "Qwen Code",
        Format.JSON,
        "mcpServers",
        False,
        lambda p: [p.home / ".qwen" / "settings.json"],
        (".qwen/settings.json",),
    ),
    HostSpec(
        "opencode",
        "opencode",
        Format.JSON,
        "mcp",
        False,
        _opencode,
        ("opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"),
    ),
    HostSpec(
        "fast-agent",
        "fast-agent",
        Format.YAML,
        "servers",
        False,
        _fast_agent,
        (*_FAST_AGENT_NAMES, *(f".fast-agent/{name}" for name in _FAST_AGENT_NAMES)),
        servers_in=("mcp",),
    ),
    HostSpec(
        "roo-code",
        "Roo Code",
        Format.JSON,
        "mcpServers",
        True,
        lambda p: [folder / Path(*_ROO) for folder in _code_profiles(p)],
        (".roo/mcp.json",),
        # its last release; the extension's repository is archived
        discontinued="2026-05-15",
    ),
    HostSpec(
        "continue",
        "Continue",
        Format.YAML,
        "mcpServers",
        False,
        _continue,
        (".continue/mcpServers/*.yaml",),
        listed=True,
    ),
    HostSpec("lm-studio", "LM Studio", Format.JSON, "mcpServers", False, _lm_studio),
    HostSpec(
        "kiro",
        "Kiro",
        Format.JSON,
        "mcpServers",
        False,
        lambda p: [p.home / ".kiro" / "settings" / "mcp.json"],
        (".kiro/settings/mcp.json",),
    ),
    HostSpec(
        "trae",
        "Trae",
        Format.JSON,
        "mcpServers",
        True,  # its guide: a server pasted into mcp.json is added to the list as it is saved
        _trae,
        (".trae/mcp.json",),  # read once the user turns on "Enable Project MCP"
    ),
    HostSpec(
        "amp",
        "Amp",
        Format.JSON,
        "amp.mcpServers",
        False,
        # ~/.config/amp on every system (on Windows %USERPROFILE%\.config\amp), not XDG's
        lambda p: [
            p.home / ".config" / "amp" / name for name in ("settings.json", "settings.jsonc")
        ],
        (".amp/settings.json", ".amp/settings.jsonc"),
    ),
    # The hosts below were added from ToolHive's and Smithery's client lists (issue 41); the
    # source each path was checked against is beside it and in docs/hosts.md.
    HostSpec("copilot-cli", "GitHub Copilot CLI", Format.JSON, "mcpServers", False, _copilot_cli),
    HostSpec("antigravity", "Antigravity", Format.JSON, "mcpServers", False, _antigravity),
    HostSpec(
        "kimi-cli",
        "Kimi Code",
        Format.JSON,
        "mcpServers",
        False,
        _kimi,
        # Kimi Code reads the working folder's own .kimi-code/mcp.json (and a project's
        # .mcp.json, Claude Code's file, found as claude-code's)
        (".kimi-code/mcp.json",),
    ),
    HostSpec(
        "factory-droid",
        "Factory Droid",
        Format.JSON,
        "mcpServers",
        False,
        # ~/.factory on every system (ToolHive's client registry; Factory's guide names the
        # project file .factory/mcp.json)
        lambda p: [p.home / ".factory" / "mcp.json"],
        (".factory/mcp.json",),
    ),
    HostSpec("qoder", "Qoder", Format.JSON, "mcpServers", False, _qoder),
    HostSpec(
        "mistral-vibe",
        "Mistral Vibe",
        Format.TOML,
        "mcp_servers",
        False,
        _mistral_vibe,
        (".vibe/config.toml",),  # read once the folder is trusted
        listed=True,  # [[mcp_servers]], each with its name
    ),
    HostSpec(
        "amazon-q",
        "Amazon Q Developer",
        Format.JSON,
        "mcpServers",
        False,
        _amazon_q,
        (".amazonq/default.json", ".amazonq/mcp.json"),
    ),
    HostSpec(
        "witsy",
        "Witsy",
        Format.JSON,
        "mcpServers",
        True,  # it watches its settings and reconnects the servers that changed
        # app.getPath('userData') / settings.json; productName "Witsy"
        lambda p: [p.app_data() / "Witsy" / "settings.json"],
    ),
    HostSpec(
        "librechat",
        "LibreChat",
        Format.YAML,
        "mcpServers",
        False,
        # librechat.yaml sits in LibreChat's install folder, which no rule finds: it is read
        # where the user points us to it, by making that folder a root
        lambda p: [],
        ("librechat.yaml",),
    ),
    HostSpec("jan", "Jan", Format.JSON, "mcpServers", False, _jan),
    # BoltAI and Enconvo are macOS apps that keep a dot folder in the home folder, not a folder
    # in Application Support; the same path is looked for on every system
    HostSpec(
        "boltai",
        "BoltAI",
        Format.JSON,
        "mcpServers",
        False,
        # its guide's FAQ (docs.boltai.com/docs/plugins/mcp-servers); stdio servers only
        lambda p: [p.home / ".boltai" / "mcp.json"],
    ),
    HostSpec(
        "enconvo",
        "Enconvo",
        Format.JSON,
        "mcpServers",
        False,
        # Smithery's client list; ~/.config/enconvo is where Enconvo's own extensions keep
        # their state, whatever XDG says
        lambda p: [p.home / ".config" / "enconvo" / "mcp_config.json"],
    ),
    HostSpec(
        "qoder-cli",
        "Qoder CLI",
        Format.JSON,
        "mcpServers",
        False,
        # docs.qoder.com/cli/mcp-servers: the user's servers are in ~/.qoder/settings.json (with
        # its permissions and hooks), a project's own in .qoder/settings.local.json; a project's
        # .mcp.json is Claude Code's file, found as claude-code's. Not Qoder's IDE's mcp.json
        lambda p: [p.home / ".qoder" / "settings.json"],
        (".qoder/settings.local.json",),
    ),
    HostSpec(
        "junie",
        "JetBrains Junie",
        Format.JSON,
        "mcpServers",
        False,
        # Junie's guides (jetbrains.com/help/junie, junie.jetbrains.com/docs): ~/.junie on every
        # system, and the project's .junie/mcp/mcp.json
        lambda p: [p.home / ".junie" / "mcp" / "mcp.json"],
        (".junie/mcp/mcp.json",),
    ),
    HostSpec(
        "rovo-dev",
        "Rovo Dev CLI",
        Format.JSON,
        "mcpServers",
        False,
        # Atlassian's guide (support.atlassian.com/rovo, "Connect to an MCP server in Rovo Dev
        # CLI"): ~/.rovodev/mcp.json, each server with its transport
        lambda p: [p.home / ".rovodev" / "mcp.json"],
    ),
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
        root = Path(folder)
        for rel in spec.project_files:
            paths = _listed(root, rel) if "*" in rel else [root / rel]
            out.extend(ConfigFile(spec, path, root) for path in paths)
    return out


def _present(path: Path) -> bool:
    """Whether something stands at *path*: a file, or what is there in its place (a named
    pipe, a link to nothing, one that cannot be looked at), which is then reported, not
    passed over as no file."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    return True


def discover(
    platform: Platform, projects: Iterable[str] = (), hosts: Iterable[HostSpec] = HOSTS
) -> list[ConfigFile]:
    """The host files that exist, the user's first, then those of each project folder."""
    projects = list(dict.fromkeys(projects))
    return [
        f for spec in hosts for f in candidate_files(spec, platform, projects) if _present(f.path)
    ]


def protected_places(platform: Platform) -> HostPlaces:
    """Every host's files a confined server never rewrites: the user's, and the names a
    project holds (a settings folder as a whole: ``.vscode`` for ``.vscode/mcp.json``; the
    folder of a pattern: ``.continue/mcpServers``)."""
    user = [str(p) for spec in HOSTS for p in spec.user_files(platform)]
    names: list[str] = []
    for spec in HOSTS:
        for rel in spec.project_files:
            first = rel.split("/", 1)[0]
            if "/" in rel and first.startswith("."):
                names.append(first)
            else:
                names.append(rel.split("*", 1)[0].rstrip("/"))
    return HostPlaces(user, [n for n in dict.fromkeys(names) if n])

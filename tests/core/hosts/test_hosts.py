"""Host files on every OS layout: found, wrapped and unwrapped to the same bytes, never damaged.

Every test works on real files in a fake home folder; the OS layout is a :class:`Platform` (the
OS name, the home folder and the environment), so the macOS and Windows layouts are exercised
here too.
"""

from __future__ import annotations

import difflib
import json
import os
import stat
import sys
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.hosts import diff as hostdiff
from roots_manager.core.hosts import formats as hostformats
from roots_manager.core.hosts import jsonc
from roots_manager.core.hosts import operations as hostchanges
from roots_manager.core.hosts import record as hostrecord
from roots_manager.core.hosts.declared import Transport, parse_wrapped
from roots_manager.core.hosts.known import HOST_IDS, HOSTS, Platform, host, protected_places
from roots_manager.core.hosts.operations import UNWRAP, WRAP
from roots_manager.core.hosts.wrap import find_bridge, home_for_hosts
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import fingerprint
from tests.conftest import only_on_linux
from tests.core.hosts.hosts_samples import (
    AMAZON_Q_LEGACY,
    BROKEN,
    KIMI_CLI,
    OTHERS,
    SAMPLES,
)

BRIDGE = "/opt/roots manager/bin/roots-bridge"
FS_ARGV = ["npx", "-y", "@modelcontextprotocol/server-filesystem"]


def platform(system: str, home: Path) -> Platform:
    env = {"XDG_CONFIG_HOME": str(home / "xdg")} if system == "linux" else {}
    if system == "windows":
        env["APPDATA"] = str(home / "AppData" / "Roaming")
    # fast-agent has no file of its own outside projects but the one of its home, when set
    env["FAST_AGENT_HOME"] = str(home / "agents")
    return Platform(system, home, env)


def install_folder(p: Platform) -> Path:
    """The folder of a host with no user file of its own (LibreChat's install folder), which
    the user makes a root for it to be found."""
    return p.home / "LibreChat"


def place(p: Platform, host_id: str, text: str | None = None) -> Path:
    """Write the sample of *host_id* where that host keeps its user file on *p* (a host with
    none: in :func:`install_folder`)."""
    spec = host(host_id)
    assert spec is not None
    users = spec.user_files(p)
    path = users[0] if users else install_folder(p) / spec.project_files[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SAMPLES[host_id] if text is None else text, encoding="utf-8")
    return path


def change(layout: Layout, p: Platform, host_id: str, action: str, *names: str, **kw: object):  # type: ignore[no-untyped-def]
    files = hostchanges.host_files(host_id, p, [str(install_folder(p))])
    return hostchanges.change(
        layout, files, list(names) or None, action, bridge=BRIDGE, home=None, **kw
    )


SYSTEMS = ("linux", "darwin", "windows")


def test_the_documented_paths(tmp_path: Path) -> None:
    linux, mac, win = (platform(s, tmp_path) for s in SYSTEMS)
    xdg, appdata = tmp_path / "xdg", tmp_path / "AppData" / "Roaming"
    expected = {
        "claude-desktop": (
            xdg / "Claude" / "claude_desktop_config.json",
            tmp_path / "Library/Application Support/Claude/claude_desktop_config.json",
            appdata / "Claude" / "claude_desktop_config.json",
        ),
        "vscode": (
            xdg / "Code/User/mcp.json",
            tmp_path / "Library/Application Support/Code/User/mcp.json",
            appdata / "Code/User/mcp.json",
        ),
        "zed": (
            xdg / "zed/settings.json",
            tmp_path / ".config/zed/settings.json",
            appdata / "Zed/settings.json",
        ),
        "goose": (
            xdg / "goose/config.yaml",
            tmp_path / ".config/goose/config.yaml",
            appdata / "Block/goose/config/config.yaml",
        ),
        "roo-code": tuple(
            folder / "Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"
            for folder in (xdg, tmp_path / "Library/Application Support", appdata)
        ),
        # opencode takes XDG's folder on every system, ~/.config when it is not set
        "opencode": (
            xdg / "opencode/opencode.json",
            tmp_path / ".config/opencode/opencode.json",
            tmp_path / ".config/opencode/opencode.json",
        ),
        "claude-code": (tmp_path / ".claude.json",) * 3,
        "cursor": (tmp_path / ".cursor/mcp.json",) * 3,
        "windsurf": (tmp_path / ".codeium/windsurf/mcp_config.json",) * 3,
        "gemini-cli": (tmp_path / ".gemini/settings.json",) * 3,
        "codex": (tmp_path / ".codex/config.toml",) * 3,
        "qwen-code": (tmp_path / ".qwen/settings.json",) * 3,
        "fast-agent": (tmp_path / "agents/fastagent.config.yaml",) * 3,
        "continue": (tmp_path / ".continue/config.yaml",) * 3,
        "lm-studio": (tmp_path / ".lmstudio/mcp.json",) * 3,
        "kiro": (tmp_path / ".kiro/settings/mcp.json",) * 3,
        "trae": (
            xdg / "Trae/User/mcp.json",
            tmp_path / "Library/Application Support/Trae/User/mcp.json",
            appdata / "Trae/User/mcp.json",
        ),
        # ~/.config/amp on every system, whatever XDG says
        "amp": (tmp_path / ".config/amp/settings.json",) * 3,
        "copilot-cli": (tmp_path / ".copilot/mcp-config.json",) * 3,
        "antigravity": (tmp_path / ".gemini/config/mcp_config.json",) * 3,
        # Kimi Code's, then the older kimi-cli's (both, on every system)
        "kimi-cli": (tmp_path / ".kimi-code/mcp.json",) * 3,
        "factory-droid": (tmp_path / ".factory/mcp.json",) * 3,
        "qoder": (
            tmp_path / ".qoder/mcp.json",
            tmp_path / ".qoder/mcp.json",
            appdata / "Qoder/SharedClientCache/mcp.json",
        ),
        "mistral-vibe": (tmp_path / ".vibe/config.toml",) * 3,
        # the IDE plugins' default.json first, then the older mcp.json they and Q's CLI read
        "amazon-q": (tmp_path / ".aws/amazonq/default.json",) * 3,
        "witsy": (
            xdg / "Witsy/settings.json",
            tmp_path / "Library/Application Support/Witsy/settings.json",
            appdata / "Witsy/settings.json",
        ),
        "jan": (
            xdg / "Jan/data/mcp_config.json",
            tmp_path / "Library/Application Support/Jan/data/mcp_config.json",
            appdata / "Jan/data/mcp_config.json",
        ),
        # dot folders in the home folder on every system (BoltAI and Enconvo are macOS apps)
        "boltai": (tmp_path / ".boltai/mcp.json",) * 3,
        "enconvo": (tmp_path / ".config/enconvo/mcp_config.json",) * 3,
        "qoder-cli": (tmp_path / ".qoder/settings.json",) * 3,
        "junie": (tmp_path / ".junie/mcp/mcp.json",) * 3,
        "rovo-dev": (tmp_path / ".rovodev/mcp.json",) * 3,
    }
    for host_id, paths in expected.items():
        spec = host(host_id)
        assert spec is not None
        for p, path in zip((linux, mac, win), paths, strict=True):
            assert spec.user_files(p)[0] == path, (host_id, p.system)
    # every host's place is in the table: none is left to a fallback
    assert set(expected) | {"cline", "librechat"} == set(HOST_IDS)
    vscode = host("vscode")
    assert vscode is not None
    assert [f.parent.parent.name for f in vscode.user_files(linux)] == [
        "Code",
        "Code - Insiders",
        "VSCodium",
    ]
    cline = host("cline")
    assert cline is not None
    assert cline.user_files(linux)[0] == (
        xdg / "Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"
    )
    # without XDG_CONFIG_HOME, ~/.config
    assert host("claude-desktop").user_files(Platform("linux", tmp_path, {}))[0] == (  # type: ignore[union-attr]
        tmp_path / ".config/Claude/claude_desktop_config.json"
    )
    assert set(HOST_IDS) == set(SAMPLES)
    # LibreChat has no file of its own: its install folder, made a root, holds librechat.yaml
    libre = host("librechat")
    assert libre is not None and libre.user_files(linux) == []
    assert libre.project_files == ("librechat.yaml",)


def test_the_homes_hosts_take_from_their_environment(tmp_path: Path) -> None:
    env = {
        "COPILOT_HOME": str(tmp_path / "cp"),
        "KIMI_CODE_HOME": str(tmp_path / "kimi-code"),
        "KIMI_SHARE_DIR": str(tmp_path / "kimi"),
        "VIBE_HOME": str(tmp_path / "vibe"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    expected = {
        "copilot-cli": [tmp_path / "cp/mcp-config.json"],
        "kimi-cli": [tmp_path / "kimi-code/mcp.json", tmp_path / "kimi/mcp.json"],
        "mistral-vibe": [tmp_path / "vibe/config.toml"],
        # Antigravity 2's folder first, then the one earlier versions read
        "antigravity": [
            tmp_path / ".gemini/config/mcp_config.json",
            tmp_path / ".gemini/antigravity/mcp_config.json",
        ],
        "amazon-q": [
            tmp_path / ".aws/amazonq/default.json",
            tmp_path / ".aws/amazonq/mcp.json",
        ],
        # Jan's guide's folder, then its Tauri build's data directory (Linux only)
        "jan": [
            tmp_path / ".config/Jan/data/mcp_config.json",
            tmp_path / "data/Jan/data/mcp_config.json",
        ],
    }
    for system in SYSTEMS:
        p = Platform(system, tmp_path, env)
        for host_id, paths in expected.items():
            spec = host(host_id)
            assert spec is not None
            if system != "linux" and host_id == "jan":
                assert len(spec.user_files(p)) == 1
                continue
            assert spec.user_files(p) == paths, (host_id, system)
    # a relative value is not a home: the default is kept
    relative = Platform("linux", tmp_path, {"COPILOT_HOME": "cp", "VIBE_HOME": "v"})
    assert host("copilot-cli").user_files(relative) == [tmp_path / ".copilot/mcp-config.json"]  # type: ignore[union-attr]
    assert host("mistral-vibe").user_files(relative) == [tmp_path / ".vibe/config.toml"]  # type: ignore[union-attr]


def test_every_host_s_files_are_protected_from_confined_servers(tmp_path: Path) -> None:
    for system in SYSTEMS:
        p = platform(system, tmp_path)
        places = protected_places(p)
        for spec in HOSTS:
            for path in spec.user_files(p):
                assert str(path) in places.user_files, (spec.id, system)
    names = protected_places(platform("linux", tmp_path)).project_names
    for name in (".factory", ".vibe", ".amazonq", "librechat.yaml", ".qoder", ".junie"):
        assert name in names


def test_the_files_hosts_keep_beside_their_main_one(tmp_path: Path) -> None:
    p = platform("linux", tmp_path)
    xdg = tmp_path / "xdg"
    # VS Code: each profile has its mcp.json, and extensions their globalStorage, in its folder
    profiles = xdg / "Code/User/profiles"
    for profile in ("-5c1e2a", "7d0f11b"):
        (profiles / profile).mkdir(parents=True)
    (profiles / "stray-file").write_text("")
    vscode, roo = host("vscode"), host("roo-code")
    assert vscode is not None and roo is not None
    assert vscode.user_files(p)[:3] == [
        xdg / "Code/User/mcp.json",
        profiles / "-5c1e2a/mcp.json",
        profiles / "7d0f11b/mcp.json",
    ]
    assert roo.user_files(p)[1] == (
        profiles / "-5c1e2a/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"
    )
    # Continue: config.yaml, then each block file of ~/.continue/mcpServers
    blocks = tmp_path / ".continue/mcpServers"
    blocks.mkdir(parents=True)
    for name in ("sqlite.yaml", "notes.txt", "browser.yaml"):
        (blocks / name).write_text("")
    cont = host("continue")
    assert cont is not None
    assert cont.user_files(p) == [
        tmp_path / ".continue/config.yaml",
        blocks / "browser.yaml",
        blocks / "sqlite.yaml",
    ]
    elsewhere = Platform("linux", tmp_path, {"CONTINUE_GLOBAL_DIR": str(tmp_path / "c")})
    assert cont.user_files(elsewhere) == [tmp_path / "c/config.yaml"]
    # LM Studio: its home is the folder its pointer file names, if there is one
    lm = host("lm-studio")
    assert lm is not None
    assert lm.user_files(p) == [
        tmp_path / ".lmstudio/mcp.json",
        tmp_path / ".cache/lm-studio/mcp.json",
    ]
    (tmp_path / ".lmstudio-home-pointer").write_text(str(tmp_path / "models-disk") + "\n")
    assert lm.user_files(p)[0] == tmp_path / "models-disk/mcp.json"
    # opencode: the file OPENCODE_CONFIG names as well
    oc = host("opencode")
    assert oc is not None
    custom = Platform("linux", tmp_path, {"OPENCODE_CONFIG": str(tmp_path / "oc.json")})
    assert oc.user_files(custom)[-1] == tmp_path / "oc.json"
    # fast-agent: nothing outside projects without FAST_AGENT_HOME
    fast = host("fast-agent")
    assert fast is not None and fast.user_files(Platform("linux", tmp_path, {})) == []


@only_on_linux("a named pipe")
def test_a_pipe_in_place_of_lm_studio_s_pointer_is_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / ".lmstudio-home-pointer")
    lm = host("lm-studio")
    assert lm is not None and lm.user_files(platform("linux", tmp_path))[0] == (
        tmp_path / ".lmstudio/mcp.json"
    )


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("host_id", HOST_IDS)
def test_wrap_then_unwrap_gives_back_the_same_bytes(
    tmp_path: Path, layout: Layout, host_id: str, system: str
) -> None:
    p = platform(system, tmp_path / "home")
    path = place(p, host_id)
    original = path.read_bytes()
    folders = [str(install_folder(p))]
    [found] = [r for r in hostchanges.report(p, folders) if r.file.host.id == host_id]
    assert found.error is None and found.file.path == path
    fs = next(s for s in found.servers if s.name == "fs")
    assert fs.transport is Transport.STDIO and fs.argv == FS_ARGV and fs.wrapped is None

    [result] = change(layout, p, host_id, WRAP)
    assert result.error is None and result.written
    wrapped = path.read_bytes()
    assert wrapped != original
    # the original file is kept, privately
    assert result.backup is not None and result.backup.read_bytes() == original
    assert stat.S_IMODE(result.backup.stat().st_mode) == 0o600
    [after] = [r for r in hostchanges.report(p, folders) if r.file.host.id == host_id]
    fs = next(s for s in after.servers if s.name == "fs")
    assert fs.argv == [BRIDGE, "--server", "fs", "--", *FS_ARGV]
    assert fs.wrapped is not None and fs.wrapped.original == FS_ARGV
    # remote servers are listed, never edited
    for s in after.servers:
        if s.name == "web":
            assert s.transport is Transport.REMOTE and s.argv is None
    text = wrapped.decode()
    assert "example.invalid" in text or host_id in COMMANDS_ONLY
    assert SAMPLES[host_id].count("invalid") == text.count("invalid")

    [again] = change(layout, p, host_id, WRAP)
    assert not again.written and path.read_bytes() == wrapped
    assert {o.name: o.status for o in again.outcomes}["fs"] == "already-wrapped"

    [back] = change(layout, p, host_id, UNWRAP)
    assert back.error is None and back.written
    assert path.read_bytes() == original


ADDED_FROM_THEIR_DOCS = (
    "qwen-code",
    "opencode",
    "fast-agent",
    "roo-code",
    "continue",
    "lm-studio",
    "kiro",
    "amp",
    "trae",
    "copilot-cli",
    "antigravity",
    "kimi-cli",
    "factory-droid",
    "qoder",
    "mistral-vibe",
    "amazon-q",
    "witsy",
    "librechat",
    "jan",
    "boltai",
    "enconvo",
    "qoder-cli",
    "junie",
    "rovo-dev",
)
COMMANDS_ONLY = frozenset({"witsy", "boltai", "enconvo"})
"""Hosts whose table of servers holds no remote server (their sample has none)."""


@pytest.mark.parametrize("host_id", ADDED_FROM_THEIR_DOCS)
def test_a_host_s_own_example_is_listed_wrapped_and_undone_exactly(
    tmp_path: Path, layout: Layout, host_id: str
) -> None:
    p = platform("linux", tmp_path)
    path = place(p, host_id)
    others = OTHERS.get(host_id, [])
    remote = {} if host_id in COMMANDS_ONLY else {"web": Transport.REMOTE}
    folders = [str(install_folder(p))]
    [found] = hostchanges.report(p, folders)
    assert found.error is None
    assert {s.name: s.transport for s in found.servers} == {
        "fs": Transport.STDIO,
        **remote,
        **dict.fromkeys(others, Transport.OTHER),
    }
    before = {s.name: s for s in found.servers}

    [r] = change(layout, p, host_id, WRAP)
    assert r.written and {o.name: o.status for o in r.outcomes} == {
        "fs": "wrapped",
        **dict.fromkeys(remote, "not-wrappable"),
        **dict.fromkeys(others, "not-wrappable"),
    }
    [after] = hostchanges.report(p, folders)
    fs = next(s for s in after.servers if s.name == "fs")
    assert fs.argv == [BRIDGE, "--server", "fs", "--", *FS_ARGV]
    # what is not a stdio server is left as it was
    doc = hostformats.read(found.file.host.format, path.read_text())
    original = hostformats.read(found.file.host.format, SAMPLES[host_id])
    for s in after.servers:
        if s.name != "fs":
            assert s.transport is before[s.name].transport
            assert _at(doc, s.loc) == _at(original, before[s.name].loc)

    undone = hostchanges.undo_last(layout, bridge=BRIDGE, home=None)
    assert undone is not None and undone.done and undone.restored == [path]
    assert path.read_bytes() == SAMPLES[host_id].encode()


def _at(data: object, loc: tuple[str | int, ...]) -> object:
    for key in loc:
        data = data[key]  # type: ignore[index]
    return data


def test_opencode_s_command_list_continue_s_list_and_fast_agent_s_nesting_keep_their_bytes(
    tmp_path: Path, layout: Layout
) -> None:
    p = platform("linux", tmp_path)
    paths = {h: place(p, h) for h in ("opencode", "continue", "fast-agent")}
    for host_id in paths:
        hostchanges.change(
            layout, hostchanges.host_files(host_id, p, []), None, WRAP, bridge=BRIDGE, home="/h"
        )
    # the bridge goes first in opencode's one list, and the directory into its environment
    assert paths["opencode"].read_text() == SAMPLES["opencode"].replace(
        '"command": ["npx", ',
        f'"command": ["{BRIDGE}", "--server", "fs", "--", "npx", ',
    ).replace(
        '"MY_ENV_VAR": "my_env_var_value",\n',
        '"MY_ENV_VAR": "my_env_var_value",\n        "ROOTS_MANAGER_HOME": "/h",\n',
    )
    # new items take the quotes of their neighbours, the command those of the one it replaces
    assert paths["continue"].read_text() == SAMPLES["continue"].replace(
        "    command: npx\n    args:\n",
        f"    command: {BRIDGE}\n    args:\n"
        '      - "--server"\n      - "fs"\n      - "--"\n      - "npx"\n',
    ).replace(
        "      ROOT: ${{ secrets.ROOT }}\n",
        "      ROOT: ${{ secrets.ROOT }}\n      ROOTS_MANAGER_HOME: /h\n",
    )
    assert paths["fast-agent"].read_text() == SAMPLES["fast-agent"].replace(
        'command: "npx"', f'command: "{BRIDGE}"'
    ).replace('args: ["-y", ', 'args: ["--server", "fs", "--", "npx", "-y", ').replace(
        "        KEY: value\n", "        KEY: value\n        ROOTS_MANAGER_HOME: /h\n"
    )
    for host_id, path in paths.items():
        change(layout, p, host_id, UNWRAP)
        assert path.read_text() == SAMPLES[host_id], host_id


def test_amazon_q_s_default_json_and_its_older_mcp_json_are_both_read(
    tmp_path: Path, layout: Layout
) -> None:
    # the IDE plugins write default.json and still read mcp.json (useLegacyMcpJson), which
    # Q's CLI reads: a server in either starts, so both are wrapped, and both given back
    p = platform("linux", tmp_path)
    folder = tmp_path / ".aws/amazonq"
    folder.mkdir(parents=True)
    files = {folder / "default.json": SAMPLES["amazon-q"], folder / "mcp.json": AMAZON_Q_LEGACY}
    project = tmp_path / "app"
    (project / ".amazonq").mkdir(parents=True)
    files[project / ".amazonq/default.json"] = SAMPLES["amazon-q"]
    files[project / ".amazonq/mcp.json"] = AMAZON_Q_LEGACY
    for path, text in files.items():
        path.write_text(text)
    found = hostchanges.report(p, [str(project)])
    assert [r.file.path for r in found] == list(files)
    assert [r.file.scope for r in found] == ["user", "user", "project", "project"]
    results = hostchanges.change(
        layout,
        hostchanges.host_files("amazon-q", p, [str(project)]),
        None,
        WRAP,
        bridge=BRIDGE,
        home=None,
    )
    assert len(results) == 4 and all(r.written for r in results)
    for r in hostchanges.report(p, [str(project)]):
        fs = next(s for s in r.servers if s.name == "fs")
        assert fs.argv == [BRIDGE, "--server", "fs", "--", *FS_ARGV], r.file.path
    undone = hostchanges.undo_last(layout, bridge=BRIDGE, home=None)
    assert undone is not None and undone.done and sorted(undone.restored) == sorted(files)
    for path, text in files.items():
        assert path.read_text() == text, path


def test_kimi_code_s_files_and_the_kimi_cli_s_it_migrated_from_are_all_wrapped(
    tmp_path: Path, layout: Layout
) -> None:
    # kimi migrate copies ~/.kimi/mcp.json's servers into ~/.kimi-code/mcp.json, as the same
    # bytes, and leaves the older file beside its mark: a server in either starts (Kimi Code
    # reads the one, a kimi-cli still installed the other), so both are wrapped; and so is the
    # working folder's .kimi-code/mcp.json, in Kimi Code's own format
    p = platform("linux", tmp_path)
    project = tmp_path / "app"
    files = {
        tmp_path / ".kimi-code/mcp.json": KIMI_CLI,
        tmp_path / ".kimi/mcp.json": KIMI_CLI,
        project / ".kimi-code/mcp.json": SAMPLES["kimi-cli"],
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / ".kimi/.migrated-to-kimi-code").write_text('{"version": 1, "runs": []}')
    found = hostchanges.report(p, [str(project)])
    assert [(r.file.path, r.file.scope) for r in found] == [
        (tmp_path / ".kimi-code/mcp.json", "user"),
        (tmp_path / ".kimi/mcp.json", "user"),
        (project / ".kimi-code/mcp.json", "project"),
    ]
    for r in found:
        assert {s.name: s.transport for s in r.servers} == {
            "web": Transport.REMOTE,
            "fs": Transport.STDIO,
        }, r.file.path
    results = hostchanges.change(
        layout,
        hostchanges.host_files("kimi-cli", p, [str(project)]),
        None,
        WRAP,
        bridge=BRIDGE,
        home=None,
    )
    assert len(results) == 3 and all(r.written for r in results)
    for r in hostchanges.report(p, [str(project)]):
        fs = next(s for s in r.servers if s.name == "fs")
        assert fs.argv == [BRIDGE, "--server", "fs", "--", *FS_ARGV], r.file.path
        # the entry keeps Kimi Code's own keys beside the bridge's
        entry = json.loads(r.file.path.read_text())["mcpServers"]["fs"]
        assert entry["env"] == {"SOME_VAR": "value"}, entry
    project_fs = json.loads((project / ".kimi-code/mcp.json").read_text())["mcpServers"]["fs"]
    assert project_fs["transport"] == "stdio" and project_fs["startupTimeoutMs"] == 30000
    undone = hostchanges.undo_last(layout, bridge=BRIDGE, home=None)
    assert undone is not None and undone.done and sorted(undone.restored) == sorted(files)
    for path, text in files.items():
        assert path.read_bytes() == text.encode(), path


def test_qoder_cli_and_qoder_s_ide_keep_separate_files_in_one_folder(tmp_path: Path) -> None:
    # Qoder CLI's servers are in ~/.qoder/settings.json beside its permissions and hooks; the
    # IDE's mcp.json in the same folder is another host's file
    p = platform("linux", tmp_path)
    place(p, "qoder-cli")
    place(p, "qoder")
    project = tmp_path / "app"
    (project / ".qoder").mkdir(parents=True)
    (project / ".qoder/settings.local.json").write_text(SAMPLES["qoder-cli"])
    found = [(r.file.host.id, r.file.path) for r in hostchanges.report(p, [str(project)])]
    assert found == [
        ("qoder", tmp_path / ".qoder/mcp.json"),
        ("qoder-cli", tmp_path / ".qoder/settings.json"),
        ("qoder-cli", project / ".qoder/settings.local.json"),
    ]


def test_mistral_vibe_s_command_is_one_word_and_the_bridge_goes_in_quoted(
    tmp_path: Path, layout: Layout
) -> None:
    p = platform("linux", tmp_path)
    path = place(p, "mistral-vibe")
    files = hostchanges.host_files("mistral-vibe", p, [])
    hostchanges.change(layout, files, None, WRAP, bridge=BRIDGE, home="/h")
    # Vibe splits the command as a shell would: the bridge's path, which has a space, is quoted
    assert path.read_text() == SAMPLES["mistral-vibe"].replace(
        'command = "npx"\nargs = [',
        f'command = "\'{BRIDGE}\'"\nargs = ["--server", "fs", "--", "npx", ',
    ).replace('"LOG_LEVEL" = "info" }', '"LOG_LEVEL" = "info", ROOTS_MANAGER_HOME = "/h"}')
    [found] = hostchanges.report(p, [])
    fs = next(s for s in found.servers if s.name == "fs")
    assert fs.argv == [BRIDGE, "--server", "fs", "--", *FS_ARGV] and fs.wrapped is not None
    change(layout, p, "mistral-vibe", UNWRAP)
    assert path.read_text() == SAMPLES["mistral-vibe"]
    # a command line in the one string is the host's to split: listed, never wrapped
    place(
        p,
        "mistral-vibe",
        '[[mcp_servers]]\nname = "fetch"\ntransport = "stdio"\ncommand = "uvx mcp-server-fetch"\n',
    )
    [r] = change(layout, p, "mistral-vibe", WRAP)
    assert [(o.name, o.status) for o in r.outcomes] == [("fetch", "not-wrappable")]
    assert "split into words" in r.outcomes[0].detail and not r.written


def test_keys_made_for_the_bridge_are_taken_out_again(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path)
    opencode = '{\n  "mcp": {\n    "fs": {\n      "type": "local",\n      "command": ["uvx", "srv"]\n    }\n  }\n}\n'
    cont = "mcpServers:\n- name: fs\n  command: srv\n  # its own comment\n- name: web\n  url: https://example.invalid/mcp\n"
    for host_id, text in (("opencode", opencode), ("continue", cont)):
        path = place(p, host_id, text)
        files = hostchanges.host_files(host_id, p, [])
        hostchanges.change(layout, files, None, WRAP, bridge=BRIDGE, home="/h")
        [found] = [r for r in hostchanges.report(p, []) if r.file.host.id == host_id]
        fs = next(s for s in found.servers if s.name == "fs")
        assert fs.env == {"ROOTS_MANAGER_HOME": "/h"} and fs.wrapped is not None
        hostchanges.change(layout, files, None, UNWRAP)
        assert path.read_text() == text, host_id
    # a Continue entry without a name has none to be shown under: it is not wrapped
    place(p, "continue", "mcpServers:\n- command: srv\n")
    [r] = change(layout, p, "continue", WRAP)
    assert [(o.name, o.status, o.detail) for o in r.outcomes] == [
        ("#1", "not-wrappable", "no name")
    ]


def test_a_vs_code_profile_s_file_is_found_wrapped_and_undone(
    tmp_path: Path, layout: Layout
) -> None:
    p = platform("linux", tmp_path)
    profile = tmp_path / "xdg/Code/User/profiles/4f2a9c1"
    mcp = profile / "mcp.json"
    roo = profile / "globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"
    for path, host_id in ((mcp, "vscode"), (roo, "roo-code")):
        path.parent.mkdir(parents=True)
        path.write_text(SAMPLES[host_id])
    found = hostchanges.report(p, [])
    assert [(r.file.host.id, r.file.path, r.file.scope) for r in found] == [
        ("vscode", mcp, "user"),
        ("roo-code", roo, "user"),
    ]
    for host_id in ("vscode", "roo-code"):
        [r] = change(layout, p, host_id, WRAP)
        assert r.written and BRIDGE in r.file.path.read_text()
        hostchanges.undo_last(layout, bridge=BRIDGE, home=None)
        assert r.file.path.read_text() == SAMPLES[host_id]


def test_comments_order_and_formatting_survive_a_wrap(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path)
    vscode = place(p, "vscode")
    codex = place(p, "codex")
    goose = place(p, "goose")
    change(layout, p, "vscode", WRAP)
    change(layout, p, "codex", WRAP)
    change(layout, p, "goose", WRAP)
    assert vscode.read_text() == SAMPLES["vscode"].replace(
        '"command": "npx", /* the runner */\n\t\t\t"args": [',
        f'"command": "{BRIDGE}", /* the runner */\n\t\t\t"args": ["--server", "fs", "--", "npx", ',
    )
    assert codex.read_text() == SAMPLES["codex"].replace(
        'command = "npx"  # the runner\nargs = [',
        f'command = "{BRIDGE}"  # the runner\nargs = ["--server", "fs", "--", "npx", ',
    )
    assert goose.read_text() == SAMPLES["goose"].replace(
        "    args:\n", "    args:\n    - --server\n    - fs\n    - --\n    - npx\n"
    ).replace("    cmd: npx\n", f"    cmd: {BRIDGE}\n")


def test_every_server_table_of_claude_code_and_zed_is_wrapped(
    tmp_path: Path, layout: Layout
) -> None:
    p = platform("linux", tmp_path)
    claude = place(p, "claude-code")
    zed = place(p, "zed")
    [c] = change(layout, p, "claude-code", WRAP)
    assert {o.name: o.status for o in c.outcomes} == {
        "fs": "wrapped",
        "web": "not-wrappable",
        "db": "wrapped",
    }
    doc = json.loads(claude.read_text())
    assert doc["projects"]["/work/app"]["mcpServers"]["db"]["args"] == [
        "--server",
        "db",
        "--",
        "uvx",
        "mcp-server-sqlite",
    ]
    assert doc["projects"]["/work/app"]["allowedTools"] == [] and doc["numStartups"] == 12
    [z] = change(layout, p, "zed", WRAP)
    assert {o.name: o.status for o in z.outcomes} == {
        "fs": "wrapped",
        "old": "wrapped",
        "ext": "not-wrappable",
        "web": "not-wrappable",
    }
    legacy = jsonc.parse(zed.read_text()).value
    assert legacy["context_servers"]["old"]["command"] == {
        "path": BRIDGE,
        "args": ["--server", "old", "--", "uvx", "mcp-server-git"],
        "env": {},
    }
    change(layout, p, "zed", UNWRAP)
    assert zed.read_text() == SAMPLES["zed"]


def test_only_the_servers_named_are_wrapped(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path)
    path = place(p, "claude-code")
    [r] = change(layout, p, "claude-code", WRAP, "db")
    assert [o.name for o in r.outcomes] == ["db"]
    doc = json.loads(path.read_text())
    assert doc["mcpServers"]["fs"]["command"] == "npx"
    with pytest.raises(hostchanges.HostRefusal, match="no server named 'nope'"):
        change(layout, p, "claude-code", WRAP, "nope")


def test_dry_run_shows_the_diff_and_writes_nothing(tmp_path: Path, layout: Layout) -> None:
    p = platform("windows", tmp_path)
    path = place(p, "claude-desktop")
    [r] = change(layout, p, "claude-desktop", WRAP, dry_run=True)
    assert path.read_text() == SAMPLES["claude-desktop"] and not r.written
    assert f'+      "command": "{BRIDGE}",' in r.diff and '-      "command": "npx",' in r.diff
    assert Store(layout).read().servers == {}
    assert not hostrecord.record_path(layout).exists()


def test_a_syntax_error_is_reported_with_its_line_and_nothing_is_written(
    tmp_path: Path, layout: Layout
) -> None:
    p = platform("linux", tmp_path)
    for host_id, fmt in (("cursor", "json"), ("codex", "toml"), ("goose", "yaml")):
        text, line = BROKEN[fmt]
        path = place(p, host_id, text)
        [found] = [r for r in hostchanges.report(p, []) if r.file.host.id == host_id]
        assert found.error is not None and found.line == line, (host_id, found.error)
        [r] = change(layout, p, host_id, WRAP)
        assert r.error is not None and "syntax error" in r.error and not r.written
        assert path.read_text() == text
    assert not hostrecord.backups_dir(layout).exists()


def test_a_host_writing_the_file_meanwhile_is_noticed(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path)
    path = place(p, "cursor")
    edits = []

    def host_writes_once(_file: object) -> None:
        if not edits:
            edits.append(1)
            path.write_text(SAMPLES["cursor"].replace("sse", "events"))

    [r] = change(layout, p, "cursor", WRAP, before_write=host_writes_once)
    # planned again from the host's text: its edit is kept, and the server is wrapped
    assert r.written and "example.invalid/events" in path.read_text()
    assert BRIDGE in path.read_text()

    path2 = place(p, "windsurf")

    def host_keeps_writing(_file: object) -> None:
        path2.write_text(path2.read_text() + " ")

    [r2] = change(layout, p, "windsurf", WRAP, before_write=host_keeps_writing)
    assert not r2.written and r2.error is not None and "kept changing" in r2.error
    assert BRIDGE not in path2.read_text()
    assert hostrecord.load(layout).find(path2, ("mcpServers", "fs")) is None


@pytest.mark.parametrize(
    "how",
    [
        "into the file",
        pytest.param("by a rename", marks=only_on_linux("only Linux swaps two files in one step")),
    ],
)
def test_a_host_writing_just_before_our_rename_is_seen_after_it(
    tmp_path: Path, layout: Layout, how: str
) -> None:
    p = platform("linux", tmp_path)
    path = place(p, "cursor")

    def host_writes(target: Path, text: str) -> None:
        if how == "into the file":
            target.write_text(text)  # the same file, truncated and written again
        else:
            new = target.with_name("host-tmp")
            new.write_text(text)
            os.replace(new, target)

    by_host = SAMPLES["cursor"].replace("sse", "events")
    writes = []

    def host_writes_once(_file: object) -> None:
        if not writes:
            writes.append(1)
            host_writes(path, by_host)

    [r] = change(layout, p, "cursor", WRAP, before_rename=host_writes_once)
    # the rename took the host's write away: it is seen, put back, and the change made again
    assert r.written and r.error is None and writes == [1]
    text = path.read_text()
    assert "example.invalid/events" in text and BRIDGE in text
    assert r.backup is not None and r.backup.read_text() == by_host
    assert os.listdir(hostrecord.backups_dir(layout)) == [r.backup.name]  # none of the first try
    assert sorted(os.listdir(path.parent)) == ["mcp.json"]

    path2 = place(p, "windsurf")
    count = []

    def host_keeps_writing(_file: object) -> None:
        count.append(1)
        text = SAMPLES["windsurf"].replace('"disabled": false', f'"n": {len(count)}')
        host_writes(path2, text)

    [r2] = change(layout, p, "windsurf", WRAP, before_rename=host_keeps_writing)
    assert not r2.written and r2.error is not None and "kept changing" in r2.error
    assert [o.status for o in r2.outcomes] == ["not-wrappable"]  # fs: nothing said of it
    # what the host wrote last is what the file holds
    assert path2.read_text() == SAMPLES["windsurf"].replace('"disabled": false', '"n": 2')
    assert hostrecord.load(layout).find(path2, ("mcpServers", "fs")) is None
    assert len(os.listdir(hostrecord.backups_dir(layout))) == 1


def test_the_diff_of_a_big_file_is_the_one_difflib_gives() -> None:
    lines = [f'    "key {i}": "value {i * 7 % 1000}",\n' for i in range(40_000)]
    before = "{\n" + "".join(lines) + '    "end": 0\n}\n'
    edited = list(lines)
    edited[5] = '    "key 5": "changed",\n'
    edited[20_000:20_002] = ['    "new": 1,\n']
    edited[39_990] += '    "added": 2,\n'
    after = "{\n" + "".join(edited) + '    "end": 0\n}'  # and no line break at the end
    expected = "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), "f", "f"
        )
    )
    expected += "\n\\ No newline at end of file\n"  # as diff marks it
    assert hostdiff.unified(before, after, "f") == expected
    assert hostdiff.unified(before, before, "f") == ""


def test_a_server_wrapped_by_hand_is_recognised_and_unwrapped(
    tmp_path: Path, layout: Layout
) -> None:
    p = platform("linux", tmp_path)
    text = (
        '{"mcpServers": {"fs": {"command": "roots-bridge", '
        '"args": ["--server", "mine", "--log-all", "--", "node", "srv.js"]}}}\n'
    )
    path = place(p, "cursor", text)
    [r] = change(layout, p, "cursor", WRAP)
    assert r.outcomes[0].status == "already-wrapped" and r.outcomes[0].server == "mine"
    assert path.read_text() == text
    change(layout, p, "cursor", UNWRAP)
    assert json.loads(path.read_text()) == {
        "mcpServers": {"fs": {"command": "node", "args": ["srv.js"]}}
    }
    assert parse_wrapped(["/x/roots-manager", "bridge", "--server", "a", "--", "b"]) is not None
    assert parse_wrapped(["/x/roots-bridge", "--server", "a"]) is None


def test_two_hosts_with_one_key_for_two_commands_get_two_names(
    tmp_path: Path, layout: Layout, store: Store
) -> None:
    p = platform("linux", tmp_path)
    place(p, "cursor")
    place(p, "windsurf", SAMPLES["windsurf"].replace("server-filesystem", "server-other"))
    place(p, "cline")  # the same command as cursor's: the same name
    change(layout, p, "cursor", WRAP)
    [w] = change(layout, p, "windsurf", WRAP)
    [c] = change(layout, p, "cline", WRAP)
    assert (w.outcomes[0].server, c.outcomes[0].server) == ("fs-windsurf", "fs")
    assert "named 'fs-windsurf'" in w.outcomes[0].detail
    servers = store.read().servers
    assert servers["fs"].fingerprint == fingerprint(FS_ARGV)
    assert servers["fs-windsurf"].fingerprint == fingerprint(
        ["npx", "-y", "@modelcontextprotocol/server-other"]
    )


def test_one_key_for_two_commands_in_two_files_of_one_step_gets_two_names(
    tmp_path: Path, layout: Layout, store: Store
) -> None:
    p = platform("linux", tmp_path / "home")
    place(p, "gemini-cli")
    project = tmp_path / "work" / "app"
    (project / ".gemini").mkdir(parents=True)
    other = SAMPLES["gemini-cli"].replace("server-filesystem", "server-other")
    (project / ".gemini" / "settings.json").write_text(other)
    files = hostchanges.host_files("gemini-cli", p, [str(project)])
    user, mine = hostchanges.change(layout, files, None, WRAP, bridge=BRIDGE)
    assert (user.outcomes[0].server, mine.outcomes[0].server) == ("fs", "fs-gemini-cli")
    assert set(store.read().servers) == {"fs", "fs-gemini-cli"}
    [step] = hostrecord.load(layout).changes
    assert [f.file for f in step.files] == [str(f.path) for f in files]


def test_a_wrapped_server_is_known_and_its_first_start_asks_nothing(
    tmp_path: Path, layout: Layout, store: Store
) -> None:
    p = platform("linux", tmp_path)
    place(p, "claude-desktop")
    change(layout, p, "claude-desktop", WRAP)
    with store.transaction() as state:
        assert state.servers["fs"].command == FS_ARGV
        assert state.server_started("fs", FS_ARGV, "s1") is None
        assert state.pending == []
        # another command under the name still asks
        assert state.server_started("fs", ["npx", "evil"], "s2") is not None


def test_the_per_user_directory_goes_into_the_entry_when_not_the_default(
    tmp_path: Path, layout: Layout
) -> None:
    p = platform("linux", tmp_path)
    path = place(p, "gemini-cli")
    files = hostchanges.host_files("gemini-cli", p, [])
    hostchanges.change(layout, files, None, WRAP, bridge=BRIDGE, home=str(layout.home))
    doc = jsonc.parse(path.read_text()).value
    assert doc["mcpServers"]["fs"]["env"] == {"ROOTS_MANAGER_HOME": str(layout.home)}
    assert doc["mcpServers"]["fs"]["cwd"] == "./"
    hostchanges.change(layout, files, None, UNWRAP)
    assert path.read_text() == SAMPLES["gemini-cli"]
    assert home_for_hosts(layout.home, layout.home) is None
    assert home_for_hosts(layout.home, tmp_path / "elsewhere") == str(layout.home)


def test_unwrap_after_the_user_edited_the_entry_keeps_their_edit(
    tmp_path: Path, layout: Layout
) -> None:
    p = platform("linux", tmp_path)
    path = place(p, "cursor")
    files = hostchanges.host_files("cursor", p, [])
    hostchanges.change(layout, files, None, WRAP, bridge=BRIDGE, home="/rm home")
    path.write_text(path.read_text().replace('"-y", ', '"-y", "--verbose", '))
    hostchanges.change(layout, files, None, UNWRAP)
    assert json.loads(path.read_text())["mcpServers"]["fs"] == {
        "command": "npx",
        "args": ["-y", "--verbose", "@modelcontextprotocol/server-filesystem"],
    }


def test_undo_takes_back_the_last_change(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path)
    path = place(p, "codex")
    change(layout, p, "codex", WRAP)
    wrapped = path.read_bytes()
    change(layout, p, "codex", UNWRAP, "fs")
    assert path.read_text() == SAMPLES["codex"]
    last = hostchanges.last_change(layout)
    assert last is not None and last.action == UNWRAP
    assert [(f.file, f.servers) for f in last.files] == [(str(path), ["fs"])]
    r = hostchanges.undo_last(layout, bridge=BRIDGE, home=None)
    assert r is not None and r.done and r.restored == [path] and path.read_bytes() == wrapped
    r = hostchanges.undo_last(layout, bridge=BRIDGE, home=None)
    assert r is not None and path.read_text() == SAMPLES["codex"]
    assert hostchanges.last_change(layout) is None


def test_project_files_are_found_under_the_roots(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path / "home")
    project = tmp_path / "work" / "app"
    in_project = (
        (".mcp.json", "claude-code"),
        (".vscode/mcp.json", "vscode"),
        (".cursor/mcp.json", "cursor"),
        (".zed/settings.json", "zed"),
        (".gemini/settings.json", "gemini-cli"),
        (".qwen/settings.json", "qwen-code"),
        ("opencode.jsonc", "opencode"),
        ("fastagent.config.yaml", "fast-agent"),
        (".roo/mcp.json", "roo-code"),
        (".continue/mcpServers/fs.yaml", "continue"),
        (".continue/mcpServers/more.yaml", "continue"),
        (".kiro/settings/mcp.json", "kiro"),
        (".amp/settings.json", "amp"),
        (".trae/mcp.json", "trae"),
    )
    for rel, host_id in in_project:
        f = project / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(SAMPLES[host_id])
    (project / ".continue/mcpServers/README.md").write_text("# not a block\n")
    found = hostchanges.report(p, [str(project), str(tmp_path / "elsewhere")])
    assert sorted((r.file.host.id, r.file.scope) for r in found) == sorted(
        (h, "project") for _, h in in_project
    )
    assert sorted(str(r.file.path.relative_to(project)) for r in found) == sorted(
        rel for rel, _ in in_project
    )
    assert all(r.file.project == project and r.servers for r in found)
    files = hostchanges.host_files("vscode", p, [str(project)])
    hostchanges.change(layout, files, None, WRAP, bridge=BRIDGE, home=None)
    assert BRIDGE in (project / ".vscode/mcp.json").read_text()


def test_the_file_keeps_its_mode_and_a_link_stays_a_link(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path)
    real = tmp_path / "dotfiles" / "mcp.json"
    real.parent.mkdir()
    real.write_text(SAMPLES["cursor"])
    real.chmod(0o640)
    link = host("cursor").user_files(p)[0]  # type: ignore[union-attr]
    link.parent.mkdir(parents=True)
    os.symlink(real, link)
    change(layout, p, "cursor", WRAP)
    assert link.is_symlink() and BRIDGE in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert stat.S_IMODE(hostrecord.record_path(layout).stat().st_mode) == 0o600


def test_every_host_is_in_the_catalogue_once() -> None:
    assert len({h.id for h in HOSTS}) == len(HOSTS) == 34


def test_the_bridge_is_found_beside_this_program(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "roots-manager").write_text("")
    assert find_bridge(str(bundle / "roots-manager"), frozen=True) is None
    bridge = bundle / "roots-bridge"
    bridge.write_text("")
    assert find_bridge(str(bundle / "roots-manager"), frozen=True) is None  # not executable
    bridge.chmod(0o755)
    assert find_bridge(str(bundle / "roots-manager"), frozen=True) == str(bridge)
    # this test's own venv: the script pip installed beside its Python
    found = find_bridge()
    assert found is not None and Path(found).parent == Path(sys.executable).parent
    assert parse_wrapped([sys.executable, "-m", "roots_manager.bridge", "--server", "a", "--", "b"])


def test_a_file_the_library_would_reformat_is_listed_but_not_edited(
    tmp_path: Path, layout: Layout
) -> None:
    p = platform("linux", tmp_path)
    text = "extensions:\n  fs:\n    cmd:    npx\n    type: stdio\n"
    path = place(p, "goose", text)
    [found] = hostchanges.report(p, [])
    assert found.error is None and found.servers[0].argv == ["npx"]
    [r] = change(layout, p, "goose", WRAP)
    assert r.error is not None and "would not write this file back unchanged" in r.error
    assert path.read_text() == text and not r.written


def test_a_damaged_record_stops_every_change(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path)
    path = place(p, "cursor")
    record = hostrecord.record_path(layout)
    record.parent.mkdir(parents=True)
    record.write_text('{"version": 1, "wrapped": "nonsense"')
    [r] = change(layout, p, "cursor", WRAP)
    assert r.error is not None and "record of host changes" in r.error
    assert path.read_text() == SAMPLES["cursor"]
    assert record.read_text() == '{"version": 1, "wrapped": "nonsense"'


def test_a_command_with_host_variables_is_known_but_not_fixed(
    tmp_path: Path, layout: Layout, store: Store
) -> None:
    p = platform("linux", tmp_path)
    text = '{"servers": {"fs": {"command": "npx", "args": ["srv", "${workspaceFolder}"]}}}'
    place(p, "vscode", text)
    change(layout, p, "vscode", WRAP)
    with store.transaction() as state:
        assert state.servers["fs"].fingerprint is None
        root = state.add_root(str(tmp_path))
        state.grant("fs", [root.id])
        # VS Code starts it with the folder filled in: trusted on first use, nothing asked
        assert state.server_started("fs", ["npx", "srv", "/work/app"], "s1") is None
        assert state.servers["fs"].fingerprint == fingerprint(["npx", "srv", "/work/app"])


def test_opencode_s_env_references_make_a_command_known_by_name_only(
    tmp_path: Path, layout: Layout, store: Store
) -> None:
    p = platform("linux", tmp_path)
    text = '{"mcp": {"gh": {"type": "local", "command": ["gh-mcp", "--token={env:GH_TOKEN}"]}}}'
    place(p, "opencode", text)
    change(layout, p, "opencode", WRAP)
    with store.transaction() as state:
        assert "gh" in state.servers and state.servers["gh"].fingerprint is None


def test_new_keys_go_next_to_the_command_in_toml_and_yaml(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path)
    toml = '[mcp_servers.docs]\ncommand = "docs"  # ours\n\n# the next one\n[tui]\nx = 1\n'
    path = place(p, "codex", toml)
    hostchanges.change(
        layout, hostchanges.host_files("codex", p, []), None, WRAP, bridge=BRIDGE, home="/h"
    )
    assert path.read_text() == toml.replace(
        '"docs"  # ours\n',
        f'"{BRIDGE}"  # ours\nargs = ["--server", "docs", "--", "docs"]\n'
        'env = {ROOTS_MANAGER_HOME = "/h"}\n',
    )
    change(layout, p, "codex", UNWRAP)
    assert path.read_text() == toml
    yaml = "extensions:\n  docs:\n    cmd: docs\n    enabled: true\n    type: stdio\n"
    path = place(p, "goose", yaml)
    change(layout, p, "goose", WRAP)
    assert path.read_text() == yaml.replace(
        "cmd: docs\n",
        f"cmd: {BRIDGE}\n    args:\n    - --server\n    - docs\n    - --\n    - docs\n",
    )
    change(layout, p, "goose", UNWRAP)
    assert path.read_text() == yaml


def test_each_line_of_a_diff_is_told_apart_for_showing() -> None:
    from roots_manager.core.hosts.diff import line_kind, unified

    diff = unified('{\n  "a": 1,\n  "b": 2\n}\n', '{\n  "a": 1,\n  "b": 3\n}\n', "f.json")
    kinds = [line_kind(line) for line in diff.splitlines()]
    assert kinds == [
        "header",
        "header",
        "hunk",
        "context",
        "context",
        "removed",
        "added",
        "context",
    ], diff

"""Host files on every OS layout: found, wrapped and unwrapped to the same bytes, never damaged.

Every test works on real files in a fake home folder; the OS layout is a :class:`Platform` (the
OS name, the home folder and the environment), so the macOS and Windows layouts are exercised
here too.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from roots_manager.core.hosts import jsonc
from roots_manager.core.hosts import operations as hostchanges
from roots_manager.core.hosts import record as hostrecord
from roots_manager.core.hosts.declared import Transport, parse_wrapped
from roots_manager.core.hosts.known import HOST_IDS, HOSTS, Platform, host
from roots_manager.core.hosts.operations import UNWRAP, WRAP
from roots_manager.core.hosts.wrap import find_bridge, home_for_hosts
from roots_manager.core.paths import Layout
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import fingerprint
from tests.core.hosts_samples import BROKEN, SAMPLES

BRIDGE = "/opt/roots manager/bin/roots-bridge"
FS_ARGV = ["npx", "-y", "@modelcontextprotocol/server-filesystem"]


def platform(system: str, home: Path) -> Platform:
    env = {"XDG_CONFIG_HOME": str(home / "xdg")} if system == "linux" else {}
    if system == "windows":
        env["APPDATA"] = str(home / "AppData" / "Roaming")
    return Platform(system, home, env)


def place(p: Platform, host_id: str, text: str | None = None) -> Path:
    """Write the sample of *host_id* where that host keeps its user file on *p*."""
    spec = host(host_id)
    assert spec is not None
    path = spec.user_files(p)[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SAMPLES[host_id] if text is None else text, encoding="utf-8")
    return path


def change(layout: Layout, p: Platform, host_id: str, action: str, *names: str, **kw: object):  # type: ignore[no-untyped-def]
    files = hostchanges.host_files(host_id, p, [])
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
        "claude-code": (tmp_path / ".claude.json",) * 3,
        "cursor": (tmp_path / ".cursor/mcp.json",) * 3,
        "windsurf": (tmp_path / ".codeium/windsurf/mcp_config.json",) * 3,
        "gemini-cli": (tmp_path / ".gemini/settings.json",) * 3,
        "codex": (tmp_path / ".codex/config.toml",) * 3,
    }
    for host_id, paths in expected.items():
        spec = host(host_id)
        assert spec is not None
        for p, path in zip((linux, mac, win), paths, strict=True):
            assert spec.user_files(p)[0] == path, (host_id, p.system)
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


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("host_id", HOST_IDS)
def test_wrap_then_unwrap_gives_back_the_same_bytes(
    tmp_path: Path, layout: Layout, host_id: str, system: str
) -> None:
    p = platform(system, tmp_path / "home")
    path = place(p, host_id)
    original = path.read_bytes()
    [found] = [r for r in hostchanges.report(p, []) if r.file.host.id == host_id]
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
    [after] = [r for r in hostchanges.report(p, []) if r.file.host.id == host_id]
    fs = next(s for s in after.servers if s.name == "fs")
    assert fs.argv == [BRIDGE, "--server", "fs", "--", *FS_ARGV]
    assert fs.wrapped is not None and fs.wrapped.original == FS_ARGV
    # remote servers are listed, never edited
    for s in after.servers:
        if s.name == "web":
            assert s.transport is Transport.REMOTE and s.argv is None
    text = wrapped.decode()
    assert "example.invalid" in text and SAMPLES[host_id].count("invalid") == text.count("invalid")

    [again] = change(layout, p, host_id, WRAP)
    assert not again.written and path.read_bytes() == wrapped
    assert {o.name: o.status for o in again.outcomes}["fs"] == "already-wrapped"

    [back] = change(layout, p, host_id, UNWRAP)
    assert back.error is None and back.written
    assert path.read_bytes() == original


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
    assert last is not None and last.action == UNWRAP and last.servers == ["fs"]
    r = hostchanges.undo_last(layout, bridge=BRIDGE, home=None)
    assert r is not None and r.written and path.read_bytes() == wrapped
    r = hostchanges.undo_last(layout, bridge=BRIDGE, home=None)
    assert r is not None and path.read_text() == SAMPLES["codex"]
    assert hostchanges.last_change(layout) is None


def test_project_files_are_found_under_the_roots(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path / "home")
    project = tmp_path / "work" / "app"
    for rel, host_id in (
        (".mcp.json", "claude-code"),
        (".vscode/mcp.json", "vscode"),
        (".cursor/mcp.json", "cursor"),
        (".zed/settings.json", "zed"),
        (".gemini/settings.json", "gemini-cli"),
    ):
        f = project / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(SAMPLES[host_id])
    found = hostchanges.report(p, [str(project), str(tmp_path / "elsewhere")])
    assert sorted((r.file.host.id, r.file.scope) for r in found) == sorted(
        (h, "project") for h in ("claude-code", "vscode", "cursor", "zed", "gemini-cli")
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
    assert len({h.id for h in HOSTS}) == len(HOSTS) == 10


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

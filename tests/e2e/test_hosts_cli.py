"""``roots-manager hosts`` and ``effective --watch`` as real processes, in a fake home folder.

The end-to-end test wraps a Claude Desktop file holding the reference filesystem server, then
starts the very command the file now holds, the way a host does: with the Python SDK's client
(which declares no roots capability) and its reduced environment plus the entry's ``env``.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import run_cli
from tests.core.hosts_samples import BROKEN, SAMPLES
from tests.e2e.test_bridge_filesystem import make, until


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home folder for the CLI processes: HOME and XDG_CONFIG_HOME point into it."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for name in ("APPDATA", "CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(name, raising=False)
    return home


def claude_desktop(home: Path, text: str) -> Path:
    path = home / ".config" / "Claude" / "claude_desktop_config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def listed() -> dict[str, object]:
    doc = json.loads(run_cli("hosts", "list", "--json").stdout)
    assert doc["version"] == 1
    return doc  # type: ignore[no-any-return]


def test_list_wrap_unwrap_through_the_cli(home: Path, rm_home: Path) -> None:
    path = claude_desktop(home, SAMPLES["claude-desktop"])
    goose = home / ".config" / "goose" / "config.yaml"
    goose.parent.mkdir(parents=True)
    goose.write_text(BROKEN["yaml"][0])
    original = path.read_bytes()
    files = {f["host"]: f for f in listed()["files"]}  # type: ignore[attr-defined]
    assert files["goose"]["error"].startswith("syntax error") and files["goose"]["line"] == 4
    desktop = files["claude-desktop"]
    assert desktop["path"] == str(path) and desktop["reloads"] is False
    assert [(s["name"], s["transport"], s["wrapped"]) for s in desktop["servers"]] == [
        ("fs", "stdio", False),
        ("web", "remote", False),
    ]

    dry = run_cli("hosts", "wrap", "claude-desktop", "--all", "--dry-run")
    assert '+      "command": "' in dry.stdout and "would be wrapped" in dry.stdout
    assert path.read_bytes() == original

    out = run_cli("hosts", "wrap", "claude-desktop", "fs", "--json")
    result = json.loads(out.stdout)
    assert result["version"] == 1 and result["files"][0]["restart_needed"] is True
    entry = json.loads(path.read_text())["mcpServers"]["fs"]
    bridge = Path(entry["command"])
    assert bridge.is_absolute() and bridge.name == "roots-bridge" and bridge.exists()
    assert entry["args"][:4] == ["--server", "fs", "--", "npx"]
    # a per-user directory other than the default travels with the entry
    assert entry["env"] == {"ROOTS_MANAGER_HOME": str(rm_home)}
    servers = json.loads(run_cli("servers", "list", "--json").stdout)
    assert [s["name"] for s in servers] == ["fs"] and servers[0]["fingerprint"]

    missing = run_cli("hosts", "wrap", "claude-desktop", "nope", check=False)
    assert missing.returncode == 1 and "no server named 'nope'" in missing.stderr
    nothing = run_cli("hosts", "wrap", "claude-desktop", check=False)
    assert nothing.returncode == 2 and "--all" in nothing.stderr
    unknown = run_cli("hosts", "wrap", "notepad", "--all", check=False)
    assert unknown.returncode == 2
    broken = run_cli("hosts", "wrap", "goose", "--all", check=False)
    assert broken.returncode == 1 and "syntax error" in broken.stdout

    run_cli("hosts", "unwrap", "claude-desktop", "--all")
    assert path.read_bytes() == original
    run_cli("hosts", "undo")
    assert json.loads(path.read_text())["mcpServers"]["fs"]["command"] == str(bridge)


class Lines:
    """The stdout lines of a process, read in a thread so that waiting for one can time out."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        assert proc.stdout is not None
        out = proc.stdout
        threading.Thread(target=lambda: [self.queue.put(line) for line in out], daemon=True).start()

    def next(self, timeout: float = 20) -> dict[str, object]:
        return json.loads(self.queue.get(timeout=timeout))  # type: ignore[no-any-return]

    def none_within(self, seconds: float) -> bool:
        try:
            line = self.queue.get(timeout=seconds)
        except queue.Empty:
            return True
        raise AssertionError(f"unexpected line: {line}")


def test_effective_watch_prints_each_change_once(tmp_path: Path, rm_home: Path) -> None:
    a, b = make(tmp_path, "alpha", "beta#2")
    run_cli("roots", "add", a)
    run_cli("roots", "add", b)
    proc = subprocess.Popen(
        [sys.executable, "-m", "roots_manager.cli", "effective", "fs", "--watch", "--json"],
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        lines = Lines(proc)
        assert lines.next() == {"roots": []}
        run_cli("grant", "fs", a)
        assert lines.next() == {"roots": [{"uri": Path(a).as_uri(), "name": "alpha"}]}
        # a save that changes nothing for this server prints nothing
        run_cli("grant", "other", b)
        run_cli("roots", "rename", b, "beta two")
        assert lines.none_within(2.5)
        run_cli("grant", "fs", b)
        got = lines.next()
        assert [r["uri"] for r in got["roots"]] == [Path(a).as_uri(), Path(b).as_uri()]  # type: ignore[index]
        assert "%232" in json.dumps(got)
        run_cli("revoke", "fs", a, b)
        assert lines.next() == {"roots": []}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_wrapped_claude_desktop_server_gets_the_granted_folders(
    home: Path, tmp_path: Path, filesystem_server: list[str]
) -> None:
    granted, other = make(tmp_path, "granted one", "not granted")
    run_cli("roots", "add", granted)
    run_cli("roots", "add", other)
    config = {
        "mcpServers": {
            "files": {"command": filesystem_server[0], "args": filesystem_server[1:]},
        }
    }
    path = claude_desktop(home, json.dumps(config, indent=2) + "\n")
    run_cli("hosts", "wrap", "claude-desktop", "files")
    # granted before the server ever ran: the wrap made it known
    run_cli("grant", "files", granted)
    entry = json.loads(path.read_text())["mcpServers"]["files"]

    async def scenario() -> None:
        # what a host does with the entry: the SDK adds only a few safe variables (PATH, HOME,
        # ...) to the entry's env, and declares no roots capability of its own
        params = StdioServerParameters(
            command=entry["command"], args=entry["args"], env=entry["env"]
        )
        async with Client(params) as client:
            await until(client, [granted], "the wrapped server's first start")

    started = time.monotonic()
    anyio.run(scenario)
    assert time.monotonic() - started < 60
    # no consent was asked: the command the user wrapped is the one that ran
    assert json.loads(run_cli("servers", "list", "--json").stdout)[0]["pending"] == []

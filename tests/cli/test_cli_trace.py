"""``-v`` and ``ROOTS_MANAGER_DEBUG=1``: the CLI and the bridge say on stderr what they do.

The store opened and where, the lock, each file written, each host file read, at DEBUG level
through :mod:`logging`; without either, not a line of it. The bridge's start stays as light as
it was: nothing of :mod:`logging` is imported for tracing while it is off.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.core.hosts.hosts_samples import SAMPLES


def debug_lines(stderr: str, prog: str = "roots-manager") -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(f"{prog}: debug: ")]


def test_verbose_says_what_a_change_does(
    tmp_path: Path, rm_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ROOTS_MANAGER_DEBUG", raising=False)
    folder = tmp_path / "project"
    folder.mkdir()
    quiet = run_cli("roots", "add", str(folder))
    assert quiet.stderr == ""
    store = rm_home / "store.json"
    before = store.stat().st_size
    told = run_cli("-v", "roots", "add", str(tmp_path))
    assert told.stdout.startswith("added ")
    assert debug_lines(told.stderr) == [
        f"roots-manager: debug: the store is {store}",
        f"roots-manager: debug: took the store's lock {rm_home / 'store.json.lock'}",
        f"roots-manager: debug: read {store} ({before} bytes)",
        f"roots-manager: debug: wrote {rm_home / 'store.json.bak'} ({before} bytes)",
        f"roots-manager: debug: checked {store} is as read: yes",
        f"roots-manager: debug: wrote {store} ({store.stat().st_size} bytes)",
        "roots-manager: debug: released the store's lock",
    ]
    # --verbose is the same option, and a command that only reads says so
    listed = run_cli("--verbose", "roots", "list", "--json")
    assert json.loads(listed.stdout)[1]["path"] == str(tmp_path)
    assert debug_lines(listed.stderr) == [
        f"roots-manager: debug: the store is {store}",
        f"roots-manager: debug: read {store} ({store.stat().st_size} bytes)",
    ]
    assert debug_lines(run_cli("roots", "list").stderr) == []


def test_the_environment_says_the_same_and_host_files_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    config = home / ".config" / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(SAMPLES["claude-desktop"], encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("ROOTS_MANAGER_DEBUG", "0")  # 0 is off
    assert debug_lines(run_cli("hosts", "list").stderr) == []
    monkeypatch.setenv("ROOTS_MANAGER_DEBUG", "1")
    told = debug_lines(run_cli("hosts", "list").stderr)
    assert (
        f"roots-manager: debug: read the host file {config} ({config.stat().st_size} bytes)" in told
    )
    wrapped = run_cli("hosts", "wrap", "claude-desktop", "--all")
    lines = debug_lines(wrapped.stderr)
    assert f"roots-manager: debug: read the host file {config} (" in "\n".join(lines)
    assert (
        f"roots-manager: debug: wrote the host file {config} ({config.stat().st_size} bytes)"
        in lines
    )


def test_the_bridge_says_what_it_does_only_when_asked(
    tmp_path: Path, rm_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [sys.executable, "-m", "roots_manager.bridge", "--server", "fs", "--", sys.executable,
            "-c", "pass"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "ROOTS_MANAGER_DEBUG"}
    quiet = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert debug_lines(quiet.stderr, "roots-bridge") == []
    told = subprocess.run(
        argv, env={**env, "ROOTS_MANAGER_DEBUG": "1"}, capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    lines = debug_lines(told.stderr, "roots-bridge")
    assert lines[:2] == [
        f"roots-bridge: debug: the store is {rm_home / 'store.json'}",
        f"roots-bridge: debug: took the store's lock {rm_home / 'store.json.lock'}",
    ]
    assert f"roots-bridge: debug: wrote {rm_home / 'store.json'} (" in "\n".join(lines)


# Run in a fresh interpreter: what the bridge loads before it starts the server, and at all.
LOADED = """
import json, sys
sys.argv = ["roots-bridge", *sys.argv[1:]]
from roots_manager.bridge.main import main
code = main()
print(json.dumps(sorted(m for m, v in sys.modules.items() if v is not None)), file=sys.stderr)
"""


def test_tracing_off_costs_the_bridge_no_logging() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ROOTS_MANAGER_DEBUG"}
    done = subprocess.run(
        [sys.executable, "-c", LOADED, "--version"], env=env, capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    loaded = set(json.loads(done.stderr.splitlines()[-1]))
    assert "logging" not in loaded
    assert "roots_manager.support.trace" not in loaded

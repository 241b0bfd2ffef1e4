"""What ``roots-manager`` loads before it answers: a command imports what it uses, no more.

Every call builds the whole parser, so a subcommand module that imported its work at the top
(the probe's asyncio and tables, the host formats' TOML and YAML libraries) made even
``--version`` pay for them: 2.5 times the bridge's start-up in the bundle.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from roots_manager import __version__

# Run in a fresh interpreter: the test process itself has imported everything already.
REPORT = """
import contextlib, json, sys
from roots_manager.cli.main import main
with contextlib.redirect_stdout(sys.stderr), contextlib.suppress(SystemExit):
    main(sys.argv[1:])
print(json.dumps(sorted(sys.modules)))
"""

NOT_FOR_ANY_COMMAND_HERE = {
    "asyncio",  # the probe
    "ssl",
    "socket",
    "tomlkit",  # host configurations
    "ruamel.yaml",
    "watchfiles",  # --follow, --watch
    "PySide6",  # the app
    "roots_manager.probe",
    "roots_manager.core.probe.table",
    "roots_manager.core.probe.report",
    "roots_manager.core.hosts.operations",
    "roots_manager.core.hosts.formats",
    "roots_manager.core.confinement.confined",
    "roots_manager.core.log.retention",
    "roots_manager.sandbox",
}


def loaded_by(*argv: str) -> tuple[set[str], str]:
    """The modules ``roots-manager ARGV`` has loaded when it is done, and what it printed."""
    done = subprocess.run(
        [sys.executable, "-c", REPORT, *argv], capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout)), done.stderr


def test_the_version_loads_no_command_and_no_store_lock() -> None:
    modules, printed = loaded_by("--version")
    assert printed.strip() == f"roots-manager {__version__}"
    assert sorted(NOT_FOR_ANY_COMMAND_HERE & modules) == []
    # the store's lock is for commands that open the store
    assert "roots_manager.support.lockfile" not in modules
    assert "subprocess" not in modules  # handing over to the app, on Windows only


def test_listing_roots_loads_the_store_but_not_other_commands_work(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    writing, _ = loaded_by("roots", "add", str(tmp_path / "work"))
    assert "roots_manager.support.lockfile" in writing  # a change is made under the store's lock
    if sys.platform != "win32":  # taken with flock itself: filelock is Windows' lock only
        assert "filelock" not in writing
    modules, printed = loaded_by("roots", "list", "--json")
    assert [r["path"] for r in json.loads(printed)] == [str(tmp_path / "work")]
    assert "roots_manager.core.store.file" in modules
    assert sorted(NOT_FOR_ANY_COMMAND_HERE & modules) == []
    assert "roots_manager.support.lockfile" not in modules  # it only reads: the lock is for writes


def test_a_command_still_finds_what_it_imports_late(tmp_path: Path) -> None:
    # each subcommand module imports its work inside the command: one of each runs here
    modules, printed = loaded_by("hosts", "list", "--json")
    assert json.loads(printed)["version"] == 1
    assert "roots_manager.core.hosts.operations" in modules
    modules, printed = loaded_by("probe", "--history", "nobody", "--json")
    assert json.loads(printed) == []
    assert "roots_manager.core.probe.table" in modules
    modules, printed = loaded_by("log-retention")
    assert "traffic logs are kept" in printed
    assert "roots_manager.core.log.retention" in modules
    loaded_by("servers", "confine", "fs", "on", "--new")
    modules, printed = loaded_by("servers", "show", "fs", "--json")
    assert json.loads(printed)["confine"] is True
    assert "roots_manager.sandbox.availability" in modules

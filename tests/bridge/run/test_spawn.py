"""Starting the server: the environment it gets, inside a bundle and out."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PRINT_ENV = "import json, os; print(json.dumps(dict(os.environ)))"


def child_env(frozen: bool) -> dict[str, str]:
    """The environment a server started by a bridge sees, the bridge frozen or not."""
    script = (
        "import sys\n"
        f"sys.frozen = {frozen}\n"
        "from roots_manager.bridge.run.spawn import spawn\n"
        f"proc = spawn([sys.executable, '-c', {PRINT_ENV!r}])\n"
        "sys.stdout.buffer.write(proc.stdout.read()); proc.wait()\n"
    )
    env = {
        **os.environ,
        "LD_LIBRARY_PATH": "/opt/roots-manager/_internal",
        "LD_LIBRARY_PATH_ORIG": "/usr/local/lib",
        "_PYI_APPLICATION_HOME_DIR": "/opt/roots-manager/_internal",
        "_MEIPASS2": "/opt/roots-manager/_internal",
    }
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, check=True, timeout=60
    )
    got: dict[str, str] = json.loads(out.stdout)
    return got


def test_a_bundled_bridge_gives_the_server_the_users_library_path() -> None:
    env = child_env(frozen=True)
    assert env["LD_LIBRARY_PATH"] == "/usr/local/lib"
    assert "LD_LIBRARY_PATH_ORIG" not in env
    assert not [k for k in env if k.startswith("_PYI_") or k == "_MEIPASS2"]
    assert env["PATH"] == os.environ["PATH"]


def test_outside_a_bundle_the_environment_is_passed_on_as_it_is() -> None:
    env = child_env(frozen=False)
    assert env["LD_LIBRARY_PATH"] == "/opt/roots-manager/_internal"
    assert env["_MEIPASS2"] == "/opt/roots-manager/_internal"

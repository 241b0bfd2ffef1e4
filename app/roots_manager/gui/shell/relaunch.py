"""Starting the app again after it has shut down (a change of language takes a restart).

How depends on how the app runs: from an installed package, the same Python with ``-m``; from a
bundle, its executable; from a macOS ``.app``, through LaunchServices (``open``), so that the new
app is the bundle as a Finder start makes it (its Dock icon and menu bar, its place in the
system's privacy settings) rather than a bare process of its executable. The command is a pure
function of the platform and the executable, tested on every platform.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from roots_manager.core.directory.layout import HOME_ENV, Layout

OPEN = "/usr/bin/open"

CREATE_NEW_PROCESS_GROUP = 0x00000200
DETACHED_PROCESS = 0x00000008
"""Windows process creation flags (``subprocess`` defines them on Windows only)."""


def app_bundle(executable: str) -> str | None:
    """The ``.app`` folder *executable* runs in (``X.app/Contents/MacOS/x``), if it is one."""
    path = PurePosixPath(executable)
    if (
        len(path.parts) >= 4
        and path.parent.name == "MacOS"
        and path.parent.parent.name == "Contents"
    ):
        bundle = path.parent.parent.parent
        if bundle.suffix == ".app":
            return str(bundle)
    return None


def relaunch_command(
    argv: Sequence[str] = (),
    *,
    executable: str = sys.executable,
    frozen: bool = bool(getattr(sys, "frozen", False)),
    platform: str = sys.platform,
    environ: Mapping[str, str] = os.environ,
) -> list[str]:
    """The command that starts this app again, with the app's own arguments *argv*."""
    bundle = app_bundle(executable) if frozen and platform == "darwin" else None
    if bundle is not None:
        # -n: a new instance even though this one is still ending; -a the bundle itself, not
        # whichever copy LaunchServices has registered under the bundle id. LaunchServices
        # does not pass this process's environment on: the per-user directory, if chosen by
        # the environment, is handed over explicitly.
        chosen = ["--env", f"{HOME_ENV}={environ[HOME_ENV]}"] if environ.get(HOME_ENV) else []
        return [OPEN, "-n", "-a", bundle, *chosen, "--args", *argv]
    if frozen:  # a bundle: the executable is the app
        return [executable, *argv]
    # -P: the working directory must not shadow the installed package
    return [executable, "-P", "-m", "roots_manager.cli", *argv]


def detached(platform: str = sys.platform) -> dict[str, Any]:
    """The ``Popen`` options that make the new app outlive this one and its console."""
    if platform == "win32":
        return {"creationflags": CREATE_NEW_PROCESS_GROUP | DETACHED_PROCESS}
    return {"start_new_session": True}


def relaunch(layout: Layout, argv: Sequence[str] = ()) -> None:
    """Start the app again, as a process of its own (this one is ending); raises OSError."""
    # its early words (a failure before its log is set up) go to a private file, not nowhere
    fd = os.open(layout.restart_log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        subprocess.Popen(
            relaunch_command(argv),
            stdin=subprocess.DEVNULL,
            stdout=fd,
            stderr=fd,
            cwd=Path.home(),
            close_fds=True,
            **detached(),
        )
    finally:
        os.close(fd)

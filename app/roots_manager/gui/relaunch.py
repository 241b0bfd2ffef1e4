"""Starting the desktop app again in a process of its own (a new language needs a new start)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from roots_manager.core.paths import Layout

RESTART_LOG = "restart.log"
"""What a restarted app wrote before its own log was set up, in the per-user directory."""


def relaunch_command(argv: Sequence[str] = ()) -> list[str]:
    """The command that starts this app again, with the app's own arguments *argv*."""
    if getattr(sys, "frozen", False):  # a bundle: the executable is the app
        return [sys.executable, *argv]
    # -P: the working directory must not shadow the installed package
    return [sys.executable, "-P", "-m", "roots_manager.cli", *argv]


def relaunch(layout: Layout, argv: Sequence[str] = ()) -> None:
    """Start the app again, as a process of its own (this one is ending); raises OSError."""
    # its early words (a failure before its log is set up) go to a private file, not nowhere
    fd = os.open(layout.home / RESTART_LOG, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        detach: dict[str, Any] = (
            {
                "creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
                | getattr(subprocess, "DETACHED_PROCESS", 0)
            }
            if sys.platform == "win32"
            else {"start_new_session": True}
        )
        subprocess.Popen(
            relaunch_command(argv),
            stdin=subprocess.DEVNULL,
            stdout=fd,
            stderr=fd,
            cwd=Path.home(),
            close_fds=True,
            **detach,
        )
    finally:
        os.close(fd)

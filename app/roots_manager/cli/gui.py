"""Opening the desktop app from the ``roots-manager`` command.

Installed with pip, the command imports the app and runs it in the same process. In a bundle the
command is an executable of its own that carries no Qt, so that every CLI call starts as fast as
the bridge does (PyInstaller's PySide6 hook would load QtCore first thing); the app is the
executable beside it, :data:`APP_EXECUTABLE`, which the command hands over to. On Windows that
one is built without a console window.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

EXIT_REFUSED = 1
APP_EXECUTABLE = "roots-manager-app"
"""The bundled desktop app's executable (``.exe`` on Windows), beside the command's."""


def app_executable(
    executable: str = sys.executable,
    frozen: bool = bool(getattr(sys, "frozen", False)),
    platform: str = sys.platform,
    exists: Callable[[Path], bool] = Path.is_file,
) -> str | None:
    """The bundled app's executable to hand over to, or None to run the app in this process
    (installed with pip, or this is the app's executable)."""
    if not frozen:
        return None
    name = APP_EXECUTABLE + (".exe" if platform == "win32" else "")
    here = Path(executable)
    app = here.with_name(name)
    if here.name.lower() == name.lower() or not exists(app):
        return None
    return str(app)


def open_app(argv: Sequence[str]) -> int:
    """Run the desktop app with its options *argv*; its exit code."""
    app = app_executable()
    if app is not None:
        if sys.platform == "win32":
            import subprocess

            # no exec on Windows: wait for the app, so that the command's exit code is its own
            return subprocess.call([app, *argv])
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(app, [app, *argv])
    try:
        from roots_manager.gui.shell.app import main as gui_main
    except ImportError as exc:
        print(f"roots-manager: the desktop app cannot start: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    return gui_main(list(argv))

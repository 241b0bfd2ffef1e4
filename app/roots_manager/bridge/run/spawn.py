"""Starting the server: the light first step, done before the bridge imports anything heavy.

Only the standard library's process and file-control modules are needed here, so that the
server's own start-up begins a few milliseconds after the bridge's.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

from roots_manager.support.bundle import restore_user_environment

TYPE_CHECKING = False  # not typing's: see roots_manager.bridge.main
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

PIPE_SIZE = 1024 * 1024
EXIT_CANNOT_START = 127


def exit_code(returncode: int | None) -> int:
    """The bridge's exit code for a server that ended with *returncode* (shell convention)."""
    if returncode is None:
        return 1
    if returncode < 0:
        return 128 - returncode
    return returncode


def spawn(command: Sequence[str], pass_fds: Sequence[int] = ()) -> subprocess.Popen[bytes]:
    """Start the server with piped stdin and stdout; raises :class:`OSError` if it cannot start.

    This is the first thing the bridge does, before it imports the rest of itself, so that the
    server's own start-up overlaps the bridge's. *pass_fds* are kept open in the child (POSIX).
    """
    extra: dict[str, Any] = {}
    args: str | list[str] = list(command)
    if sys.platform == "win32":
        from roots_manager.platform.windows import command_line as winargs

        # npx is npx.cmd: found through PATHEXT, run by cmd.exe with its arguments quoted for it
        args = winargs.command_line(
            command,
            os.environ.get("PATH", ""),
            os.environ.get("PATHEXT", winargs.DEFAULT_PATHEXT),
            os.environ.get("COMSPEC", "cmd.exe"),
        )
        extra["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
    else:
        extra["start_new_session"] = True
        if pass_fds:
            extra["pass_fds"] = tuple(pass_fds)
    extra.update(_child_environment())
    proc = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=None,
        bufsize=0,
        **extra,
    )
    if sys.platform == "win32":
        from roots_manager.platform.windows import job as wintree

        wintree.contain(proc)
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            grow_pipe(pipe.fileno())
    return proc


def _child_environment() -> dict[str, Any]:
    """The environment for the server: a bundle's own library path is not the server's
    (:mod:`roots_manager.support.bundle`); outside a bundle it is inherited as it is."""
    env = dict(os.environ)
    return {"env": env} if restore_user_environment(env) else {}


def grow_pipe(fd: int, size: int = PIPE_SIZE) -> None:
    """Enlarge a pipe's kernel buffer (Linux), so a large message needs fewer hand-overs."""
    if sys.platform == "win32":
        return
    import fcntl

    setsz = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setsz is None:
        return
    with contextlib.suppress(OSError):
        fcntl.fcntl(fd, setsz, size)

"""Starting the server: the light first step, done before the bridge imports anything heavy.

Only the standard library's process and file-control modules are needed here, so that the
server's own start-up begins a few milliseconds after the bridge's.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Sequence
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

POSIX = os.name == "posix"
PIPE_SIZE = 1024 * 1024
EXIT_CANNOT_START = 127


def exit_code(returncode: int | None) -> int:
    """The bridge's exit code for a server that ended with *returncode* (shell convention)."""
    if returncode is None:
        return 1
    if returncode < 0:
        return 128 - returncode
    return returncode


def spawn(command: Sequence[str]) -> subprocess.Popen[bytes]:
    """Start the server with piped stdin and stdout; raises :class:`OSError` if it cannot start.

    This is the first thing the bridge does, before it imports the rest of itself, so that the
    server's own start-up overlaps the bridge's.
    """
    extra: dict[str, Any] = {"start_new_session": True} if POSIX else {}
    proc = subprocess.Popen(
        list(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=None,
        bufsize=0,
        **extra,
    )
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            grow_pipe(pipe.fileno())
    return proc


def grow_pipe(fd: int, size: int = PIPE_SIZE) -> None:
    """Enlarge a pipe's kernel buffer (Linux), so a large message needs fewer hand-overs."""
    setsz = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if setsz is None:
        return
    with contextlib.suppress(OSError):
        fcntl.fcntl(fd, setsz, size)
